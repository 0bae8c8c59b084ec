"""One-off copies of the SQLite file with SQLite's online backup API (``recorder backup``).

The backup API copies the database as of one moment, the WAL's committed frames
included, while the service goes on recording: writers are never blocked for longer than
one step of pages, and a step that sees the source change restarts from a consistent page.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3

from recorder.errors import Unavailable

PAGES_PER_STEP = 4096  # about 16 MB per step: short steps, so writers interleave


def backup_sqlite(source: str, destination: str) -> int:
    """Copy the SQLite file ``source`` to the new file ``destination``; returns its number of events.

    Refuses an existing destination (FileExistsError) and checks the copy's integrity. A
    source or destination SQLite cannot use (a folder, a file that is not SQLite, a folder
    that does not exist) is ``Unavailable``, and no partial copy is left."""
    if not os.path.exists(source):
        raise FileNotFoundError(f"no database file {source}")
    if os.path.exists(destination):
        raise FileExistsError(f"{destination} exists; a backup never overwrites")
    try:
        return _copied(source, destination)
    except sqlite3.Error as error:
        with contextlib.suppress(FileNotFoundError):
            os.remove(destination)
        raise Unavailable(f"cannot back up {source} to {destination}: {error}") from None


def _copied(source: str, destination: str) -> int:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(destination)
    except sqlite3.Error:
        src.close()
        raise
    try:
        src.execute("PRAGMA busy_timeout = 10000")
        src.backup(dst, pages=PAGES_PER_STEP)
        dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
        (status,) = dst.execute("PRAGMA integrity_check").fetchone()
        if status != "ok":
            raise sqlite3.DatabaseError(f"the copy failed its integrity check: {status}")
        (events,) = dst.execute("SELECT COUNT(*) FROM events").fetchone()
        return events
    finally:
        dst.close()
        src.close()
