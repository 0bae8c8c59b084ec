"""Auditing endpoints: traces, claims, what-if replays, verification, checkpoints, diagrams.

Thin views over the pure audit modules (``audit``, ``claims``, ``whatif``, ``verify``,
``checkpoints``, ``svg``): load -> work on the stored events -> dump. The signing key
is loaded (or created, mode 0600) on first use; see ``recorder/audit/checkpoints.py``.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, request
from flask_babel import gettext
from marshmallow import ValidationError

from recorder.audit import checkpoints, claims, dossier, dossier_body, whatif
from recorder.audit import trace as audit
from recorder.audit.qr import checkpoint_qr_svg
from recorder.audit.verify import held_to_head, verify_record
from recorder.core import ids
from recorder.core.events import event_from_record
from recorder.errors import NotFound
from recorder.render.svg import board_svg
from recorder.rules.position_text import position_json
from recorder.tournaments import views
from schemas.audit import (
    board_query_schema,
    checkpoint_body_schema,
    checkpoint_schema,
    claim_report_schema,
    claim_schema,
    dossier_query_schema,
    public_key_schema,
    trace_schema,
    verify_report_schema,
    what_if_report_schema,
    what_if_schema,
)

from .body import json_body
from .broadcast import horizon, visible_events, visible_game, visible_state_of
from .games import recorder
from .problems import InvalidQuery, load_query
from .tournaments import tournaments

bp = Blueprint("audit", __name__, url_prefix="/api")


def signing_key() -> checkpoints.SigningKey:
    """The service's Ed25519 key: RECORDER_KEY, $RECORDER_KEY_FILE, or <database>.ed25519."""
    key = current_app.extensions.get("signing_key")
    if key is None:
        path = checkpoints.key_path(current_app.config["DATABASE"], current_app.config.get("RECORDER_KEY"))
        key = current_app.extensions["signing_key"] = checkpoints.SigningKey.load_or_create(path)
    return key


def stored_pairs(stored) -> list:
    return [(e.seq, event_from_record(e.type, e.payload)) for e in stored]


@bp.get("/games/<game_id>/events/<int:seq>/trace")
def trace(game_id: str, seq: int):
    """How event N made its position: ordered steps, each citing a rule id

    ---
    get:
      responses:
        200: {description: Trace, content: {application/json: {schema: TraceSchema}}}
    """
    return trace_schema.dump(audit.explain(game_id, visible_events(game_id), seq))


def claimed_fields(position: dict) -> dict:
    """What a claim compares, of a position text's JSON shape."""
    return {k: position[k] for k in ("holes", "specials", "owners", "stores", "to_move")}


@bp.post("/games/<game_id>/claims")
def claim(game_id: str):
    """Every point where a claimed position stood, or the closest one and its differences

    ---
    post:
      requestBody: {required: true, content: {application/json: {schema: ClaimSchema}}}
      responses:
        200:
          description: Claim report
          content: {application/json: {schema: ClaimReportSchema}}
        400: Malformed JSON
    """
    body = json_body()
    if isinstance(body, dict) and isinstance(body.get("position"), str):  # a position text (docs/notation.md)
        body = {"position": claimed_fields(position_json(recorder().game(game_id).rules, body["position"]))}
    position = claim_schema.load(body)["position"]
    claims.check_claim(recorder().game(game_id).rules, position)
    report = claims.find_position(game_id, stored_pairs(visible_events(game_id)), position)
    return claim_report_schema.dump(report)


@bp.post("/games/<game_id>/what-if")
def what_if(game_id: str):
    """Replay the record under other options: first differing and first illegal event

    ---
    post:
      requestBody: {required: true, content: {application/json: {schema: WhatIfSchema}}}
      responses:
        200:
          description: What-if report
          content: {application/json: {schema: WhatIfReportSchema}}
        400: Malformed JSON
    """
    options = what_if_schema.load(json_body())["options"]
    report = whatif.what_if(game_id, stored_pairs(visible_events(game_id)), options)
    return what_if_report_schema.dump(report)


@bp.get("/games/<game_id>/verify")
def verify(game_id: str):
    """Recompute the hash chain and replay every event with full validation

    ---
    get:
      responses:
        200:
          description: Verification
          content: {application/json: {schema: VerifyReportSchema}}
    """
    report = verify_record(game_id, visible_events(game_id))
    return verify_report_schema.dump(held(report, game_id))


@bp.post("/games/<game_id>/verify")
def verify_checkpoint(game_id: str):
    """Verify the record and check a printed checkpoint against it

    ---
    post:
      requestBody: {required: true, content: {application/json: {schema: CheckpointBodySchema}}}
      responses:
        200:
          description: Verification
          content: {application/json: {schema: VerifyReportSchema}}
    """
    text = checkpoint_body_schema.load(json_body())["checkpoint"]
    claimed = checkpoints.parse_checkpoint(text)  # a text that is no checkpoint is refused before the key is read
    stored = visible_events(game_id)
    report = held(verify_record(game_id, stored), game_id)
    report["checkpoint"] = checkpoints.check(signing_key(), claimed, stored)
    report["ok"] = report["ok"] and report["checkpoint"]["valid"]
    return verify_report_schema.dump(report)


def held(report: dict, game_id: str) -> dict:
    """The report held to the stream's head; a delayed read verifies its visible events
    alone (the head would tell how many more there are)."""
    if horizon(game_id) is not None:
        return report
    return held_to_head(report, recorder().store.stream_heads(game_id))


@bp.get("/games/<game_id>/checkpoint")
def checkpoint(game_id: str):
    """A finished game's signed checkpoint (head hash and version, Ed25519)

    ---
    get:
      responses:
        200: {description: Checkpoint, content: {application/json: {schema: CheckpointSchema}}}
        409: Stale version
    """
    return checkpoint_schema.dump(checkpoints.issue(signing_key(), game_id, visible_events(game_id)))


@bp.get("/games/<game_id>/checkpoint.svg")
def checkpoint_qr(game_id: str):
    """The checkpoint as a QR code (SVG) for the printed scoresheet; 404 while unfinished.

    ---
    get:
      summary: The checkpoint as a QR code (SVG) holding its text, for the printed scoresheet
      responses:
        200: {description: SVG, content: {image/svg+xml: {schema: {type: string}}}}
        409: Stale version
    """
    issued = checkpoints.issue(signing_key(), game_id, visible_events(game_id))
    return Response(checkpoint_qr_svg(issued["text"]), mimetype="image/svg+xml")


@bp.get("/games/<game_id>/dossier")
def appeal_dossier(game_id: str):
    """The signed appeal dossier (docs/auditing.md): what this reader may see of the game.

    ---
    get:
      summary: 'The signed appeal dossier: the whole stream, traces, clock readings, pairing check, checkpoint
        (docs/auditing.md); recorder verify --dossier checks it offline'
      parameters:
      - {in: query, schema: DossierQuerySchema}
      responses:
        200:
          description: 'mancala-dossier/1: the format line, the canonical JSON body, the key id and the Ed25519
            signature over the first two lines'' bytes'
          content: {application/vnd.mancala-dossier: {schema: {type: string}}}
        409: Stale version
        422: Invalid body or illegal move
    """
    query = dossier_query(game_id)
    data = dossier.build(signing_key(), game_id, visible_events(game_id), **query, pairing_check=round_check(game_id))
    response = Response(data, mimetype=dossier_body.MEDIA_TYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.dossier"'
    return response


def dossier_query(game_id: str) -> dict:
    """The disputed moves, the what-ifs' options and the claimed positions a dossier is asked for."""
    args = {"moves": request.args.get("moves", ""), **{k: request.args.getlist(k) for k in ("what_if", "claim")}}
    try:
        query = dossier_query_schema.load({k: v for k, v in args.items() if v})
    except ValidationError as error:
        raise InvalidQuery(error.messages if isinstance(error.messages, dict) else {"_query": error.messages}) from None
    return {
        "moves": [int(seq) for seq in query["moves"].split(",") if seq],
        "what_ifs": [dict(option_value(pair) for pair in text.split(";")) for text in query["what_if"]],
        "claimed": claimed_positions(game_id, query["claim"]),
    }


def claimed_positions(game_id: str, texts: list[str]) -> list[dict]:
    """Each position text as a claim compares it, checked as ``POST …/claims`` checks it."""
    if not texts:
        return []
    rules = recorder().game(game_id).rules
    positions = []
    for text in texts:
        position = claim_schema.load({"position": claimed_fields(position_json(rules, text))})["position"]
        claims.check_claim(rules, position)
        positions.append(position)
    return positions


def option_value(text: str) -> tuple[str, object]:
    """``NAME=VALUE``: the value as JSON, else the plain word (as ``recorder what-if --option``)."""
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def round_check(game_id: str) -> dict | None:
    """The pairing check of a tournament board's round (as this reader sees the results)."""
    tournament_id, board = ids.tournament_of_board(game_id), ids.board_of(game_id)
    if tournament_id is None or board is None:
        return None
    try:
        view, checks = tournaments().check(tournament_id, visible_state_of)
    except NotFound:  # a board's id whose tournament is not recorded: no round to check
        return None
    report = views.check_json(view, checks)
    rounds = [r for r in report["rounds"] if r["round"] == board[0]]
    return {**{k: report[k] for k in ("tournament_id", "pairing_rules")}, "round": rounds[0] if rounds else None}


@bp.get("/keys/public")
def public_key():
    """The service's Ed25519 public key: raw base64 and PEM

    ---
    get:
      responses:
        200: {description: Public key, content: {application/json: {schema: PublicKeySchema}}}
    """
    return public_key_schema.dump(signing_key().public_json())


@bp.get("/games/<game_id>/board.svg")
def board(game_id: str):
    """The board after event N as an SVG diagram

    ---
    get:
      parameters:
      - {in: query, schema: BoardQuerySchema}
      responses:
        200: {description: SVG, content: {image/svg+xml: {schema: {type: string}}}}
        422: Invalid body or illegal move
    """
    query = load_query(board_query_schema)
    game = visible_game(game_id, query["at"])
    names = (game.setup.south, game.setup.north)
    svg = board_svg(
        game.rules,
        game.state,
        last_hole=audit.last_sowing(game),
        size=query["size"],
        names=names,
        caption=gettext(
            "%(game)s %(id)s after event %(version)s", game=game.setup.variant, id=game_id, version=game.version
        ),
        gettext=gettext,
    )
    return Response(svg, mimetype="image/svg+xml")
