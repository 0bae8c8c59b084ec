"""What the registry knows of a tournament's entrants that decides their categories.

The entry gives the federation and the rating at entry; the registry (the record an
entrant names, or the record it was merged into) gives sex, birth year and club, and the
federation when the entry has none. An entrant who names no registry player has only
what his entry says. The registry is read as it stands now until the tournament
finishes; a finished tournament's, as it stood when it finished (``Tournaments.finished_at``),
so a sex, birth year or club corrected after the closing ceremony leaves its categories
and the prizes paid as they were (docs/tournaments.md).
"""

from __future__ import annotations

from recorder.errors import NotFound
from recorder.tournaments.categories import Particulars
from recorder.tournaments.fold import Entrant, Tournament
from recorder.tournaments.service import Tournaments, View

from .fold import RegisteredPlayer
from .service import Players


def entrants_particulars(players: Players, tournaments: Tournaments, view: View) -> dict[int, Particulars]:
    """Entrant number -> his particulars as the view's tournament decides its categories:
    the registry now, or as it stood when the tournament finished."""
    t = view.tournament
    moment = tournaments.finished_at(t) if t.categories and view.status == "finished" else None
    return particulars_of(players, t, moment)


def particulars_of(players: Players, t: Tournament, moment: str | None = None) -> dict[int, Particulars]:
    """Entrant number -> his particulars, from the registry as it stands (or as it stood
    at ``moment``); nothing is read when no category is defined."""
    if not t.categories:
        return {e.number: Particulars() for e in t.entrants}
    return {e.number: particulars(e, registry_record(players, e, moment)) for e in t.entrants}


def sex_and_birth(players: Players, t: Tournament) -> dict[int, tuple[str | None, int | None]]:
    """Entrant number -> (sex, birth year) from the registry, for a TRF's player records."""
    found = {}
    for e in t.entrants:
        p = registry_record(players, e)
        if p is not None:
            found[e.number] = (p.sex, p.birth_year)
    return found


def registry_record(players: Players, e: Entrant, moment: str | None = None) -> RegisteredPlayer | None:
    if e.player_id is None:
        return None
    try:
        return players.survivor(e.player_id) if moment is None else players.survivor_at(e.player_id, moment)
    except NotFound:
        return None


def particulars(e: Entrant, p: RegisteredPlayer | None) -> Particulars:
    if p is None:
        return Particulars(federation=e.federation, rating=e.rating)
    return Particulars(
        sex=p.sex,
        birth_year=p.birth_year,
        federation=e.federation or p.federation,
        club=p.club,
        rating=e.rating,
    )
