"""Brackets of the 2026 text settled without a matching, when the first candidate in the
handbook's order is provably the best: a perfect candidate (every preference granted, no
float repeated, the next bracket left whole) and a homogeneous bracket that misses only
the colour preferences its counts force (C.10, C.11). Each search is bounded
(``SEARCH_LIMIT``): past it, the matching decides.
"""

from __future__ import annotations

from .candidates import SEARCH_LIMIT
from .matching import BYE, MatchingGraph, heaviest_matching
from .swiss import (
    ABSOLUTE,
    DOWN,
    NORTH,
    SOUTH,
    STRONG,
    UP,
    Pairs,
    Players,
    SwissPlayer,
    allocate,
    can_meet,
    grants_both,
    preference,
)

Following = tuple[Players, Players]  # the next score group and the one after it


def perfect_candidate(mdps: Players, residents: Players, following: Following | None) -> Pairs | None:
    """The first candidate in the handbook's order (every MDP paired, the MDPs' partners
    by S2's transposition, then the remainder's transposition, no exchange) that is
    perfect: every colour preference granted, no resident upfloated again, at most one
    floater (an odd bracket's, a resident) who did not float down in either of the last
    two rounds and leaves the next bracket whole (``following``: the next group and the
    one after it). No candidate is better
    by any criterion then, and none comes before it. Searched partner by partner; None
    when there is none (or the search grows too long)."""
    odd = (len(mdps) + len(residents)) % 2
    if len(mdps) > len(residents) or (odd and not following):
        return None
    tries = 0

    def fits(p: SwissPlayer, q: SwissPlayer) -> bool:
        return q.number not in p.opponents and grants_both(p, q)

    def remainder(rest: Players) -> Pairs | None:
        nonlocal tries
        half = len(rest) // 2
        s1, s2 = rest[:half], rest[half:]
        options = [[j for j, q in enumerate(s2) if fits(p, q)] for p in s1]
        used = [False] * len(s2)
        chosen: list[int] = []

        def extend(i: int) -> bool:
            nonlocal tries
            if i == half:
                return not odd or floats_well(s2[used.index(False)], mdps_floating=[], following=following)
            for j in options[i]:
                tries += 1
                if used[j] or tries > SEARCH_LIMIT:
                    continue
                used[j] = True
                chosen.append(j)
                if all(any(not used[k] for k in options[x]) for x in range(i + 1, half)) and extend(i + 1):
                    return True
                used[j] = False
                chosen.pop()
            return False

        if not extend(0):
            return None
        return [(p, s2[j]) for p, j in zip(s1, chosen, strict=True)]

    partners: Pairs = []
    taken: set[int] = set()

    def place(i: int) -> Pairs | None:
        nonlocal tries
        if i == len(mdps):  # a remainder exchange would come before the next MDP transposition
            rest = remainder([q for q in residents if q.number not in taken])
            raise FirstCandidate(None if rest is None else [*partners, *rest])
        for q in residents:
            tries += 1
            if q.number in taken or tries > SEARCH_LIMIT or not fits(mdps[i], q) or UP in q.floats[-2:]:
                continue
            taken.add(q.number)
            partners.append((mdps[i], q))
            found = place(i + 1)
            if found is not None:
                return found
            taken.discard(q.number)
            partners.pop()
        return None

    try:
        place(0)
    except FirstCandidate as found:
        return found.pairs
    return None


class FirstCandidate(Exception):
    """The first complete MDP pairing: the search ends there, perfect or not."""

    def __init__(self, pairs: Pairs | None) -> None:
        super().__init__()
        self.pairs = pairs


def fewest_missed(residents: Players) -> Pairs | None:
    """An even homogeneous bracket whose colour preferences cannot all be granted: the
    first transposition (no exchange) that misses as few preferences (C.10) and strong
    preferences (C.11) as the counts allow — more players wanting one colour than the
    others can give it must meet each other, a mild one losing where it can — with no
    absolute preference missed. Nothing else differs between its candidates (no floater,
    no score difference, no float), so no candidate is better and none comes before it.
    None when the counts' bound cannot be met (or the search grows too long)."""
    if len(residents) % 2:
        return None
    wants = [preference(p) for p in residents]
    south = [w for w in wants if w[0] == SOUTH]
    north = [w for w in wants if w[0] == NORTH]
    free = len(wants) - len(south) - len(north)
    crowded = south if len(south) > len(north) + free else north if len(north) > len(south) + free else None
    if crowded is None:
        return None
    missed_most = (len(crowded) - (len(wants) - len(crowded))) // 2
    strong_most = max(0, missed_most - sum(1 for w in crowded if w[1] < STRONG))
    half = len(residents) // 2
    s1, s2 = residents[:half], residents[half:]
    options: list[list[tuple[int, int, int]]] = [[] for _ in s1]
    for i, p in enumerate(s1):
        for j, q in enumerate(s2):
            miss, strong_miss = misses(p, q)
            if q.number not in p.opponents and miss is not None:
                options[i].append((j, miss, strong_miss))
    used = [False] * len(s2)
    chosen: list[int] = []
    tries = 0

    def extend(i: int, missed: int, strong: int) -> bool:
        nonlocal tries
        if i == half:
            return True
        for j, miss, strong_miss in options[i]:
            tries += 1
            if used[j] or tries > SEARCH_LIMIT or missed + miss > missed_most or strong + strong_miss > strong_most:
                continue
            used[j] = True
            chosen.append(j)
            if all(any(not used[k] for k, _, _ in options[x]) for x in range(i + 1, half)) and extend(
                i + 1, missed + miss, strong + strong_miss
            ):
                return True
            used[j] = False
            chosen.pop()
        return False

    if not extend(0, 0, 0):
        return None
    return [(p, s2[j]) for p, j in zip(s1, chosen, strict=True)]


def misses(p: SwissPlayer, q: SwissPlayer) -> tuple[int | None, int]:
    """(preferences missed, strong ones missed) when p meets q; None when an absolute
    preference would be missed (C.3)."""
    south, north = allocate(p, q)
    loser = next((x for x, seat in ((south, NORTH), (north, SOUTH)) if preference(x)[0] == seat), None)
    if loser is None:
        return 0, 0
    strength = preference(loser)[1]
    if strength >= ABSOLUTE:
        return None, 0
    return 1, int(strength >= STRONG)


def floats_well(p: SwissPlayer, mdps_floating: Players, following: Following | None) -> bool:
    """The floater of a perfect candidate: no downfloat in the last two rounds, and the
    next bracket pairs him and all but at most one of its residents."""
    return DOWN not in p.floats[-2:] and following is not None and next_complete([p, *mdps_floating], *following)


def next_complete(floaters: Players, residents: Players, after: Players) -> bool:
    """The next bracket pairs every floater and all its residents but, when it is odd, one
    who meets a player of the group after it (``after``): C.7 at its best, and its
    floater one the brackets below can take."""
    players = floaters + residents
    if len(floaters) > len(players) // 2:
        return False
    return in_order_completes(players, len(floaters), after) or matching_completes(players, len(floaters), after)


def meets(p: SwissPlayer, q: SwissPlayer) -> bool:
    """No repeat (C.1), and seats that keep the absolute colour rule (C.3)."""
    return q.number not in p.opponents and can_meet(p, q)


def in_order_completes(players: Players, floaters: int, after: Players) -> bool:
    """S1[i]-S2[i] pairs them all (in an odd bracket, once its floater, a resident tried
    from the bottom up who meets a player of ``after``, is left out): the first check,
    which needs no matching."""
    half = len(players) // 2
    if not len(players) % 2:
        return pairs_in_order(players, half)
    for k in reversed(range(floaters, len(players))):
        rest = players[:k] + players[k + 1 :]
        if pairs_in_order(rest, half) and any(meets(players[k], q) for q in after):
            return True
    return False


def pairs_in_order(players: Players, half: int) -> bool:
    return all(meets(p, q) for p, q in zip(players[:half], players[half:]))


def matching_completes(players: Players, floaters: int, after: Players) -> bool:
    """The same asked of a matching: every player placed, all but one (an odd bracket's,
    a resident who meets the group after) in pairs; floaters never meet each other."""
    half, odd = len(players) // 2, len(players) % 2
    g = MatchingGraph()
    for i, p in enumerate(players):
        for j, q in enumerate(players[i + 1 :], start=i + 1):
            if j >= floaters and meets(p, q):
                g.add_edge(p.number, q.number, weight=4)
        if odd and i >= floaters and any(meets(p, q) for q in after):
            g.add_edge(p.number, BYE, weight=1)  # one place below stands for the group after
    matching = heaviest_matching(g)
    inside = sum(1 for a, b in matching if a > 0 and b > 0)
    covered = {n for pq in matching for n in pq}
    return inside == half and all(p.number in covered for p in players)
