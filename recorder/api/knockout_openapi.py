"""OpenAPI paths of a knock-out's bracket, hand-over and lots (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.knockout as knockout_schemas

from .openapi import IDEMPOTENCY, IF_MATCH, _json, _problems
from .tournaments_openapi import BEARER, TOURNAMENT_ID

# Nested schemas come before the schemas that hold them, so apispec refers to them by name.
SCHEMAS = (
    "Handover",
    "Lot",
    "BracketPlayer",
    "BracketGame",
    "BracketMatch",
    "BracketStage",
    "BracketSeeding",
    "Bracket",
)


def component(name: str) -> str:
    return f"Tournament{name}"


def _post(summary: str, body: str) -> dict:
    return {
        "summary": summary,
        "description": "Needs an arbiter token of this tournament (or the admin token).",
        "security": BEARER,
        "parameters": [TOURNAMENT_ID, IF_MATCH, IDEMPOTENCY],
        "requestBody": {"required": True, "content": _json(component(body))},
        "responses": {
            "201": {"description": "The bracket as it now reads", "content": _json(component("Bracket"))},
            **_problems(400, 401, 403, 404, 409, 422),
        },
    }


def document_knockout_paths(spec: APISpec) -> None:
    for name in SCHEMAS:
        spec.components.schema(component(name), schema=getattr(knockout_schemas, f"{name}Schema"))
    spec.path(
        path="/api/tournaments/{tournament_id}/bracket",
        operations={
            "get": {
                "summary": "A knock-out's bracket: every stage's matches, their games, scores, play-offs and lots",
                "parameters": [TOURNAMENT_ID],
                "responses": {
                    "200": {"description": "The bracket", "content": _json(component("Bracket"))},
                    **_problems(404),
                },
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/knockout/seeding",
        operations={
            "post": _post("Seed the knock-out from a finished stage's top players (the hand-over)", "Handover")
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/knockout/lots",
        operations={"post": _post("Record the lot's winner of a match level after its play-off games", "Lot")},
    )
