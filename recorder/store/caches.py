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

from .interface import ProjectionWrite, StoredEvent
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


class PositionIndex:
    """Every position each game reached: (key, game_id, seq), the key being the position
    text's first six fields (recorder/rules/position_text.py). Written in the append's
    transaction, so a search never misses a committed event."""

    def __init__(self, store: SQLiteEventStore):
        self.store = store

    def _db(self) -> Database:
        return self.store._db()

    def write(self, rows: list[tuple[int, str]]) -> ProjectionWrite:
        """What an append runs in its transaction: index the positions after its events."""

        def insert(db: Database, events: tuple[StoredEvent, ...]) -> None:
            game_id = events[0].game_id
            db.conn.executemany(_INSERT_POSITION, [(key, game_id, seq) for seq, key in rows])

        return insert

    def replace(self, games: list[tuple[str, list[tuple[int, str]]]]) -> None:
        """Rewrite the rows of each ``(game_id, [(seq, key)])`` in one transaction (rebuild)."""
        db = self._db()
        with _write_transaction(db):
            for game_id, rows in games:
                db.execute("DELETE FROM positions WHERE game_id = ?", (game_id,))
                db.conn.executemany(_INSERT_POSITION, [(key, game_id, seq) for seq, key in rows])

    def of_game(self, game_id: str) -> list[tuple[int, str]]:
        rows = self._db().execute("SELECT seq, position FROM positions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [(seq, key) for seq, key in rows.fetchall()]

    def find(self, key: str, *, limit: int = 100) -> list[tuple[str, int]]:
        """(game_id, seq) of every occurrence, in game id then event order, at most ``limit``."""
        rows = self._db().execute(
            "SELECT game_id, seq FROM positions WHERE position = ? ORDER BY game_id, seq LIMIT ?", (key, limit)
        )
        return [(game_id, seq) for game_id, seq in rows.fetchall()]

    def keys(self, *, limit: int = 100) -> list[str]:
        """The first ``limit`` distinct position keys, in key order (the index's own order)."""
        rows = self._db().execute("SELECT DISTINCT position FROM positions ORDER BY position LIMIT ?", (limit,))
        return [key for (key,) in rows.fetchall()]

    def drop_orphans(self) -> None:
        db = self._db()
        with _write_transaction(db):
            db.execute("DELETE FROM positions WHERE game_id NOT IN (SELECT stream_id FROM streams)")


_INSERT_POSITION = "INSERT OR IGNORE INTO positions (position, game_id, seq) VALUES (?, ?, ?)"
