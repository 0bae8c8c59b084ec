"""What every reading of the Dutch system shares (FIDE C.04.1, C.04.2, C.04.3 A and E), pure:
the player as the pairing sees him, colour preferences (A.6), the absolute colour rule
(C.3), topscorers (A.7), the ranking (A.2) and the allocation of seats (E.1-E.5).

"Colour" is the seat: south or north; south plays the role of White.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

SOUTH, NORTH = "south", "north"


class NoPairing(Exception):
    """No pairing of the round keeps the criteria that are never relaxed (no repeat, C.1)."""


DOWN, UP = "down", "up"


ABSOLUTE, STRONG, MILD = 3, 2, 1


@dataclass(frozen=True)
class SwissPlayer:
    number: int
    rank: int  # pairing number from the initial ranking (C.04.2), 1 = strongest
    score: int  # half-points
    opponents: frozenset[int] = frozenset()
    colours: tuple[str, ...] = ()  # seats of games actually played, oldest first (C.04.2: unplayed ones don't count)
    had_bye: bool = False  # a pairing-allocated bye or a forfeit win: no bye again (C.2)
    floats: tuple[str | None, ...] = ()  # per past round, oldest first: DOWN, UP or None (A.4)
    unplayed: int = 0  # past rounds without a game played (byes, forfeits, absences)


Pair = tuple[SwissPlayer, SwissPlayer]  # (higher, lower) as paired; (south, north) once seated
Pairs = list[Pair]
Players = list[SwissPlayer]
Paired = tuple[Pairs, SwissPlayer | None]  # the pairs and the bye's player
Partners = dict[int, int]  # number -> partner's number (matching.BYE for the bye)
Weigh = Callable[[SwissPlayer, SwissPlayer | None], int]  # a pair's cost (None: the bye)
WeighFor = Callable[[int, bool], Weigh]  # a bracket's weighing, with or without the bye's C.9
Breaks = Callable[[SwissPlayer, SwissPlayer], bool]  # the pair breaks the absolute colour rule (C.3)
Digits = dict[tuple[int, ...], int]  # an order's cost: (a, b) for a pair, (a,) for a player floating
Assumed = dict[int, tuple[SwissPlayer, int]]  # floater's number -> (floater, what his place below cost)


@dataclass(frozen=True)
class SwissPairing:
    boards: tuple[tuple[int, int], ...]  # (south, north) numbers in board order
    bye: int | None
    colours_relaxed: tuple[int, ...] = ()  # players (not topscorers) whose absolute colour rule gave way


def colour_difference(p: SwissPlayer) -> int:
    return _difference(p.colours)


@lru_cache(maxsize=4096)  # a round weighs every pair: the same histories come back often
def _difference(colours: tuple[str, ...]) -> int:
    return colours.count(SOUTH) - colours.count(NORTH)


def other(colour: str) -> str:
    return NORTH if colour == SOUTH else SOUTH


def may_take(p: SwissPlayer, colour: str) -> bool:
    """Absolute colour criteria (C.3): difference within ±2, never three in a row."""
    diff = colour_difference(p) + (1 if colour == SOUTH else -1)
    return abs(diff) <= 2 and p.colours[-2:] != (colour, colour)


def preference(p: SwissPlayer) -> tuple[str | None, int]:
    """A.6: the colour a player should get and how strongly (ABSOLUTE, STRONG, MILD, 0 none)."""
    return _preference(p.colours)


@lru_cache(maxsize=4096)
def _preference(colours: tuple[str, ...]) -> tuple[str | None, int]:
    if not colours:
        return None, 0
    diff = _difference(colours)
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return other(colours[-1]), ABSOLUTE
    if diff:
        return (NORTH if diff > 0 else SOUTH), (ABSOLUTE if abs(diff) >= 2 else STRONG)
    return other(colours[-1]), MILD


def can_meet(p: SwissPlayer, q: SwissPlayer) -> bool:
    return (may_take(p, SOUTH) and may_take(q, NORTH)) or (may_take(p, NORTH) and may_take(q, SOUTH))


def grants_both(p: SwissPlayer, q: SwissPlayer) -> bool:
    south, north = allocate(p, q)
    return preference(south)[0] in (None, SOUTH) and preference(north)[0] in (None, NORTH)


def is_topscorer(p: SwissPlayer, final_round: int | None) -> bool:
    """A.7: pairing the last round, a score above half the maximum possible so far."""
    return final_round is not None and p.score > final_round - 1  # half-points: max is 2 (r - 1)


def ranks_before(p: SwissPlayer, q: SwissPlayer) -> bool:
    """A.2: by score, then pairing number."""
    return (-p.score, p.rank) < (-q.score, q.rank)


def in_rank_order(p: SwissPlayer, q: SwissPlayer) -> Pair:
    """The pair (higher, lower) by A.2, as a stable sort by (-score, rank) gives it."""
    return (q, p) if ranks_before(q, p) else (p, q)


def allocate(higher: SwissPlayer, lower: SwissPlayer, initial: str = SOUTH) -> Pair:
    """(south, north) for a pair by E.1-E.5; ``higher`` ranks first (A.2); ``initial`` is the
    tournament's initial colour (E.5; south unless the tournament says otherwise)."""
    want_h, strength_h = preference(higher)
    want_l, strength_l = preference(lower)
    if want_h != want_l:  # E.1: both wishes granted, or the only one
        if want_h is not None:
            return (higher, lower) if want_h == SOUTH else (lower, higher)
        return (lower, higher) if want_l == SOUTH else (higher, lower)
    if want_h is None:  # E.5: neither has played
        gets_initial = higher.rank % 2 == 1
        return (higher, lower) if gets_initial == (initial == SOUTH) else (lower, higher)
    winner = _stronger(higher, lower) or _alternation_winner(higher, lower, want_h) or higher  # E.2, E.3, E.4
    loser = lower if winner is higher else higher
    return (winner, loser) if want_h == SOUTH else (loser, winner)


def _stronger(p: SwissPlayer, q: SwissPlayer) -> SwissPlayer | None:
    """E.2: the stronger preference; both absolute (topscorers): the wider colour difference."""
    (_, sp), (_, sq) = preference(p), preference(q)
    if sp != sq:
        return p if sp > sq else q
    dp, dq = abs(colour_difference(p)), abs(colour_difference(q))
    if sp == ABSOLUTE and dp != dq:
        return p if dp > dq else q
    return None


def _alternation_winner(p: SwissPlayer, q: SwissPlayer, wanted: str) -> SwissPlayer | None:
    """E.3: alternate from the latest game in which their seats differed: who gets ``wanted``."""
    for back in range(1, min(len(p.colours), len(q.colours)) + 1):
        cp, cq = p.colours[-back], q.colours[-back]
        if cp != cq:
            return p if cp != wanted else q
    return None
