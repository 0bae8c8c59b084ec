"""Archives over HTTP: ``POST /api/import`` and ``GET /api/export`` (recorder/archive/transfer.py).

Import takes a notation text (``text/plain`` or ``text/x-mancala-notation``) or NDJSON
event logs (``application/x-ndjson``) and answers with a per-game report: 201 when every
game was imported (or existed already), 200 when every game existed already (a repeat),
207 when some were refused, 422 (problem+json, with the same report) when none was
imported and none existed. Export streams the games the filters select, as notation (``Accept``
``text/x-mancala-notation`` or ``text/plain``) or NDJSON, one game at a time.
"""

from __future__ import annotations

import re

from apispec import APISpec
from flask import Blueprint, Response, current_app, request, stream_with_context
from marshmallow import ValidationError
from werkzeug.exceptions import NotAcceptable, UnsupportedMediaType

from recorder.archive.ndjson import MEDIA_TYPE as NDJSON
from recorder.archive.transfer import Archive, summarise
from recorder.core.events import GameCreated
from recorder.errors import InvalidRecord
from recorder.limits import ImportLimits
from recorder.notation.grammar import MEDIA_TYPE as NOTATION
from schemas import load_command
from schemas.archive import export_query_schema, import_query_schema, import_report_schema

from . import openapi
from .games import current_user, recorder
from .problems import load_query, problem

bp = Blueprint("archive", __name__, url_prefix="/api")

NOTATION_TYPES = (NOTATION, "text/plain")
BOARD_GAME_ID = re.compile(r"(?P<tournament>[0-9a-f]+)-r\d+-b\d+")
FILENAMES = {NOTATION: "games.mn", "text/plain": "games.mn", NDJSON: "games.ndjson"}


@bp.post("/import")
def import_archive():
    source = load_query(import_query_schema)["source"]
    archive = Archive(
        recorder().store,
        recorded_by=current_user(),
        authorize=authorize_tournament_games,
        check_command=schema_check,
        limits=import_limits(),
    )
    if request.mimetype in NOTATION_TYPES:
        reports = archive.import_notation(body_text(), source)
    elif request.mimetype == NDJSON:
        reports = archive.import_ndjson_text(body_text(), source)
    else:
        raise UnsupportedMediaType(f"send {NOTATION}, text/plain or {NDJSON}, not {request.mimetype or 'nothing'}")
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
    return ImportLimits(config["IMPORT_MAX_GAMES"], config["IMPORT_MAX_EVENTS"], config["MAX_EVENTS_PER_GAME"])


def schema_check(command: dict) -> dict:
    """The command schemas of ``POST /commands``, so imported commands meet exactly the
    limits live ones do; a refusal names the field, as InvalidRecord."""
    try:
        return load_command(command)
    except ValidationError as error:
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        name, problems = next(iter(messages.items()))
        raise InvalidRecord(f"{name}: {problems}", field=name) from None


def body_text() -> str:
    try:
        return request.get_data().decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidRecord(f"the body is not UTF-8 text (byte {error.start})", field="body") from None


def authorize_tournament_games(game_id: str | None, setup: GameCreated) -> str | None:
    """A game that belongs to a tournament, by its metadata or by a board's game id,
    is imported only with that tournament's token, as its commands would be; the
    token's holder then records it."""
    from .tournaments import admit  # the tournaments blueprint owns tokens

    owners = {setup.metadata.get("tournament_id")}
    match = BOARD_GAME_ID.fullmatch(game_id or "")
    if match is not None:
        owners.add("t-" + match.group("tournament"))
    holder = None
    for tournament_id in sorted(str(owner) for owner in owners if owner is not None):
        holder = admit(tournament_id).holder
    return holder


@bp.get("/export")
def export_archive():
    query = load_query(export_query_schema)
    full_history = query.pop("history") == "full"
    # text/plain is the notation too, as import takes it (a plain client asks for that).
    offered = [NOTATION, NDJSON, "text/plain"]
    kind = request.accept_mimetypes.best_match(offered) if request.accept_mimetypes else NOTATION
    if kind is None:
        raise NotAcceptable(f"export speaks {NOTATION} (also as text/plain) and {NDJSON}")
    archive = Archive(recorder().store)
    game_ids = archive.select(**query)
    if kind == NDJSON:
        chunks = archive.ndjson_archive(game_ids)
    else:
        chunks = archive.notation_archive(game_ids, full_history=full_history)
    response = Response(stream_with_context(chunks), mimetype=kind)
    if kind in NOTATION_TYPES:
        response.mimetype_params["charset"] = "utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{FILENAMES[kind]}"'
    return response


def document_archive_paths(spec: APISpec) -> None:
    import schemas.archive as archive_schemas

    spec.components.schema("ImportReport", schema=archive_schemas.ImportReportSchema)
    text = {"schema": {"type": "string"}}
    spec.path(
        path="/api/import",
        operations={
            "post": {
                "summary": "Import an archive: notation text or NDJSON event logs; a report per game",
                "parameters": [{"in": "query", "schema": archive_schemas.ImportQuerySchema}],
                "requestBody": {"required": True, "content": {NOTATION: text, "text/plain": text, NDJSON: text}},
                "responses": {
                    "200": {
                        "description": "Every game existed already (the same records were imported before)",
                        "content": openapi._json("ImportReport"),
                    },
                    "201": {
                        "description": "Every game imported (or there already)",
                        "content": openapi._json("ImportReport"),
                    },
                    "207": {
                        "description": "Some games refused (see each game's error)",
                        "content": openapi._json("ImportReport"),
                    },
                    **openapi._problems(413, 415, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/export",
        operations={
            "get": {
                "summary": "Export games (streamed): notation or NDJSON by Accept",
                "parameters": [{"in": "query", "schema": archive_schemas.ExportQuerySchema}],
                "responses": {
                    "200": {
                        "description": "The archive",
                        "content": {NOTATION: text, "text/plain": text, NDJSON: text},
                    },
                    **openapi._problems(406, 422),
                },
            }
        },
    )


openapi.EXTENSIONS.append(document_archive_paths)
