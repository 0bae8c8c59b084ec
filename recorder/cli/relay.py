"""The front of ``recorder serve``: live streams here, every other request relayed to a backend.

The front is the event-driven process (gevent): it keeps the live streams, each a
greenlet, and hands each other request over a Unix socket to one of two backend
processes (recorder/cli/backend.py): *recording* for writes and cheap reads, *heavy*
for the costly per-game reads, which runs in Linux's idle scheduling class. A greenlet
cannot be preempted, so a verify of a 20,000-event game computed in the front would hold
every append behind it; in a process of its own at idle priority it takes only the CPU
that recording leaves.

The relay is plain HTTP/1.1 over the socket, one connection per request: the request's
body is read by the front first (at most ``MAX_CONTENT_LENGTH``, 1 MiB, so that a client
sending it slowly holds a greenlet and never a backend's thread), the answer comes back
as the backend writes it (an export streams), hop-by-hop headers dropped both ways, and the client's address passed
on in ``X-Recorder-Client``, which the backend believes only because nothing but the
front can reach its socket (a folder of mode 0700). A backend that cannot be reached
gives 503 with Retry-After, never a 5xx of another kind.
"""

from __future__ import annotations

import http.client
import re
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import quote

from flask import Flask
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from recorder.api.problems import problem

CLIENT_HEADER = "X-Recorder-Client"
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
        "expect",  # the front answers 100-continue itself as it reads the body
        "x-recorder-client",  # only the front says who the client is
    }
)
CHUNK = 64 * 1024
RELAY_TIMEOUT_SECONDS = 600.0  # an export of a large archive may take minutes; a dead backend is seen at once
RETRY_AFTER_SECONDS = 5
LONG_GAME_EVENTS = 1_000  # a game's events, moves or notation past this many events is a heavy read

LIVE = re.compile(r"^/api/(games|tournaments)/[^/]+/live$")
HEAVY = re.compile(
    r"^/api/("
    r"games/[^/]+/(verify|what-if|claims|checkpoint|checkpoint\.svg|dossier|events/[0-9]+/trace)"
    r"|import|export|positions|tournaments/trf|tournaments/[^/]+/(trf|check)"
    r")$"
    r"|^/games/[^/]+/(scoresheet|dossier)$|^/tournaments/[^/]+/(print|rounds/[0-9]+/scoresheets)$"
)
GAME_LISTING = re.compile(r"^/api/games/(?P<game_id>[^/]+)/(events|moves|notation)$")


@dataclass(frozen=True)
class Backends:
    """Where each kind of request goes: the Unix sockets of the two backends."""

    recording: str
    heavy: str


class Front:
    """The WSGI application of the front: the live paths served by ``app`` itself, the
    rest relayed to the backend whose kind of work it is."""

    def __init__(self, app: Flask, backends: Backends, relays: int):
        self.app = app
        self.backends = backends
        self.store = app.extensions["recorder"].store
        # Each relay under way holds a socket to a backend: so many at once to each, the
        # rest wait their turn (a greenlet waiting here holds only its client's socket).
        # Each backend has its own: heavy reads queued by the dozen never hold the relay
        # an append needs.
        self.slots = {path: threading.BoundedSemaphore(relays) for path in (backends.recording, backends.heavy)}

    def __call__(self, environ: dict, start_response):
        path = environ.get("PATH_INFO", "")
        if LIVE.match(path):
            return self.app(environ, start_response)
        return self.relay(self.backend_for(path), environ, start_response)

    def backend_for(self, path: str) -> str:
        if HEAVY.match(path):
            return self.backends.heavy
        listing = GAME_LISTING.match(path)
        if listing and self.long_game(listing["game_id"]):
            return self.backends.heavy
        return self.backends.recording

    def long_game(self, game_id: str) -> bool:
        """One indexed look (the game's version), the look a live watcher makes at each poll."""
        try:
            return self.store.version(game_id) > LONG_GAME_EVENTS
        except Exception:  # a game id the store refuses: the backend answers it as it should
            return False
        finally:
            self.store.release_connection()

    def relay(self, backend: str, environ: dict, start_response):
        """The request to ``backend``, its answer back as it comes. The body is read here
        first (at most ``MAX_CONTENT_LENGTH``): a client that sends it slowly, or never,
        holds a greenlet of the front, never a thread of a backend."""
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        sent = whole_body(environ, limit)
        if sent is None:
            return self.refuse(RequestEntityTooLarge(), environ, start_response)
        slots = self.slots[backend]
        slots.acquire()
        connection = UnixConnection(backend)
        try:
            response = send(connection, environ, sent)
        except (OSError, http.client.HTTPException):
            connection.close()
            slots.release()
            return self.unavailable(environ, start_response)
        start_response(f"{response.status} {response.reason}", end_to_end(response.getheaders()))
        return Answer(response, connection, slots.release)

    def unavailable(self, environ: dict, start_response):
        with self.app.request_context(environ):
            answer = problem(
                503, "Service unavailable", "the server is starting or restarting; try again shortly", "unavailable"
            )
            answer.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
            return answer(environ, start_response)

    def refuse(self, error: HTTPException, environ: dict, start_response):
        """``error`` answered as the app answers it (problem+json), the connection then closed."""
        with self.app.request_context(environ):
            answer = self.app.make_response(self.app.handle_http_exception(error))
            answer.headers["Connection"] = "close"  # the body it did not read stays unread
            return answer(environ, start_response)


def whole_body(environ: dict, limit: int) -> bytes | None:
    """The request's body (``b""`` when it has none), or None when it is longer than ``limit``."""
    length = environ.get("CONTENT_LENGTH")
    if length and length.isdigit() and int(length) > limit:
        return None
    if not length and environ.get("HTTP_TRANSFER_ENCODING", "").lower() != "chunked":
        return b""
    body = environ["wsgi.input"].read(limit + 1)
    return None if len(body) > limit else body


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket (cooperative once gevent has patched ``socket``)."""

    def __init__(self, path: str):
        super().__init__("backend", timeout=RELAY_TIMEOUT_SECONDS)
        self.path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self.path)
        except BaseException:
            sock.close()
            raise
        self.sock = sock


def send(connection: UnixConnection, environ: dict, body: bytes) -> http.client.HTTPResponse:
    """The request as the client sent it, less its hop-by-hop headers."""
    target = environ.get("RAW_URI") or quoted_path(environ)
    connection.putrequest(environ["REQUEST_METHOD"], target, skip_host=True, skip_accept_encoding=True)
    for name, value in request_headers(environ):
        connection.putheader(name, value)
    connection.putheader(CLIENT_HEADER, environ.get("REMOTE_ADDR", ""))
    connection.putheader("Connection", "close")
    if body or environ.get("CONTENT_LENGTH"):
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body or None)
    return connection.getresponse()


def quoted_path(environ: dict) -> str:
    """The target as the client sent it, should the server not keep it (``RAW_URI``)."""
    query = environ.get("QUERY_STRING")
    path = quote(environ.get("PATH_INFO", "/").encode("latin-1"), safe="/:@!$&'()*+,;=~")
    return path + ("?" + query if query else "")


def request_headers(environ: dict) -> Iterator[tuple[str, str]]:
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            name = key[5:].replace("_", "-").title()
            if name.lower() not in HOP_BY_HOP and name.lower() not in ("content-length",):
                yield name, value
    if environ.get("CONTENT_TYPE"):
        yield "Content-Type", environ["CONTENT_TYPE"]


def end_to_end(headers: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(name, value) for name, value in headers if name.lower() not in HOP_BY_HOP]


class Answer:
    """The backend's answer as the client's body, passed on as it arrives; the socket to
    the backend (and the relay's slot) goes back when the client's answer ends or breaks."""

    def __init__(self, response: http.client.HTTPResponse, connection: UnixConnection, release: Callable[[], None]):
        self.response, self.connection = response, connection
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[bytes]:
        while piece := self.response.read1(CHUNK):
            yield piece

    def close(self) -> None:
        try:
            self.response.close()
            self.connection.close()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()
