"""One game in the notation: ``GET /api/games/{id}/notation`` (the text, to download) and
``GET /api/games/{id}/moves`` (each effective move as the notation writes it, for the
game page's move list). Archives of many games are ``GET /api/export`` (archive.py)."""

from __future__ import annotations

from flask import Blueprint, Response

from recorder.games.service import stored_pairs
from recorder.notation.grammar import MEDIA_TYPE
from recorder.notation.move_list import move_list
from recorder.notation.writer import write_game
from schemas.game_notation import move_list_schema, notation_query_schema

from .broadcast import visible_events
from .problems import load_query

bp = Blueprint("game_notation", __name__, url_prefix="/api/games")


@bp.get("/<game_id>/notation")
def game_notation(game_id: str):
    """One game in the notation (docs/notation.md): the effective line, or ?history=full

    ---
    get:
      parameters:
      - {in: query, schema: NotationQuerySchema}
      responses:
        200:
          description: The game's text
          content: {text/x-mancala-notation: {schema: {type: string}}}
        422: Invalid body or illegal move
    """
    full_history = load_query(notation_query_schema)["history"] == "full"
    text = write_game(list(stored_pairs(visible_events(game_id))), full_history=full_history)
    response = Response(text, mimetype=MEDIA_TYPE)
    response.mimetype_params["charset"] = "utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.mn"'
    return response


@bp.get("/<game_id>/moves")
def game_moves(game_id: str):
    """The effective moves, each written as the notation writes it (turn numbers, passes)

    ---
    get:
      responses:
        200: {description: Moves, content: {application/json: {schema: MoveListSchema}}}
    """
    moves = move_list(game_id, list(stored_pairs(visible_events(game_id))))
    return move_list_schema.dump({"game_id": game_id, "moves": moves})
