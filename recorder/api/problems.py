"""Errors as RFC 9457 problem+json, mapped to HTTP statuses in one table."""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response, json, request
from flask_babel import gettext
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, HTTPException

from recorder import errors
from recorder.store.unavailable import OperationalError, as_unavailable
from schemas.fields import first_fault, first_message

from .variant_words import N_

STATUS = {
    errors.InvalidRecord: 422,
    errors.IllegalMove: 422,  # EndlessSowing and GameOver included
    errors.LimitExceeded: 422,  # names the limit: events per game, games or events per import
    errors.UnknownGame: 404,
    errors.NotFound: 404,
    errors.VersionConflict: 409,
    errors.IdempotencyMismatch: 422,
    errors.Unauthorized: 401,
    errors.Forbidden: 403,  # ForeignOrigin included: a write from another origin
    errors.ForeignHost: 400,  # a Host this server does not answer to (recorder/api/hosts.py)
    errors.AlreadyExists: 409,  # a board's game, a player's name (recorder/tournaments)
    errors.CorrectionNeeded: 409,  # a finished tournament's board changed without a correction
    errors.PreconditionRequired: 428,  # a command without If-Match (RFC 6585)
    errors.Unavailable: 503,  # with Retry-After
    errors.RecordBroken: 409,  # a tampered record is never signed (recorder/audit/checkpoints.py)
}

PROBLEM_TYPES = "https://mancala-records.example/problems/"

# The titles a person may read, for the catalogs: the named errors' (recorder/errors.py,
# tests/test_i18n.py holds the list whole), this module's own and werkzeug's commonest.
# A problem's ``title`` and ``detail`` are answered in the reader's language where the
# catalog has them (Accept-Language, or the pages' choice); its ``type`` never changes.
TITLES = (
    N_("Request refused"),
    N_("Invalid record"),
    N_("Invalid game record"),
    N_("Hash chain broken"),
    N_("Illegal move"),
    N_("Sowing never ends"),
    N_("Game is over"),
    N_("Limit exceeded"),
    N_("Unknown game"),
    N_("Not found"),
    N_("Version conflict"),
    N_("Idempotency key reused"),
    N_("Authentication required"),
    N_("Not allowed"),
    N_("Cross-origin write refused"),
    N_("Host not served"),
    N_("Correction needed"),
    N_("Precondition required"),
    N_("Service unavailable"),
    N_("Record fails verification"),
    N_("Already exists"),
    N_("No admin token configured"),
    N_("Invalid tournament report file"),
    N_("Invalid body"),
    N_("Invalid query"),
    N_("Malformed JSON"),
    N_("Internal error"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Request Entity Too Large"),
    N_("Unsupported Media Type"),
    N_("Too Many Requests"),
    N_("the service failed; nothing was stored by this request"),
)


class MalformedJson(BadRequest):
    """A body that is not JSON at all: where the parser stopped, in the body's own lines."""

    def __init__(self, error: ValueError):
        self.line = getattr(error, "lineno", None)
        self.column = getattr(error, "colno", None)
        reason = getattr(error, "msg", None) or str(error)
        where = f" at line {self.line}, column {self.column}" if self.line is not None else ""
        super().__init__(f"the request body is not valid JSON: {reason}{where}")


class JsonRequest(Request):
    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:  # Flask's "not JSON content type"; get_json(force=True) never gets here
            return super().on_json_loading_failed(e)
        raise MalformedJson(e) from e


class InvalidQuery(Exception):
    """A query parameter that does not match its schema: named, unlike a body's fields."""

    def __init__(self, messages: dict):
        super().__init__(messages)
        self.messages = messages


def load_query(schema: Schema) -> dict:
    """The request's query parameters through ``schema``; an error names the parameter."""
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as error:
        messages = error.messages if isinstance(error.messages, dict) else {"_query": error.messages}
        raise InvalidQuery(messages) from None


def status_of(error: errors.RecorderError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def problem(status: int, title: str, detail: str, kind: str, **extra) -> Response:
    body = {
        "type": PROBLEM_TYPES + kind,
        "title": gettext(title),
        "status": status,
        "detail": gettext(detail) if detail else detail,
        "instance": request.path,
    }
    body.update(extra)
    response = Response(json.dumps(body), status=status, mimetype="application/problem+json")
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="recorder"'
    return response


def _kind(error: Exception) -> str:
    name = type(error).__name__
    return "".join("-" + c.lower() if c.isupper() else c for c in name).lstrip("-")


def init_app(app: Flask) -> None:
    @app.errorhandler(errors.RecorderError)
    def recorder_error(error: errors.RecorderError):
        response = problem(status_of(error), error.title, error.detail, _kind(error), **error.extra)
        if isinstance(error, errors.Unavailable):
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    @app.errorhandler(OperationalError)
    def database_unavailable(error: OperationalError):
        """A full disk or a database locked past the busy timeout: the transaction rolled
        back, so nothing was written; anything else is the service's own failure."""
        unavailable = as_unavailable(error)
        if unavailable is None:
            return unexpected(error)
        return recorder_error(unavailable)

    app.request_class = JsonRequest

    @app.errorhandler(ValidationError)
    def invalid_body(error: ValidationError):
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        field, message = first_fault(messages)
        detail = f"the request body does not match its schema: {field}: {message}"
        return problem(422, "Invalid body", detail, "invalid-body", field=field, errors=messages)

    @app.errorhandler(InvalidQuery)
    def invalid_query(error: InvalidQuery):
        names = sorted(error.messages)
        detail = f"query parameter {names[0]!r} is not valid: {first_message(error.messages[names[0]])}"
        return problem(422, "Invalid query", detail, "invalid-query", parameters=names, errors=error.messages)

    @app.errorhandler(MalformedJson)
    def malformed_json(error: MalformedJson):
        where = {"line": error.line, "column": error.column} if error.line is not None else {}
        return problem(400, "Malformed JSON", error.description or "", "malformed-json", **where)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if not request.path.startswith("/api/"):  # a page: the web's own, in the reader's language
            page = app.extensions.get("error_page")
            return page(error) if page is not None else error
        kind = "malformed-json" if error.code == 400 else (error.name or "error").lower().replace(" ", "-")
        return problem(error.code or 500, error.name, error.description or "", kind)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        app.logger.exception("unexpected error")
        return problem(500, "Internal error", "the service failed; nothing was stored by this request", "internal")
