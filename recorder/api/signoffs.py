"""The players' word on a finished board game's record, as events in the game's stream:
``POST /api/games/{id}/confirmations`` and ``…/disputes`` (a player's own sign-in, for a
game of his), ``…/decisions`` (the tournament's arbiter; an appeal's, the committee's with
the admin's token) and ``GET …/signoffs``. Who signs, and for which side, is read from
the token and the round's pairing, never from the body (docs/tournaments.md,
"Confirmation at the board")."""

from __future__ import annotations

from flask import Blueprint, current_app

from recorder.core.ids import board_of, tournament_of_board
from recorder.core.signoffs import signoffs_json
from recorder.errors import Forbidden, InvalidRecord
from schemas.signoffs import (
    confirmation_schema,
    decision_schema,
    dispute_schema,
)

from .access import principal, recorded_by
from .body import json_body
from .broadcast import visible_game
from .games import event_schema, expected_version, idempotency, recorder, state_json, with_etag

bp = Blueprint("signoffs", __name__, url_prefix="/api/games")


@bp.post("/<game_id>/confirmations")
def confirm_record(game_id: str):
    """The player confirms the record as it stands (the version he last saw).

    ---
    post:
      summary: Confirm the finished game's record (a player's own sign-in, for his game)
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: ConfirmationSchema}}}
      responses:
        201:
          description: 'Recorded: the event, the state and the signoffs'
          content: {application/json: {schema: {type: object}}}
        428: Problem
    """
    body = json_body()
    data = confirmation_schema.load(body)
    return _record(game_id, {"type": "confirm", **_signing_player(game_id)}, data, body)


@bp.post("/<game_id>/disputes")
def dispute_record(game_id: str):
    """The player disputes moves of the record and/or its result, and says why; or appeals
    a decision to the committee (``appeal_of``).

    ---
    post:
      summary: Dispute moves and/or the result, or appeal a decision (a player's own sign-in)
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: DisputeSchema}}}
      responses:
        201:
          description: 'Recorded: the event, the state and the signoffs'
          content: {application/json: {schema: {type: object}}}
        428: Problem
    """
    body = json_body()
    data = dispute_schema.load(body)
    fields = {name: data[name] for name in ("moves", "result", "reason", "appeal_of")}
    return _record(game_id, {"type": "dispute", **_signing_player(game_id), **fields}, data, body)


@bp.post("/<game_id>/decisions")
def decide_dispute(game_id: str):
    """The decision on an open dispute: upheld (the record unchanged), or corrected by the
    correction commands recorded since; an appeal's is the committee's (the admin's token).

    ---
    post:
      summary: 'Decide an open dispute: upheld, or corrected (the arbiter; an appeal: the admin)'
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: DecisionSchema}}}
      responses:
        201:
          description: 'Recorded: the event, the state and the signoffs'
          content: {application/json: {schema: {type: object}}}
        428: Problem
    """
    body = json_body()
    data = decision_schema.load(body)
    dispute = recorder().game(game_id).signoffs.dispute(data["dispute"])
    if dispute is not None and dispute.appeal_of is not None and not principal().is_admin:
        raise Forbidden("an appeal is decided by the committee: its decision is recorded with the admin's token")
    command = {"type": "decide", "dispute": data["dispute"], "outcome": data["outcome"], "reason": data["reason"]}
    return _record(game_id, command, data, body)


@bp.get("/<game_id>/signoffs")
def get_signoffs(game_id: str):
    """The confirmations, disputes and decisions as this reader may see the game.

    ---
    get:
      summary: The game's confirmations, disputes and decisions (as this reader may see the game)
      responses:
        200: {description: Signoffs, content: {application/json: {schema: {type: object}}}}
    """
    game = visible_game(game_id)
    return with_etag(signoffs_json(game.signoffs, game.record_end), game)


def _signing_player(game_id: str) -> dict:
    """The side and starting number the presented player's sign-in signs for: the game's
    board as the round paired it (the guard has already held him to his own games)."""
    number = principal().player
    tournament_id, board = tournament_of_board(game_id), board_of(game_id)
    if number is None or tournament_id is None or board is None:
        raise InvalidRecord("a confirmation or a dispute is a player's, made with his own sign-in", field="token")
    t = current_app.extensions["tournaments"].latest(tournament_id)
    rnd = t.round(board[0])
    seated = rnd.board(board[1]) if rnd is not None else None
    side = "south" if seated is not None and seated.south == number else "north"
    return {"side": side, "player": number}


def _record(game_id: str, command: dict, data: dict, body: dict):
    expected = expected_version(data.get("expected_version"))
    recorded = recorder().record(
        game_id, command, expected_version=expected, recorded_by=recorded_by(), idempotency=idempotency(body)
    )
    game = recorded.game
    events = event_schema.dump(recorded.events, many=True)
    payload = {
        "event": events[-1],
        "events": events,
        "state": state_json(game),
        "version": game.version,
        "signoffs": signoffs_json(game.signoffs, game.record_end),
    }
    return with_etag(payload, game, 201)
