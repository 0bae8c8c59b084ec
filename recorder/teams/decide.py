"""Every check a team's write passes (pure): the names in both scripts, the affiliation,
a roster of distinct registry players in board order and reserves none of them holds."""

from __future__ import annotations

from recorder.errors import InvalidRecord
from recorder.players import is_player_id

from .events import RosterSet, TeamRegistered
from .fold import Team

MAX_NAME = 200
MAX_ROSTER = 20  # board players and reserves together


def _text(body: dict, field: str, *, required: bool = True) -> str | None:
    value = " ".join(str(body.get(field) or "").split())
    if not value:
        if required:
            raise InvalidRecord(f"a team needs its {field}", field=field)
        return None
    if len(value) > MAX_NAME:
        raise InvalidRecord(f"{field} is at most {MAX_NAME} characters", field=field)
    return value


def checked_roster(body: dict) -> tuple[list[str], list[str]]:
    players, reserves = list(body.get("players") or []), list(body.get("reserves") or [])
    if not players:
        raise InvalidRecord("a team's roster names its players in board order, board 1 first", field="players")
    named = players + reserves
    if len(named) > MAX_ROSTER:
        raise InvalidRecord(f"a roster holds at most {MAX_ROSTER} players and reserves", field="players")
    bad = next((p for p in named if not is_player_id(p)), None)
    if bad is not None:
        raise InvalidRecord(f"a roster names registry players by id: {bad!r} is none", field="players")
    if len(set(named)) != len(named):
        raise InvalidRecord("a player holds one place in a roster", field="players")
    return players, reserves


def decide_register(body: dict) -> TeamRegistered:
    players, reserves = checked_roster(body)
    return TeamRegistered(
        name=_text(body, "name") or "",
        name_geez=_text(body, "name_geez") or "",
        federation=_text(body, "federation") or "",
        players=players,
        reserves=reserves,
        club=_text(body, "club", required=False),
    )


def decide_roster(team: Team, body: dict) -> list[RosterSet]:
    players, reserves = checked_roster(body)
    if (tuple(players), tuple(reserves)) == (team.players, team.reserves):
        return []
    return [RosterSet(players=players, reserves=reserves)]
