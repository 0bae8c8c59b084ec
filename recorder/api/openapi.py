"""The OpenAPI document, generated from the marshmallow schemas (apispec)."""

from __future__ import annotations

from functools import lru_cache

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, jsonify

import schemas.commands as command_schemas
import schemas.games as game_schemas

bp = Blueprint("openapi", __name__, url_prefix="/api")

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}


def _json(ref: str) -> dict:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}


def _problems(*statuses: int) -> dict:
    text = {400: "Malformed JSON", 404: "Unknown game", 409: "Stale version", 422: "Invalid body or illegal move"}
    return {str(s): {"description": text.get(s, "Problem"), "content": PROBLEM} for s in statuses}


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string"}}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": 'The version last seen, as the ETag: "N". A command needs it (or expected_version), else 428.',
    "schema": {"type": "string"},
}


BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
# POSTs that store nothing and so need no token (recorder/api/access.py OPEN_POSTS).
OPEN_POSTS = {("/api/games/{game_id}/claims", "post"), ("/api/games/{game_id}/what-if", "post")}


def _declare_security(document: dict) -> None:
    """Every write operation needs a bearer token: say so, and what refusing looks like."""
    refusals = {
        400: "Malformed body",
        401: "No valid bearer token",
        403: "The token does not reach this resource",
        413: "Body over the size limit (nothing stored)",
    }
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "get" or (path, method) in OPEN_POSTS:
                continue
            operation["security"] = BEARER
            responses = operation.setdefault("responses", {})
            for status, text in {**refusals, 415: "Not application/json", 503: "Database unavailable"}.items():
                responses.setdefault(str(status), {"description": text, "content": PROBLEM})
            if path == "/api/games/{game_id}/commands":
                responses["428"] = {"description": "No If-Match or expected_version", "content": PROBLEM}


def _component_schemas(spec: APISpec) -> None:
    for name in ("GameCreate", "Game", "GameList", "EventList", "Recorded", "VariantList", "Problem"):
        spec.components.schema(name, schema=getattr(game_schemas, f"{name}Schema"))
    for kind, schema in command_schemas.COMMAND_SCHEMAS.items():
        title = "".join(part.title() for part in kind.split("_")) + "Command"
        spec.components.schema(title, schema=type(schema))
        spec.components.schemas[title]["properties"]["type"]["enum"] = [kind]


def _command_body() -> dict:
    refs = [
        {"$ref": "#/components/schemas/" + "".join(p.title() for p in kind.split("_")) + "Command"}
        for kind in command_schemas.COMMAND_SCHEMAS
    ]
    return {"required": True, "content": {"application/json": {"schema": {"oneOf": refs}}}}


def _paths(spec: APISpec) -> None:
    spec.path(
        path="/api/variants",
        operations={
            "get": {
                "summary": "The five games: geometry, options, decisions",
                "responses": {"200": {"description": "Variants", "content": _json("VariantList")}},
            }
        },
    )
    spec.path(
        path="/api/games",
        operations={
            "get": {
                "summary": "List games",
                "parameters": [{"in": "query", "schema": game_schemas.GameQuerySchema}],
                "responses": {"200": {"description": "Games", "content": _json("GameList")}, **_problems(422)},
            },
            "post": {
                "summary": "Create a game (GEN-23, GEN-42)",
                "parameters": [IDEMPOTENCY],
                "requestBody": {"required": True, "content": _json("GameCreate")},
                "responses": {"201": {"description": "Created", "content": _json("Game")}, **_problems(400, 422)},
            },
        },
    )
    spec.path(
        path="/api/games/{game_id}",
        operations={
            "get": {
                "summary": "A game and its latest state",
                "parameters": [GAME_ID],
                "responses": {"200": {"description": "Game", "content": _json("Game")}, **_problems(404)},
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/commands",
        operations={
            "post": {
                "summary": "Record one sowing or decision",
                "parameters": [GAME_ID, IF_MATCH, IDEMPOTENCY],
                "description": "Needs a bearer token that may write this game (docs/security.md) and the version"
                " last seen (If-Match or expected_version; 428 without).",
                "requestBody": _command_body(),
                "responses": {
                    "201": {"description": "Recorded", "content": _json("Recorded")},
                    **_problems(400, 401, 403, 404, 409, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/events",
        operations={
            "get": {
                "summary": "The event log with hashes",
                "parameters": [GAME_ID],
                "responses": {"200": {"description": "Events", "content": _json("EventList")}, **_problems(404)},
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/state",
        operations={
            "get": {
                "summary": "The state after event N (default: latest)",
                "parameters": [GAME_ID, {"in": "query", "schema": game_schemas.StateQuerySchema}],
                "responses": {
                    "200": {"description": "State", "content": {"application/json": {"schema": {"type": "object"}}}},
                    **_problems(404, 422),
                },
            }
        },
    )


EXTENSIONS: list = []  # later issues add (callable(spec)) here to document their endpoints


@lru_cache(maxsize=1)
def build_spec() -> dict:
    spec = APISpec(
        title="Mancala record service",
        version="1.0.0",
        openapi_version="3.0.3",
        plugins=[MarshmallowPlugin()],
        info={"description": "Records Selus, Gabata, Qelat, Lahemay Walida and Tuz games as immutable events."},
    )
    spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    _component_schemas(spec)
    _paths(spec)
    for extend in EXTENSIONS:
        extend(spec)
    document = spec.to_dict()
    _declare_security(document)
    return document


@bp.get("/openapi.json")
def openapi_document():
    return jsonify(build_spec())
