"""Teams in the registry over HTTP: reads are public; the admin or an arbiter registers a
team, and the admin alone changes a roster (an endpoint missing from access.ACTIONS is the
admin's), since a team's roster may be entered in more than one arbiter's tournament."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, url_for

from recorder.teams.fold import Team
from recorder.teams.service import Teams
from schemas.teams import roster_schema, team_create_schema, team_list_schema, team_query_schema, team_schema

from .access import recorded_by
from .body import json_body
from .games import idempotency
from .players import players
from .problems import load_query
from .tournaments import respond, write_options

bp = Blueprint("teams", __name__, url_prefix="/api/teams")


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
    """Find teams by a name in either script, from any word on (or by a team's id)

    ---
    get:
      parameters:
      - {name: q, in: query, schema: {type: string, maxLength: 200}}
      - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100, default: 20}}
      responses:
        200:
          description: The teams found
          content: {application/json: {schema: TeamListSchema}}
        422: Invalid body or illegal move
    """
    query = load_query(team_query_schema)
    found = teams().search(query["q"], limit=query["limit"])
    return team_list_schema.dump({"teams": [found_json(team) for team in found]})


@bp.post("")
def register_team():
    """Register a team: names in both scripts, federation or region, club, roster in board order

    ---
    post:
      description: Needs the admin token or an arbiter token.
      parameters: [Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: TeamCreateSchema}}}
      responses:
        201: {description: The team, content: {application/json: {schema: TeamSchema}}}
    """
    raw = json_body()
    written = teams().register(team_create_schema.load(raw), recorded_by=recorded_by(), idempotency=idempotency(raw))
    team = written.team
    location = url_for("teams.get_team", team_id=team.team_id)
    return respond(team_schema.dump(team_json(team)), team.version, 201, Location=location)


@bp.get("/<team_id>")
def get_team(team_id: str):
    """A team: its names, affiliation and roster in board order

    ---
    get:
      responses:
        200: {description: The team, content: {application/json: {schema: TeamSchema}}}
    """
    team = teams().team(team_id)
    return respond(team_schema.dump(team_json(team)), team.version)


@bp.put("/<team_id>/roster")
def set_roster(team_id: str):
    """The whole roster from now on: players in board order, reserves

    ---
    put:
      description: Needs the admin token.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: RosterSchema}}}
      responses:
        200: {description: The team, content: {application/json: {schema: TeamSchema}}}
    """
    raw = json_body()
    written = teams().set_roster(team_id, roster_schema.load(raw), **write_options(raw))
    return respond(team_schema.dump(team_json(written.team)), written.team.version)
