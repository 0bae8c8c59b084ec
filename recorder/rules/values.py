"""The small values that travel as strings in JSON, typed once for the rules and the core.

JSON keeps its strings ("south", "a1", "lot", "resignation"); in code they are these
``Literal`` types, so a misspelt awaiting kind or result kind is a type error, not a
silent mismatch. Players are the ``Player`` enum (board.py); ``PlayerName`` is their
JSON spelling. Holes are indices into a board's ``holes`` (``Hole``) and ``HoleName``
at the edges.
"""

from __future__ import annotations

import enum
from typing import Final, Literal, TypeAlias, get_args

PlayerName: TypeAlias = Literal["south", "north"]

# The largest integer the store can hold (SQLite's INTEGER, PostgreSQL's bigint): a larger
# count, offset, event number, round or board is refused (4xx), never left to overflow (5xx).
MAX_STORED_INT: Final = 2**63 - 1
WHOLE_NUMBER_DIGITS: Final = 18  # at most: any such number is below MAX_STORED_INT


def is_whole_number(text: str, most: int = WHOLE_NUMBER_DIGITS) -> bool:
    """Whether ``text`` is a whole number in ASCII digits, 1 to ``most`` of them: what ``int``
    then reads without fail. ``str.isdigit`` alone is not that test: it holds for "²" and
    other digits ``int`` refuses, and ``int`` refuses more than 4,300 digits."""
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


# GEN-3, GEN-4: a1..f3 on the 3×6 board, a1..f2 on the 2×6 board, row by row.
_Row1: TypeAlias = Literal["a1", "b1", "c1", "d1", "e1", "f1"]
_Row2: TypeAlias = Literal["a2", "b2", "c2", "d2", "e2", "f2"]
_Row3: TypeAlias = Literal["a3", "b3", "c3", "d3", "e3", "f3"]
HoleName: TypeAlias = Literal[_Row1, _Row2, _Row3]
HOLE_NAMES: Final[tuple[HoleName, ...]] = get_args(HoleName)
Hole: TypeAlias = int  # an index into ``Board.holes``: the rules work on indices

# The decisions a state may wait for (GEN-22, GEN-24..GEN-27).
Awaiting: TypeAlias = Literal["race", "opening", "lot", "next_round"]
AWAITING_KINDS: Final[tuple[Awaiting, ...]] = get_args(Awaiting)

# Every decision a variant may list in ``Rules.DECISIONS``: the awaited ones and a result.
Decision: TypeAlias = Literal["race", "opening", "lot", "next_round", "result"]

# GEN-28: the ways a result is decided off the board.
# TIME-1: "time", a flag fallen.
ResultKind: TypeAlias = Literal["resignation", "agreement", "adjudication", "forfeit", "time"]
RESULT_KINDS: Final[tuple[ResultKind, ...]] = get_args(ResultKind)

# Why a game ended: on the board ("score", "holes") or by a recorded result (GEN-28).
OutcomeReason: TypeAlias = Literal["score", "holes", "resignation", "agreement", "adjudication", "forfeit", "time"]

# GEN-25, TUZ-4: the opening's choice.
OpeningChoice: TypeAlias = Literal["tuz", "plain"]
OPENING_CHOICES: Final[tuple[OpeningChoice, ...]] = get_args(OpeningChoice)

ResultName: TypeAlias = Literal["south_wins", "north_wins", "draw"]


class Land(enum.IntEnum):
    """What the end of a lap asks for next (``Rules.land``)."""

    RELAY = 0  # GEN-15: lift the last hole and sow on
    END_TURN = 1  # the sowing ends and so does the turn
    SOW_AGAIN = 2  # the sowing ends and the mover must sow again (GEN-18)
