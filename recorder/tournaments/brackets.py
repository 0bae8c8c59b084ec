"""The 2026 Dutch text's bracket-by-bracket process (FIDE Handbook C.04.3): the brackets
are paired top down, each settled completely before the next.

A bracket is its moved-down players (MDPs) and its residents. Among its pairings that
let the round be completed (C.4) and are best by its quality criteria (the weight's
digits of that bracket, dutch.py, with the next bracket's pairs and score differences
for C.7), it takes the first in the handbook's order of candidates:

1. the MDP exchange (which MDPs form S1; the others wait in the limbo and float): the
   fewest exchanged, the smallest difference of the sums of the numbers moved, the
   highest number moved out of S1, the lowest moved in;
2. the transposition of S2 (the residents) that pairs S1's MDPs: the lexicographically
   smallest sequence of partners;
3. the remainder's exchange (residents not paired with an MDP, S1 its first N1 players,
   N1 its number of pairs), by the same four rules;
4. the remainder's transposition.

Each step is a maximum-weight matching over the bracket and the players below it: the
bracket's quality digits (the weight truncated below them: lower brackets do not count
yet), then the digits of the step's order; what a step settles is fixed for the next.
Pure: networkx only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import networkx as nx

from .pairing import SwissPlayer

BYE = 0  # player numbers start at 1


@dataclass
class Step:
    """One bracket's state: who is in it, what is settled, what may still pair."""

    players: list  # the bracket and everyone below it still unpaired, ranked
    inside: set  # numbers of the bracket's unpaired players
    weigh: Callable  # (p, q) -> quality cost truncated to this bracket and above; q may be None (the bye)
    takers: set
    banned: set = field(default_factory=set)  # frozenset pairs the settled order rules out
    must_pair_inside: set = field(default_factory=set)  # numbers that may not float


def mixed(components: list[tuple[dict, int]]) -> dict:
    """Per-key cost from components, most significant first: (key -> value, bound on a sum)."""
    total: dict = {}
    unit = 1
    for values, bound in reversed(components):
        for key, value in values.items():
            total[key] = total.get(key, 0) + value * unit
        unit *= bound + 1
    return total


def exchange_digits(order: list, first: int) -> dict:
    """The four exchange rules as costs over ``order`` (the group's players, S1 its first
    ``first``): keys (a, b) for a pair, (a,) for a player floating out of the group."""
    n = len(order)
    idx = {p.number: i for i, p in enumerate(order)}
    top = 1 << n
    count: dict = {}
    sums: dict = {}
    outs: dict = {}
    ins: dict = {}
    for i, p in enumerate(order):
        for q in order[i + 1 :]:
            j = idx[q.number]
            key = (p.number, q.number)
            if j < first:  # both in S1: q (the higher number) moves out
                sums[key], outs[key] = n - j, top - (1 << j)
            elif i >= first:  # both in S2: p (the lower number) moves in
                count[key], sums[key], ins[key] = 1, i, top - (1 << (n - i))
    for i, p in enumerate(order[:first]):  # S1 players floating move out
        sums[(p.number,)], outs[(p.number,)] = n - i, top - (1 << i)
    return mixed([(count, n), (sums, n * n + n), (outs, n * top), (ins, n * top)])


def transposition_digits(s1: list, s2: list) -> dict:
    """S1[i] against S2[j] costs j at the i-th place: the smallest sequence of partners first."""
    radix = len(s2) + 1
    k = len(s1)
    return {(p.number, q.number): j * radix ** (k - 1 - i) for i, p in enumerate(s1) for j, q in enumerate(s2)}


def mdp_digits(mdps: list, residents: list, paired: int) -> dict:
    """The MDP exchange (``paired`` of them form S1 at first) and S2's transposition."""
    m = len(mdps)
    top = 1 << m
    count: dict = {}
    sums: dict = {}
    outs: dict = {}
    ins: dict = {}
    for i, p in enumerate(mdps):
        for q in residents:
            key = (p.number, q.number)
            sums[key] = i
            if i >= paired:
                count[key], ins[key] = 1, top - (1 << (m - i))
            else:
                outs[key] = 1 << i
    order = mixed([(count, m), (sums, m * m), (outs, top), (ins, m * top)])
    trans = transposition_digits(mdps, residents)
    bound = (len(residents) + 1) ** m
    return {key: value * (bound + 1) + trans[key] for key, value in order.items()}


def match(step: Step, digits: dict) -> dict | None:
    """Number -> partner (BYE for the bye) of the best matching, or None when the players
    below cannot all be paired."""
    players = step.players
    order_bound = sum(digits.values()) + 1
    g = nx.Graph()
    edges = []
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if q.number in p.opponents or frozenset((p.number, q.number)) in step.banned:
                continue
            inside = p.number in step.inside and q.number in step.inside
            if not inside and (p.number in step.must_pair_inside or q.number in step.must_pair_inside):
                continue
            if inside:
                d = digits.get((p.number, q.number), 0)
            else:
                d = digits.get((p.number,), 0) + digits.get((q.number,), 0)
            edges.append((p.number, q.number, step.weigh(p, q) * order_bound + d))
    if len(players) % 2:
        for p in players:
            if p.number in step.takers and p.number not in step.must_pair_inside:
                edges.append((BYE, p.number, step.weigh(p, None) * order_bound + digits.get((p.number,), 0)))
    if not edges:
        return None
    big = max(c for _, _, c in edges) + 1
    g.add_weighted_edges_from((a, b, big - c) for a, b, c in edges)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(matching) < len(players) + len(players) % 2:
        return None
    partner = {}
    for a, b in matching:
        partner[a], partner[b] = b, a
    return partner


def settle_mdps(step: Step, mdps: list, residents: list) -> list | None:
    """The MDPs' pairs with residents (steps 1 and 2)."""
    resident_numbers = {q.number for q in residents}
    partner = match(step, mdp_digits(mdps, residents, len(mdps)))
    if partner is None:
        return None
    paired = sum(partner.get(p.number) in resident_numbers for p in mdps)
    if paired < len(mdps):
        partner = match(step, mdp_digits(mdps, residents, paired))
        if partner is None:
            return None
    by_number = {q.number: q for q in residents}
    return [(p, by_number[partner[p.number]]) for p in mdps if partner.get(p.number) in resident_numbers]


def settle_remainder(step: Step, remainder: list) -> list | None:
    """The remainder's pairs (steps 3 and 4)."""
    numbers = {p.number for p in remainder}
    first = len(remainder) // 2
    digits = pairs_digits(remainder, first)
    partner = match(step, digits)
    if partner is None:
        return None
    made = pairs_within(remainder, partner, numbers)
    if len(made) < first:
        first = len(made)
        partner = match(step, pairs_digits(remainder, first))
        if partner is None:
            return None
        made = pairs_within(remainder, partner, numbers)
    s1 = [p for p, _ in made]
    if {p.number for p in s1} == {p.number for p in remainder[:first]}:
        return made
    # an exchange: fix S1 and S2, then the transposition alone
    s1 = sorted(s1, key=remainder.index)
    s1_numbers = {p.number for p in s1}
    s2 = [p for p in remainder if p.number not in s1_numbers]
    for side in (s1, s2):
        step.banned |= {frozenset((p.number, q.number)) for i, p in enumerate(side) for q in side[i + 1 :]}
    step.must_pair_inside |= s1_numbers
    partner = match(step, transposition_digits(s1, s2))
    if partner is None:
        return None
    return pairs_within(remainder, partner, numbers)


def pairs_digits(remainder: list, first: int) -> dict:
    exchange = exchange_digits(remainder, first)
    trans = transposition_digits(remainder[:first], remainder[first:])
    bound = (len(remainder) - first + 1) ** first
    keys = exchange.keys() | trans.keys()
    return {key: exchange.get(key, 0) * (bound + 1) + trans.get(key, 0) for key in keys}


def pairs_within(group: list, partner: dict, numbers: set) -> list:
    """(S1 member, partner) pairs inside ``group``, the higher-ranked first."""
    made = []
    for p in group:
        q = partner.get(p.number)
        if q in numbers and group.index(p) < next(i for i, x in enumerate(group) if x.number == q):
            made.append((p, next(x for x in group if x.number == q)))
    return made


def settle_bracket(step: Step, mdps: list, residents: list) -> list | None:
    """The bracket's pairs, MDPs' first; None when the round cannot be completed."""
    made = []
    if mdps and residents:
        found = settle_mdps(step, mdps, residents)
        if found is None:
            return None
        made += found
        used = {q.number for _, q in found}
        step.inside -= {p.number for p in mdps} | used
        step.players = [p for p in step.players if p.number not in {x.number for pq in found for x in pq}]
        residents = [q for q in residents if q.number not in used]
        limbo = [p for p in mdps if p.number not in {x.number for x, _ in found}]
        step.banned |= {frozenset((p.number, q.number)) for p in limbo for q in residents}
    if len(residents) >= 2:
        found = settle_remainder(step, residents)
        if found is None:
            return None
        made += found
    return made


def pair_top_down(ranked: list, group: dict, weigh_for, takers: set) -> tuple[list, SwissPlayer | None] | None:
    """Every bracket in turn from the top: (pairs, the bye's player); None when a bracket
    finds no pairing that completes the round."""
    groups: list[list] = []
    for p in ranked:
        if group[p.number] == len(groups):
            groups.append([])
        groups[-1].append(p)
    pairs: list = []
    mdps: list = []
    for b, residents in enumerate(groups):
        below = [p for g in groups[b + 1 :] for p in g]
        bracket = mdps + residents
        step = Step(bracket + below, {p.number for p in bracket}, weigh_for(b), takers)
        made = settle_bracket(step, [p for p in mdps if p.number in step.inside], residents)
        if made is None:
            return None
        pairs += made
        placed = {x.number for pq in made for x in pq}
        mdps = [p for p in bracket if p.number not in placed]
    if len(mdps) > 1:
        return None
    return pairs, (mdps[0] if mdps else None)
