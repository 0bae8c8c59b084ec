"""Each game's result changes (``game_results``), by the event that made it (finished with
a result, or unfinished again: NULL), written with the games list's row: what the rating
lists read, instead of folding every game; and ``rating_lists_stale``
(``GameResults.mark_lists_stale``): the month from which an import made a variant's
published lists stale (a restored game keeps its date), until the next read publishes them
again. Both are written in a game's append's transaction; their tables are described in
tables.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from recorder.store import GAME, ProjectionWrite, StoredEvent, Tables, Tx

from .tables import SCHEMA


class GameResults:
    """``game_results``: each game's result changes, (seq, recorded_at, result or None)."""

    def __init__(self, store: Tables):
        self.store = store
        store.ensure(SCHEMA)

    def _handle(self) -> Tx:
        return self.store.handle()

    def write(self, changes: Sequence[tuple[int, str | None]]) -> ProjectionWrite:
        """What an append runs in its transaction: ``(index of the new event, the result
        after it)`` of each new event that changed the result."""

        def put(db: Tx, events: Sequence[StoredEvent]) -> None:
            for index, result in changes:
                event = events[index]
                db.execute(
                    "INSERT INTO game_results (game_id, seq, recorded_at, result) VALUES (?, ?, ?, ?)",
                    (event.stream_id, event.seq, event.recorded_at, result),
                )

        return put

    def mark_lists_stale(self, variant: str, changes: Sequence[tuple[int, str | None]]) -> ProjectionWrite:
        """What an import's append runs in its transaction: the variant's rating lists from
        the month of the game's first result change on are stale (an import keeps the date a
        restored log gives each event, so the month may be one already published). Only a
        game with a result change is marked; the reader that publishes the lists decides
        whether the game counts (recorder/ratings/service.py ``publish_due``)."""

        def put(db: Tx, events: Sequence[StoredEvent]) -> None:
            if changes:
                since = min(events[index].recorded_at[:7] for index, _ in changes)
                db.execute("INSERT INTO rating_lists_stale (variant, since) VALUES (?, ?)", (variant, since))

        return put

    def stale_lists(self, variant: str) -> tuple[str, int] | None:
        """(the earliest month marked stale, the last mark's id), None when nothing is marked."""
        row = (
            self._handle()
            .execute("SELECT MIN(since), MAX(id) FROM rating_lists_stale WHERE variant = ?", (variant,))
            .fetchone()
        )
        return None if row is None or row[1] is None else (str(row[0]), int(row[1]))

    def clear_stale(self, variant: str, last: int) -> None:
        """Forget the marks up to id ``last``, those a publication has covered; a mark made
        since, by an import that went on meanwhile, stays for the next read."""
        with self.store.transaction() as db:
            db.execute("DELETE FROM rating_lists_stale WHERE variant = ? AND id <= ?", (variant, last))

    def replace(self, games: Iterable[tuple[str, list[tuple[int, str, str | None]]]]) -> None:
        """Rewrite the changes of each ``(game id, [(seq, recorded_at, result)])``."""
        with self.store.transaction() as db:
            for game_id, rows in games:
                db.execute("DELETE FROM game_results WHERE game_id = ?", (game_id,))
                for seq, recorded_at, result in rows:
                    db.execute(
                        "INSERT INTO game_results (game_id, seq, recorded_at, result) VALUES (?, ?, ?, ?)",
                        (game_id, seq, recorded_at, result),
                    )

    def of_game(self, game_id: str) -> list[tuple[int, str, str | None]]:
        rows = self._handle().execute(
            "SELECT seq, recorded_at, result FROM game_results WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(r[0], r[1], r[2]) for r in rows.fetchall()]

    def latest_change(self, game_ids: Sequence[str], *, before: str | None = None) -> str | None:
        """When the last result change of any of these games was recorded (only those
        recorded before ``before``, when given); None when there was none. One query a
        500 games, by the table's key."""
        latest = None
        for start in range(0, len(game_ids), 500):
            batch = list(game_ids[start : start + 500])
            query = f"SELECT MAX(recorded_at) FROM game_results WHERE game_id IN ({', '.join('?' * len(batch))})"
            if before is not None:
                query, batch = query + " AND recorded_at < ?", [*batch, before]
            found = self._handle().execute(query, batch).fetchone()
            if found is not None and found[0] is not None and (latest is None or found[0] > latest):
                latest = str(found[0])
        return latest

    def drop_orphans(self) -> None:
        """Drop the changes of games that have no events (after a rebuild)."""
        with self.store.transaction() as db:
            db.execute(
                "DELETE FROM game_results WHERE game_id NOT IN (SELECT stream_id FROM streams WHERE stream_type = ?)",
                (GAME,),
            )
