"""OpenAPI paths of the player registry and the rating lists (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.players as player_schemas

from .openapi import IDEMPOTENCY, IF_MATCH, _json, _problems

SCHEMAS = (
    "PlayerCreate",
    "Rename",
    "Affiliation",
    "Particulars",
    "Merge",
    "Reason",
    "PlayerSummary",
    "Player",
    "PlayerList",
    "RatingList",
)
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
PLAYER_ID = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}
VARIANT = {"name": "variant", "in": "path", "required": True, "schema": {"type": "string"}}


def component(name: str) -> str:
    """Component names carry "Registry" so they never clash with the tournaments' players."""
    return f"Registry{name}"


def _reply(status: int, description: str, ref: str) -> dict:
    return {str(status): {"description": description, "content": _json(component(ref))}}


def _write(summary: str, body: str, who: str, *parameters) -> dict:
    return {
        "summary": summary,
        "description": f"Needs {who}.",
        "security": BEARER,
        "parameters": [*parameters, IF_MATCH, IDEMPOTENCY],
        "requestBody": {"required": True, "content": _json(component(body))},
        "responses": {**_reply(201, "Done", "Player"), **_problems(400, 401, 403, 404, 409, 422)},
    }


def document_player_paths(spec: APISpec) -> None:
    for name in SCHEMAS:
        spec.components.schema(component(name), schema=getattr(player_schemas, f"{name}Schema"))
    arbiter = "the admin token, or an arbiter token of a tournament this player entered"
    spec.path(
        path="/api/players",
        operations={
            "get": {
                "summary": "Search players by name (case, spacing and diacritics ignored; Latin or Ge'ez)",
                "parameters": [{"in": "query", "schema": player_schemas.PlayerQuerySchema}],
                "responses": {**_reply(200, "Players", "PlayerList"), **_problems(422)},
            },
            "post": {
                **_write(
                    "Register a player (409 with the candidates when the name is taken, unless force)",
                    "PlayerCreate",
                    "the admin token or an arbiter token",
                ),
                "parameters": [IDEMPOTENCY],
            },
        },
    )
    spec.path(
        path="/api/players/{player_id}",
        operations={
            "get": {
                "summary": "A player: names, affiliation, tournaments, games, ratings (a merged id names its survivor)",
                "parameters": [PLAYER_ID],
                "responses": {**_reply(200, "Player", "Player"), **_problems(404)},
            }
        },
    )
    spec.path(
        path="/api/players/{player_id}/events",
        operations={
            "get": {
                "summary": "The player's event log with hashes",
                "parameters": [PLAYER_ID],
                "responses": {"200": {"description": "Events", "content": _json("EventList")}, **_problems(404)},
            }
        },
    )
    spec.path(
        path="/api/players/{player_id}/name",
        operations={"post": _write("Rename a player (both names, as they now read)", "Rename", arbiter, PLAYER_ID)},
    )
    spec.path(
        path="/api/players/{player_id}/affiliation",
        operations={"post": _write("Change a player's federation or club", "Affiliation", arbiter, PLAYER_ID)},
    )
    spec.path(
        path="/api/players/{player_id}/particulars",
        operations={"post": _write("Change a player's sex or birth year", "Particulars", arbiter, PLAYER_ID)},
    )
    spec.path(
        path="/api/players/{player_id}/merge",
        operations={"post": _write("Merge this duplicate into another record", "Merge", "the admin token", PLAYER_ID)},
    )
    spec.path(
        path="/api/players/{player_id}/merge/withdrawal",
        operations={"post": _write("Withdraw a wrong merge", "Reason", "the admin token", PLAYER_ID)},
    )
    _rating_paths(spec)


def _rating_paths(spec: APISpec) -> None:
    query = [VARIANT, {"in": "query", "schema": player_schemas.RatingQuerySchema}]
    spec.path(
        path="/api/ratings/{variant}",
        operations={
            "get": {
                "summary": "A game's rating list for a month (Glicko-2; default: this month, not yet published)",
                "description": "A month that is over answers with its published list; each entry explains its"
                " change (the games, each opponent's rating and deviation, the expected and actual score);"
                " `corrections` states each result of an earlier month's game corrected since the month"
                " before and applied in this list (the game, its month, the result before and after).",
                "parameters": query,
                "responses": {**_reply(200, "Rating list", "RatingList"), **_problems(404, 422)},
            }
        },
    )
    spec.path(
        path="/api/ratings/{variant}.csv",
        operations={
            "get": {
                "summary": "The same list as CSV (rank, id, names, federation, club, rating, rd, volatility, games);"
                " after a blank line, the corrections it applies (game_id, period, before, after)",
                "parameters": query,
                "responses": {
                    "200": {"description": "CSV", "content": {"text/csv": {"schema": {"type": "string"}}}},
                    **_problems(404, 422),
                },
            }
        },
    )
