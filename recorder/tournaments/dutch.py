"""The Dutch system's choice of pairs (FIDE Handbook C.04.3, the 2017 text): one
maximum-weight matching over the whole round (networkx's blossom algorithm, exact in
integers), whose edge weights encode the criteria in their order, most significant first:

1. C.4 completion: as many pairs as possible (maximum cardinality);
2. C.3 for players who are not topscorers: broken only when no pairing keeps it, and
   then for as few players as possible;
3. C.5: score group by score group from the top, as few downfloaters as possible;
4. C.6: the score differences of the pairs, the largest first (the PSD);
5. C.8, C.9: topscorers (last round) past ±2 or given a colour three times in a row;
6. C.10, C.11: colour preferences missed, then strong ones missed;
7. C.12-C.15: the same float as in the previous round, as two rounds before;
8. the order of transpositions and exchanges (D), approximated: the lowest-ranked
   players float, a downfloater meets the top of the group below, S1[i] meets S2[i].

C.1 (no repeat) and C.2 (no second bye) are edges left out of the graph. Each criterion
is a digit of a mixed-radix integer wide enough that no sum of lower digits carries into
it, so the heaviest matching is the lexicographically best pairing. Pure: networkx only.

That is how the 2017 reading pairs a round. The 2026 text (up to 200 players) groups the
digits by bracket (bracket_radices, with C.7 and C.16-C.19) and pairs the brackets one at
a time as the handbook does, with the exact order of exchanges and transpositions
(top_down, brackets.py); above 200 players it uses the windowed bracket mode here.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from .brackets import MatchingGraph, pair_top_down
from .events import DUTCH_2026, OLD_DUTCH
from .pairing import (
    DOWN,
    NORTH,
    SOUTH,
    STRONG,
    UP,
    NoPairing,
    SwissPairing,
    SwissPlayer,
    allocate,
    colour_difference,
    is_topscorer,
    preference,
    ranks_before,
)

BYE_NODE = 0  # player numbers start at 1


@dataclass(frozen=True)
class Field:
    """The round's players and the weight of each criterion."""

    ranked: tuple  # by score, then pairing number (A.2)
    final_round: int | None
    group: dict  # number -> score group index, 0 = the top group
    pos: dict  # number -> place within the score group, 0 = its highest-ranked
    sizes: tuple  # players per score group
    lowest: int  # the lowest score
    unit: dict  # criterion -> its multiplier
    base: int  # above every edge's cost: weights stay positive
    float_prefix: tuple  # [b]: the C.5 digits of the groups above b, summed
    initial: str = SOUTH  # the tournament's initial colour (E.5)
    rules: str = OLD_DUTCH
    scores: tuple = ()  # the score of each group, highest first

    @property
    def by_bracket(self) -> bool:
        """The 2026 order of criteria: every criterion of a bracket before the next bracket's."""
        return self.rules == DUTCH_2026

    def key(self, name: str, bracket: int) -> object:
        return (name, bracket) if self.by_bracket else name

    @property
    def widest(self) -> int:
        return max(self.sizes)


def make_field(
    ranked: list[SwissPlayer], final_round: int | None, initial: str = SOUTH, rules: str = OLD_DUTCH
) -> Field:
    scores = sorted({p.score for p in ranked}, reverse=True)
    index = {s: i for i, s in enumerate(scores)}
    group, pos, sizes = {}, {}, [0] * len(scores)
    for p in ranked:
        g = index[p.score]
        group[p.number], pos[p.number] = g, sizes[g]
        sizes[g] += 1
    widest = max(sizes)
    max_sd = scores[0] - scores[-1] + 2  # a bye counts one point below the lowest score (C.6)
    if rules == DUTCH_2026:
        unit, base = bracket_radices(len(ranked) + 1, len(scores), max_sd, widest)
    else:
        unit, base = radices(len(ranked) + 1, len(scores), max_sd, widest)
    prefix = [0]
    for b in range(len(scores)):
        ahead = unit.get(("c7float", b - 1), 0)  # C.7: a downfloater of b seen from the bracket above
        prefix.append(prefix[-1] + unit[("float", b)] + ahead)
    sizes_, prefix_ = tuple(sizes), tuple(prefix)
    return Field(
        tuple(ranked), final_round, group, pos, sizes_, scores[-1], unit, base, prefix_, initial, rules, tuple(scores)
    )


def radices(nodes: int, groups: int, max_sd: int, widest: int) -> tuple[dict, int]:
    """Each criterion's multiplier, least significant first; a radix holds a whole round's sum."""
    pairs = nodes // 2 + 1
    digits: list[tuple[object, int]] = [("order_mdp", widest * widest), ("order_gap", order_gap_max(widest))]
    digits += [("order_float", widest * (widest + 1) + widest)]
    digits += [(name, 1) for name in ("c15", "c14", "c13", "c12")]
    digits += [(name, 2) for name in ("c11", "c10", "c9", "c8")]
    digits += [(("sd", v), 1) for v in range(1, max_sd + 1)]
    digits += [(("float", b), 1) for b in reversed(range(groups))]
    digits += [("bye_score", max_sd)]
    digits += [("absolute", 2)]
    unit, running = {}, 1
    for name, most in digits:
        unit[name] = running
        running *= pairs * most + 1
    return unit, running


def bracket_radices(nodes: int, groups: int, max_sd: int, widest: int) -> tuple[dict, int]:
    """The 2026 order: the brackets top down, each settled before the next (C.5 its
    downfloaters, C.6 its score differences with its downfloaters', C.8-C.15 its pairs'
    colours and floats); then the order of transpositions and exchanges."""
    pairs = nodes // 2 + 1
    digits: list[tuple[object, int]] = [("order_mdp", widest * widest), ("order_gap", order_gap_max(widest))]
    digits += [("order_float", widest * (widest + 1) + widest)]
    digits += [("bye_rank", nodes)]
    for b in reversed(range(groups)):
        digits += [(("floater_rank", b), widest)]
        digits += [((name, b, v), 1) for name in ("c19", "c18", "c17", "c16") for v in range(1, max_sd + 1)]
        digits += [((name, b), 1) for name in ("c15", "c14", "c13", "c12")]
        digits += [((name, b), 2) for name in ("c11", "c10", "c9", "c8")]
        digits += [(("bye_unplayed", b), nodes)]  # 2026 text's C.9, after the next bracket's
        if b + 1 < groups:  # C.7: the next bracket's pairs, then its score differences
            digits += [(("c7sd", b, v), 2) for v in range(1, max_sd + 1)]
            digits += [(("c7float", b), 1)]
        digits += [(("sd", b, v), 2) for v in range(1, max_sd + 1)]
        digits += [(("float", b), 1)]
    digits += [("bye_score", max_sd)]
    digits += [("absolute", 2)]
    unit, running = {}, 1
    for name, most in digits:
        unit[name] = running
        running *= pairs * most + 1
    unit["bye_unplayed"] = sum(unit[("bye_unplayed", b)] for b in range(groups))  # each bracket its own digit
    return unit, running


def order_gap_max(widest: int) -> int:
    return (2 * widest + 1) * widest


# --------------------------------------------------------------------------- edge costs


def pair_cost(f: Field, p: SwissPlayer, q: SwissPlayer) -> int:
    """What pairing ``p`` (ranked first) with ``q`` costs, criterion by criterion."""
    south, _ = allocate(p, q, f.initial)
    top = is_topscorer(p, f.final_round) or is_topscorer(q, f.final_round)
    b = f.group[q.number]  # the bracket the pair is made in: the lower player's
    cost = seat_cost(f, p, SOUTH if south is p else NORTH, top, b)
    cost += seat_cost(f, q, NORTH if south is p else SOUTH, top, b)
    cost += floaters_cost(f, f.group[p.number], b)
    sd = p.score - q.score
    if sd:
        cost += f.unit[("sd", b, sd) if f.by_bracket else ("sd", sd)] + f.unit.get(("c7sd", b - 1, sd), 0)
        cost += float_cost(f, p, DOWN, f.group[p.number]) + float_cost(f, q, UP, b) + downfloater_sds(f, p, b)
        cost += repeated_float_sd(f, p, DOWN, b, sd) + repeated_float_sd(f, q, UP, b, sd)
    return cost + order_cost(f, p, q)


def repeated_float_sd(f: Field, x: SwissPlayer, kind: str, bracket: int, sd: int) -> int:
    """2026 order, C.16-C.19: the score difference of a player given the same float as in
    the previous round, as two rounds before, in the bracket the pair is made in (a digit
    per difference: the largest first)."""
    if not f.by_bracket:
        return 0
    last, before = {DOWN: ("c16", "c18"), UP: ("c17", "c19")}[kind]
    cost = (x.floats[-1:] == (kind,)) * f.unit[(last, bracket, sd)]
    return cost + (x.floats[-2:-1] == (kind,)) * f.unit[(before, bracket, sd)]


def downfloater_sds(f: Field, p: SwissPlayer, lower: int) -> int:
    """2026 order: in each bracket p floats out of, his score difference is his score less
    one point below the bracket's residents' score (C.6 counts it with the bracket's pairs)."""
    if not f.by_bracket:
        return 0
    cost = 0
    for b in range(f.group[p.number], lower):
        sd = p.score - f.scores[b] + 2
        cost += f.unit[("sd", b, sd)] + f.unit.get(("c7sd", b - 1, sd), 0)
        cost += repeated_float_sd(f, p, DOWN, b, sd)  # C.16, C.18 count it there too
    return cost


def bye_cost(f: Field, p: SwissPlayer, unplayed: bool = True) -> int:
    """The bye: p floats below the lowest group (C.5, C.6); no game, so no float (A.4.b).
    ``unplayed``: with the 2026 text's C.9 (the fewest unplayed games of the bye's
    player), which counts only in a bracket whose one downfloater takes the bye."""
    cost = floaters_cost(f, f.group[p.number], len(f.sizes))
    if f.rules == DUTCH_2026:  # the bye to the lowest score that lets the round be completed
        cost += (p.score - f.lowest) * f.unit["bye_score"] + downfloater_sds(f, p, len(f.sizes))
        cost += float_cost(f, p, DOWN, f.group[p.number])  # the bye is a downfloat (1.4.3)
        cost += unplayed * p.unplayed * f.unit["bye_unplayed"]  # C.9: the fewest unplayed games
        cost += (len(f.ranked) - 1 - f.ranked.index(p)) * f.unit["bye_rank"]  # then to the lowest-ranked
    else:
        cost += f.unit[("sd", p.score - f.lowest + 2)]
    below = f.sizes[f.group[p.number]] - 1 - f.pos[p.number]
    if f.by_bracket:
        cost += below * f.unit[("floater_rank", f.group[p.number])]
    else:
        cost += below * (f.widest + 1) * f.unit["order_float"]
    return cost + gap_cost(f, None) + f.widest**2 * f.unit["order_mdp"]


def seat_cost(f: Field, x: SwissPlayer, colour: str, top: bool, bracket: int = 0) -> int:
    diff = colour_difference(x) + (1 if colour == SOUTH else -1)
    wide, row = abs(diff) > 2, x.colours[-2:] == (colour, colour)
    if top:  # C.8, C.9: the leaders' last round may break the colour rule, as little as possible
        cost = wide * f.unit[f.key("c8", bracket)] + row * f.unit[f.key("c9", bracket)]
    else:
        cost = (wide or row) * f.unit["absolute"]
    want, strength = preference(x)
    if want is not None and want != colour:
        cost += f.unit[f.key("c10", bracket)] + (f.unit[f.key("c11", bracket)] if strength >= STRONG else 0)
    return cost


def floaters_cost(f: Field, upper: int, lower: int) -> int:
    """C.5: the upper player is a downfloater of every bracket from his own to the one above the lower."""
    return f.float_prefix[lower] - f.float_prefix[upper]


def float_cost(f: Field, x: SwissPlayer, kind: str, bracket: int = 0) -> int:
    last, before = {DOWN: ("c12", "c14"), UP: ("c13", "c15")}[kind]
    cost = (x.floats[-1:] == (kind,)) * f.unit[f.key(last, bracket)]
    return cost + (x.floats[-2:-1] == (kind,)) * f.unit[f.key(before, bracket)]


def order_cost(f: Field, p: SwissPlayer, q: SwissPlayer) -> int:
    """D, approximated: a downfloater is the lowest of its group and meets the highest of
    the lower one, the moved-down players in their order against the residents in theirs;
    inside a group, the gaps between partners as wide and as even as possible, which is
    S1[i] against S2[i] when nothing else decides."""
    gp, gq = f.group[p.number], f.group[q.number]
    if gp == gq:
        return gap_cost(f, abs(f.pos[p.number] - f.pos[q.number])) + f.widest**2 * f.unit["order_mdp"]
    below = f.sizes[gp] - 1 - f.pos[p.number]
    if f.by_bracket:  # who floats is decided in his own bracket, before the brackets below
        cost = below * f.unit[("floater_rank", gp)] + f.pos[q.number] * f.unit["order_float"] + gap_cost(f, None)
    else:
        cost = (below * (f.widest + 1) + f.pos[q.number]) * f.unit["order_float"] + gap_cost(f, None)
    aligned = f.pos[p.number] * f.pos[q.number]  # largest when sorted meets sorted
    return cost + (f.widest**2 - aligned) * f.unit["order_mdp"]


def gap_cost(f: Field, gap: int | None) -> int:
    """A concave reward for the gap: the widest total first, then the most even gaps."""
    reach = 2 * f.widest + 1
    reward = 0 if gap is None else reach * gap - gap * gap
    return (order_gap_max(f.widest) - reward) * f.unit["order_gap"]


# --------------------------------------------------------------------------- the matching

EXACT_LIMIT = 32  # up to this many players, one matching over the whole round (2017 text)
TOP_DOWN_LIMIT = 200  # the 2026 text: the handbook's process up to this many players, windows above
WINDOW = 5  # larger fields: a score group's S1 and S2 are paired this many at a time


def choose(ranked: list[SwissPlayer], final_round: int | None, initial: str = SOUTH, rules: str = OLD_DUTCH):
    """(pairs (higher, lower), the bye's player or None, players whose C.3 gave way)."""
    f = make_field(ranked, final_round, initial, rules)
    if rules == DUTCH_2026:
        found = top_down(f) if len(ranked) <= TOP_DOWN_LIMIT else by_brackets(f)
    else:
        found = by_brackets(f) if len(ranked) > EXACT_LIMIT else None
    pairs, bye = found if found is not None else whole_round(f)
    return pairs, bye, relaxed_players(f, pairs)


def top_down(f: Field):
    """The 2026 text's process, bracket by bracket (brackets.py); None when it finds no
    pairing that completes the round (the whole round is matched at once then)."""

    def weigh_for(bracket: int, unplayed: bool):
        """The bracket's digits (C.5-C.19, with C.7's of the next bracket, and the bye's
        unplayed games when ``unplayed``), under the bye's score and C.3. The brackets
        above are settled: what their digits count of this bracket's choices (its
        floaters and score differences seen by C.7 from above) the bracket's own digits
        count the same, so they are left out, and the numbers the matching adds stay short."""
        cut = f.unit[("c19", bracket, 1)]  # the bracket's lowest quality digit
        top = f.unit[("floater_rank", bracket - 1)] if bracket else f.unit["bye_score"]
        span = top // cut
        bye_span = f.unit["absolute"] // f.unit["bye_score"]

        def compact(cost: int) -> int:
            above = (cost // f.unit["absolute"]) * bye_span + (cost // f.unit["bye_score"]) % bye_span
            return above * span + (cost % top) // cut

        known: dict = {}

        def weigh(p: SwissPlayer, q: SwissPlayer | None) -> int:
            key = (p.number, q.number if q is not None else 0)
            if key not in known:
                if q is None:
                    known[key] = compact(bye_cost(f, p, unplayed))
                else:
                    known[key] = compact(pair_cost(f, p, q) if ranks_before(p, q) else pair_cost(f, q, p))
            return known[key]

        return weigh

    def breaks(p: SwissPlayer, q: SwissPlayer) -> bool:
        return bool(relaxed_players(f, [(p, q) if ranks_before(p, q) else (q, p)]))

    first = without_history(f)
    if first is not None:
        return first
    takers = bye_takers(f)
    weighs: dict = {}

    def weigh_once(bracket: int, unplayed: bool = False):
        if (bracket, unplayed) not in weighs:
            weighs[bracket, unplayed] = weigh_for(bracket, unplayed)
        return weighs[bracket, unplayed]

    found = None
    if takers:  # the bye's first digit: the lowest score
        first = min(p.score for p in f.ranked if p.number in takers)
        preferred = {p.number for p in f.ranked if p.number in takers and p.score == first}
        found = pair_top_down(list(f.ranked), f.group, weigh_once, preferred, breaks)
    if found is None:
        found = pair_top_down(list(f.ranked), f.group, weigh_once, takers, breaks)
    if found is None:
        return None
    pairs, bye = found
    return [tuple(sorted(pq, key=lambda x: (-x.score, x.rank))) for pq in pairs], bye


def without_history(f: Field) -> tuple[list, SwissPlayer | None] | None:
    """A round no player has a history for (the first, or one after rounds nobody played
    in: no game, bye, seat or float, one score, the same number of rounds unplayed): one
    bracket whose candidates tie on every criterion (nobody has met, wants a seat or has
    floated; one floater at most, the bye's), so the first candidate is the pairing: S1,
    its top half, against S2 in order, and in an odd field the lowest-ranked player, the
    last of S2, takes the bye (C.04.3's round 1). None when some player has a history."""
    ranked = f.ranked
    if len(f.sizes) != 1 or len({p.unplayed for p in ranked}) != 1:
        return None
    if any(p.opponents or p.colours or p.had_bye or any(p.floats) for p in ranked):
        return None
    half = len(ranked) // 2
    return list(zip(ranked[:half], ranked[half : 2 * half])), ranked[-1] if len(ranked) % 2 else None


def bye_takers(f: Field) -> set:
    """C.2: who may take the bye; a second one only once everyone has had one."""
    if len(f.ranked) % 2 == 0:
        return set()
    return {p.number for p in f.ranked if not p.had_bye} or {p.number for p in f.ranked}


def whole_round(f: Field, players: list | None = None):
    """The best pairing of ``players`` (the whole round by default): a maximum-cardinality,
    maximum-weight matching; NoPairing when it cannot place everyone."""
    players = list(f.ranked) if players is None else players
    g = MatchingGraph()
    g.add_nodes_from(p.number for p in players)
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if q.number not in p.opponents:  # C.1
                g.add_edge(p.number, q.number, weight=f.base - pair_cost(f, p, q))
    if len(players) % 2:
        for p in players:
            if p.number in bye_takers(f):
                g.add_edge(BYE_NODE, p.number, weight=f.base - bye_cost(f, p))
    matching = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(matching) != len(players) + len(players) % 2:
        raise NoPairing(why_unpaired(g, matching, len(players)))
    return split(f, matching)


def split(f: Field, matching) -> tuple[list, SwissPlayer | None]:
    by_number = {p.number: p for p in f.ranked}
    pairs, bye = [], None
    for a, b in matching:
        if BYE_NODE in (a, b):
            bye = by_number[a or b]
            continue
        p, q = sorted((by_number[a], by_number[b]), key=lambda x: (-x.score, x.rank))
        pairs.append((p, q))
    return pairs, bye


def by_brackets(f: Field):
    """Large fields, as the handbook pairs: bracket by bracket from the top, each window of
    a bracket optimised by the same weights with the next group's top in view (so a
    downfloater is one the group below can take, C.7). When the last bracket cannot be
    completed, the brackets above it are reopened one by one and paired with it as one
    (the handbook's collapsed last bracket); None if even the whole round fails that way."""
    groups = [[p for p in f.ranked if f.group[p.number] == g] for g in range(len(f.sizes))]
    carry: list[SwissPlayer] = []
    takers, made, bye = bye_takers(f), [], None  # made: (group, pair)
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


def collapse(f: Field, made: list, carry: list, bye: SwissPlayer | None):
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


def natural_pairs(players: list) -> list | None:
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


def grants_both(p: SwissPlayer, q: SwissPlayer) -> bool:
    south, north = allocate(p, q)
    return preference(south)[0] in (None, SOUTH) and preference(north)[0] in (None, NORTH)


def windows(residents: list) -> list[list]:
    """S1[i:i+W] with S2[i:i+W], top down: partners S1[i]-S2[i] fall in one window."""
    half = len(residents) // 2
    s1, s2 = residents[:half], residents[half:]
    if len(residents) <= 2 * WINDOW:
        return [residents]
    return [s1[i : i + WINDOW] + s2[i : i + WINDOW] for i in range(0, len(s2), WINDOW)]


def window_matching(f: Field, players: list, ahead: list, takers: set, last: bool = True):
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
            g.add_edge(BYE_NODE, p.number, weight=f.base - bye_cost(f, p))
    by_number = {p.number: p for p in players}
    pairs, taker = [], None
    for a, b in nx.max_weight_matching(g):
        if a in by_number and b in by_number:
            pairs.append(tuple(sorted((by_number[a], by_number[b]), key=lambda x: (-x.score, x.rank))))
        elif BYE_NODE in (a, b):
            taker = by_number[a or b]
    return pairs, taker


def relaxed_players(f: Field, pairs: list) -> list[SwissPlayer]:
    """Who (not a topscorer's pair) plays with the absolute colour rule broken."""
    broken = []
    for p, q in pairs:
        if is_topscorer(p, f.final_round) or is_topscorer(q, f.final_round):
            continue
        south, north = allocate(p, q, f.initial)
        broken += [x for x, c in ((south, SOUTH), (north, NORTH)) if seat_cost(f, x, c, False) >= f.unit["absolute"]]
    return broken


def why_unpaired(g: nx.Graph, matching: set, players: int) -> str:
    """Exactly why no pairing keeps C.1 (no repeat) and C.2 (no second bye)."""
    alone = sorted(n for n in g.nodes if n != BYE_NODE and all(m == BYE_NODE for m in g[n]))
    matched = {n for edge in matching for n in edge}
    left = sorted(n for n in g.nodes if n not in matched and n != BYE_NODE)
    boards = sum(1 for a, b in matching if BYE_NODE not in (a, b))
    rules = "a repeat game (C.1) or a second bye (C.2)" if BYE_NODE in g else "a repeat game (C.1)"
    if alone:
        detail = f"player(s) {', '.join(map(str, alone))} have met every other player of the round"
    else:
        detail = f"at most {boards} boards for {players} players, player(s) {', '.join(map(str, left))} left over"
    return f"every pairing of this round needs {rules}: {detail}; pair it manually"


def pair_swiss(
    players: list[SwissPlayer], final_round: int | None = None, initial: str = SOUTH, rules: str = OLD_DUTCH
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


def seat(pairs: list, initial: str = SOUTH, rules: str = OLD_DUTCH) -> tuple:
    """Order the boards (C.04.2: the higher score of the pair, the sum, then the rank of the
    pair's higher player by A.2 — score, then pairing number; the 2017 reading here took
    the better pairing number of the two) and give each pair its seats."""

    def third(pq) -> int:
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
