"""The tables a game's append writes beside its events, in the append's transaction: the
game's row in the games list, the positions after each new event, and the changes of its
result. The caller (the recording service, an import) gives the rows, derived from its
fold of the game; the writing is this package's."""

from __future__ import annotations

from collections.abc import Sequence

from recorder.store import ProjectionWrite, StoredEvent, Tables, Tx

from .caches import PositionIndex
from .games_list import GamesList
from .results import GameResults


class GameTables:
    """The games list, the position index and the game results on a store's tables."""

    def __init__(self, store: Tables, games: GamesList | None = None):
        self.games = games if games is not None else GamesList(store)
        self.positions = PositionIndex(store)
        self.results = GameResults(store)

    def write(
        self,
        summary: dict,
        positions: list[tuple[int, str]],
        results: Sequence[tuple[int, str | None]],
        *,
        positions_later: bool = False,
    ) -> ProjectionWrite:
        """What the append runs in its transaction: the game's row (``summary``), the
        positions it reached (``(seq, key)``; with ``positions_later``, queued for the
        index: ``PositionIndex.write_pending``) and its result's changes (``(index, result)``)."""
        index = self.positions.write_pending if positions_later else self.positions.write
        writes = (self.games.write(summary), index(positions), self.results.write(results))

        def write(tx: Tx, events: Sequence[StoredEvent]) -> None:
            for each in writes:
                each(tx, events)

        return write
