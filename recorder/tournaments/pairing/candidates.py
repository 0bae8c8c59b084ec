"""One bracket of the 2026 text settled in the handbook's order of candidates (C.04.3):

1. the MDP exchange (which MDPs form S1; the others wait in the limbo and float);
2. the transposition of S2 (the residents) that pairs S1's MDPs;
3. the remainder's exchange (residents not paired with an MDP, S1 its first N1 players,
   N1 its number of pairs);
4. the remainder's transposition.

Each step is a maximum-weight matching over the bracket and the players below it: the
bracket's quality digits (the weight truncated below them: lower brackets do not count
yet), then the digits of the step's order (orders.py); what a step settles is fixed for
the next. When the MDPs' matching already ties with a candidate that has no exchange,
the remainder is read off it without a matching (``tying_candidate``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .matching import BYE, MatchingGraph, heaviest_matching
from .orders import exchange_digits, mdp_digits, transposition_digits
from .swiss import Digits, Pairs, Partners, Players, SwissPlayer, Weigh

SEARCH_LIMIT = 500  # partners tried before the matching decides instead


@dataclass
class BracketState:
    """One bracket's state: who is in it, what is settled, what may still pair."""

    players: Players  # the bracket and everyone below it still unpaired, ranked
    inside: set[int]  # numbers of the bracket's unpaired players
    weigh: Weigh  # (p, q) -> quality cost truncated to this bracket and above; q may be None (the bye)
    takers: set[int]
    banned: set[frozenset[int]] = field(default_factory=set)  # frozenset pairs the settled order rules out
    must_pair_inside: set[int] = field(default_factory=set)  # numbers that may not float
    core: set[int] | None = None  # who must be placed; None: everyone (the matching's scope is the whole rest)
    costs: dict[tuple[int, int], int] = field(default_factory=dict)

    def cost(self, p: SwissPlayer, q: SwissPlayer | None) -> int:
        key = (p.number, q.number if q is not None else BYE)
        if key not in self.costs:
            self.costs[key] = self.weigh(p, q)
        return self.costs[key]


def match(step: BracketState, digits: Digits) -> Partners | None:
    """Number -> partner (BYE for the bye) of the best matching, or None when it cannot
    place every player it must: everyone (``step.core`` None: the round's completion,
    C.4) or the core (the bracket and the next group; the groups below only as partners)."""
    order_bound = sum(digits.values()) + 1
    edges = pair_edges(step, digits, order_bound) + bye_edges(step, digits, order_bound)
    if not edges:
        return None
    partner = best_matching(edges, step.core, len(step.players))
    return partner if places_everyone_it_must(step, partner) else None


def pair_edges(step: BracketState, digits: Digits, order_bound: int) -> list[tuple[int, int, int]]:
    """Every pair the step may make, weighed by its quality cost, then the order's digits."""
    edges = []
    for i, p in enumerate(step.players):
        for q in step.players[i + 1 :]:
            if may_be_paired_now(step, p, q):
                edges.append((p.number, q.number, step.cost(p, q) * order_bound + order_digits(step, digits, p, q)))
    return edges


def may_be_paired_now(step: BracketState, p: SwissPlayer, q: SwissPlayer) -> bool:
    """Not both outside the core, no repeat, not ruled out by the settled order, and a
    player who must pair inside the bracket only with one of it."""
    if step.core is not None and p.number not in step.core and q.number not in step.core:
        return False
    if not may_pair(step, p, q):
        return False
    inside = p.number in step.inside and q.number in step.inside
    return inside or (p.number not in step.must_pair_inside and q.number not in step.must_pair_inside)


def order_digits(step: BracketState, digits: Digits, p: SwissPlayer, q: SwissPlayer) -> int:
    """A pair inside the bracket has its own digits; a pair across it, each player's for floating out."""
    if p.number in step.inside and q.number in step.inside:
        return digits.get((p.number, q.number), 0)
    return digits.get((p.number,), 0) + digits.get((q.number,), 0)


def bye_edges(step: BracketState, digits: Digits, order_bound: int) -> list[tuple[int, int, int]]:
    """The bye's edges, when the step completes an odd round: to each player who may take it."""
    if not len(step.players) % 2 or step.core is not None:
        return []
    return [
        (BYE, p.number, step.cost(p, None) * order_bound + digits.get((p.number,), 0))
        for p in step.players
        if p.number in step.takers and p.number not in step.must_pair_inside
    ]


def places_everyone_it_must(step: BracketState, partner: Partners) -> bool:
    """Every player placed (but an odd round's bye), or every player of the core."""
    if step.core is None:
        must = {p.number for p in step.players}
        return len(partner.keys() & must) >= len(must) - len(step.players) % 2
    return len(partner.keys() & step.core) >= len(step.core)


def best_matching(edges: list[tuple[int, int, int]], core: set[int] | None, players: int) -> Partners:
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
    for a, b in heaviest_matching(g, maxcardinality=core is None):
        partner[a], partner[b] = b, a
    return partner


def settle_mdps(step: BracketState, mdps: Players, residents: Players) -> tuple[Pairs, Partners] | None:
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


def settle_remainder(step: BracketState, remainder: Players) -> Pairs | None:
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


def pairs_within(group: Players, partner: Partners, numbers: set[int]) -> Pairs:
    """(S1 member, partner) pairs inside ``group``, the higher-ranked first."""
    made = []
    for p in group:
        q = partner.get(p.number)
        if q in numbers and group.index(p) < next(i for i, x in enumerate(group) if x.number == q):
            made.append((p, next(x for x in group if x.number == q)))
    return made


def settle_bracket(step: BracketState, mdps: Players, residents: Players) -> Pairs | None:
    """The bracket's pairs, MDPs' first; None when the round cannot be completed."""
    made: Pairs = []
    partner: Partners = {}
    if mdps and residents:
        settled = pair_the_mdps(step, mdps, residents)
        if settled is None:
            return None
        made, partner, residents = settled
    tying = tying_candidate(step, partner, residents)
    if tying is not None:
        return made + tying
    if len(residents) >= 2:
        rest = settle_remainder(step, residents)
        if rest is None:
            return None
        made += rest
    return made


def pair_the_mdps(step: BracketState, mdps: Players, residents: Players) -> tuple[Pairs, Partners, Players] | None:
    """Steps 1 and 2: the MDPs' pairs, the matching they came from and the residents left
    (the remainder); the step no longer holds the players paired, and the MDPs left in
    the limbo may not meet the remainder."""
    settled = settle_mdps(step, mdps, residents)
    if settled is None:
        return None
    found, partner = settled
    used = {q.number for _, q in found}
    step.inside -= {p.number for p in mdps} | used
    gone = {x.number for pq in found for x in pq}
    step.players = [p for p in step.players if p.number not in gone]
    if step.core is not None:
        step.core = step.core - gone
    remainder = [q for q in residents if q.number not in used]
    limbo = [p for p in mdps if p.number not in {x.number for x, _ in found}]
    step.banned |= {frozenset((p.number, q.number)) for p in limbo for q in remainder}
    return found, partner, remainder


def tying_candidate(step: BracketState, partner: Partners, residents: Players) -> Pairs | None:
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
    beyond: dict[int | None, int | None] = {}
    beyond.update((q.number, cheapest_place(step, q, by_number)) for q in residents[half:] if known)
    for number in [*known, None]:  # the floater's place is known, and the rest below: the matching's
        beyond[number] = total - inside
    return first_transposition(step, residents[:half], residents[half:], total, beyond, known)


def cheapest_place(step: BracketState, x: SwissPlayer, residents: dict[int, SwissPlayer]) -> int | None:
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


def may_pair(step: BracketState, p: SwissPlayer, q: SwissPlayer) -> bool:
    met = q.number in p.opponents or p.number in q.opponents
    return not met and frozenset((p.number, q.number)) not in step.banned


class Undecided(Exception):
    """A candidate whose floater's cost below only a matching can tell."""


def first_transposition(
    step: BracketState, s1: Players, s2: Players, total: int, beyond: dict[int | None, int | None], known: set[int]
) -> Pairs | None:
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
