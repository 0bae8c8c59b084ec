"""What the registry knows of a tournament's entrants that decides their categories.

The entry gives the federation and the rating at entry; the registry (the record an
entrant names, or the record it was merged into) gives sex, birth year and club, and the
federation when the entry has none. An entrant who names no registry player has only
what his entry says. The registry is read as it stands now: a club changed after the
tournament moves the player's region (docs/tournaments.md).
"""

from __future__ import annotations

from recorder.errors import NotFound
from recorder.tournaments.categories import Particulars
from recorder.tournaments.fold import Entrant, Tournament

from .fold import Player
from .service import Players


def particulars_of(players: Players, t: Tournament) -> dict[int, Particulars]:
    """Entrant number -> his particulars; nothing is read when no category is defined."""
    if not t.categories:
        return {e.number: Particulars() for e in t.entrants}
    return {e.number: particulars(e, registry_record(players, e)) for e in t.entrants}


def sex_and_birth(players: Players, t: Tournament) -> dict[int, tuple[str | None, int | None]]:
    """Entrant number -> (sex, birth year) from the registry, for a TRF's player records."""
    found = {}
    for e in t.entrants:
        p = registry_record(players, e)
        if p is not None:
            found[e.number] = (p.sex, p.birth_year)
    return found


def registry_record(players: Players, e: Entrant) -> Player | None:
    if e.player_id is None:
        return None
    try:
        return players.survivor(e.player_id)
    except NotFound:
        return None


def particulars(e: Entrant, p: Player | None) -> Particulars:
    if p is None:
        return Particulars(federation=e.federation, rating=e.rating)
    return Particulars(
        sex=p.sex,
        birth_year=p.birth_year,
        federation=e.federation or p.federation,
        club=p.club,
        rating=e.rating,
    )
