"""A team event over HTTP: a registry team entered (its arbiter), and the team standings
(anyone, the broadcast delay holding as for every read). Pairing, the boards' games and
their results go through the tournament endpoints as in every event."""

from __future__ import annotations

from flask import Blueprint, Flask

from recorder.teams.fold import Team
from schemas.teams import team_entry_schema, team_standings_schema

from . import openapi
from .broadcast import visible_state_of
from .players import players
from .team_events_openapi import document_team_event_paths
from .teams import teams
from .tournaments import body, respond, tournament_answer, tournaments, write_options

bp = Blueprint("team_events", __name__, url_prefix="/api/tournaments")
openapi.EXTENSIONS.append(document_team_event_paths)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


def registry_team(team: Team) -> dict:
    """The team as the registry reads now: each member's name and federation (a merged
    record's survivor's), which the event keeps as its entrants."""

    def member(player_id: str) -> dict:
        p = players().survivor(player_id)
        return {"player_id": p.player_id, "name": p.name, "federation": p.federation}

    return {
        "team_id": team.team_id,
        "name": team.name,
        "name_geez": team.name_geez,
        "players": [member(p) for p in team.players],
        "reserves": [member(p) for p in team.reserves],
    }


@bp.post("/<tournament_id>/teams")
def enter_team(tournament_id: str):
    raw = body()
    data = team_entry_schema.load(raw)
    team = teams().team(data["team_id"])
    written = tournaments().enter_team(tournament_id, registry_team(team), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.get("/<tournament_id>/team-standings")
def get_team_standings(tournament_id: str):
    view, standings = tournaments().team_standings(tournament_id, visible_state_of)
    t = view.tournament
    named = {entered.number: entered for entered in t.teams}
    rows = [
        {
            "rank": s.rank,
            "team": {
                "number": s.team,
                "id": named[s.team].team_id,
                "name": named[s.team].name,
                "name_geez": named[s.team].name_geez,
            },
            "match_points": s.match_points,
            "game_points": float(s.game_points),
            "played": s.played,
        }
        for s in standings
    ]
    answer = {"tournament_id": t.tournament_id, "primary": "match_points", "status": view.status, "standings": rows}
    return respond(team_standings_schema.dump(answer), t.version)
