"""Pairings: Berger round-robin tables and the FIDE Dutch Swiss system (pure).

"Colour" is the seat: south or north. Definitions (docs/tournaments.md):
- Berger (FIDE C.05 Annex 1): player n sits on board 1 against the player the table
  rotates to; he is north in odd rounds and south in even ones. An odd field adds a
  dummy: whoever meets it has the round off. A double round robin repeats the cycle
  with the seats swapped, the first cycle's last two rounds played in reverse order.
- Swiss: FIDE's Dutch system (Handbook C.04.3, the 2017 text "effective till 30 June
  2025", with C.04.1 and C.04.2): absolute criteria C.1-C.3 always (no repeat, one bye,
  colour difference within ±2 and never three in a row, the leaders' last-round
  exception), then the quality criteria C.5-C.15 in their order, optimised over the
  whole round by a maximum-weight matching (dutch.py); seats by the rules E.1-E.5.
  The 2026 text (applied from 1 February 2026) is paired bracket by bracket in the
  handbook's order of candidates (brackets.py).
  South plays the role of White.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

SOUTH, NORTH = "south", "north"


class NoPairing(Exception):
    """No pairing of the round keeps the criteria that are never relaxed (no repeat, C.1)."""


# --------------------------------------------------------------------------- Berger


def berger_cycle_length(n: int) -> int:
    return n - 1 if n % 2 == 0 else n


def berger_round(n: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (1-based, within one cycle) for players 1..n as (south, north)
    pairs in board order. With n odd, a pair holding n + 1 (the dummy) is a bye."""
    size = n + (n % 2)
    rotating, half = size - 1, size // 2
    if not 1 <= round_number <= rotating:
        raise ValueError(f"a {n}-player cycle has rounds 1..{rotating}")
    a = ((round_number - 1) * half) % rotating  # index of the player facing the fixed one
    fixed = (size, a + 1) if round_number % 2 == 0 else (a + 1, size)
    others = [((a + i) % rotating + 1, (a - i) % rotating + 1) for i in range(1, half)]
    return [fixed, *others]


def round_robin_round(
    n: int, round_number: int, double: bool, annex_order: bool = True
) -> tuple[list[tuple[int, int]], int | None]:
    """Boards (south, north) and the player with the round off (odd n), seats swapped in
    the second cycle of a double round robin. ``annex_order``: a double round robin's
    first cycle plays its last two rounds in reverse order (C.05 Annex 1), so no player
    sits alike three rounds running across the cycles; False is the order of tournaments
    created before (the cycle played twice as it stands)."""
    boards, bye = [], None
    swap = double and round_number > berger_cycle_length(n)
    for south, north in berger_round(n, table_round(n, round_number, double and annex_order)):
        if n % 2 and n + 1 in (south, north):
            bye = north if south == n + 1 else south
            continue
        boards.append((north, south) if swap else (south, north))
    return boards, bye


def table_round(n: int, round_number: int, last_two_reversed: bool) -> int:
    """The Berger table's round played as tournament round ``round_number``."""
    cycle = berger_cycle_length(n)
    in_cycle = (round_number - 1) % cycle + 1
    if last_two_reversed and round_number <= cycle and cycle >= 2 and in_cycle >= cycle - 1:
        return 2 * cycle - 1 - in_cycle  # cycle - 1 <-> cycle
    return in_cycle


# --------------------------------------------------------------------------- Swiss

DOWN, UP = "down", "up"
ABSOLUTE, STRONG, MILD = 3, 2, 1


@dataclass(frozen=True)
class SwissPlayer:
    number: int
    rank: int  # pairing number from the initial ranking (C.04.2), 1 = strongest
    score: int  # half-points
    opponents: frozenset = frozenset()
    colours: tuple = ()  # seats of games actually played, oldest first (C.04.2: unplayed ones don't count)
    had_bye: bool = False  # a pairing-allocated bye or a forfeit win: no bye again (C.2)
    floats: tuple = ()  # per past round, oldest first: DOWN, UP or None (A.4)
    unplayed: int = 0  # past rounds without a game played (byes, forfeits, absences)


@dataclass(frozen=True)
class SwissPairing:
    boards: tuple  # (south, north) numbers in board order
    bye: int | None
    colours_relaxed: tuple = ()  # players (not topscorers) whose absolute colour rule gave way


def colour_difference(p: SwissPlayer) -> int:
    return _difference(p.colours)


@lru_cache(maxsize=4096)  # a round weighs every pair: the same histories come back often
def _difference(colours: tuple) -> int:
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
def _preference(colours: tuple) -> tuple[str | None, int]:
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


def is_topscorer(p: SwissPlayer, final_round: int | None) -> bool:
    """A.7: pairing the last round, a score above half the maximum possible so far."""
    return final_round is not None and p.score > final_round - 1  # half-points: max is 2 (r - 1)


def ranks_before(p: SwissPlayer, q: SwissPlayer) -> bool:
    """A.2: by score, then pairing number."""
    return (-p.score, p.rank) < (-q.score, q.rank)


def allocate(higher: SwissPlayer, lower: SwissPlayer, initial: str = SOUTH):
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
