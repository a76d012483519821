"""Which storage an event's address names: the one place that knows every kind, so
the storage modules need not know one another."""
import sqlite3

from host_tools.club.errors import ClubError
from host_tools.club.storage import SQLiteStorage


def open_storage(path, create=False):
    """The storage for an event: a PostgreSQL database for a postgresql:// address
    (host_tools/club/storage_postgres.py), else an SQLite file."""
    if path.startswith(("postgresql://", "postgres://")):
        from host_tools.club.storage_postgres import PostgresStorage  # psycopg only when asked for
        return PostgresStorage(path, create)
    try:
        return SQLiteStorage(path, create)
    except sqlite3.DatabaseError as e:
        raise ClubError("%s is not an event file of this app (%s)" % (path, e))
