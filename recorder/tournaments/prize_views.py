"""JSON-ready views of a tournament's categories: standings by category and the prize list (pure).

``particulars`` maps each entrant's number to what decides his categories
(``categories.Particulars``: the registry's sex, birth year and club beside the entry's
federation and rating), read by the caller. Places come from the standings as they are,
tie-breaks included; a category's standings keep the overall rank beside its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from recorder.errors import NotFound

from .categories import Particulars, members, prizes_of
from .prizes import Ranked, allocate, offered
from .views import standing_json


def categories_json(t) -> list[dict]:
    return [dict(c) for c in t.categories]


def find_category(t, code: str) -> dict:
    found = next((c for c in t.categories if c["code"] == code), None)
    if found is None:
        raise NotFound(f"no category {code!r} in {t.tournament_id}", category=code)
    return found


def category_standings_json(view, particulars: Mapping[int, Particulars], code: str) -> dict:
    """The standings of one category's players: their place in it, beside the overall rank
    (the shape of ``views.standings_json``, with the category; the standings made once)."""
    t = view.tournament
    category = find_category(t, code)
    belonging = members([category], particulars)[code]
    ranked = [s for s in view.standings() if s.number in belonging]
    rows = []
    for s in ranked:
        place = 1 + sum(1 for other in ranked if other.rank < s.rank)  # a shared rank stays shared
        rows.append({**standing_json(view, s), "overall_rank": s.rank, "rank": place})
    played = sum(1 for rnd in t.rounds if all((rnd.number, b.board) in view.outcomes for b in rnd.boards))
    return {
        "tournament_id": t.tournament_id,
        "status": view.status,
        "rounds_played": played,
        "tiebreaks": list(t.tiebreaks),
        "category": category,
        "standings": rows,
    }


def prizes_json(view, particulars: Mapping[int, Particulars]) -> dict:
    """The prize list and who is paid what, by the standings as they are now (``final``
    once the tournament is finished)."""
    t = view.tournament
    standings = view.standings() if t.prizes else []  # the page asks on every move: no list, no standings
    ranking = [Ranked(s.number, s.points) for s in standings]
    prizes = prizes_of(t)
    awards = allocate(ranking, members(t.categories, particulars), prizes, t.prize_sharing)
    by_prize = {a.prize: a for a in awards if a.prize is not None}
    rank = {s.number: s.rank for s in standings}
    return {
        "tournament_id": t.tournament_id,
        "status": view.status,
        "final": view.status == "finished",
        "sharing": t.prize_sharing,
        "currency": t.currency,
        "offered": offered(prizes),
        "paid": sum(a.amount for a in awards),
        "categories": categories_json(t),
        "prizes": [
            {**stored, "taken_by": by_prize[i].number if i in by_prize else None} for i, stored in enumerate(t.prizes)
        ],
        "awards": [
            {
                "number": a.number,
                "name": t.seated(a.number).name,
                "name_geez": view.names_geez.get(a.number),
                "rank": rank[a.number],
                "category": a.category,
                "place": prizes[a.prize].place if a.prize is not None else None,
                "amount": a.amount,
                "shared_places": list(a.pool),
                "sharers": a.sharers,
            }
            for a in awards
        ],
    }
