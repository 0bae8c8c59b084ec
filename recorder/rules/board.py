"""Boards, coordinates, tracks and the one lap every game sows (GEN-2..GEN-16).

Holes are indices into a board's ``holes`` tuple, which lists them row by row from
``a1``: ``a1 … f1, a2 … f2[, a3 … f3]``, the order of the spec's test vectors. Names
appear only at the edges (JSON, notation); the rules work on indices.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field

from .values import HOLE_NAMES, Hole, HoleName, PlayerName

LAP_CAP = 10_000  # GEN-16: one sowing has at most this many laps.


class Player(enum.IntEnum):
    """GEN-2: South sits at row 1. The value indexes ``stores`` pairs."""

    SOUTH = 0
    NORTH = 1

    @property
    def opponent(self) -> Player:
        return OPPONENTS[self]

    @property
    def json(self) -> PlayerName:
        return _JSON_NAME[self]

    @classmethod
    def parse(cls, name: str) -> Player:
        return _BY_NAME[name]


OPPONENTS = (Player.NORTH, Player.SOUTH)  # indexed by the player: the turn's end reads it, not the property
_JSON_NAME: tuple[PlayerName, PlayerName] = ("south", "north")
_BY_NAME = {"south": Player.SOUTH, "north": Player.NORTH}
PLAYERS = (Player.SOUTH, Player.NORTH)


@dataclass(frozen=True)
class Board:
    """One board geometry: hole names, default owners (GEN-6) and tracks as index cycles."""

    name: str
    rows: int
    holes: tuple[HoleName, ...]
    default_owners: tuple[Player, ...]
    tracks: dict[str, tuple[Hole, ...]]
    # Derived in __post_init__: hole name -> index, and each track's next hole per hole.
    index: dict[str, Hole] = field(init=False, repr=False, compare=False)
    successors: dict[str, tuple[Hole, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {name: i for i, name in enumerate(self.holes)})
        successors = {direction: _successors(cycle, len(self.holes)) for direction, cycle in self.tracks.items()}
        object.__setattr__(self, "successors", successors)

    @property
    def size(self) -> int:
        return len(self.holes)

    def hole(self, name: str) -> Hole:
        """GEN-5: the index of a valid hole name; KeyError for any other name."""
        return self.index[name]

    def name_of(self, index: Hole) -> HoleName:
        return self.holes[index]

    def unknown_hole(self, name: object) -> str:
        """Why ``name`` is not a hole here (GEN-5), with the names that are."""
        return not_a_hole(name, f"the {self.name} board", self.holes)

    def column(self, index: int) -> tuple[int, ...]:
        """The holes of the same letter, rows 1 upwards (GAB-5)."""
        letter = self.holes[index][0]
        return tuple(self.index[f"{letter}{row}"] for row in range(1, self.rows + 1))


def _successors(cycle: tuple[int, ...], size: int) -> tuple[int, ...]:
    after = [-1] * size
    for position, hole in enumerate(cycle):
        after[hole] = cycle[(position + 1) % len(cycle)]
    return tuple(after)


def _names(rows: int) -> tuple[HoleName, ...]:
    return HOLE_NAMES[: 6 * rows]  # row by row from a1


def _cycle(names: tuple[HoleName, ...], route: str) -> tuple[int, ...]:
    return tuple(names.index(name) for name in route.split())


_NAMES_3 = _names(3)
_NAMES_2 = _names(2)
_S, _N = Player.SOUTH, Player.NORTH

# GEN-3, GEN-6, GEN-9: South owns row 1 and d2 e2 f2; North owns row 3 and a2 b2 c2.
THREE_ROWS = Board(
    name="3x6",
    rows=3,
    holes=_NAMES_3,
    default_owners=(_S,) * 6 + (_N, _N, _N, _S, _S, _S) + (_N,) * 6,
    tracks={"track": _cycle(_NAMES_3, "a1 b1 c1 d1 e1 f1 f2 e2 d2 f3 e3 d3 c3 b3 a3 a2 b2 c2")},
)

# GEN-4, GEN-6, GEN-10: South owns row 1, North row 2; two absolute directions.
TWO_ROWS = Board(
    name="2x6",
    rows=2,
    holes=_NAMES_2,
    default_owners=(_S,) * 6 + (_N,) * 6,
    tracks={
        "ccw": _cycle(_NAMES_2, "a1 b1 c1 d1 e1 f1 f2 e2 d2 c2 b2 a2"),
        "cw": _cycle(_NAMES_2, "a1 a2 b2 c2 d2 e2 f2 f1 e1 d1 c1 b1"),
    },
)


def lap(holes: list[int], successors: tuple[int, ...], start: int, seeds: int) -> tuple[int, int]:
    """GEN-12, GEN-13: drop ``seeds`` one per hole after ``start``; return (last hole, n).

    ``n`` is what the last hole held before its last seed (GEN-14). The origin is not
    skipped, and special holes receive seeds like any other (GEN-8). Mutates ``holes``:
    callers pass a private working list and freeze it afterwards.
    """
    hole = start
    for _ in range(seeds):
        hole = successors[hole]
        holes[hole] += 1
    return hole, holes[hole] - 1


def not_a_hole(name: object, where: str, holes: tuple[str, ...]) -> str:
    """GEN-5 in words: what is wrong, the valid names, and "a1" for "A1" (names are lowercase)."""
    shown = json.dumps(name) if isinstance(name, str) else repr(name)
    return f"{shown} is not a hole of {where} (GEN-5){lowercase_hint(name, holes)}; the holes are {' '.join(holes)}"


def lowercase_hint(name: object, holes: tuple[str, ...]) -> str:
    """'; ... did you mean "a1"?' for "A1" (hole names are lowercase, GEN-5), else ""."""
    if isinstance(name, str) and name != name.lower() and name.lower() in holes:
        return f'; hole names are lowercase: did you mean "{name.lower()}"?'
    return ""
