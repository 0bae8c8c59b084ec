"""OpenAPI paths of a tournament's categories and prize list (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.prizes as prize_schemas

from .openapi import IDEMPOTENCY, IF_MATCH, _json, _problems
from .tournaments_openapi import BEARER, TOURNAMENT_ID

# Nested schemas come before the schemas that hold them, so apispec refers to them by name.
SCHEMAS = ("Category", "Categories", "Prize", "Prizes", "CategoryStanding", "CategoryStandings", "Award", "PrizeList")
CODE = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}


def component(name: str) -> str:
    return f"Tournament{name}"


def _put(summary: str, body: str) -> dict:
    return {
        "summary": summary,
        "description": "Needs an arbiter token of this tournament (or the admin token); refused once it is finished.",
        "security": BEARER,
        "parameters": [TOURNAMENT_ID, IF_MATCH, IDEMPOTENCY],
        "requestBody": {"required": True, "content": _json(component(body))},
        "responses": {
            "200": {"description": "The prize list as it now reads", "content": _json(component("PrizeList"))},
            **_problems(400, 401, 403, 404, 409, 422),
        },
    }


def _get(summary: str, ref: str, *parameters) -> dict:
    return {
        "get": {
            "summary": summary,
            "parameters": [TOURNAMENT_ID, *parameters],
            "responses": {"200": {"description": summary, "content": _json(component(ref))}, **_problems(404)},
        }
    }


def document_prize_paths(spec: APISpec) -> None:
    for name in SCHEMAS:
        spec.components.schema(component(name), schema=getattr(prize_schemas, f"{name}Schema"))
    spec.path(
        path="/api/tournaments/{tournament_id}/categories",
        operations={"put": _put("Set the tournament's categories (the whole list)", "Categories")},
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/prizes",
        operations={
            "put": _put("Set the prize list and how a tie shares it (none or hort)", "Prizes"),
            **_get("The prize list and who is paid what, by the standings", "PrizeList"),
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/categories/{code}/standings",
        operations=_get(
            "One category's standings: its players' places beside the overall rank", "CategoryStandings", CODE
        ),
    )
