"""The Dutch system's criteria as the digits of an edge's weight (C.04.3), both texts' orders.

Each criterion is a digit of a mixed-radix integer wide enough that no sum of lower
digits carries into it, so the heaviest matching is the lexicographically best pairing.
The 2017 text orders the digits over the whole round, most significant first:

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

The 2026 text groups the digits by bracket (``bracket_radices``, with C.7 and C.16-C.19).
C.1 (no repeat) and C.2 (no second bye) are edges left out of the graph.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..events import DUTCH_2026, OLD_DUTCH
from .swiss import (
    DOWN,
    NORTH,
    SOUTH,
    STRONG,
    UP,
    Pairs,
    SwissPlayer,
    allocate,
    colour_difference,
    is_topscorer,
    preference,
)

Units = dict[object, int]  # a criterion's digit (a name, with its bracket and score difference) -> its multiplier


@dataclass(frozen=True)
class Field:
    """The round's players and the weight of each criterion."""

    ranked: tuple[SwissPlayer, ...]  # by score, then pairing number (A.2)
    final_round: int | None
    group: dict[int, int]  # number -> score group index, 0 = the top group
    pos: dict[int, int]  # number -> place within the score group, 0 = its highest-ranked
    sizes: tuple[int, ...]  # players per score group
    lowest: int  # the lowest score
    unit: Units  # criterion -> its multiplier
    base: int  # above every edge's cost: weights stay positive
    float_prefix: tuple[int, ...]  # [b]: the C.5 digits of the groups above b, summed
    initial: str = SOUTH  # the tournament's initial colour (E.5)
    rules: str = OLD_DUTCH
    scores: tuple[int, ...] = ()  # the score of each group, highest first

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


def radices(nodes: int, groups: int, max_sd: int, widest: int) -> tuple[Units, int]:
    """Each criterion's multiplier, least significant first; a radix holds a whole round's sum."""
    digits = order_digits(widest)
    digits += [(name, 1) for name in ("c15", "c14", "c13", "c12")]
    digits += [(name, 2) for name in ("c11", "c10", "c9", "c8")]
    digits += [(("sd", v), 1) for v in range(1, max_sd + 1)]
    digits += [(("float", b), 1) for b in reversed(range(groups))]
    return multipliers(digits, nodes, max_sd)


def bracket_radices(nodes: int, groups: int, max_sd: int, widest: int) -> tuple[Units, int]:
    """The 2026 order: the brackets top down, each settled before the next (C.5 its
    downfloaters, C.6 its score differences with its downfloaters', C.8-C.15 its pairs'
    colours and floats); then the order of transpositions and exchanges."""
    digits = order_digits(widest)
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
    unit, running = multipliers(digits, nodes, max_sd)
    unit["bye_unplayed"] = sum(unit[("bye_unplayed", b)] for b in range(groups))  # each bracket its own digit
    return unit, running


def order_digits(widest: int) -> list[tuple[object, int]]:
    """The least significant digits, both texts': the order of transpositions and exchanges."""
    return [
        ("order_mdp", widest * widest),
        ("order_gap", order_gap_max(widest)),
        ("order_float", widest * (widest + 1) + widest),
    ]


def multipliers(digits: list[tuple[object, int]], nodes: int, max_sd: int) -> tuple[Units, int]:
    """Each digit's multiplier, least significant first, then the two most significant of
    both texts, the bye's score and C.3; each digit (name, the most one pair adds to it) is
    wide enough to hold a whole round's sum. Also the base above every edge's cost."""
    pairs = nodes // 2 + 1
    unit: Units = {}
    running = 1
    for name, most in [*digits, ("bye_score", max_sd), ("absolute", 2)]:
        unit[name] = running
        running *= pairs * most + 1
    return unit, running


def order_gap_max(widest: int) -> int:
    return (2 * widest + 1) * widest


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


def bye_takers(f: Field) -> set[int]:
    """C.2: who may take the bye; a second one only once everyone has had one."""
    if len(f.ranked) % 2 == 0:
        return set()
    return {p.number for p in f.ranked if not p.had_bye} or {p.number for p in f.ranked}


def relaxed_players(f: Field, pairs: Pairs) -> list[SwissPlayer]:
    """Who (not a topscorer's pair) plays with the absolute colour rule broken."""
    broken = []
    for p, q in pairs:
        if is_topscorer(p, f.final_round) or is_topscorer(q, f.final_round):
            continue
        south, north = allocate(p, q, f.initial)
        broken += [x for x, c in ((south, SOUTH), (north, NORTH)) if seat_cost(f, x, c, False) >= f.unit["absolute"]]
    return broken
