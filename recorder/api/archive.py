"""Archives over HTTP: ``POST /api/import`` and ``GET /api/export`` (recorder/archive/transfer.py).

Import takes a notation text (``text/x-mancala-notation``; not ``text/plain``, which a
cross-site page could post) or NDJSON event logs (``application/x-ndjson``) and answers
with a per-game report: 201 when every game was imported, 207 when some were refused,
422 (problem+json, with the same report) when none was. Export streams the games the
filters select, as notation or NDJSON by ``Accept``, one game at a time.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request, stream_with_context
from marshmallow import ValidationError
from werkzeug.exceptions import NotAcceptable, UnsupportedMediaType

from recorder.archive.ndjson import MEDIA_TYPE as NDJSON
from recorder.archive.transfer import Archive, summarise
from recorder.auth.policy import Resource, require
from recorder.core import ids
from recorder.core.events import GameCreated
from recorder.errors import InvalidRecord
from recorder.limits import ImportLimits
from recorder.notation.grammar import MEDIA_TYPE as NOTATION
from schemas import load_command
from schemas.archive import export_query_schema, import_query_schema, import_report_schema
from schemas.signoffs import SIGNOFF_COMMAND_SCHEMAS

from .access import principal, recorded_by, rights_ended
from .broadcast import horizon, visible_game
from .games import recorder
from .problems import load_query, problem

bp = Blueprint("archive", __name__, url_prefix="/api")

# Not text/plain: a cross-site page may post text/plain without asking (no CORS preflight).
NOTATION_TYPES = (NOTATION,)
FILENAMES = {NOTATION: "games.mn", "text/plain": "games.mn", NDJSON: "games.ndjson"}


@bp.post("/import")
def import_archive():
    """Import an archive: notation text or NDJSON event logs; a report per game

    ---
    post:
      parameters:
      - {in: query, schema: ImportQuerySchema}
      requestBody:
        required: true
        content:
          application/x-ndjson: {schema: {type: string}}
          text/x-mancala-notation: {schema: {type: string}}
      responses:
        200:
          description: Every game existed already (the same records were imported before)
          content: {application/json: {schema: ImportReportSchema}}
        201:
          description: Every game imported (or there already)
          content: {application/json: {schema: ImportReportSchema}}
        207:
          description: Some games refused (see each game's error)
          content: {application/json: {schema: ImportReportSchema}}
    """
    source = load_query(import_query_schema)["source"]
    archive = Archive(
        recorder().store,
        recorded_by=recorded_by(),
        authorize=authorize_game,
        check_command=schema_check if principal().is_admin else without_signoffs,
        restore=principal().is_admin,
        limits=import_limits(),
        horizon=horizon,
    )
    if request.mimetype in NOTATION_TYPES:
        reports = archive.import_notation(body_text(), source)
    elif request.mimetype == NDJSON:
        reports = archive.import_ndjson_text(body_text(), source)
    else:
        raise UnsupportedMediaType(f"send {NOTATION} or {NDJSON}, not {request.mimetype or 'nothing'}")
    report = import_report_schema.dump(summarise(reports))
    if report["imported"] == 0 and report["existing"] == 0:
        detail = "no game was imported" if report["games"] else "the body holds no game"
        return problem(422, "Nothing imported", detail, "nothing-imported", **report)
    if report["refused"]:
        return report, 207
    return report, 201 if report["imported"] else 200  # 200: every game was there already


def import_limits() -> ImportLimits:
    """What one import request may hold (app config; docs/deployment.md), counted before anything is stored."""
    config = current_app.config
    return ImportLimits(
        config["IMPORT_MAX_GAMES"],
        config["IMPORT_MAX_EVENTS"],
        config["MAX_EVENTS_PER_GAME"],
        config["MAX_BYTES_PER_GAME"],
    )


def schema_check(command: dict) -> dict:
    """The command schemas of ``POST /commands``, so imported commands meet exactly the
    limits live ones do; a refusal names the field, as InvalidRecord. The players'
    confirmations, disputes and decisions are read as their events spell them."""
    try:
        kind = command.get("type") if isinstance(command, dict) else None
        signoff = SIGNOFF_COMMAND_SCHEMAS.get(kind) if isinstance(kind, str) else None
        return signoff.load(command) if signoff is not None else load_command(command)
    except ValidationError as error:
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        name, problems = next(iter(messages.items()))
        raise InvalidRecord(f"{name}: {problems}", field=name) from None


def without_signoffs(command: dict) -> dict:
    """``schema_check`` for an import by anyone but the admin: a player's confirmation or
    dispute, or a decision on it, is made with its own token, never carried in by a file
    (the admin's restore carries them back)."""
    if isinstance(command, dict) and command.get("type") in SIGNOFF_COMMAND_SCHEMAS:
        raise InvalidRecord(
            "a confirmation, a dispute or a decision is recorded by its player or arbiter: only the admin's"
            " restore carries one in",
            field="type",
        )
    return schema_check(command)


def body_text() -> str:
    try:
        return request.get_data().decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidRecord(f"the body is not UTF-8 text (byte {error.start})", field="body") from None


def authorize_game(game_id: str | None, setup: GameCreated) -> str:
    """Each imported game is a creation, decided by the policy like POST /api/games: a
    game that belongs to a tournament, by its metadata or by a board's game id, needs
    that tournament's token, as its commands would. Returns who records it."""
    owners = {setup.metadata.get("tournament_id")}
    if game_id is not None:
        owners.add(ids.tournament_of_board(game_id))
    tournaments: list[str | None] = [str(owner) for owner in sorted(map(str, owners - {None}))]
    for tournament_id in tournaments or [None]:
        finished = rights_ended(principal(), tournament_id)  # a finished tournament's boards are the admin's
        require(principal(), True, "create_game", Resource(tournament_id=tournament_id, finished=finished))
    return principal().holder


@bp.get("/export")
def export_archive():
    """Export games (streamed): notation or NDJSON by Accept

    ---
    get:
      parameters:
      - {in: query, schema: ExportQuerySchema}
      responses:
        200:
          description: The archive
          content:
            application/x-ndjson: {schema: {type: string}}
            text/plain: {schema: {type: string}}
            text/x-mancala-notation: {schema: {type: string}}
        406: Problem
        422: Invalid body or illegal move
    """
    query = load_query(export_query_schema)
    full_history = query.pop("history") == "full"
    # text/plain is the notation too (reading it is harmless; only imports refuse it).
    offered = [NOTATION, NDJSON, "text/plain"]
    kind = request.accept_mimetypes.best_match(offered) if request.accept_mimetypes else NOTATION
    if kind is None:
        raise NotAcceptable(f"export speaks {NOTATION} (also as text/plain) and {NDJSON}")
    archive = Archive(recorder().store)
    game_ids = public_results(archive.select(**query), query.get("result"))
    if kind == NDJSON:
        chunks = archive.ndjson_archive(game_ids, horizon=horizon)
    else:
        chunks = archive.notation_archive(game_ids, full_history=full_history, horizon=horizon)
    response = Response(stream_with_context(chunks), mimetype=kind)
    if kind != NDJSON:
        response.mimetype_params["charset"] = "utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{FILENAMES[kind]}"'
    return response


def public_results(game_ids: Iterator[str], result: str | None) -> Iterator[str]:
    """With ``?result=``, a game a broadcast delay holds back is left out unless what the
    reader sees of it has that result (its true result is not told by its presence)."""
    for game_id in game_ids:
        if result is None or horizon(game_id) is None or visible_result(game_id) == result:
            yield game_id


def visible_result(game_id: str) -> str:
    state = visible_game(game_id).state
    return state.result.name if state.game_over else "unfinished"
