"""Which tournament entrant is which registry player (``player_entries``), beside the event
store: written with the tournament's events that say so (recorder/tournaments/service.py),
read by the registry (recorder/players), rebuilt by ``recorder rebuild``. The table is
described in tables.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from recorder.store import ProjectionWrite, StoredEvent, Tables, Tx

from .tables import SCHEMA


class EntryTables:
    """The entries of every tournament, on the store's tables."""

    def __init__(self, store: Tables):
        self.store = store
        store.ensure(SCHEMA)

    def _handle(self) -> Tx:
        return self.store.handle()

    def write_entries(self, tournament_id: str, entries: list[tuple[int, str]]) -> ProjectionWrite:
        """What a tournament's append runs in its transaction: entrant ``number`` is player ``id``."""

        def put(db: Tx, events: Sequence[StoredEvent]) -> None:
            self._put_entries(db, tournament_id, entries)

        return put

    @staticmethod
    def _put_entries(db: Tx, tournament_id: str, entries: list[tuple[int, str]]) -> None:
        for number, player_id in entries:
            db.execute(
                "INSERT INTO player_entries (tournament_id, number, player_id) VALUES (?, ?, ?)"
                " ON CONFLICT (tournament_id, number) DO UPDATE SET player_id = excluded.player_id",
                (tournament_id, number, player_id),
            )

    def replace_entries(self, tournament_id: str, entries: list[tuple[int, str]]) -> None:
        with self.store.transaction() as db:
            db.execute("DELETE FROM player_entries WHERE tournament_id = ?", (tournament_id,))
            self._put_entries(db, tournament_id, entries)

    def entries(self, tournament_id: str) -> list[tuple[int, str]]:
        rows = self._handle().execute(
            "SELECT number, player_id FROM player_entries WHERE tournament_id = ? ORDER BY number", (tournament_id,)
        )
        return [(r[0], r[1]) for r in rows.fetchall()]

    def tournaments_of(self, player_ids: Sequence[str]) -> list[tuple[str, int]]:
        """(tournament id, entrant number) of every entry of these players."""
        marks = ", ".join("?" * len(player_ids))
        rows = self._handle().execute(
            f"SELECT tournament_id, number FROM player_entries WHERE player_id IN ({marks})"
            " ORDER BY tournament_id, number",
            list(player_ids),
        )
        return [(r[0], r[1]) for r in rows.fetchall()]

    def entered_tournaments(self) -> list[str]:
        rows = self._handle().execute("SELECT DISTINCT tournament_id FROM player_entries ORDER BY tournament_id")
        return [r[0] for r in rows.fetchall()]
