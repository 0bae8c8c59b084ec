"""A 2026 bracket that floats players, settled against places below it instead of the
players below, when its floaters leave the next bracket completely paired (C.7 is at its
best then, whichever players float). Each floater's place is checked once the round is
paired (dutch_2026.first_wrong_place).
"""

from __future__ import annotations

from .candidates import BracketState, settle_bracket
from .shortcuts import next_complete
from .swiss import Assumed, Pairs, Players, SwissPlayer, Weigh


class PlaceBelow(SwissPlayer):
    """A place below the bracket for one floater: what floating costs a bracket player
    does not depend on whom of the next group he meets (those digits are the brackets
    below), only on his own score and floats."""


def floating(
    bracket: Players,
    mdps: Players,
    residents: Players,
    lower: list[Players],
    weigh: Weigh,
    takers: set[int],
    assumed: Assumed,
) -> Pairs | None:
    """A bracket that floats players, settled against places below it instead of
    the players below, when its floaters leave the next bracket completely paired: then
    C.7 is at its best whichever players float (their scores are C.6's). None when the
    players below must be weighed (C.7) or no such pairing exists. ``assumed`` gets each
    floater with what his place cost, checked once the round is paired."""
    if any(p.number in takers for p in bracket + lower[0]):
        return None  # who may take the bye is weighed with the brackets below (C.4)
    floats = cheapest_floats(bracket, lower, weigh)
    for places in (len(bracket) % 2 + 2, len(bracket)):
        step = BracketState(
            bracket + places_below(places, bracket, floats),
            {p.number for p in bracket},
            weigh_places_below(weigh, floats),
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


def cheapest_floats(bracket: Players, lower: list[Players], weigh: Weigh) -> dict[int, int]:
    """Each player's cheapest partner in the first group below that has one (C.3 counts)."""
    floats = {}
    for p in bracket:
        for g in lower:
            costs = [weigh(p, q) for q in partners_by_colours(g, p)]
            if costs:
                floats[p.number] = min(costs)
                break
    return floats


def places_below(places: int, bracket: Players, floats: dict[int, int]) -> Players:
    """``places`` places below the bracket, numbered -1, -2, ...: a player who has a place
    to float to may meet any of them; one who has none has met them all, and so have the
    places each other."""
    cannot_float = set(floats) ^ {x.number for x in bracket}
    return [PlaceBelow(-k, 10**9, -1, frozenset(set(range(-places, 0)) | cannot_float)) for k in range(1, places + 1)]


def partners_by_colours(group: Players, p: SwissPlayer) -> Players:
    """A player of ``group`` for each colour history among those ``p`` has not met. Weighed
    for a bracket above, a pair with a player of one group differs by his colours alone (C.3,
    the seats): his score is the group's, and his floats, rank and seat preferences count
    in the group's own digits, left out until it is paired."""
    one_each: dict[tuple[str, ...], SwissPlayer] = {}
    for q in group:
        if q.number not in p.opponents:
            one_each.setdefault(q.colours, q)
    return list(one_each.values())


def weigh_places_below(weigh: Weigh, floats: dict[int, int]) -> Weigh:
    def cost(p: SwissPlayer, q: SwissPlayer | None) -> int:
        if q is not None and q.number < 0:
            return floats[p.number]
        return weigh(p, q)

    return cost
