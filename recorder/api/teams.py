"""Teams in the registry over HTTP: reads are public; the admin or an arbiter registers a
team, and the admin alone changes a roster (an endpoint missing from access.ACTIONS is the
admin's), since a team's roster may be entered in more than one arbiter's tournament."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, url_for

from recorder.teams.fold import Team
from recorder.teams.service import Teams
from schemas.teams import roster_schema, team_create_schema, team_list_schema, team_query_schema, team_schema

from . import openapi
from .access import recorded_by
from .body import json_body
from .games import idempotency
from .players import players
from .problems import load_query
from .teams_openapi import document_team_paths
from .tournaments import respond, write_options

bp = Blueprint("teams", __name__, url_prefix="/api/teams")
openapi.EXTENSIONS.append(document_team_paths)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


def teams() -> Teams:
    return current_app.extensions["teams"]


def member_json(player_id: str) -> dict:
    p = players().survivor(player_id)  # a merged record answers with its survivor's names
    return {"id": player_id, "name": p.name, "name_geez": p.name_geez}


def team_json(team: Team) -> dict:
    return {
        "id": team.team_id,
        "name": team.name,
        "name_geez": team.name_geez,
        "federation": team.federation,
        "club": team.club,
        "players": [{**member_json(p), "board": board} for board, p in enumerate(team.players, start=1)],
        "reserves": [member_json(p) for p in team.reserves],
        "version": team.version,
    }


def found_json(team: Team) -> dict:
    """A team as a search lists it: names, affiliation and the size of its roster."""
    keys = ("id", "name", "name_geez", "federation", "club")
    summary = dict(zip(keys, (team.team_id, team.name, team.name_geez, team.federation, team.club), strict=True))
    return {**summary, "players": len(team.players), "reserves": len(team.reserves)}


@bp.get("")
def search_teams():
    query = load_query(team_query_schema)
    found = teams().search(query["q"], limit=query["limit"])
    return team_list_schema.dump({"teams": [found_json(team) for team in found]})


@bp.post("")
def register_team():
    raw = json_body()
    written = teams().register(team_create_schema.load(raw), recorded_by=recorded_by(), idempotency=idempotency(raw))
    team = written.team
    location = url_for("teams.get_team", team_id=team.team_id)
    return respond(team_schema.dump(team_json(team)), team.version, 201, Location=location)


@bp.get("/<team_id>")
def get_team(team_id: str):
    team = teams().team(team_id)
    return respond(team_schema.dump(team_json(team)), team.version)


@bp.put("/<team_id>/roster")
def set_roster(team_id: str):
    raw = json_body()
    written = teams().set_roster(team_id, roster_schema.load(raw), **write_options(raw))
    return respond(team_schema.dump(team_json(written.team)), written.team.version)
