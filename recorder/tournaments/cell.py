"""One round of one player, as the standings, the tie-breaks and the TRF read it (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

PLAYED, FORFEIT, BYE, ABSENT, PENDING = "played", "forfeit", "bye", "absent", "pending"


@dataclass(frozen=True)
class Cell:
    """One round of one player."""

    round: int
    kind: str  # played, forfeit, bye, absent, pending
    points: Fraction | None = None  # None while pending
    opponent: int | None = None
    colour: str | None = None
    board: int | None = None
    rounds_diff: int = 0
    holes_diff: int = 0
    bye: str | None = None  # a bye's kind (pab, full, half, zero): C.07 tells them apart
    short_game: bool = False  # a forfeit that was a game of less than a move (TRF W, D, L)

    @property
    def is_game(self) -> bool:
        return self.kind in (PLAYED, FORFEIT)
