"""The games list: a projection beside the event store, one row per game.

Each row is derived from the game's events (``service.summary_of`` of its fold); the
recording service writes it in the same transaction as the append (``GamesList.write``),
``recorder rebuild`` rewrites every row from the events and ``recorder verify
--projections`` compares them (recorder/projections.py). The store itself never reads it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from recorder.core import chain
from recorder.core.names import player_key
from recorder.store import GAME, ProjectionWrite, StoredEvent, Tables, Tx
from recorder.store.interface import _check_page
from recorder.store.tables import on_conflict_update

from .tables import GAMES, PLAYER_KEY_COLUMNS, SCHEMA, SUMMARY_COLUMNS


class GamesList:
    """The list of games on the store's SQLite file: filtered for lists and exports."""

    def __init__(self, store: Tables):
        self.store = store
        store.ensure(SCHEMA)

    def _handle(self) -> Tx:
        return self.store.handle()

    def write(self, summary: dict) -> ProjectionWrite:
        """What an append runs in its transaction to bring the game's row up to date."""
        row = _summary_row(summary)  # validated before the append takes the write lock

        def upsert(db: Tx, events: Sequence[StoredEvent]) -> None:
            # updated_at is the last event's time, so a rebuilt row is the same row.
            self._upsert_summary(db, events[0].stream_id, row, events[-1].recorded_at)

        return upsert

    def _upsert_summary(self, db: Tx, game_id: str, row: dict, now: str) -> None:
        """Insert or update the game's projection row.

        created_at is the game's first event time (so a rebuilt projection gets
        the same value) and is never overwritten; updated_at is ``now``.
        """
        if self._touch_unchanged_summary(db, game_id, row, now):
            return
        columns = list(row)  # validated against SUMMARY_COLUMNS (and keys derived), safe to quote into SQL
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
    def _touch_unchanged_summary(db: Tx, game_id: str, row: dict, now: str) -> bool:
        """Most appends change no summary column: then set updated_at alone.

        An UPDATE of that one (unindexed) column rewrites no index page, so the commit
        writes and fsyncs fewer pages while holding the write lock. False
        when the row is missing or any column differs: the caller upserts it whole.
        """
        same = "".join(f' AND "{c}" IS NOT DISTINCT FROM ?' for c in row)  # columns validated by _summary_row
        cursor = db.execute(f"UPDATE games SET updated_at = ? WHERE game_id = ?{same}", [now, game_id, *row.values()])
        return cursor.rowcount == 1

    def row(self, game_id: str) -> dict | None:
        """The game's row as stored (metadata as its JSON text), None if it has none."""
        cursor = self._handle().execute("SELECT * FROM games WHERE game_id = ?", (game_id,))
        found = cursor.fetchone()
        return None if found is None else dict(zip([d[0] for d in cursor.description], found))

    def drop_orphans(self) -> None:
        """Drop rows of games that have no events (after a rebuild)."""
        with self.store.transaction() as db:
            db.execute(
                "DELETE FROM games WHERE game_id NOT IN (SELECT stream_id FROM streams WHERE stream_type = ?)", (GAME,)
            )

    def replace(self, rows: list[tuple[str, dict]]) -> None:
        """Rewrite the whole row of each ``(game_id, summary)`` in one transaction
        (``recorder rebuild`` writes a batch at a time, so recording goes on meanwhile)."""
        checked = [(game_id, _summary_row(summary)) for game_id, summary in rows]
        with self.store.transaction() as db:
            for game_id, row in checked:
                self._replace_row(db, game_id, row)

    @staticmethod
    def _replace_row(db: Tx, game_id: str, row: dict) -> None:
        """The whole row, its times those of the game's first and last events."""
        full = {column: row.get(column) for column in (*SUMMARY_COLUMNS, *PLAYER_KEY_COLUMNS)}
        names = ", ".join(["game_id", *(f'"{c}"' for c in full), "created_at", "updated_at"])
        values = ", ".join(
            ["?"] * (1 + len(full))
            + [
                "(SELECT recorded_at FROM events WHERE game_id = ? AND seq = 1)",
                "(SELECT recorded_at FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1)",
            ]
        )
        replace = on_conflict_update(GAMES, ["game_id", *full, "created_at", "updated_at"])
        params = [game_id, *full.values(), game_id, game_id]
        db.execute(f"INSERT INTO games ({names}) VALUES ({values}){replace}", params)

    def page(
        self,
        *,
        variant: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        event: str | None = None,
        limit: int = 100,
        offset: int = 0,
        after: tuple[str, str] | None = None,
    ) -> list[dict]:
        """One page of rows, newest first. ``after`` (the last row's ``(created_at,
        game_id)``) continues from that row by keyset, at the cost of one page however deep
        the list goes; ``offset`` skips rows, so its cost grows with the offset."""
        _check_page(limit=limit, offset=offset)
        clauses, params = _game_filters(variant, player, tournament, event=event)
        if after is not None:
            clauses.append("(created_at, game_id) < (?, ?)")
            params += list(after)
        cursor = self._handle().execute(
            f"SELECT * FROM games{_where(clauses)} ORDER BY created_at DESC, game_id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        names = [d[0] for d in cursor.description]
        games = [dict(zip(names, r)) for r in cursor.fetchall()]
        for game in games:
            if game["metadata"] is not None:
                game["metadata"] = json.loads(game["metadata"])
        return games

    def iter_ids(
        self,
        *,
        variant: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
        batch_size: int = 500,
        date_from: str | None = None,
        date_to: str | None = None,
        result: str | None = None,
        event: str | None = None,
        oldest_first: bool = False,
    ) -> Iterator[str]:
        _check_page(batch_size=batch_size)
        if batch_size == 0:
            raise ValueError("batch_size must be positive")
        filters = _game_filters(
            variant, player, tournament, date_from=date_from, date_to=date_to, result=result, event=event
        )
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
            page_clauses, page_params = list(clauses), list[object](params)
            if last is not None:
                page_clauses.append(f"(created_at, game_id) {'>' if oldest_first else '<'} (?, ?)")
                page_params += last
            rows = (
                self._handle()
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


# A round or board is a name or a whole number (a tournament's games carry numbers); the
# columns are text, so a number is stored as its decimal text, whichever backend stores it.
NAME_OR_NUMBER_COLUMNS = ("round", "board")


def as_stored(summary: dict) -> dict:
    """A summary's columns as the games list stores them (what ``row`` reads back): what
    ``recorder verify --projections`` compares a row with."""
    return _summary_row(summary)


def _summary_row(fields: dict) -> dict:
    """Validate projection columns (names go into SQL, so only known ones) and encode
    metadata, and a round or board given as a number, as text."""
    if not isinstance(fields, dict):
        raise TypeError("summary must be a dict")
    unknown = sorted(set(fields) - set(SUMMARY_COLUMNS))
    if unknown:
        raise ValueError(f"unknown summary columns: {', '.join(map(str, unknown))}")
    row = dict(fields)
    if row.get("metadata") is not None:
        row["metadata"] = chain.canonical_json(row["metadata"])
    for column in NAME_OR_NUMBER_COLUMNS:
        if type(row.get(column)) is int:
            row[column] = str(row[column])
    return {**row, **player_keys(row)}


def player_keys(summary: dict) -> dict:
    """The search keys of the names a summary holds (``PLAYER_KEY_COLUMNS``)."""
    return {
        f"{seat}_key": player_key(summary[seat]) if isinstance(summary[seat], str) else None
        for seat in ("south", "north")
        if seat in summary
    }


def _game_filters(
    variant: str | None, player: str | None, tournament: str | None, **archive_filters: str | None
) -> tuple[list[str], list]:
    """WHERE clauses and parameters shared by GamesList.list and GamesList.iter_ids."""
    clauses, params = _archive_filters(**archive_filters)
    if variant is not None:
        clauses.append("variant = ?")
        params.append(variant)
    if player is not None:
        clauses.append("(south_key = ? OR north_key = ?)")  # case and spacing aside (player_key)
        params += [player_key(player)] * 2
    if tournament is not None:
        clauses.append("tournament_id = ?")
        params.append(tournament)
    return clauses, params


def _archive_filters(
    date_from: str | None = None, date_to: str | None = None, result: str | None = None, event: str | None = None
) -> tuple[list[str], list]:
    """The export filters (recorder/archive/transfer.py): a date range, a result, an event."""
    clauses: list[str] = []
    params: list = []
    if event is not None:
        clauses.append("event = ?")
        params.append(event)
    for bound, operator in ((date_from, ">="), (date_to, "<=")):
        if bound is not None:
            clauses.append(f"date {operator} ?")
            params.append(bound)
    if result == "unfinished":
        clauses.append("result IS NULL")
    elif result is not None:
        clauses.append("result = ?")
        params.append(result)
    return clauses, params


def _where(clauses: list[str]) -> str:
    return (" WHERE " + " AND ".join(clauses)) if clauses else ""
