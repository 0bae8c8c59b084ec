"""Live boards: Server-Sent Events for one game and for a tournament's boards.

``GET /api/games/{id}/live`` sends each event recorded in the game (``event: recorded``,
``id:`` its seq, ``data:`` the event as ``/events`` shows it). ``GET
/api/tournaments/{id}/live`` sends a ``board`` message whenever a board's game changes
and a ``tournament`` message when the tournament itself does (a pairing, a result).
Both resume: a client that reconnects with ``Last-Event-ID`` (EventSource does this by
itself) first gets what it missed.

How a listener learns of an append: a game's stream waits with
``store.notify.wait_for_append``, which PostgreSQL wakes at once (every append sends a
NOTIFY, delivered to every app server) and which on SQLite looks at the store's version
every ``LIVE_POLL_SECONDS`` (0.25 s); a tournament's stream looks at its boards' versions
at that interval on either backend. One indexed ``MAX(seq)`` per look is cheap, and it
works across gunicorn's worker processes, which a condition variable in one process
would not (an append is served by whichever worker took the request). Each worker admits at
most ``LIVE_LISTENERS`` listeners at once (env ``RECORDER_LIVE_LISTENERS``, default 8)
and answers 503 with ``Retry-After`` beyond it, so long-lived connections never take
every thread and recording always has some left (docs/deployment.md: gthread workers).
A stream ends after ``LIVE_MAX_SECONDS`` (300 s); EventSource reconnects and resumes.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator

from apispec import APISpec
from flask import Blueprint, Flask, Response, current_app, json, request

from schemas import event_schema

from ..errors import InvalidRecord, NotFound, UnknownGame
from ..rules.values import is_whole_number
from ..store import GamesList
from ..store.notify import wait_for_append
from ..tournaments import is_tournament_id
from . import openapi
from .broadcast import Audience, audience
from .problems import problem

bp = Blueprint("live", __name__)

DEFAULTS = {
    "LIVE_LISTENERS": int(os.environ.get("RECORDER_LIVE_LISTENERS", "8")),
    "LIVE_POLL_SECONDS": 0.25,
    "LIVE_HEARTBEAT_SECONDS": 15.0,
    "LIVE_MAX_SECONDS": 300.0,
}
RETRY_AFTER_SECONDS = 5
RECONNECT_MS = 1000  # EventSource waits this long before it reconnects


class Listeners:
    """A per-process count of open streams, refused beyond ``limit``."""

    def __init__(self, limit: int):
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def admit(self) -> bool:
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self.open -= 1


def message(event: str, data: dict, event_id: int | None = None) -> str:
    """One SSE message; ``data`` is one line of JSON."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data)}\n\n"


def last_event_id() -> int | None:
    """The ``Last-Event-ID`` header, else ``?last_event_id=`` (a first connection cannot set headers)."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None or raw == "":
        return None
    if not is_whole_number(raw):
        raise InvalidRecord("Last-Event-ID must be a whole number, as this stream sent it", field="Last-Event-ID")
    return int(raw)


def stream(body: Iterator[str]) -> Response:
    """Admit a listener or refuse with 503; the slot is held only while the stream runs.

    A HEAD request gets the stream's headers and takes no slot: its body is never sent,
    so a generator would never start and its ``finally`` never run. Any other stream's
    slot goes back when the stream ends, when the server closes it (the client went,
    before or after the first byte), or when it is dropped unclosed (``Admitted``)."""
    listeners: Listeners = current_app.extensions["live"]
    if request.method == "HEAD":
        return streaming(iter(()))
    if not listeners.admit():
        response = problem(
            503,
            "Too many listeners",
            f"this worker already serves {listeners.limit} live streams; try again shortly",
            "too-many-listeners",
        )
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return streaming(Admitted(listeners, body))


def streaming(body: Iterator[str]) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response


class Admitted:
    """A stream holding one listener slot, given back exactly once: at its end, at
    ``close()`` (which every WSGI server calls, also when the client went or the body was
    never read) or when the stream is garbage collected without either."""

    def __init__(self, listeners: Listeners, body: Iterator[str]):
        self._body = body
        self._started = False
        self._release = weakref.finalize(self, listeners.leave)

    def __iter__(self) -> Admitted:
        return self

    def __next__(self) -> str:
        if not self._started:
            self._started = True
            return f"retry: {RECONNECT_MS}\n\n"
        try:
            return next(self._body)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            self._release()


def ticks(wait: Callable[[float], object] = time.sleep) -> Iterator[bool]:
    """The clock of one stream, with its settings read now (in the request, not in the stream).
    ``wait(seconds)`` passes the time between looks; it may return early when something moved."""
    config = current_app.config
    return _ticks(config["LIVE_POLL_SECONDS"], config["LIVE_HEARTBEAT_SECONDS"], config["LIVE_MAX_SECONDS"], wait)


def _ticks(
    poll: float, heartbeat: float, lifetime: float, wait: Callable[[float], object] = time.sleep
) -> Iterator[bool]:
    """Every poll interval until the stream's lifetime is up; True when a heartbeat is due."""
    start = last_beat = time.monotonic()
    while True:
        wait(poll)
        now = time.monotonic()
        if now - start >= lifetime:
            return
        beat = now - last_beat >= heartbeat
        if beat:
            last_beat = now
        yield beat


# -- One game ----------------------------------------------------------------------------


@bp.get("/api/games/<game_id>/live")
def game_live(game_id: str):
    store = current_app.extensions["recorder"].store
    version = store.version(game_id)
    if version == 0:
        raise UnknownGame(f"There is no game {game_id}.")
    reader = audience()
    visible = Visible(store, reader, game_id)
    version = visible.version()
    after = last_event_id()
    sent = [version if after is None else min(after, version)]  # the last seq this listener has
    if reader.horizon(game_id) is not None:  # held back: moves come of age with time, not with appends
        clock = ticks()
    else:  # woken by the append itself where the store can push (PostgreSQL NOTIFY, from any app
        # server), else by a cheap look at the version every poll interval (SQLite)
        clock = ticks(lambda seconds: wait_for_append(store, game_id, sent[0], seconds))
    return stream(game_messages(store, game_id, sent, clock, visible))


class Visible:
    """How far a stream's reader may see a game, asked again at every look (a broadcast
    delay lets moves through as they age; the tournament may change its delay)."""

    def __init__(self, store, reader: Audience, game_id: str):
        self.store, self.reader, self.game_id = store, reader, game_id

    def version(self) -> int:
        upto = self.reader.horizon(self.game_id)
        return self.store.version(self.game_id) if upto is None else upto

    def upto(self) -> int | None:
        return self.reader.horizon(self.game_id)


def game_messages(store, game_id: str, sent: list[int], clock: Iterator[bool], visible: Visible) -> Iterator[str]:
    """The version now, then every event after ``sent[0]`` as it is recorded (as it may be seen)."""
    yield message("version", {"game_id": game_id, "version": visible.version()}, None)
    sent[0] = yield from new_events(store, game_id, sent[0], visible.upto())
    for heartbeat in clock:
        if visible.version() > sent[0]:
            sent[0] = yield from new_events(store, game_id, sent[0], visible.upto())
        elif heartbeat:
            yield ": still here\n\n"


def new_events(store, game_id: str, after: int, upto: int | None = None):
    for event in store.read(game_id, after=after, upto=upto):
        yield message("recorded", event_schema.dump(event.to_dict()), event.seq)
        after = event.seq
    return after


# -- A tournament's boards -----------------------------------------------------------------


@bp.get("/api/tournaments/<tournament_id>/live")
def tournament_live(tournament_id: str):
    store = current_app.extensions["recorder"].store
    if not is_tournament_id(tournament_id) or store.version(tournament_id) == 0:
        raise NotFound(f"There is no tournament {tournament_id}.")
    reader = audience()
    return stream(tournament_messages(store, tournament_id, last_event_id(), ticks(), reader))


def boards(store, tournament_id: str, reader: Audience) -> dict[str, dict]:
    """Each board's game: its round, board, last change, status and result (the games
    projection, as the reader may see it)."""
    rows = GamesList(store).page(tournament=tournament_id, limit=1000)
    return {row["game_id"]: reader.row(row) for row in rows}


def number(value) -> int | None:
    """The projection keeps round and board as text; a tournament's are whole numbers."""
    return int(value) if isinstance(value, str) and is_whole_number(value) else value


def board_message(store, row: dict) -> dict:
    return {
        "game_id": row["game_id"],
        "round": number(row.get("round")),
        "board": number(row.get("board")),
        "version": row["horizon"] if "horizon" in row else store.version(row["game_id"]),
        "status": row.get("status"),
        "result": row.get("result"),
    }


def tournament_messages(
    store, tournament_id: str, last: int | None, clock: Iterator[bool], reader: Audience
) -> Iterator[str]:
    """A snapshot of every board (unless the client already has it), then each change.

    The message id is the tournament's version plus all its games' versions: it only
    grows, so a reconnecting client whose id differs has missed something."""
    own = store.version(tournament_id)
    known = boards(store, tournament_id, reader)
    versions = {game_id: row.get("horizon") or store.version(game_id) for game_id, row in known.items()}
    cursor = own + sum(versions.values())
    if last != cursor:
        snapshot = [{**board_message(store, row), "version": versions[g]} for g, row in known.items()]
        yield message("snapshot", {"tournament_id": tournament_id, "version": own, "boards": snapshot}, cursor)
    for heartbeat in clock:
        changed = False
        for game_id, row in boards(store, tournament_id, reader).items():
            if known.get(game_id, {}).get("updated_at") != row.get("updated_at"):
                known[game_id] = row
                board = board_message(store, row)
                cursor += board["version"] - versions.get(game_id, 0)
                versions[game_id] = board["version"]
                changed = True
                yield message("board", board, cursor)
        now = store.version(tournament_id)
        if now != own:
            cursor, own, changed = cursor + now - own, now, True
            yield message("tournament", {"tournament_id": tournament_id, "version": own}, cursor)
        if heartbeat and not changed:
            yield ": still here\n\n"


LAST_EVENT_ID = [
    {
        "name": "Last-Event-ID",
        "in": "header",
        "required": False,
        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
    },
    {
        "name": "last_event_id",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
    },
]


def _stream_responses(what: str) -> dict:
    stream_body: dict[str, dict] = {"text/event-stream": {}}  # messages, not one JSON document
    return {
        "200": {"description": what, "content": stream_body},
        **openapi._problems(404, 422),
        "503": {"description": "Too many listeners on this worker (Retry-After)", "content": openapi.PROBLEM},
    }


def document_live_paths(spec: APISpec) -> None:
    tournament_id = {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "string"}}
    spec.path(
        path="/api/games/{game_id}/live",
        operations={
            "get": {
                "summary": "Server-Sent Events: the game's version, then each event as it is recorded (id: its seq)",
                "parameters": [openapi.GAME_ID, *LAST_EVENT_ID],
                "responses": _stream_responses("An event stream: `version`, then `recorded` messages"),
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/live",
        operations={
            "get": {
                "summary": "Server-Sent Events: a snapshot of the boards, then `board` and `tournament` changes",
                "parameters": [tournament_id, *LAST_EVENT_ID],
                "responses": _stream_responses("An event stream: `snapshot`, then `board` and `tournament` messages"),
            }
        },
    )


openapi.EXTENSIONS.append(document_live_paths)


def init_app(app: Flask) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.extensions["live"] = Listeners(int(app.config["LIVE_LISTENERS"]))
    app.register_blueprint(bp)
