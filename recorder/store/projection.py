"""The games projection on SQLite: one row per game, derived from its events, rebuildable."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from sqlite_utils import Database

from recorder.errors import UnknownGame

from .interface import _check_page, _summary_row, utc_now
from .sql import _game_filters, _where, _write_transaction


class GamesProjection:
    """SQLiteEventStore's list of games: upserted with each append, filtered for lists and exports."""

    # Provided by SQLiteEventStore: this thread's connection, and whether a game exists.
    _db: Callable[[], Database]
    _exists: Callable[[Database, str], bool]

    def _upsert_summary(self, db: Database, game_id: str, row: dict, now: str) -> None:
        """Insert or update the game's projection row.

        created_at is the game's first event time (so a rebuilt projection gets
        the same value) and is never overwritten; updated_at is now.
        """
        if self._touch_unchanged_summary(db, game_id, row, now):
            return
        columns = list(row)  # validated against SUMMARY_COLUMNS, safe to quote into SQL
        names = ", ".join(["game_id", *(f'"{c}"' for c in columns), "created_at", "updated_at"])
        values = ", ".join(
            ["?"] * (1 + len(columns))
            + ["COALESCE((SELECT recorded_at FROM events WHERE game_id = ? AND seq = 1), ?)", "?"]
        )
        updates = ", ".join([*(f'"{c}" = excluded."{c}"' for c in columns), "updated_at = excluded.updated_at"])
        db.execute(
            f"INSERT INTO games ({names}) VALUES ({values}) ON CONFLICT (game_id) DO UPDATE SET {updates}",
            [game_id, *row.values(), game_id, now, now],
        )

    @staticmethod
    def _touch_unchanged_summary(db: Database, game_id: str, row: dict, now: str) -> bool:
        """Most appends change no summary column: then set updated_at alone.

        An UPDATE of that one (unindexed) column rewrites no index page, so the commit
        writes and fsyncs fewer pages while holding the write lock (issue 10). False
        when the row is missing or any column differs: the caller upserts it whole.
        """
        same = "".join(f' AND "{c}" IS ?' for c in row)  # columns validated by _summary_row
        cursor = db.execute(f"UPDATE games SET updated_at = ? WHERE game_id = ?{same}", [now, game_id, *row.values()])
        return cursor.rowcount == 1

    def update_summary(self, game_id: str, fields: dict) -> None:
        row = _summary_row(fields)
        db = self._db()
        with _write_transaction(db):
            if not self._exists(db, game_id):
                raise UnknownGame(f"no game {game_id!r}")
            self._upsert_summary(db, game_id, row, utc_now())

    def list_games(
        self,
        *,
        variant: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[dict]:
        _check_page(limit=limit, offset=offset)
        clauses, params = _game_filters(variant, player, tournament)
        cursor = self._db().execute(
            f"SELECT * FROM games{_where(clauses)} ORDER BY created_at DESC, game_id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        names = [d[0] for d in cursor.description]
        games = [dict(zip(names, r)) for r in cursor.fetchall()]
        for game in games:
            if game["metadata"] is not None:
                game["metadata"] = json.loads(game["metadata"])
        return games

    def iter_game_ids(
        self,
        *,
        variant: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        batch_size: int = 500,
        date_from: str | None = None,
        date_to: str | None = None,
        result: str | None = None,
        oldest_first: bool = False,
    ) -> Iterator[str]:
        _check_page(batch_size=batch_size)
        if batch_size == 0:
            raise ValueError("batch_size must be positive")
        filters = _game_filters(variant, player, tournament, date_from=date_from, date_to=date_to, result=result)
        return self._game_id_batches(filters, batch_size, oldest_first)

    def _game_id_batches(
        self, filters: tuple[list[str], list], batch_size: int, oldest_first: bool = False
    ) -> Iterator[str]:
        """Keyset pagination: each batch is one short query, no read transaction or
        cursor stays open between batches (a slow consumer never pins the WAL),
        and the cost per batch does not grow with the position as OFFSET would."""
        clauses, params = filters
        direction = "ASC" if oldest_first else "DESC"
        last: tuple[str, str] | None = None
        while True:
            page_clauses, page_params = list(clauses), list(params)
            if last is not None:
                page_clauses.append(f"(created_at, game_id) {'>' if oldest_first else '<'} (?, ?)")
                page_params += last
            rows = (
                self._db()
                .execute(
                    f"SELECT created_at, game_id FROM games{_where(page_clauses)}"
                    f" ORDER BY created_at {direction}, game_id {direction} LIMIT ?",
                    [*page_params, batch_size],
                )
                .fetchall()
            )
            yield from (game_id for _, game_id in rows)
            if len(rows) < batch_size:
                return
            last = rows[-1]
