"""The 2017 text's large fields (and the 2026 text's above 200 players): the windowed
bracket mode. Bracket by bracket from the top, each window of a bracket optimised by the
whole round's weights (criteria.py) with the next group's top in view; a last bracket
that cannot be completed collapses with the brackets above it. Up to 32 players the 2017
text is one matching over the whole round (matching.whole_round).
"""

from __future__ import annotations

from .criteria import Field, bye_cost, bye_takers, pair_cost
from .matching import BYE, MatchingGraph, heaviest_matching, whole_round
from .swiss import NoPairing, Pair, Paired, Pairs, Players, SwissPlayer, grants_both, in_rank_order

Made = list[tuple[int, Pair]]  # the pairs made, each with its score group

WINDOW = 5  # larger fields: a score group's S1 and S2 are paired this many at a time


def by_brackets(f: Field) -> Paired | None:
    """Large fields, as the handbook pairs: bracket by bracket from the top, each window of
    a bracket optimised by the same weights with the next group's top in view (so a
    downfloater is one the group below can take, C.7). When the last bracket cannot be
    completed, the brackets above it are reopened one by one and paired with it as one
    (the handbook's collapsed last bracket); None if even the whole round fails that way."""
    groups = [[p for p in f.ranked if f.group[p.number] == g] for g in range(len(f.sizes))]
    carry: list[SwissPlayer] = []
    takers, bye = bye_takers(f), None
    made: Made = []
    for g, residents in enumerate(groups):
        ahead = groups[g + 1][:WINDOW] if g + 1 < len(groups) else []
        chunks = windows(residents)
        for k, chunk in enumerate(chunks):
            last = k == len(chunks) - 1
            bottom = last and g == len(groups) - 1
            matched, taker = window_matching(f, carry + chunk, ahead if last else [], takers if bottom else set(), last)
            made += [(g, pq) for pq in matched]
            bye = taker or bye
            placed = {p.number for pq in matched for p in pq} | ({taker.number} if taker else set())
            carry = [p for p in carry + chunk if p.number not in placed]
    if not carry:
        return [pq for _, pq in made], bye
    return collapse(f, made, carry, bye)


def collapse(f: Field, made: Made, carry: Players, bye: SwissPlayer | None) -> Paired | None:
    """Reopen the brackets from the bottom up until what they hold can be paired."""
    for cut in range(len(f.sizes) - 1, 0, -1):
        kept = [pq for g, pq in made if g < cut]
        reopened = carry + [p for g, pq in made if g >= cut for p in pq] + ([bye] if bye else [])
        try:
            pairs, taker = whole_round(f, sorted(reopened, key=lambda x: (-x.score, x.rank)))
        except NoPairing:
            continue
        return kept + pairs, taker
    return None


def natural_pairs(players: Players) -> Pairs | None:
    """S1[i]-S2[i] of a window of one score group, when it repeats no game, grants every
    colour preference and repeats no float: then no pairing of the window is better (the
    order digits are at their best too), and the matching can be skipped."""
    if len(players) % 2 or len({p.score for p in players}) != 1:
        return None
    half = len(players) // 2
    pairs = list(zip(players[:half], players[half:]))
    if all(q.number not in p.opponents and grants_both(p, q) for p, q in pairs):
        return pairs
    return None


def windows(residents: Players) -> list[Players]:
    """S1[i:i+W] with S2[i:i+W], top down: partners S1[i]-S2[i] fall in one window."""
    half = len(residents) // 2
    s1, s2 = residents[:half], residents[half:]
    if len(residents) <= 2 * WINDOW:
        return [residents]
    return [s1[i : i + WINDOW] + s2[i : i + WINDOW] for i in range(0, len(s2), WINDOW)]


def window_matching(
    f: Field, players: Players, ahead: Players, takers: set[int], last: bool = True
) -> tuple[Pairs, SwissPlayer | None]:
    """Pairs within ``players`` and who takes the bye; a partner in ``ahead`` only marks a
    downfloater the next bracket can pair. A placed player counts before any cost. Before
    a bracket's last window only pairs granting both colour preferences are made: the
    others wait for a partner further down the bracket (C.10)."""
    natural = natural_pairs(players)
    if natural is not None and not takers:
        return natural, None
    g = MatchingGraph()
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if q.number not in p.opponents and (last or grants_both(p, q)):
                g.add_edge(p.number, q.number, weight=2 * f.base - pair_cost(f, p, q))
        for q in ahead:
            if q.number not in p.opponents:
                g.add_edge(p.number, -q.number, weight=f.base - pair_cost(f, p, q))
        if p.number in takers:
            g.add_edge(BYE, p.number, weight=f.base - bye_cost(f, p))
    by_number = {p.number: p for p in players}
    pairs: Pairs = []
    taker = None
    for a, b in heaviest_matching(g):
        if a in by_number and b in by_number:
            pairs.append(in_rank_order(by_number[a], by_number[b]))
        elif BYE in (a, b):
            taker = by_number[a or b]
    return pairs, taker
