"""Caches beside the event store: each game's notation at a version, and the positions it reached.

Both are projections: derived from the events (recorder/projections.py), rebuilt by
``recorder rebuild``, checked by ``recorder verify --projections``; dropping them loses
nothing. A notation row is used only while its version is the game's current version, so
an append never has to touch it: a stale row is simply not used (the export writes that
game from its events, as it always could).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlite_utils import Database

from .sql import _write_transaction
from .sqlite import SQLiteEventStore

_FRESH = (
    "SELECT text FROM notations WHERE game_id = ?"
    " AND version = (SELECT MAX(seq) FROM events WHERE game_id = notations.game_id)"
)


class NotationCache:
    """The notation of each game's effective line, as ``write_game`` gives it, at a version."""

    def __init__(self, store: SQLiteEventStore):
        self.store = store

    def _db(self) -> Database:
        return self.store._db()

    def fresh(self, game_id: str) -> str | None:
        """The game's text if it was written at the game's current version, else None."""
        row = self._db().execute(_FRESH, (game_id,)).fetchone()
        return None if row is None else row[0]

    def stored(self, game_id: str) -> tuple[int, str] | None:
        """(version, text) as stored, fresh or not."""
        row = self._db().execute("SELECT version, text FROM notations WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else (row[0], row[1])

    def put(self, rows: Iterable[tuple[str, int, str]]) -> None:
        """Store ``(game_id, version, text)`` rows in one transaction."""
        db = self._db()
        with _write_transaction(db):
            db.conn.executemany("INSERT OR REPLACE INTO notations (game_id, version, text) VALUES (?, ?, ?)", rows)

    def drop_orphans(self) -> None:
        db = self._db()
        with _write_transaction(db):
            db.execute("DELETE FROM notations WHERE game_id NOT IN (SELECT stream_id FROM streams)")
