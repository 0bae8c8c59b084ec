"""Knock-outs over HTTP: the bracket (public, as the public sees the results), a stage's
hand-over and the lots (the tournament's arbiter or the admin). Its rounds are paired and
its games created as every tournament's (recorder/api/tournaments.py)."""

from __future__ import annotations

from flask import Blueprint, Flask

from recorder.tournaments import board_game_id, knockout
from schemas.knockout import bracket_schema, handover_schema, lot_schema

from .broadcast import visible_state_of
from .tournaments import body, respond, tournament_view, tournaments, write_options

bp = Blueprint("knockout", __name__, url_prefix="/api/tournaments")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


@bp.get("/<tournament_id>/bracket")
def get_bracket(tournament_id: str):
    """A knock-out's bracket: every stage's matches, their games, scores, play-offs and lots

    ---
    get:
      responses:
        200: {description: The bracket, content: {application/json: {schema: BracketSchema}}}
    """
    return bracket_response(tournament_id)


def bracket_response(tournament_id: str, status: int = 200):
    view = tournament_view(tournament_id, visible_state_of)  # with the registry players' Ge'ez names
    t = view.tournament
    store = tournaments().store

    def started_game(round_number: int, board: int) -> str | None:
        """The board's game id once its game is created (a paired game not yet started has none)."""
        game_id = board_game_id(t.tournament_id, round_number, board)
        return game_id if store.version(game_id) else None

    payload = knockout.bracket_json(t, view.outcomes, started_game, view.names_geez)
    return respond(bracket_schema.dump({**payload, "status": view.status}), t.version, status)


@bp.post("/<tournament_id>/knockout/seeding")
def hand_over(tournament_id: str):
    """Seed the knock-out from a finished stage's top players (the hand-over)

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: HandoverSchema}}}
      responses:
        201:
          description: The bracket as it now reads
          content: {application/json: {schema: BracketSchema}}
    """
    raw = body()
    # Seeded from the standings as the writer may see them: a stage's broadcast delay holds.
    tournaments().hand_over(tournament_id, handover_schema.load(raw), visible_state_of, **write_options(raw))
    return bracket_response(tournament_id, 201)


@bp.post("/<tournament_id>/knockout/lots")
def draw_lot(tournament_id: str):
    """Record the lot's winner of a match level after its play-off games

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: LotSchema}}}
      responses:
        201:
          description: The bracket as it now reads
          content: {application/json: {schema: BracketSchema}}
    """
    raw = body()
    tournaments().draw_lot(tournament_id, lot_schema.load(raw), **write_options(raw))
    return bracket_response(tournament_id, 201)
