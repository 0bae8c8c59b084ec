"""One game in the notation: ``GET /api/games/{id}/notation`` (the text, to download) and
``GET /api/games/{id}/moves`` (each effective move as the notation writes it, for the
game page's move list). Archives of many games are ``GET /api/export`` (archive.py)."""

from __future__ import annotations

from apispec import APISpec
from flask import Blueprint, Response

from recorder.games.service import stored_pairs
from recorder.notation.grammar import MEDIA_TYPE
from recorder.notation.move_list import move_list
from recorder.notation.writer import write_game
from schemas.game_notation import MoveListSchema, NotationQuerySchema, move_list_schema, notation_query_schema

from . import openapi
from .broadcast import visible_events
from .problems import load_query

bp = Blueprint("game_notation", __name__, url_prefix="/api/games")


@bp.get("/<game_id>/notation")
def game_notation(game_id: str):
    full_history = load_query(notation_query_schema)["history"] == "full"
    text = write_game(list(stored_pairs(visible_events(game_id))), full_history=full_history)
    response = Response(text, mimetype=MEDIA_TYPE)
    response.mimetype_params["charset"] = "utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.mn"'
    return response


@bp.get("/<game_id>/moves")
def game_moves(game_id: str):
    moves = move_list(game_id, list(stored_pairs(visible_events(game_id))))
    return move_list_schema.dump({"game_id": game_id, "moves": moves})


def document_game_notation_paths(spec: APISpec) -> None:
    spec.components.schema("MoveList", schema=MoveListSchema)
    spec.path(
        path="/api/games/{game_id}/notation",
        operations={
            "get": {
                "summary": "One game in the notation (docs/notation.md): the effective line, or ?history=full",
                "parameters": [openapi.GAME_ID, {"in": "query", "schema": NotationQuerySchema}],
                "responses": {
                    "200": {"description": "The game's text", "content": {MEDIA_TYPE: {"schema": {"type": "string"}}}},
                    **openapi._problems(404, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/moves",
        operations={
            "get": {
                "summary": "The effective moves, each written as the notation writes it (turn numbers, passes)",
                "parameters": [openapi.GAME_ID],
                "responses": {
                    "200": {"description": "Moves", "content": openapi._json("MoveList")},
                    **openapi._problems(404),
                },
            }
        },
    )


openapi.EXTENSIONS.append(document_game_notation_paths)
