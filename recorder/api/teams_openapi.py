"""OpenAPI paths of the teams in the registry (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.teams as team_schemas

from .openapi import IDEMPOTENCY, IF_MATCH, _json, _problems

SCHEMAS = ("Roster", "TeamCreate", "Team", "TeamList")
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
TEAM_ID = {"name": "team_id", "in": "path", "required": True, "schema": {"type": "string"}}


def component(name: str) -> str:
    return f"Registry{name}"


def document_team_paths(spec: APISpec) -> None:
    for name in SCHEMAS:
        spec.components.schema(component(name), schema=getattr(team_schemas, f"{name}Schema"))
    team = {"content": _json(component("Team"))}
    search = [
        {"name": "q", "in": "query", "schema": {"type": "string", "maxLength": 200}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
    ]
    spec.path(
        path="/api/teams",
        operations={
            "get": {
                "summary": "Find teams by a name in either script, from any word on (or by a team's id)",
                "parameters": search,
                "responses": {
                    "200": {"description": "The teams found", "content": _json(component("TeamList"))},
                    **_problems(422),
                },
            },
            "post": {
                "summary": "Register a team: names in both scripts, federation or region, club, roster in board order",
                "description": "Needs the admin token or an arbiter token.",
                "security": BEARER,
                "parameters": [IDEMPOTENCY],
                "requestBody": {"required": True, "content": _json(component("TeamCreate"))},
                "responses": {"201": {"description": "The team", **team}, **_problems(400, 401, 403, 422)},
            },
        },
    )
    spec.path(
        path="/api/teams/{team_id}",
        operations={
            "get": {
                "summary": "A team: its names, affiliation and roster in board order",
                "parameters": [TEAM_ID],
                "responses": {"200": {"description": "The team", **team}, **_problems(404)},
            }
        },
    )
    spec.path(
        path="/api/teams/{team_id}/roster",
        operations={
            "put": {
                "summary": "The whole roster from now on: players in board order, reserves",
                "description": "Needs the admin token.",
                "security": BEARER,
                "parameters": [TEAM_ID, IF_MATCH, IDEMPOTENCY],
                "requestBody": {"required": True, "content": _json(component("Roster"))},
                "responses": {"200": {"description": "The team", **team}, **_problems(400, 401, 403, 404, 409, 422)},
            }
        },
    )
