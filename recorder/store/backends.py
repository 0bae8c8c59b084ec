"""Which backend a database value names: ``postgresql://…`` is PostgreSQL, anything else a SQLite file.

``RECORDER_DB`` and every command's ``--db`` take either; ``sqlite:PATH`` names a SQLite
file explicitly (``recorder copy --from sqlite:records.sqlite3``).
"""

from __future__ import annotations

import os
import sqlite3

from recorder.errors import Unavailable

from .interface import StoreBackend

SQLITE_PREFIX = "sqlite:"
MEMORY = ":memory:"  # SQLite's database in memory, never a file


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def sqlite_path(target: str) -> str:
    """The file a non-PostgreSQL value names (``sqlite:`` and ``sqlite://`` prefixes dropped)."""
    if target.startswith(SQLITE_PREFIX):
        target = target[len(SQLITE_PREFIX) :]
        if target.startswith("//"):
            target = target[2:]
    return target


def open_store(target: str) -> StoreBackend:
    """The event store ``target`` names, its schema created or migrated."""
    if is_postgres(target):
        from .postgres import PostgresEventStore  # psycopg is imported only when it is used

        return PostgresEventStore(target)
    from .sqlite import SQLiteEventStore

    try:
        return SQLiteEventStore(sqlite_path(target))
    except (OSError, sqlite3.Error) as error:  # no such folder, a folder, a file that is not SQLite
        raise Unavailable(f"cannot open the database {target}: {error}") from None


def open_existing_store(target: str) -> StoreBackend:
    """``open_store``, for a command that only reads what is there: a SQLite file that does
    not exist is refused (Unavailable), not created empty. A mistyped ``--db`` made an
    empty database, which ``recorder verify`` then passed with nothing failed."""
    path = sqlite_path(target)
    if not is_postgres(target) and path != MEMORY and not os.path.exists(path):
        raise Unavailable(f"cannot open the database {target}: no such file (a command that only reads creates none)")
    return open_store(target)
