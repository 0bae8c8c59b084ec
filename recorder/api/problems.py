"""Errors as RFC 9457 problem+json, mapped to HTTP statuses in one table."""

from __future__ import annotations

from flask import Flask, Response, json, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from recorder import errors
from recorder.store.unavailable import OperationalError, as_unavailable

STATUS = {
    errors.InvalidRecord: 422,
    errors.IllegalMove: 422,  # EndlessSowing and GameOver included
    errors.UnknownGame: 404,
    errors.NotFound: 404,
    errors.VersionConflict: 409,
    errors.IdempotencyMismatch: 422,
    errors.Unauthorized: 401,
    errors.Forbidden: 403,
    errors.AlreadyExists: 409,  # a board's game, a player's name (recorder/tournaments)
    errors.PreconditionRequired: 428,  # a command without If-Match (RFC 6585)
    errors.Unavailable: 503,  # with Retry-After
    errors.RecordBroken: 409,  # a tampered record is never signed (recorder/audit/checkpoints.py)
}

PROBLEM_TYPES = "https://mancala-records.example/problems/"


def status_of(error: errors.RecorderError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def problem(status: int, title: str, detail: str, kind: str, **extra) -> Response:
    body = {"type": PROBLEM_TYPES + kind, "title": title, "status": status, "detail": detail, "instance": request.path}
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

    @app.errorhandler(ValidationError)
    def invalid_body(error: ValidationError):
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        return problem(
            422, "Invalid body", "the request body does not match its schema", "invalid-body", errors=messages
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if not request.path.startswith("/api/"):
            return error
        kind = "malformed-json" if error.code == 400 else (error.name or "error").lower().replace(" ", "-")
        return problem(error.code or 500, error.name, error.description or "", kind)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        app.logger.exception("unexpected error")
        return problem(500, "Internal error", "the service failed; nothing was stored by this request", "internal")
