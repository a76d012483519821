"""The event in PostgreSQL (`--db postgresql://user@host:port/database`), for a league
whose clubs share one server: the same Storage methods as SQLite (storage.SQLStorage),
the same schema but for the types only one of them knows. psycopg (PyPI) talks to
the server; one database holds one event, marked as ours in `meta`.
"""

from host_tools.club.errors import ClubError
from host_tools.club.storage import LINK_SCHEMA, SCHEMA, SCHEMA_VERSION, SQLStorage

MARK = "coinche-club"


def _statements(text):
    text = text.replace("INTEGER PRIMARY KEY AUTOINCREMENT", "SERIAL PRIMARY KEY")
    text = text.replace("CREATE TABLE IF NOT EXISTS ", "CREATE TABLE ").replace("CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ")
    lines = [line.split("--")[0] for line in text.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


class PostgresStorage(SQLStorage):
    PLACEHOLDER = "%s"

    def __init__(self, url, create=False):
        try:
            import psycopg
            from psycopg.rows import dict_row
        except ImportError as e:
            raise ClubError("PostgreSQL needs psycopg (pip install psycopg): %s" % e)
        self.path = url
        try:
            self.db = psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=10)
        except psycopg.Error as e:
            raise ClubError("cannot reach the PostgreSQL database: %s" % str(e).strip().splitlines()[0])
        self.depth = 0
        found = self.db.execute("SELECT to_regclass('meta') AS meta").fetchone()["meta"]
        if found is None:
            if not create:
                self.db.close()
                raise ClubError("the database holds no event: create it with `new` first")
            with self.transaction():
                for statement in _statements(SCHEMA):
                    self.db.execute(statement)
                self.execute("INSERT INTO meta VALUES (?, ?)", ("schema", str(SCHEMA_VERSION)))
                self.execute("INSERT INTO meta VALUES (?, ?)", ("application", MARK))
        elif self.meta("application") != MARK:
            self.db.close()
            raise ClubError("that PostgreSQL database belongs to another program, not an event of this app")
        with self.transaction():
            for statement in _statements(LINK_SCHEMA):
                self.db.execute(statement)
        self.migrate()

    def statements(self, text):
        return _statements(text)

    def columns(self, table):
        return {r["column_name"] for r in self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ?", (table,)).fetchall()}
