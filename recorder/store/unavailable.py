"""SQLite's "try later" failures as the service's named error (recorder/errors.py).

A full disk (SQLITE_FULL), a database locked by another process past the busy timeout
(SQLITE_BUSY/SQLITE_LOCKED), or a read-only file: the write transaction rolled back, so
nothing was half-written, and the client may retry. The HTTP layer answers 503 with
Retry-After (api/problems.py); only the store names sqlite3.
"""

from __future__ import annotations

import sqlite3

from recorder.errors import Unavailable

OperationalError = sqlite3.OperationalError


def as_unavailable(error: BaseException) -> Unavailable | None:
    """The Unavailable this SQLite error means; None for any other error (a bug)."""
    if not isinstance(error, sqlite3.OperationalError):
        return None
    message = str(error).lower()
    if "locked" in message or "busy" in message:
        return Unavailable("the database is locked by another process; nothing was written", retry_after=2)
    if "full" in message:
        return Unavailable("the database cannot grow (disk full); nothing was written", retry_after=30)
    if "readonly" in message or "disk i/o" in message:
        return Unavailable("the database file cannot be written; nothing was written", retry_after=30)
    return None
