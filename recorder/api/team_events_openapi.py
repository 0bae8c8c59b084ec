"""OpenAPI paths of a team event: a team entered, the team standings (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.teams as team_schemas

from .openapi import IDEMPOTENCY, IF_MATCH, _json, _problems
from .tournaments_openapi import BEARER, TOURNAMENT_ID

SCHEMAS = ("TeamEntry", "TeamStanding", "TeamStandings", "TeamMatches")


def component(name: str) -> str:
    return f"Tournament{name}"


def document_team_event_paths(spec: APISpec) -> None:
    for name in SCHEMAS:
        spec.components.schema(component(name), schema=getattr(team_schemas, f"{name}Schema"))
    spec.path(
        path="/api/tournaments/{tournament_id}/teams",
        operations={
            "post": {
                "summary": "Enter a registry team: its players in board order and reserves become entrants",
                "description": "Needs an arbiter token of this tournament (or the admin token).",
                "security": BEARER,
                "parameters": [TOURNAMENT_ID, IF_MATCH, IDEMPOTENCY],
                "requestBody": {"required": True, "content": _json(component("TeamEntry"))},
                "responses": {
                    "201": {"description": "The tournament", "content": _json("Tournament")},
                    **_problems(400, 401, 403, 404, 409, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/team-standings",
        operations={
            "get": {
                "summary": "A team event's standings ranked by its order of C.07's team tie-breaks",
                "parameters": [TOURNAMENT_ID],
                "responses": {
                    "200": {"description": "The team standings", "content": _json(component("TeamStandings"))},
                    **_problems(404),
                },
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/team-matches",
        operations={
            "get": {
                "summary": "A team event's rounds as team matches: teams, score, each board's players, seats, result",
                "parameters": [TOURNAMENT_ID],
                "responses": {
                    "200": {"description": "The team matches", "content": _json(component("TeamMatches"))},
                    **_problems(404),
                },
            }
        },
    )
