"""Live boards: Server-Sent Events for one game and for a tournament's boards.

``GET /api/games/{id}/live`` sends each event recorded in the game (``event: recorded``,
``id:`` its seq, ``data:`` the event as ``/events`` shows it). ``GET
/api/tournaments/{id}/live`` sends a ``board`` message whenever a board's game changes
and a ``tournament`` message when the tournament itself does (a pairing, a result).
Both resume: a client that reconnects with ``Last-Event-ID`` (EventSource does this by
itself) first gets what it missed.

How a listener learns of an append: the game's watcher (one per game per process, for all
its streams: recorder/live/watchers.py) waits with ``store.notify.wait_for_append``, which
PostgreSQL wakes at once (every append sends a NOTIFY, delivered to every app server) and
which on SQLite looks at the store's version every ``LIVE_POLL_SECONDS`` (0.1 s), then
hands each new event to every stream; a tournament's watcher looks at its boards'
versions at that interval on either backend. One indexed ``MAX(seq)`` per look is cheap,
and it works across gunicorn's worker processes, which a condition variable in one process
would not (an append is served by whichever worker took the request). A tournament's
broadcast delay holds events back from a public stream until they are old enough
(recorder/live/audience.py). The watcher encodes each event once, as the message every
stream of its key sends, so a move costs one encoding whatever the number of watchers.

The streams' machinery (their admission, messages, and what each yields) is
recorder/live/streams.py; here are the paths, the 503 beyond ``LIVE_LISTENERS`` streams a
process (with ``Retry-After``), and each request's connection let go (``release_connection``).
A stream ends after ``LIVE_MAX_SECONDS`` (300 s); EventSource reconnects and resumes. Its
watcher keeps its time (the heartbeat, the end), so a waiting stream holds no timer.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Flask, Response, current_app, request

from schemas import event_schema

from ..errors import InvalidRecord, NotFound, UnknownGame
from ..live.streams import (
    DEFAULTS,
    RETRY_AFTER_SECONDS,
    Admitted,
    BoardsLook,
    Listeners,
    event_driven,
    game_messages,
    listener_limit,
    message,
    tournament_messages,
)
from ..live.watchers import Encoded, GameLook, Visible, Watchers
from ..rules.values import is_whole_number
from ..store import StoredEvent
from ..tournaments import is_tournament_id
from .broadcast import audience
from .problems import problem

bp = Blueprint("live", __name__)


def last_event_id() -> int | None:
    """The ``Last-Event-ID`` header, else ``?last_event_id=`` (a first connection cannot set headers)."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None or raw == "":
        return None
    if not is_whole_number(raw):
        raise InvalidRecord("Last-Event-ID must be a whole number, as this stream sent it", field="Last-Event-ID")
    return int(raw)


def stream(body: Iterator[bytes]) -> Response:
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
            f"this process already serves {listeners.limit} live streams; try again shortly",
            "too-many-listeners",
        )
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    let_go = current_app.extensions["recorder"].store.release_connection
    return streaming(Admitted(listeners, body, let_go))


def streaming(body: Iterator[bytes]) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response


# -- One game ----------------------------------------------------------------------------


@bp.get("/api/games/<game_id>/live")
def game_live(game_id: str):
    """Server-Sent Events: the game's version, then each event as it is recorded (id: its seq)

    ---
    get:
      parameters:
      - {name: Last-Event-ID, in: header, required: false, schema: {type: string, pattern: '^[0-9]{1,18}$'}}
      - {name: last_event_id, in: query, required: false, schema: {type: string, pattern: '^[0-9]{1,18}$'}}
      responses:
        200:
          description: 'An event stream: `version`, then `recorded` messages'
          content: {text/event-stream: {}}
        422: Invalid body or illegal move
        503: Too many listeners in this process (Retry-After)
    """
    store = current_app.extensions["recorder"].store
    if store.version(game_id) == 0:
        raise UnknownGame(f"There is no game {game_id}.")
    reader = audience()
    visible = Visible(store, reader, game_id)
    horizon = visible.upto()
    version = store.version(game_id) if horizon is None else horizon
    after = last_event_id()
    sent = version if after is None else min(after, version)  # the last seq this listener has
    key = ("game", game_id, reader.sees_all(game_id))
    poll = current_app.config["LIVE_POLL_SECONDS"]
    look = lambda: GameLook(store, Visible(store, reader, game_id), poll, recorded)  # noqa: E731
    shown = visible if horizon is not None else (game_id, version)
    return stream(game_messages(watchers(), key, look, store, shown, sent, timing(), recorded))


def recorded(event: StoredEvent) -> Encoded:
    """An event as the message every stream of its game sends: encoded once, by the watcher."""
    return Encoded(event.seq, message("recorded", event_schema.dump(event.to_dict()), event.seq))


def watchers() -> Watchers:
    return current_app.extensions["live_watchers"]


def timing() -> tuple[float, float]:
    """A stream's heartbeat interval and lifetime, read in the request (not in the stream)."""
    return current_app.config["LIVE_HEARTBEAT_SECONDS"], current_app.config["LIVE_MAX_SECONDS"]


# -- A tournament's boards -----------------------------------------------------------------


@bp.get("/api/tournaments/<tournament_id>/live")
def tournament_live(tournament_id: str):
    """Server-Sent Events: a snapshot of the boards, then `board` and `tournament` changes

    ---
    get:
      parameters:
      - {name: Last-Event-ID, in: header, required: false, schema: {type: string, pattern: '^[0-9]{1,18}$'}}
      - {name: last_event_id, in: query, required: false, schema: {type: string, pattern: '^[0-9]{1,18}$'}}
      responses:
        200:
          description: 'An event stream: `snapshot`, then `board` and `tournament` messages'
          content: {text/event-stream: {}}
        422: Invalid body or illegal move
        503: Too many listeners in this process (Retry-After)
    """
    store = current_app.extensions["recorder"].store
    if not is_tournament_id(tournament_id) or store.version(tournament_id) == 0:
        raise NotFound(f"There is no tournament {tournament_id}.")
    reader = audience()
    key = ("tournament", tournament_id, reader.reaches(tournament_id))
    poll = current_app.config["LIVE_POLL_SECONDS"]
    look = lambda: BoardsLook(store, tournament_id, reader, poll)  # noqa: E731
    first = lambda: BoardsLook(store, tournament_id, reader, 0)  # noqa: E731
    return stream(tournament_messages(watchers(), key, look, first, last_event_id(), timing()))


def init_app(app: Flask) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.config.setdefault("LIVE_LISTENERS", listener_limit())
    app.extensions["live"] = Listeners(int(app.config["LIVE_LISTENERS"]))
    app.extensions["live_watchers"] = Watchers(app.extensions["recorder"].store.release_connection)
    app.register_blueprint(bp)
    if event_driven():
        app.teardown_request(release_connection)


def release_connection(_error: BaseException | None) -> None:
    """Event-driven, every request is a greenlet of its own: its connection goes back as it
    ends (a finished greenlet still looks alive to the store, which would keep it), a
    stream's as its answer starts (``game_messages`` reads only what its listener missed).
    So open connections stay as few as the requests being answered at once: under WAL
    each connection closed while another of the process is open keeps its descriptor
    for reuse, so the most ever open at once is what a process holds."""
    current_app.extensions["recorder"].store.release_connection()
