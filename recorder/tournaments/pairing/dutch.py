"""The Dutch Swiss system's front door (FIDE Handbook C.04.3, with C.04.1 and C.04.2):
the round's pairing by the text a tournament names, and its boards seated (E.1-E.5).

The 2017 text ("effective till 30 June 2025"): absolute criteria C.1-C.3 always (no
repeat, one bye, colour difference within ±2 and never three in a row, the leaders'
last-round exception), then the quality criteria C.5-C.15 in their order, optimised over
the whole round by one maximum-weight matching (criteria.py, matching.py); windowed
brackets above 32 players (dutch_2017.py). The 2026 text is paired bracket by bracket in
the handbook's order of candidates (dutch_2026.py) up to 200 players, windowed above.
"""

from __future__ import annotations

from ..events import DUTCH_2026, OLD_DUTCH
from .criteria import make_field, relaxed_players
from .dutch_2017 import by_brackets
from .dutch_2026 import top_down
from .matching import whole_round
from .swiss import SOUTH, Pair, Pairs, Players, SwissPairing, SwissPlayer, allocate, ranks_before

EXACT_LIMIT = 32  # up to this many players, one matching over the whole round (2017 text)
TOP_DOWN_LIMIT = 200  # the 2026 text: the handbook's process up to this many players, windows above


def choose(
    ranked: Players, final_round: int | None, initial: str = SOUTH, rules: str = OLD_DUTCH
) -> tuple[Pairs, SwissPlayer | None, Players]:
    """(pairs (higher, lower), the bye's player or None, players whose C.3 gave way)."""
    f = make_field(ranked, final_round, initial, rules)
    if rules == DUTCH_2026:
        found = top_down(f) if len(ranked) <= TOP_DOWN_LIMIT else by_brackets(f)
    else:
        found = by_brackets(f) if len(ranked) > EXACT_LIMIT else None
    found = found if found is not None else whole_round(f)
    pairs, bye = found
    return pairs, bye, relaxed_players(f, pairs)


def pair_swiss(
    players: Players, final_round: int | None = None, initial: str = SOUTH, rules: str = OLD_DUTCH
) -> SwissPairing:
    """The round's pairing by the Dutch system; ``final_round`` is this round's number when
    it is the last one (topscorers, A.7); ``initial`` the initial colour (E.5); ``rules``
    the text that pairs the tournament (events.PAIRING_RULES). NoPairing when every
    pairing repeats a game."""
    ranked = sorted(players, key=lambda p: (-p.score, p.rank))
    pairs, bye, relaxed = choose(ranked, final_round, initial, rules)
    return SwissPairing(
        seat(pairs, initial, rules), bye.number if bye else None, tuple(sorted(p.number for p in relaxed))
    )


def seat(pairs: Pairs, initial: str = SOUTH, rules: str = OLD_DUTCH) -> tuple[tuple[int, int], ...]:
    """Order the boards (C.04.2: the higher score of the pair, the sum, then the rank of the
    pair's higher player by A.2 — score, then pairing number; the 2017 reading here took
    the better pairing number of the two) and give each pair its seats."""

    def third(pq: Pair) -> int:
        if rules == DUTCH_2026:
            return min(pq, key=lambda x: (-x.score, x.rank)).rank
        return min(pq[0].rank, pq[1].rank)

    ordered = sorted(pairs, key=lambda pq: (-max(pq[0].score, pq[1].score), -(pq[0].score + pq[1].score), third(pq)))
    seated = []
    for p, q in ordered:
        higher, lower = (p, q) if ranks_before(p, q) else (q, p)
        south, north = allocate(higher, lower, initial)
        seated.append((south.number, north.number))
    return tuple(seated)
