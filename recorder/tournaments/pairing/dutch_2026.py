"""The 2026 Dutch text (applied from 1 February 2026) up to 200 players: the brackets are
paired top down, each settled completely before the next (FIDE Handbook C.04.3).

Among a bracket's pairings that let the round be completed (C.4) and are best by its
quality criteria (the weight's digits of that bracket, criteria.py, with the next
bracket's pairs and score differences for C.7), it takes the first in the handbook's
order of candidates (candidates.py). A bracket is first settled looking only as far
down as C.7 asks (alone, against places below, or with the next groups in view); when a
bracket below then finds no pairing, the brackets above are settled again weighing the
round's completion exactly.
"""

from __future__ import annotations

from collections.abc import Callable

from .candidates import Step, settle_bracket
from .criteria import Field, bye_cost, bye_takers, pair_cost, relaxed_players
from .floaters import floating
from .shortcuts import fewest_missed, perfect
from .swiss import SwissPlayer, ranks_before


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
