"""A team event over HTTP: a registry team entered (its arbiter), the team standings and the
team matches (anyone, the broadcast delay holding as for every read; a tournament not of
teams has neither: 404). Pairing, the boards' games and their results go through the
tournament endpoints as in every event."""

from __future__ import annotations

from flask import Blueprint, Flask

from recorder.tournaments import team_tiebreaks, team_views
from recorder.tournaments import teams as teams_rules
from schemas.teams import team_entry_schema, team_matches_schema, team_standings_schema

from . import openapi
from .broadcast import visible_state_of
from .team_events_openapi import document_team_event_paths
from .teams import teams
from .tournaments import body, respond, tournament_answer, tournament_view, tournaments, write_options

bp = Blueprint("team_events", __name__, url_prefix="/api/tournaments")
openapi.EXTENSIONS.append(document_team_event_paths)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


@bp.post("/<tournament_id>/teams")
def enter_team(tournament_id: str):
    raw = body()
    data = team_entry_schema.load(raw)
    written = tournaments().enter_team(tournament_id, teams().entry(data["team_id"]), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.get("/<tournament_id>/team-standings")
def get_team_standings(tournament_id: str):
    view, standings = tournaments().team_standings(tournament_id, visible_state_of)
    t = team_views.of_teams(view.tournament)
    rows = teams_rules.standings_json(t, standings)
    order = team_tiebreaks.order_of(t)
    answer = {
        "tournament_id": t.tournament_id,
        "primary": team_tiebreaks.PRIMARY[order[0]],
        "order": order,
        "status": view.status,
        "standings": rows,
    }
    return respond(team_standings_schema.dump(answer), t.version)


@bp.get("/<tournament_id>/team-matches")
def get_team_matches(tournament_id: str):
    view = tournament_view(tournament_id, visible_state_of)
    t = team_views.of_teams(view.tournament)
    answer = {
        "tournament_id": t.tournament_id,
        "team_boards": t.team_boards,
        "status": view.status,
        "rounds": team_views.team_matches_json(view),
    }
    return respond(team_matches_schema.dump(answer), t.version)
