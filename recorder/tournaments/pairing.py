"""Pairings: Berger round-robin tables and a Dutch-like Swiss system (pure).

"Colour" is the seat: south or north. Definitions (docs/tournaments.md):
- Berger (FIDE C.05 Annex 1): player n sits on board 1 against the player the table
  rotates to; he is north in odd rounds and south in even ones. An odd field adds a
  dummy: whoever meets it has the round off. A double round robin repeats the cycle
  with the seats swapped.
- Swiss: players ranked by score then initial rank. An odd field gives the bye to the
  lowest-ranked player of the lowest score who has not had one. Each score group pairs
  its top half against its bottom half, trying transpositions, then floats down; the
  search backtracks and never repeats a pairing. Colours: no one's south-north
  difference beyond ±2 and no three of one colour in a row (relaxed only if no pairing
  exists otherwise), then the usual preferences.
"""

from __future__ import annotations

from dataclasses import dataclass

SOUTH, NORTH = "south", "north"
SEARCH_BUDGET = 200_000  # pairing attempts per pass before giving up (pair manually then)


class NoPairing(Exception):
    """No pairing of the round satisfies the absolute criteria."""


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


def round_robin_round(n: int, round_number: int, double: bool) -> tuple[list[tuple[int, int]], int | None]:
    """Boards (south, north) and the player with the round off (odd n), seats swapped in
    the second cycle of a double round robin."""
    cycle = berger_cycle_length(n)
    in_cycle = (round_number - 1) % cycle + 1
    swap = double and round_number > cycle
    boards, bye = [], None
    for south, north in berger_round(n, in_cycle):
        if n % 2 and n + 1 in (south, north):
            bye = north if south == n + 1 else south
            continue
        boards.append((north, south) if swap else (south, north))
    return boards, bye


# --------------------------------------------------------------------------- Swiss


@dataclass(frozen=True)
class SwissPlayer:
    number: int
    rank: int  # initial ranking, 1 = strongest
    score: int  # half-points
    opponents: frozenset = frozenset()
    colours: tuple = ()  # seats of games actually played, oldest first
    had_bye: bool = False


@dataclass(frozen=True)
class SwissPairing:
    boards: tuple  # (south, north) numbers in board order
    bye: int | None
    colours_relaxed: bool = False


def colour_difference(p: SwissPlayer) -> int:
    return p.colours.count(SOUTH) - p.colours.count(NORTH)


def other(colour: str) -> str:
    return NORTH if colour == SOUTH else SOUTH


def may_take(p: SwissPlayer, colour: str) -> bool:
    """Absolute colour criteria: difference within ±2, never three in a row."""
    diff = colour_difference(p) + (1 if colour == SOUTH else -1)
    return abs(diff) <= 2 and p.colours[-2:] != (colour, colour)


def preference(p: SwissPlayer) -> tuple[str | None, int]:
    """The colour a player should get and how strongly: 3 absolute, 2 strong, 1 mild, 0 none."""
    if not p.colours:
        return None, 0
    diff = colour_difference(p)
    if len(p.colours) >= 2 and p.colours[-1] == p.colours[-2]:
        return other(p.colours[-1]), 3
    if diff:
        return (NORTH if diff > 0 else SOUTH), (3 if abs(diff) >= 2 else 2)
    return other(p.colours[-1]), 1


def can_meet(p: SwissPlayer, q: SwissPlayer) -> bool:
    return (may_take(p, SOUTH) and may_take(q, NORTH)) or (may_take(p, NORTH) and may_take(q, SOUTH))


def pair_swiss(players: list[SwissPlayer]) -> SwissPairing:
    """The round's pairing; NoPairing when every pairing would repeat a game."""
    ranked = sorted(players, key=lambda p: (-p.score, p.rank))
    for strict in (True, False):
        found = _with_bye(ranked, strict)
        if found is not None:
            pairs, bye = found
            return SwissPairing(_seat(pairs), bye.number if bye else None, colours_relaxed=not strict)
    raise NoPairing("every pairing of this round would repeat a game; pair it manually")


def _with_bye(ranked: list[SwissPlayer], strict: bool):
    search = _Search(strict)
    if len(ranked) % 2 == 0:
        pairs = search.pair(tuple(ranked))
        return None if pairs is None else (pairs, None)
    for candidate in bye_candidates(ranked):
        pairs = search.pair(tuple(p for p in ranked if p is not candidate))
        if pairs is not None:
            return pairs, candidate
    return None


def bye_candidates(ranked: list[SwissPlayer]) -> list[SwissPlayer]:
    """Who gets the bye, in order: never had one, lowest score, lowest ranked."""
    return sorted(ranked, key=lambda p: (p.had_bye, p.score, -p.rank))


class _Search:
    """Top-down pairing with backtracking; failed remainders are remembered."""

    def __init__(self, strict: bool):
        self.strict = strict
        self.failed: set[frozenset] = set()
        self.budget = SEARCH_BUDGET

    def pair(self, ranked: tuple) -> list | None:
        if not ranked:
            return []
        key = frozenset(p.number for p in ranked)
        if key in self.failed:
            return None
        top, rest = ranked[0], ranked[1:]
        for partner in candidates(top, rest):
            if not self._allowed(top, partner):
                continue
            self._spend()
            tail = self.pair(tuple(p for p in rest if p is not partner))
            if tail is not None:
                return [(top, partner), *tail]
        self.failed.add(key)
        return None

    def _allowed(self, p: SwissPlayer, q: SwissPlayer) -> bool:
        return q.number not in p.opponents and (not self.strict or can_meet(p, q))

    def _spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise NoPairing("the Swiss search ran out of attempts; pair this round manually")


def candidates(top: SwissPlayer, rest: tuple) -> list[SwissPlayer]:
    """Partners in order of preference: the score group's bottom half (S2) in order, then
    the rest of its top half from the bottom up, then lower groups in rank order."""
    group = [p for p in rest if p.score == top.score]
    half = (len(group) + 1) // 2  # the group with ``top`` has len+1 players; S2 starts there
    s2, s1 = group[half - 1 :] if group else [], group[: max(half - 1, 0)]
    lower = [p for p in rest if p.score != top.score]
    return [*s2, *reversed(s1), *lower]


def _seat(pairs: list) -> tuple:
    """Order the boards (best score first) and give each pair its seats."""
    ordered = sorted(
        pairs,
        key=lambda pq: (-max(pq[0].score, pq[1].score), -(pq[0].score + pq[1].score), min(pq[0].rank, pq[1].rank)),
    )
    seated = []
    for board, (p, q) in enumerate(ordered, start=1):
        higher, lower = (p, q) if (-p.score, p.rank) <= (-q.score, q.rank) else (q, p)
        south, north = allocate(higher, lower, board)
        seated.append((south.number, north.number))
    return tuple(seated)


def allocate(higher: SwissPlayer, lower: SwissPlayer, board: int):
    """(south, north) for a pair; ``higher`` is the better-ranked player."""
    options = [(higher, lower), (lower, higher)]
    allowed = [(s, n) for s, n in options if may_take(s, SOUTH) and may_take(n, NORTH)]
    if len(allowed) == 1:  # the absolute criteria decide
        return allowed[0]
    want_h, strength_h = preference(higher)
    want_l, strength_l = preference(lower)
    if want_h is None and want_l is None:  # first games: alternate down the boards
        return options[0] if board % 2 == 1 else options[1]
    if want_h != want_l:  # both satisfied, or the one with a wish
        if want_h is not None:
            return options[0] if want_h == SOUTH else options[1]
        return options[1] if want_l == SOUTH else options[0]
    if strength_h != strength_l:
        winner = higher if strength_h > strength_l else lower
    else:
        winner = _alternation_winner(higher, lower, want_h) or higher
    loser = lower if winner is higher else higher
    return (winner, loser) if want_h == SOUTH else (loser, winner)


def _alternation_winner(p: SwissPlayer, q: SwissPlayer, wanted: str | None) -> SwissPlayer | None:
    """Alternate from the latest round in which their seats differed: who gets ``wanted``."""
    for back in range(1, min(len(p.colours), len(q.colours)) + 1):
        cp, cq = p.colours[-back], q.colours[-back]
        if cp != cq:
            return p if cp != wanted else q
    return None
