"""OpenAPI paths of a team event: a team entered, the team standings (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.teams as team_schemas

from .openapi import IDEMPOTENCY, IF_MATCH, _json, _problems
from .tournaments_openapi import BEARER, TOURNAMENT_ID, _int

SCHEMAS = (
    "TeamEntry",
    "Lineup",
    "Lineups",
    "TeamStanding",
    "TeamStandings",
    "TeamMatches",
    "BoardPrizes",
    "CaptainSignin",
)


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
        path="/api/tournaments/{tournament_id}/teams/{number}/captain-signin",
        operations={
            "post": {
                "summary": "A sign-in for a team's captain, shown once: it hands in that team's line-ups alone",
                "description": "Its arbiter's token (or the admin's); revokes the team's earlier one.",
                "security": BEARER,
                "parameters": [TOURNAMENT_ID, _int("number")],
                "responses": {
                    "201": {"description": "The sign-in and its token", "content": _json(component("CaptainSignin"))},
                    **_problems(400, 401, 403, 404, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/{round_number}/lineups",
        operations={
            "post": {
                "summary": "A team's line-up for the next round until it is paired: board order kept, empties last",
                "description": "An arbiter token of this tournament, the admin token or the team's captain's sign-in.",
                "security": BEARER,
                "parameters": [TOURNAMENT_ID, _int("round_number"), IF_MATCH, IDEMPOTENCY],
                "requestBody": {"required": True, "content": _json(component("Lineup"))},
                "responses": {
                    "201": {"description": "The line-up as stored", "content": _json(component("Lineup"))},
                    **_problems(400, 401, 403, 404, 409, 422),
                },
            },
            "get": {
                "summary": "Each team's line-up for a paired round or the next (kept from the public until paired)",
                "description": "Needs an arbiter token of this tournament (or the admin token).",
                "security": BEARER,
                "parameters": [TOURNAMENT_ID, _int("round_number")],
                "responses": {
                    "200": {"description": "The line-ups", "content": _json(component("Lineups"))},
                    **_problems(401, 403, 404),
                },
            },
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
    spec.path(
        path="/api/tournaments/{tournament_id}/board-prizes",
        operations={
            "get": {
                "summary": "A team event's board prizes: each board's players by percentage, then games played",
                "parameters": [TOURNAMENT_ID],
                "responses": {
                    "200": {"description": "The board prizes", "content": _json(component("BoardPrizes"))},
                    **_problems(404),
                },
            }
        },
    )
