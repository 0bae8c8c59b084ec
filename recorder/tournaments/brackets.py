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

from .pairing import ABSOLUTE, DOWN, NORTH, SOUTH, STRONG, UP, SwissPlayer, allocate, can_meet, preference

BYE = 0  # player numbers start at 1


class MatchingGraph(nx.Graph):
    """A graph whose ``g[v]`` is the plain neighbour dict, not networkx's read-only view:
    the blossom algorithm reads an edge's weight through it at every dual change, and the
    view's indirection was a large part of what a bracket's matching cost (docs/decisions.md)."""

    def __getitem__(self, n):
        return self._adj[n]


@dataclass
class Step:
    """One bracket's state: who is in it, what is settled, what may still pair."""

    players: list  # the bracket and everyone below it still unpaired, ranked
    inside: set  # numbers of the bracket's unpaired players
    weigh: Callable  # (p, q) -> quality cost truncated to this bracket and above; q may be None (the bye)
    takers: set
    banned: set = field(default_factory=set)  # frozenset pairs the settled order rules out
    must_pair_inside: set = field(default_factory=set)  # numbers that may not float
    core: set | None = None  # who must be placed; None: everyone (the matching's scope is the whole rest)
    costs: dict = field(default_factory=dict)

    def cost(self, p: SwissPlayer, q: SwissPlayer | None) -> int:
        key = (p.number, q.number if q is not None else BYE)
        if key not in self.costs:
            self.costs[key] = self.weigh(p, q)
        return self.costs[key]


class Sink(SwissPlayer):
    """A place below the bracket for one floater: what floating costs a bracket player
    does not depend on whom of the next group he meets (those digits are the brackets
    below), only on his own score and floats."""


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
    """Number -> partner (BYE for the bye) of the best matching, or None when it cannot
    place every player it must: everyone (``step.core`` None: the round's completion,
    C.4) or the core (the bracket and the next group; the groups below only as partners)."""
    players = step.players
    order_bound = sum(digits.values()) + 1
    edges = []
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if step.core is not None and p.number not in step.core and q.number not in step.core:
                continue
            if q.number in p.opponents or p.number in q.opponents or frozenset((p.number, q.number)) in step.banned:
                continue
            inside = p.number in step.inside and q.number in step.inside
            if not inside and (p.number in step.must_pair_inside or q.number in step.must_pair_inside):
                continue
            if inside:
                d = digits.get((p.number, q.number), 0)
            else:
                d = digits.get((p.number,), 0) + digits.get((q.number,), 0)
            edges.append((p.number, q.number, step.cost(p, q) * order_bound + d))
    if len(players) % 2 and step.core is None:
        for p in players:
            if p.number in step.takers and p.number not in step.must_pair_inside:
                edges.append((BYE, p.number, step.cost(p, None) * order_bound + digits.get((p.number,), 0)))
    if not edges:
        return None
    partner = best_matching(edges, step.core, len(players))
    must = step.core if step.core is not None else {p.number for p in players}
    if len(partner.keys() & must) < len(must) - (len(players) % 2 if step.core is None else 0):
        return None
    return partner


def best_matching(edges: list, core: set | None, players: int) -> dict:
    """The heaviest matching by (players placed, least cost): every player when ``core``
    is None (maximum cardinality), else the core's."""
    big = max(c for _, _, c in edges) + 1
    g = MatchingGraph()
    if core is None:
        g.add_weighted_edges_from((a, b, big - c) for a, b, c in edges)
    else:  # each core player placed outweighs every cost
        placed = big * (players + 1)
        g.add_weighted_edges_from((a, b, placed * ((a in core) + (b in core)) - c) for a, b, c in edges)
    partner = {}
    for a, b in nx.max_weight_matching(g, maxcardinality=core is None):
        partner[a], partner[b] = b, a
    return partner


def settle_mdps(step: Step, mdps: list, residents: list) -> tuple[list, dict] | None:
    """The MDPs' pairs with residents (steps 1 and 2), and the whole matching they came from."""
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
    return [(p, by_number[partner[p.number]]) for p in mdps if partner.get(p.number) in resident_numbers], partner


def settle_remainder(step: Step, remainder: list) -> list | None:
    """The remainder's pairs (steps 3 and 4): who forms S1 (the exchange), then S2's
    transposition with S1 and S2 fixed. Two matchings, each with one order's digits: one
    matching weighing both orders at once spreads its weights so far that it costs more
    than the two (docs/decisions.md)."""
    numbers = {p.number for p in remainder}
    first = len(remainder) // 2
    partner = match(step, exchange_digits(remainder, first))
    if partner is None:
        return None
    made = pairs_within(remainder, partner, numbers)
    if len(made) < first:
        first = len(made)
        partner = match(step, exchange_digits(remainder, first))
        if partner is None:
            return None
        made = pairs_within(remainder, partner, numbers)
    s1 = sorted((p for p, _ in made), key=remainder.index)
    s1_numbers = {p.number for p in s1}
    s2 = [p for p in remainder if p.number not in s1_numbers]
    for side in (s1, s2):
        step.banned |= {frozenset((p.number, q.number)) for i, p in enumerate(side) for q in side[i + 1 :]}
    step.must_pair_inside |= s1_numbers
    partner = match(step, transposition_digits(s1, s2))
    if partner is None:
        return None
    return pairs_within(remainder, partner, numbers)


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
    made: list = []
    partner: dict = {}
    if mdps and residents:
        settled = settle_mdps(step, mdps, residents)
        if settled is None:
            return None
        found, partner = settled
        made += found
        used = {q.number for _, q in found}
        step.inside -= {p.number for p in mdps} | used
        gone = {x.number for pq in found for x in pq}
        step.players = [p for p in step.players if p.number not in gone]
        if step.core is not None:
            step.core = step.core - gone
        residents = [q for q in residents if q.number not in used]
        limbo = [p for p in mdps if p.number not in {x.number for x, _ in found}]
        step.banned |= {frozenset((p.number, q.number)) for p in limbo for q in residents}
    tying = tying_candidate(step, partner, residents)
    if tying is not None:
        return made + tying
    if len(residents) >= 2:
        rest = settle_remainder(step, residents)
        if rest is None:
            return None
        made += rest
    return made


def tying_candidate(step: Step, partner: dict, residents: list) -> list | None:
    """The remainder's pairing read off the MDPs' matching (``partner``), which is the
    best by every quality digit: the first candidate in the handbook's order with no
    exchange (S1 its first half, paired into S2) that costs no more. None when that
    matching floats more than an odd remainder's one resident, when a candidate comes
    first whose floater's cost below cannot be told without a matching, or when the
    search grows too long (a matching decides then)."""
    half = len(residents) // 2
    if not partner or not half:
        return None
    by_number = {q.number: q for q in residents}
    left = [q for q in residents if partner.get(q.number) not in by_number]
    if len(left) != len(residents) % 2:
        return None
    total = 0  # the matching's cost over the players still unpaired (a pair from its first player)
    order = {p.number: (i, p) for i, p in enumerate(step.players)}
    for i, p in enumerate(step.players):
        q = partner.get(p.number)
        if q == BYE:
            total += step.cost(p, None)
        elif q in order and order[q][0] > i:
            total += step.cost(p, order[q][1])
    known = {q.number for q in left}
    inside = sum(step.cost(q, by_number[partner[q.number]]) for q in residents if q.number not in known) // 2
    beyond: dict = {q.number: cheapest_place(step, q, by_number) for q in residents[half:] if known}
    for number in [*known, None]:  # the floater's place is known, and the rest below: the matching's
        beyond[number] = total - inside
    return first_transposition(step, residents[:half], residents[half:], total, beyond, known)


def cheapest_place(step: Step, x: SwissPlayer, residents: dict) -> int | None:
    """The least that floating ``x`` out of the remainder can cost (None: he cannot float)."""
    if x.number in step.must_pair_inside:
        return None
    costs = [
        step.cost(x, q)
        for q in step.players
        if q.number not in residents and q.number not in step.must_pair_inside and may_pair(step, x, q)
    ]
    if len(step.players) % 2 and step.core is None and x.number in step.takers:
        costs.append(step.cost(x, None))
    return min(costs, default=None)


def may_pair(step: Step, p: SwissPlayer, q: SwissPlayer) -> bool:
    met = q.number in p.opponents or p.number in q.opponents
    return not met and frozenset((p.number, q.number)) not in step.banned


class Undecided(Exception):
    """A candidate whose floater's cost below only a matching can tell."""


def first_transposition(step: Step, s1: list, s2: list, total: int, beyond: dict, known: set) -> list | None:
    """The lexicographically smallest sequence of S2 partners for S1 (the transposition
    order) whose whole pairing costs at most ``total``: its pairs, then what the one of
    S2 left over costs below (``beyond``: exact for the ``known`` one, else the least it
    can). None when there is none, when a candidate before it is undecided, or when the
    search grows too long."""
    options = [[(j, step.cost(p, q)) for j, q in enumerate(s2) if may_pair(step, p, q)] for p in s1]
    if not all(options):
        return None
    after = [0] * (len(s1) + 1)  # the least the players from i on can cost
    for i in reversed(range(len(s1))):
        after[i] = after[i + 1] + min(c for _, c in options[i])
    odd = len(s2) > len(s1)
    floor = min(c for c in beyond.values() if c is not None)
    used = [False] * len(s2)
    chosen: list[int] = []
    tries = 0

    def leaf(spent: int) -> bool:
        if not odd:
            return spent + floor <= total
        x = s2[used.index(False)]
        rest = beyond[x.number]
        if rest is None or spent + rest > total:
            return False
        if x.number in known:
            return True
        raise Undecided

    def extend(i: int, spent: int) -> bool:
        nonlocal tries
        if i == len(s1):
            return leaf(spent)
        for j, c in options[i]:
            tries += 1
            if tries > SEARCH_LIMIT:
                raise Undecided
            if used[j] or spent + c + after[i + 1] + floor > total:
                continue
            used[j] = True
            chosen.append(j)
            if extend(i + 1, spent + c):
                return True
            used[j] = False
            chosen.pop()
        return False

    try:
        if not extend(0, 0):
            return None
    except Undecided:
        return None
    return [(p, s2[j]) for p, j in zip(s1, chosen, strict=True)]


def pair_top_down(
    ranked: list, group: dict, weigh_for, takers: set, breaks: Callable
) -> tuple[list, SwissPlayer | None] | None:
    """Every bracket in turn from the top: (pairs, the bye's player); None when no pairing
    completes the round. A bracket is first settled looking only as far down as C.7 asks;
    when a bracket below then finds no pairing, the brackets from the one above it are
    settled again weighing the round's completion (C.4) exactly: the bracket itself
    first, then one more above it each time."""
    groups: list[list] = []
    for p in ranked:
        if group[p.number] == len(groups):
            groups.append([])
        groups[-1].append(p)
    exact_from = len(groups)  # brackets from this one on weigh every player below
    exact_alone: set[int] = set()  # brackets whose places below proved wrong: weighed exactly
    single_bye: set[int] = set()  # brackets that float one player only, the bye's: C.9 counts
    assumed: dict[int, dict] = {}  # bracket -> floater -> the cost its places below assumed
    saved: list[tuple[int, list]] = []  # before each bracket: pairs made, its MDPs
    pairs: list = []
    mdps: list = []
    b = 0
    while b <= len(groups):
        made = None
        if b < len(groups):
            saved[b:] = [(len(pairs), mdps)]
            assumed[b] = {}
            exact = b >= exact_from or b in exact_alone
            made = settle_group(groups, b, mdps, weigh_for(b, b in single_bye), takers, exact, breaks, assumed[b])
            if made is not None and exact_from > 0 and any(breaks(p, q) for p, q in made):
                made = None  # C.3 gives way only when every bracket above weighed it exactly
        elif not mdps or (len(mdps) == 1 and mdps[0].number in takers):
            bye = mdps[0] if mdps else None
            again = None
            if len({p.unplayed for p in ranked if p.number in takers}) > 1:  # else C.9 cannot choose
                again = only_floater_bracket(groups, group, saved, pairs, bye, single_bye)
            if again is None:
                again = first_wrong_place(pairs, bye, assumed, lambda b: weigh_for(b, b in single_bye))
                if again is None:
                    return pairs, bye
                exact_alone.add(again)  # that bracket again, with every player below in view
            else:
                single_bye.add(again)  # that bracket again, weighing C.9
            b = again
            del pairs[saved[b][0] :]
            mdps = saved[b][1]
            continue
        if made is None:
            if b < exact_from:  # settled looking only so far down: this bracket again, exactly
                exact_from = b
            elif exact_from == 0:
                return None
            else:
                exact_from -= 1
            b = exact_from
            del pairs[saved[b][0] :]
            mdps = saved[b][1]
            continue
        pairs += made
        placed = {x.number for pq in made for x in pq}
        mdps = [p for p in mdps + groups[b] if p.number not in placed]
        b += 1
    return None


def only_floater_bracket(groups: list, group: dict, saved: list, pairs: list, bye, weighed: set) -> int | None:
    """The first bracket not yet ``weighed`` whose only downfloater is the bye's player
    (his own, or one below it he is left over in): C.9, the fewest unplayed games of the
    bye's player, applies to such brackets alone."""
    if bye is None:
        return None
    for b in range(group[bye.number], len(groups)):
        end = saved[b + 1][0] if b + 1 < len(saved) else len(pairs)
        placed = {x.number for pq in pairs[saved[b][0] : end] for x in pq}
        floaters = [p for p in saved[b][1] + groups[b] if p.number not in placed]
        if len(floaters) == 1 and b not in weighed:
            return b
    return None


def first_wrong_place(pairs: list, bye: SwissPlayer | None, assumed: dict, weigh_for) -> int | None:
    """The first bracket settled against places below whose floater met a partner dearer
    than the place assumed (his cheapest partner was taken to complete a bracket further
    down, which the places do not see); None when every floater cost what was assumed,
    and so the bracket's choice is the one weighing every player below gives."""
    partner: dict = {} if bye is None else {bye.number: None}
    for p, q in pairs:
        partner[p.number], partner[q.number] = q, p
    for b in sorted(assumed):
        for p, cost in assumed[b].values():
            if weigh_for(b)(p, partner[p.number]) != cost:
                return b
    return None


def settle_group(
    groups: list, b: int, mdps: list, weigh, takers: set, exact: bool, breaks: Callable, assumed: dict
) -> list | None:
    """Bracket ``b``'s pairs: alone when it pairs within itself, against places below when
    its floaters leave the next bracket whole (``assumed`` gets each floater and the cost
    of his place), else with the players below in view."""
    residents = groups[b]
    bracket = mdps + residents
    made = None
    if not exact and not any(p.number in takers for p in bracket + (groups[b + 1] if b + 1 < len(groups) else [])):
        following = (groups[b + 1], groups[b + 2] if b + 2 < len(groups) else []) if b + 1 < len(groups) else None
        made = perfect(mdps, residents, following)
        if made is None and not mdps:
            made = fewest_missed(residents)
    if made is None and not exact:
        made = alone(bracket, mdps, residents, weigh, takers)
    if made is None and not exact and b + 1 < len(groups):
        made = floating(bracket, mdps, residents, groups[b + 1 :], weigh, takers, assumed)
    if made is not None and not exact and any(breaks(p, q) for p, q in made):
        made = None  # settled without the players below, it broke C.3: floating may keep it
    if made is None:
        below, core = scope(groups, b, bracket, exact)
        step = Step(bracket + below, {p.number for p in bracket}, weigh, takers, core=core)
        made = settle_bracket(step, mdps, residents)
    return made


def scope(groups: list, b: int, bracket: list, exact: bool) -> tuple[list, set | None]:
    """The players below bracket ``b`` its matchings see, and the core they must place:
    the next group whole (C.7) and enough groups below it to take its floaters; every
    player below (core None: the round's completion weighed exactly) when ``exact`` or
    when that is all of them."""
    rest = groups[b + 1 :]
    if exact or len(rest) <= 2:
        return [p for g in rest for p in g], None
    below, k = list(rest[0]), 1
    core_size = len(bracket) + len(rest[0])
    while k < len(rest) and len(below) < 2 * core_size:
        below += rest[k]
        k += 1
    if k == len(rest):
        return below, None
    return below, {p.number for p in bracket} | {p.number for p in rest[0]}


def alone(bracket: list, mdps: list, residents: list, weigh, takers: set) -> list | None:
    """A bracket that pairs every player within itself floats nobody, the best C.5 can
    be, and C.7 has nothing to choose: it is settled without the players below (their
    completion, C.4, is checked by the brackets that follow). None when it cannot, or
    when it holds a player who may take the bye (weighed with the players below)."""
    if len(bracket) % 2 or any(p.number in takers for p in bracket):
        return None
    step = Step(list(bracket), {p.number for p in bracket}, weigh, takers)
    return settle_bracket(step, mdps, residents)


SEARCH_LIMIT = 500  # partners tried before the matching decides instead


def perfect(mdps: list, residents: list, following: tuple | None) -> list | None:
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

    def remainder(rest: list) -> list | None:
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

    partners: list = []
    taken: set = set()

    def place(i: int) -> list | None:
        nonlocal tries
        if i == len(mdps):  # a remainder exchange would come before the next MDP transposition
            rest = remainder([q for q in residents if q.number not in taken])
            raise Found(None if rest is None else [*partners, *rest])
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
    except Found as found:
        return found.pairs
    return None


class Found(Exception):
    """The first complete MDP pairing: the search ends there, perfect or not."""

    def __init__(self, pairs: list | None) -> None:
        super().__init__()
        self.pairs = pairs


def fewest_missed(residents: list) -> list | None:
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


def floats_well(p: SwissPlayer, mdps_floating: list, following: tuple | None) -> bool:
    """The floater of a perfect candidate: no downfloat in the last two rounds, and the
    next bracket pairs him and all but at most one of its residents."""
    return DOWN not in p.floats[-2:] and following is not None and next_complete([p, *mdps_floating], *following)


def grants_both(p: SwissPlayer, q: SwissPlayer) -> bool:
    south, north = allocate(p, q)
    return preference(south)[0] in (None, SOUTH) and preference(north)[0] in (None, NORTH)


def floating(bracket: list, mdps: list, residents: list, lower: list, weigh, takers: set, assumed: dict) -> list | None:
    """A bracket that floats players, settled against places below it (sinks) instead of
    the players below, when its floaters leave the next bracket completely paired: then
    C.7 is at its best whichever players float (their scores are C.6's). None when the
    players below must be weighed (C.7) or no such pairing exists. ``assumed`` gets each
    floater with what his place cost, checked once the round is paired."""
    if any(p.number in takers for p in bracket + lower[0]):
        return None  # who may take the bye is weighed with the brackets below (C.4)
    floats = {}
    for p in bracket:  # his cheapest partner in the first group below that has one (C.3 counts)
        for g in lower:
            costs = [weigh(p, q) for q in partners_by_colours(g, p)]
            if costs:
                floats[p.number] = min(costs)
                break
    for places in (len(bracket) % 2 + 2, len(bracket)):
        sinks = [
            Sink(-k, 10**9, -1, frozenset(set(range(-places, 0)) | (set(floats) ^ {x.number for x in bracket})))
            for k in range(1, places + 1)
        ]
        step = Step(
            bracket + sinks,
            {p.number for p in bracket},
            sink_weigh(weigh, floats),
            takers,
            core={p.number for p in bracket},
        )
        made = settle_bracket(step, mdps, residents)
        if made is None:
            continue
        placed = {x.number for pq in made for x in pq}
        floaters = [p for p in bracket if p.number not in placed]
        if len(floaters) < places or places == len(bracket):
            if not next_complete(floaters, lower[0], lower[1] if len(lower) > 1 else []):
                return None
            assumed.update((p.number, (p, floats[p.number])) for p in floaters)
            return made
    return None


def partners_by_colours(group: list, p: SwissPlayer) -> list:
    """A player of ``group`` for each colour history among those ``p`` has not met. Weighed
    for a bracket above, a pair with a player of one group differs by his colours alone (C.3,
    the seats): his score is the group's, and his floats, rank and seat preferences count
    in the group's own digits, left out until it is paired."""
    one_each: dict = {}
    for q in group:
        if q.number not in p.opponents:
            one_each.setdefault(q.colours, q)
    return list(one_each.values())


def sink_weigh(weigh, floats: dict):
    def cost(p: SwissPlayer, q: SwissPlayer | None) -> int:
        if q is not None and q.number < 0:
            return floats[p.number]
        return weigh(p, q)

    return cost


def next_complete(floaters: list, residents: list, after: list) -> bool:
    """The next bracket pairs every floater and all its residents but, when it is odd, one
    who meets a player of the group after it (``after``): C.7 at its best, and its
    floater one the brackets below can take."""
    players = floaters + residents
    half = len(players) // 2
    odd = len(players) % 2

    def meets(p: SwissPlayer, q: SwissPlayer) -> bool:
        return q.number not in p.opponents and can_meet(p, q)

    if len(floaters) > half:
        return False
    for k in reversed(range(len(floaters), len(players))) if odd else [None]:
        rest = players if k is None else players[:k] + players[k + 1 :]
        if all(meets(p, q) for p, q in zip(rest[:half], rest[half:])):  # S1[i]-S2[i] first
            if k is None or any(meets(players[k], q) for q in after):
                return True
    g = MatchingGraph()
    for i, p in enumerate(players):
        for j, q in enumerate(players[i + 1 :], start=i + 1):
            if j >= len(floaters) and meets(p, q):
                g.add_edge(p.number, q.number, weight=4)
        if odd and i >= len(floaters) and any(meets(p, q) for q in after):
            g.add_edge(p.number, BYE, weight=1)  # one place below stands for the group after
    matching = nx.max_weight_matching(g)
    inside = sum(1 for a, b in matching if a > 0 and b > 0)
    covered = {n for pq in matching for n in pq}
    return inside == half and all(p.number in covered for p in players)
