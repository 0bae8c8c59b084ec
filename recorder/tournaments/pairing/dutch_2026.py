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
from dataclasses import dataclass, field

from .candidates import BracketState, settle_bracket
from .criteria import Field, bye_cost, bye_takers, pair_cost, relaxed_players
from .floaters import floating
from .shortcuts import fewest_missed, perfect_candidate
from .swiss import Assumed, Breaks, Paired, Pairs, Players, SwissPlayer, Weigh, WeighFor, in_rank_order, ranks_before


def top_down(f: Field) -> Paired | None:
    """The 2026 text's process, bracket by bracket (``pair_top_down``); None when it finds
    no pairing that completes the round (the whole round is matched at once then)."""

    def weigh_for(bracket: int, unplayed: bool) -> Weigh:
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

        known: dict[tuple[int, int], int] = {}

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
    weighs: dict[tuple[int, bool], Weigh] = {}

    def weigh_once(bracket: int, unplayed: bool = False) -> Weigh:
        if (bracket, unplayed) not in weighs:
            weighs[bracket, unplayed] = weigh_for(bracket, unplayed)
        return weighs[bracket, unplayed]

    found = None
    if takers:  # the bye's first digit: the lowest score
        lowest = min(p.score for p in f.ranked if p.number in takers)
        preferred = {p.number for p in f.ranked if p.number in takers and p.score == lowest}
        found = pair_top_down(list(f.ranked), f.group, weigh_once, preferred, breaks)
    if found is None:
        found = pair_top_down(list(f.ranked), f.group, weigh_once, takers, breaks)
    if found is None:
        return None
    pairs, bye = found
    return [in_rank_order(p, q) for p, q in pairs], bye


def without_history(f: Field) -> Paired | None:
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


@dataclass
class TopDown:
    """Where the pairing of the brackets stands, and what it has learnt on the way back up."""

    groups: list[Players]
    exact_from: int  # brackets from this one on weigh every player below
    exact_alone: set[int] = field(default_factory=set)  # brackets whose places below proved wrong: weighed exactly
    single_bye: set[int] = field(default_factory=set)  # brackets that float one player only, the bye's: C.9 counts
    assumed: dict[int, Assumed] = field(default_factory=dict)  # bracket -> floater -> the cost its places below assumed
    saved: list[tuple[int, Players]] = field(default_factory=list)  # before each bracket: pairs made, its MDPs
    pairs: Pairs = field(default_factory=list)
    mdps: Players = field(default_factory=list)

    def back_to(self, b: int) -> int:
        """Undo bracket ``b`` and every bracket after it."""
        del self.pairs[self.saved[b][0] :]
        self.mdps = self.saved[b][1]
        return b

    def advance(self, b: int, made: Pairs) -> None:
        """Bracket ``b`` settled: its pairs kept, its unpaired players the next one's MDPs."""
        self.pairs += made
        placed = {x.number for pq in made for x in pq}
        self.mdps = [p for p in self.mdps + self.groups[b] if p.number not in placed]

    def retreat(self, b: int) -> int | None:
        """Bracket ``b`` found no pairing: settle it again exactly when it looked only so far
        down, else one more bracket above it too; None when even the first one did."""
        if b < self.exact_from:
            self.exact_from = b
        elif self.exact_from == 0:
            return None
        else:
            self.exact_from -= 1
        return self.back_to(self.exact_from)


def pair_top_down(
    ranked: Players, group: dict[int, int], weigh_for: WeighFor, takers: set[int], breaks: Breaks
) -> Paired | None:
    """Every bracket in turn from the top: (pairs, the bye's player); None when no pairing
    completes the round. A bracket is first settled looking only as far down as C.7 asks;
    when a bracket below then finds no pairing, the brackets from the one above it are
    settled again weighing the round's completion (C.4) exactly: the bracket itself
    first, then one more above it each time."""
    groups = score_groups(ranked, group)
    run = TopDown(groups, exact_from=len(groups))
    b: int | None = 0
    while b is not None:
        if b == len(groups) and (not run.mdps or (len(run.mdps) == 1 and run.mdps[0].number in takers)):
            bye = run.mdps[0] if run.mdps else None
            again = bracket_to_settle_again(run, ranked, group, weigh_for, takers, bye)
            if again is None:
                return run.pairs, bye
            b = run.back_to(again)
            continue
        made = settle_next(run, b, weigh_for, takers, breaks) if b < len(groups) else None
        if made is None:
            b = run.retreat(b)
            continue
        run.advance(b, made)
        b += 1
    return None


def score_groups(ranked: Players, group: dict[int, int]) -> list[list[SwissPlayer]]:
    groups: list[list[SwissPlayer]] = []
    for p in ranked:
        if group[p.number] == len(groups):
            groups.append([])
        groups[-1].append(p)
    return groups


def settle_next(run: TopDown, b: int, weigh_for: WeighFor, takers: set[int], breaks: Breaks) -> Pairs | None:
    """Bracket ``b``'s pairs, exactly when it or a bracket above has had to be; None when
    it finds none, or breaks C.3 while a bracket above has not weighed it exactly."""
    run.saved[b:] = [(len(run.pairs), run.mdps)]
    run.assumed[b] = {}
    exact = b >= run.exact_from or b in run.exact_alone
    weigh = weigh_for(b, b in run.single_bye)
    made = settle_group(run.groups, b, run.mdps, weigh, takers, exact, breaks, run.assumed[b])
    if made is not None and run.exact_from > 0 and any(breaks(p, q) for p, q in made):
        return None  # C.3 gives way only when every bracket above weighed it exactly
    return made


def bracket_to_settle_again(
    run: TopDown, ranked: Players, group: dict[int, int], weigh_for: WeighFor, takers: set[int], bye: SwissPlayer | None
) -> int | None:
    """The round is paired: the first bracket to settle again, because C.9 applies to it
    (its only floater takes the bye) or a floater's place below was wrong; None when none."""
    if len({p.unplayed for p in ranked if p.number in takers}) > 1:  # else C.9 cannot choose
        again = only_floater_bracket(run.groups, group, run.saved, run.pairs, bye, run.single_bye)
        if again is not None:
            run.single_bye.add(again)  # that bracket again, weighing C.9
            return again
    again = first_wrong_place(run.pairs, bye, run.assumed, lambda b: weigh_for(b, b in run.single_bye))
    if again is not None:
        run.exact_alone.add(again)  # that bracket again, with every player below in view
    return again


def only_floater_bracket(
    groups: list[Players],
    group: dict[int, int],
    saved: list[tuple[int, Players]],
    pairs: Pairs,
    bye: SwissPlayer | None,
    weighed: set[int],
) -> int | None:
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


def first_wrong_place(
    pairs: Pairs, bye: SwissPlayer | None, assumed: dict[int, Assumed], weigh_for: Callable[[int], Weigh]
) -> int | None:
    """The first bracket settled against places below whose floater met a partner dearer
    than the place assumed (his cheapest partner was taken to complete a bracket further
    down, which the places do not see); None when every floater cost what was assumed,
    and so the bracket's choice is the one weighing every player below gives."""
    partner: dict[int, SwissPlayer | None] = {} if bye is None else {bye.number: None}
    for p, q in pairs:
        partner[p.number], partner[q.number] = q, p
    for b in sorted(assumed):
        for p, cost in assumed[b].values():
            if weigh_for(b)(p, partner[p.number]) != cost:
                return b
    return None


def settle_group(
    groups: list[Players],
    b: int,
    mdps: Players,
    weigh: Weigh,
    takers: set[int],
    exact: bool,
    breaks: Breaks,
    assumed: Assumed,
) -> Pairs | None:
    """Bracket ``b``'s pairs: alone when it pairs within itself, against places below when
    its floaters leave the next bracket whole (``assumed`` gets each floater and the cost
    of his place), else (or ``exact``) with the players below in view."""
    residents = groups[b]
    bracket = mdps + residents
    made = None if exact else settled_without_the_players_below(groups, b, mdps, weigh, takers, breaks, assumed)
    if made is None:
        below, core = scope(groups, b, bracket, exact)
        step = BracketState(bracket + below, {p.number for p in bracket}, weigh, takers, core=core)
        made = settle_bracket(step, mdps, residents)
    return made


def settled_without_the_players_below(
    groups: list[Players], b: int, mdps: Players, weigh: Weigh, takers: set[int], breaks: Breaks, assumed: Assumed
) -> Pairs | None:
    """Bracket ``b`` settled by the first shortcut that applies: its perfect candidate or
    its fewest missed preferences (when no player near it may take the bye), the bracket
    alone, or against places below; None when none applies, or when the pairs it gives
    break C.3 (weighing the players below may keep it)."""
    residents = groups[b]
    bracket = mdps + residents
    made = None
    if not any(p.number in takers for p in bracket + (groups[b + 1] if b + 1 < len(groups) else [])):
        following = (groups[b + 1], groups[b + 2] if b + 2 < len(groups) else []) if b + 1 < len(groups) else None
        made = perfect_candidate(mdps, residents, following)
        if made is None and not mdps:
            made = fewest_missed(residents)
    if made is None:
        made = settled_within_itself(bracket, mdps, residents, weigh, takers)
    if made is None and b + 1 < len(groups):
        made = floating(bracket, mdps, residents, groups[b + 1 :], weigh, takers, assumed)
    if made is not None and any(breaks(p, q) for p, q in made):
        return None
    return made


def scope(groups: list[Players], b: int, bracket: Players, exact: bool) -> tuple[Players, set[int] | None]:
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


def settled_within_itself(
    bracket: Players, mdps: Players, residents: Players, weigh: Weigh, takers: set[int]
) -> Pairs | None:
    """A bracket that pairs every player within itself floats nobody, the best C.5 can
    be, and C.7 has nothing to choose: it is settled without the players below (their
    completion, C.4, is checked by the brackets that follow). None when it cannot, or
    when it holds a player who may take the bye (weighed with the players below)."""
    if len(bracket) % 2 or any(p.number in takers for p in bracket):
        return None
    step = BracketState(list(bracket), {p.number for p in bracket}, weigh, takers)
    return settle_bracket(step, mdps, residents)
