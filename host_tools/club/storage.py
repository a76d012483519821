"""Where an event is kept: a small interface (Storage) and its SQLite implementation.

Everything the app does goes through these few methods, each a plain read or write
of rows, so another database (PostgreSQL, for a league) is one more class with the
same methods; the rules of the concours (what may be stored, when) live in
host_tools/club/service.py, never here. One file holds one event.

SQLite runs in WAL mode: the projector page reads while a result is written. The
file is marked as ours by SQLite's application_id and a schema version in `meta`,
so a file from anything else is refused before anything is written to it.
"""
import contextlib
import json
import os
import sqlite3
import urllib.parse

from host_tools.club.errors import ClubError

APPLICATION_ID = 0x436C7562  # "Club"
SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);  -- schema, password (hashed)
CREATE TABLE event (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    deals INTEGER NOT NULL,          -- deals per round; 0: rounds played to a target
    target INTEGER,                  -- the target when deals is 0
    rules TEXT NOT NULL,             -- the RULESPEC: {"preset": P, "options": {...}}
    ranking TEXT NOT NULL,           -- total | matches
    match_points TEXT NOT NULL,      -- [win, draw, loss]
    bye_score INTEGER NOT NULL,
    bye_match_points INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    max_deal INTEGER NOT NULL,       -- the most one team can score in one deal (limits.py)
    tens INTEGER NOT NULL,           -- 1: every score of these rules is a multiple of 10
    created TEXT NOT NULL,
    lang TEXT NOT NULL DEFAULT 'fr', -- the pages' language: fr | de | it | en
    late_as_bye INTEGER NOT NULL DEFAULT 0, -- 1: a late team's missed rounds count as byes
    format TEXT NOT NULL DEFAULT 'pairs',   -- pairs | individual (a "team" row is then a player)
    minutes INTEGER,                 -- a round's length in minutes (NULL: untimed)
    clock TEXT                       -- JSON: the round clock (service.py: start, paused, added)
);
CREATE TABLE team (
    number INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    joined INTEGER NOT NULL DEFAULT 1, -- the first round it can be drawn in
    withdrawn INTEGER                -- NULL: playing; else the rounds drawn when it withdrew
);
CREATE TABLE round (number INTEGER PRIMARY KEY, drawn TEXT NOT NULL);
CREATE TABLE seat (                  -- one table of a round
    round INTEGER NOT NULL REFERENCES round(number),
    number INTEGER NOT NULL,
    ns INTEGER NOT NULL REFERENCES team(number),
    ew INTEGER NOT NULL REFERENCES team(number),
    ns2 INTEGER,                     -- individual events: NS's second player (ns the first); NULL for pairs
    ew2 INTEGER,
    PRIMARY KEY (round, number)
);
CREATE TABLE bye (                   -- a bye; in an individual event, a sit-out
    round INTEGER NOT NULL REFERENCES round(number),
    team INTEGER NOT NULL REFERENCES team(number),
    PRIMARY KEY (round, team)
);
CREATE TABLE result (                -- the standing result of a table (after corrections)
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    ns_total INTEGER NOT NULL,
    ew_total INTEGER NOT NULL,
    source TEXT NOT NULL,            -- code | sheet | import | correction
    code TEXT,
    entered TEXT NOT NULL,
    PRIMARY KEY (round, number),
    FOREIGN KEY (round, number) REFERENCES seat(round, number)
);
CREATE TABLE correction (            -- every change of a stored result, never deleted
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    old_ns INTEGER NOT NULL,
    old_ew INTEGER NOT NULL,
    new_ns INTEGER NOT NULL,
    new_ew INTEGER NOT NULL,
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    why TEXT NOT NULL
);
"""

# The club link (docs/link.md): the provisioned tables and every action they sent,
# once each. Added to older files when they are opened (CREATE ... IF NOT EXISTS).
LINK_SCHEMA = """
CREATE TABLE IF NOT EXISTS device (  -- a provisioned table's scoreboard
    id TEXT PRIMARY KEY,             -- its MQTT user name and the topics' <device>
    table_number INTEGER NOT NULL,   -- the table it plays at; the newest device of a table is the one let in
    key_hex TEXT NOT NULL,           -- its HMAC key: the organiser checks its messages with it
    mqtt_hash TEXT NOT NULL,         -- its MQTT password, hashed as Mosquitto's password file has it
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS action (  -- one journal action of a table, stored once
    device TEXT NOT NULL REFERENCES device(id),
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    prev INTEGER NOT NULL,           -- the seq the device sent before this one (0: its first)
    body TEXT NOT NULL,              -- the body's bytes as signed
    received TEXT NOT NULL,
    PRIMARY KEY (device, game, seq)
);
"""

# Teams that come and go: every withdrawal, rename, late add, undone draw and swap,
# never deleted (like corrections). Added to older files when they are opened.
TEAM_ACTION_SCHEMA = """
CREATE TABLE IF NOT EXISTS team_action (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    action TEXT NOT NULL,            -- withdraw | rename | add | undo | swap
    team INTEGER,                    -- the team concerned (NULL for an undone draw)
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    why TEXT,
    detail TEXT NOT NULL             -- JSON: what else the action says (old name, forfeit, round removed...)
);
"""

# Columns added since the first schema: (table, column, type), added to an older
# file when it is opened, with the default an older event meant.
ADDED_COLUMNS = (
    ("event", "lang", "TEXT NOT NULL DEFAULT 'fr'"),
    ("event", "late_as_bye", "INTEGER NOT NULL DEFAULT 0"),
    ("team", "joined", "INTEGER NOT NULL DEFAULT 1"),
    ("team", "withdrawn", "INTEGER"),
    ("event", "format", "TEXT NOT NULL DEFAULT 'pairs'"),
    ("event", "minutes", "INTEGER"),
    ("event", "clock", "TEXT"),
    ("seat", "ns2", "INTEGER"),
    ("seat", "ew2", "INTEGER"),
)

EVENT_FIELDS = ("name", "rounds", "deals", "target", "rules", "ranking", "match_points", "bye_score",
                "bye_match_points", "seed", "max_deal", "tens", "created", "lang", "late_as_bye", "format",
                "minutes")


class Storage:
    """The interface: what the service reads and writes. Every write happens inside
    `transaction()`; when the block raises, nothing of it is kept."""

    def transaction(self):
        raise NotImplementedError

    def create(self, event):
        raise NotImplementedError

    def event(self):
        """The event's row as a dict, None before `new`."""
        raise NotImplementedError

    def meta(self, key):
        raise NotImplementedError

    def set_meta(self, key, value):
        raise NotImplementedError

    def teams(self):
        raise NotImplementedError

    def add_team(self, number, name, joined=1):
        raise NotImplementedError

    def rename_team(self, number, name):
        raise NotImplementedError

    def withdraw_team(self, number, rounds_drawn):
        raise NotImplementedError

    def set_joined(self, number, joined):
        raise NotImplementedError

    def remove_round(self, number):
        """Deletes a round's draw (its seats and bye); the service checks it has no result."""
        raise NotImplementedError

    def replace_seats(self, number, tables, byes):
        """A drawn round's teams at its tables and its bye, changed (a swap); the tables stay."""
        raise NotImplementedError

    def add_team_action(self, action, team, who, at, why, detail):
        raise NotImplementedError

    def set_clock(self, clock):
        """The round clock's state (a dict, or None: stopped), kept in the event."""
        raise NotImplementedError

    def team_actions(self):
        raise NotImplementedError

    def rounds(self):
        raise NotImplementedError

    def add_round(self, number, tables, byes, drawn):
        raise NotImplementedError

    def results(self):
        raise NotImplementedError

    def put_result(self, round_number, table, ns_total, ew_total, source, code, entered):
        raise NotImplementedError

    def add_correction(self, round_number, table, old, new, who, at, why):
        raise NotImplementedError

    def corrections(self):
        raise NotImplementedError

    def close(self):
        raise NotImplementedError

    # -- the club link --------------------------------------------------------
    def devices(self):
        """[{"id", "table_number", "key_hex", "mqtt_hash", "created"}] by table, then as provisioned."""
        raise NotImplementedError

    def put_device(self, device_id, table_number, key_hex, mqtt_hash, created):
        """Adds a device (a table provisioned again gets a new one: its old actions stay theirs)."""
        raise NotImplementedError

    def action(self, device, game, seq):
        """{"prev", "body"} of a stored action, None when it is not stored."""
        raise NotImplementedError

    def add_action(self, device, game, seq, prev, body, received):
        raise NotImplementedError

    def actions(self, device):
        """[{"game", "seq", "prev", "body"}] of a device, by seq."""
        raise NotImplementedError


def _side(first, second):
    """A seat's side as the service sees it: a team, or [player, player]."""
    return first if second is None else [first, second]


def _seat_values(table):
    """(ns, ns2, ew, ew2) of a table: the second columns NULL for a pairs event."""
    out = ()
    for side in (table["NS"], table["EW"]):
        out += (side[0], side[1]) if isinstance(side, list) else (side, None)
    return out


class SQLStorage(Storage):
    """The methods in SQL both databases understand; `?` placeholders, rows by name.
    A subclass opens `self.db` and says how a placeholder is written."""

    PLACEHOLDER = "?"
    BEGIN = "BEGIN"  # how a write transaction starts (SQLite takes its write lock at once)

    def _sql(self, text):
        return text if self.PLACEHOLDER == "?" else text.replace("?", self.PLACEHOLDER)

    def execute(self, text, values=()):
        return self.db.execute(self._sql(text), values)

    @contextlib.contextmanager
    def transaction(self):
        """One write transaction; nested ones join the outer one."""
        if self.depth:
            self.depth += 1
            try:
                yield
            finally:
                self.depth -= 1
            return
        self.db.execute(self.BEGIN)
        self.depth = 1
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")
        finally:
            self.depth = 0

    def close(self):
        self.db.close()

    def create(self, event):
        with self.transaction():
            values = [event[k] for k in EVENT_FIELDS]
            self.execute("INSERT INTO event (id, %s) VALUES (1, %s)" % (", ".join(EVENT_FIELDS),
                                                                       ", ".join("?" * len(EVENT_FIELDS))), values)

    def event(self):
        row = self.execute("SELECT * FROM event WHERE id = 1").fetchone()
        if row is None:
            return None
        out = dict(row)
        out["rules"] = json.loads(out["rules"])
        out["match_points"] = json.loads(out["match_points"])
        out["clock"] = None if out["clock"] is None else json.loads(out["clock"])
        return out

    def set_clock(self, clock):
        self.execute("UPDATE event SET clock = ? WHERE id = 1", (None if clock is None else json.dumps(clock),))

    def meta(self, key):
        row = self.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row["value"]

    def set_meta(self, key, value):
        self.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                     (key, value))

    def columns(self, table):
        """The names of a table's columns."""
        raise NotImplementedError

    def migrate(self):
        """Brings an older event up to this schema: the tables and columns added since,
        with the values an older event meant. Nothing is written to an up-to-date one."""
        if self.columns("team_action") and all(column in self.columns(table) for table, column, _ in ADDED_COLUMNS):
            return
        with self.transaction():  # looked at again inside: another process may have just done it
            for statement in self.statements(TEAM_ACTION_SCHEMA):
                self.db.execute(statement)
            for table, column, kind in ADDED_COLUMNS:
                if column in self.columns(table):
                    continue
                self.execute("ALTER TABLE %s ADD COLUMN %s %s" % (table, column, kind))
            self.set_meta("schema", str(SCHEMA_VERSION))

    def statements(self, text):
        return [text]

    def teams(self):
        return [dict(r) for r in self.execute("SELECT number, name, joined, withdrawn FROM team ORDER BY number")]

    def add_team(self, number, name, joined=1):
        self.execute("INSERT INTO team (number, name, joined) VALUES (?, ?, ?)", (number, name, joined))

    def rename_team(self, number, name):
        self.execute("UPDATE team SET name = ? WHERE number = ?", (name, number))

    def withdraw_team(self, number, rounds_drawn):
        self.execute("UPDATE team SET withdrawn = ? WHERE number = ?", (rounds_drawn, number))

    def set_joined(self, number, joined):
        self.execute("UPDATE team SET joined = ? WHERE number = ?", (joined, number))

    def remove_round(self, number):
        self.execute("DELETE FROM seat WHERE round = ?", (number,))
        self.execute("DELETE FROM bye WHERE round = ?", (number,))
        self.execute("DELETE FROM round WHERE number = ?", (number,))

    def replace_seats(self, number, tables, byes):
        for t in tables:  # updated in place: a table's result stays filed under it
            self.execute("UPDATE seat SET ns = ?, ns2 = ?, ew = ?, ew2 = ? WHERE round = ? AND number = ?",
                         _seat_values(t) + (number, t["table"]))
        self.execute("DELETE FROM bye WHERE round = ?", (number,))
        for team in byes:
            self.execute("INSERT INTO bye VALUES (?, ?)", (number, team))

    def add_team_action(self, action, team, who, at, why, detail):
        self.execute("INSERT INTO team_action (action, team, who, at, why, detail) VALUES (?, ?, ?, ?, ?, ?)",
                     (action, team, who, at, why, json.dumps(detail, sort_keys=True)))

    def team_actions(self):
        out = []
        for r in self.execute("SELECT * FROM team_action ORDER BY id").fetchall():
            row = json.loads(r["detail"])
            row.update({"action": r["action"], "team": r["team"], "who": r["who"], "at": r["at"], "why": r["why"]})
            out.append(row)
        return out

    def rounds(self):
        """[{"round", "drawn", "tables": [{"table", "NS", "EW"}], "bye": [team]}] in order;
        in an individual event a table's NS and EW are [player, player]."""
        out = []
        for r in self.execute("SELECT number, drawn FROM round ORDER BY number").fetchall():
            tables = [{"table": s["number"], "NS": _side(s["ns"], s["ns2"]), "EW": _side(s["ew"], s["ew2"])}
                      for s in self.execute("SELECT number, ns, ns2, ew, ew2 FROM seat WHERE round = ? ORDER BY number",
                                            (r["number"],)).fetchall()]
            byes = [b["team"] for b in self.execute("SELECT team FROM bye WHERE round = ? ORDER BY team",
                                                    (r["number"],)).fetchall()]
            out.append({"round": r["number"], "drawn": r["drawn"], "tables": tables, "bye": byes})
        return out

    def add_round(self, number, tables, byes, drawn):
        self.execute("INSERT INTO round VALUES (?, ?)", (number, drawn))
        for t in tables:
            self.execute("INSERT INTO seat (round, number, ns, ns2, ew, ew2) VALUES (?, ?, ?, ?, ?, ?)",
                         (number, t["table"]) + _seat_values(t))
        for team in byes:
            self.execute("INSERT INTO bye VALUES (?, ?)", (number, team))

    def results(self):
        """{(round, table): {"NS", "EW", "source", "code", "entered"}}"""
        out = {}
        for r in self.execute("SELECT * FROM result").fetchall():
            out[(r["round"], r["number"])] = {"NS": r["ns_total"], "EW": r["ew_total"], "source": r["source"],
                                              "code": r["code"], "entered": r["entered"]}
        return out

    def put_result(self, round_number, table, ns_total, ew_total, source, code, entered):
        self.execute("INSERT INTO result VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (round, number) DO UPDATE SET "
                     "ns_total = excluded.ns_total, ew_total = excluded.ew_total, source = excluded.source, "
                     "code = excluded.code, entered = excluded.entered",
                     (round_number, table, ns_total, ew_total, source, code, entered))

    def add_correction(self, round_number, table, old, new, who, at, why):
        self.execute("INSERT INTO correction (round, number, old_ns, old_ew, new_ns, new_ew, who, at, why) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (round_number, table, old[0], old[1], new[0], new[1], who, at, why))

    def corrections(self):
        return [{"round": r["round"], "table": r["number"], "old": {"NS": r["old_ns"], "EW": r["old_ew"]},
                 "new": {"NS": r["new_ns"], "EW": r["new_ew"]}, "who": r["who"], "at": r["at"], "why": r["why"]}
                for r in self.execute("SELECT * FROM correction ORDER BY id").fetchall()]

    def devices(self):
        return [dict(r) for r in self.execute(
            "SELECT id, table_number, key_hex, mqtt_hash, created FROM device ORDER BY table_number, created, id").fetchall()]

    def put_device(self, device_id, table_number, key_hex, mqtt_hash, created):
        self.execute("INSERT INTO device VALUES (?, ?, ?, ?, ?)", (device_id, table_number, key_hex, mqtt_hash, created))

    def action(self, device, game, seq):
        row = self.execute("SELECT prev, body FROM action WHERE device = ? AND game = ? AND seq = ?",
                           (device, game, seq)).fetchone()
        return None if row is None else {"prev": row["prev"], "body": row["body"]}

    def add_action(self, device, game, seq, prev, body, received):
        self.execute("INSERT INTO action VALUES (?, ?, ?, ?, ?, ?)", (device, game, seq, prev, body, received))

    def actions(self, device):
        return [dict(r) for r in self.execute(
            "SELECT game, seq, prev, body FROM action WHERE device = ? ORDER BY seq, game", (device,)).fetchall()]


class SQLiteStorage(SQLStorage):
    BEGIN = "BEGIN IMMEDIATE"

    def __init__(self, path, create=False):
        """Opens the event file at path; create: make it (empty, marked as ours) when it
        does not exist. ClubError for a file that is missing, not SQLite, or not ours."""
        self.path = path
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if not exists and not create:
            raise ClubError("%s does not exist: create the event with `new` first" % path)
        if exists:
            self._check_ours_or_fail(path)
        else:
            self._create_private(path)
        self.db = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA busy_timeout = 10000")
        if not exists:
            self._init()
        self.db.executescript(LINK_SCHEMA)
        self.db.execute("PRAGMA foreign_keys = ON")
        self.depth = 0
        self.migrate()

    def columns(self, table):
        return {r["name"] for r in self.execute("PRAGMA table_info(%s)" % table).fetchall()}

    @staticmethod
    def _create_private(path):
        """The new file readable by its owner only (0600, whatever the umask): it holds the
        admin password's hash, the broker's organiser password and every table's key.
        SQLite gives its -wal and -shm files the database's mode. Nothing of SQLite has
        the file open yet, so closing this descriptor drops no lock."""
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        except OSError as e:
            raise ClubError("cannot create %s: %s" % (path, e.strerror))
        try:
            os.fchmod(descriptor, 0o600)
        finally:
            os.close(descriptor)

    @staticmethod
    def _check_ours_or_fail(path):
        """Reads the header without writing: a file of another program is left untouched.

        Read through SQLite (a read-only connection), never with open(): closing a
        file descriptor of the database drops every POSIX lock this process holds
        on it, the other connections' too, and another process closing its last
        connection would then delete the write-ahead log they still write to."""
        if not os.access(path, os.R_OK):
            raise ClubError("cannot read %s: permission denied" % path)
        try:
            probe = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path)), uri=True)
        except sqlite3.Error as e:
            raise ClubError("cannot read %s: %s" % (path, e))
        try:
            application = probe.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.DatabaseError:
            raise ClubError("%s is not an event file of this app (not an SQLite database)" % path)
        finally:
            probe.close()
        if application != APPLICATION_ID:
            raise ClubError("%s is an SQLite database of another program, not an event file of this app" % path)

    def _init(self):
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA application_id = %d" % APPLICATION_ID)
        self.db.executescript(SCHEMA)
        self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
