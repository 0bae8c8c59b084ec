"""The live streams' machinery, apart from HTTP: how many a process admits, the messages
they send, and what a game's or a tournament's stream yields as its watcher hands changes
on (recorder/live/watchers.py). The paths that open them are recorder/api/live.py.

The live paths are meant for an event-driven process (gevent: gunicorn's gevent worker
with recorder/live/gunicorn_conf.py, or ``recorder serve``), where a stream is a greenlet
of a few tens of kB and holds no thread that records moves and, once it has caught up, no
database connection. Each process admits at most ``LIVE_LISTENERS`` streams at once (env
``RECORDER_LIVE_LISTENERS``; default 10,000 in an event-driven process, 8 per worker
elsewhere, where each stream holds one of the worker's threads; an event-driven process no
more than its open files allow, its soft limit raised to the hard one); the API answers 503
with ``Retry-After`` beyond it (docs/deployment.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import resource
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence

from ..games.games_list import GamesList
from ..rules.values import is_whole_number
from ..store import StoredEvent
from .audience import Audience
from .watchers import Encoded, Visible, Watchers

THREADED_LISTENERS = 8  # per gthread worker: each stream holds a thread, 4 of its 12 stay for recording
EVENT_DRIVEN_LISTENERS = 10_000  # per event-driven process: each stream is a greenlet, no thread
FILES_FOR_THE_REST = 96  # open files an event-driven process keeps from its streams, at the least


def event_driven() -> bool:
    """True in a process gevent has patched (gunicorn's gevent worker, ``recorder serve``):
    a stream waiting there costs a greenlet, not a thread."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


def listener_limit() -> int:
    """``RECORDER_LIVE_LISTENERS``, else the default of this kind of process; in an
    event-driven process no more than its open files allow (``open_files_for_streams``)."""
    configured = os.environ.get("RECORDER_LIVE_LISTENERS")
    if not event_driven():
        return int(configured) if configured else THREADED_LISTENERS
    wanted = int(configured) if configured else EVENT_DRIVEN_LISTENERS
    return min(wanted, streams_within(open_files_for_streams()))


def open_files_for_streams() -> int:
    """The process's open-files limit, its soft limit raised to the hard one first: each
    stream is a socket, and a process out of files accepts no one (not even to say 503)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard or (hard == resource.RLIM_INFINITY and soft != hard):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def streams_within(files: int) -> int:
    """Streams a process with ``files`` open files admits: a quarter of them (at least
    ``FILES_FOR_THE_REST``) stay for the database, the requests that record and read,
    and the answers (503) that tell the excess to come back."""
    return max(1, files - max(FILES_FOR_THE_REST, files // 4))


DEFAULTS = {
    "LIVE_POLL_SECONDS": 0.1,  # one indexed look per live game per process, whatever its watchers
    "LIVE_HEARTBEAT_SECONDS": 15.0,
    "LIVE_MAX_SECONDS": 300.0,
}
RETRY_AFTER_SECONDS = 5
RECONNECT_MS = 1000  # EventSource waits this long before it reconnects
HEARTBEAT = b": still here\n\n"  # a comment: EventSource ignores it, proxies see the stream alive


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


def message(event: str, data: dict, event_id: int | None = None) -> bytes:
    """One SSE message, as the stream sends it; ``data`` is one line of JSON."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class Admitted:
    """A stream holding one listener slot, given back exactly once: at its end, at
    ``close()`` (which every WSGI server calls, also when the client went or the body was
    never read) or when the stream is garbage collected without either. ``close()``, run
    by the thread or greenlet that served the stream, also lets go of its database
    connection (``let_go``), should the body have ended before it did so itself."""

    def __init__(self, listeners: Listeners, body: Iterator[bytes], let_go: Callable[[], None] = lambda: None):
        self._body = body
        self._started = False
        self._let_go = let_go
        self._release = weakref.finalize(self, listeners.leave)

    def __iter__(self) -> Admitted:
        return self

    def __next__(self) -> bytes:
        if not self._started:
            self._started = True
            return f"retry: {RECONNECT_MS}\n\n".encode()
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
            self._let_go()


def game_messages(
    watchers: Watchers,
    key,
    look,
    store,
    shown: Visible | tuple[str, int],
    sent: int,
    timing: tuple[float, float],
    recorded: Callable[[StoredEvent], Encoded],
) -> Iterator[bytes]:
    """The version, then every event after ``sent`` as the game's watcher hands it on (as
    this reader may see it). The stream joins the watcher first, then reads from the store
    what it missed: so no event falls between the two, and an event it has already is
    skipped. ``shown`` is the game's ``Visible`` when a broadcast delay cuts it (the cut is
    asked again after the join), else the game and the version the request saw: then the
    stream reads only what the watcher had already handed on past ``sent`` (an append
    between the request and the join, a resuming listener's missed events), and a
    spectator who missed nothing opens no database connection in its stream."""
    events = watchers.join(key, look, *timing)
    try:
        if isinstance(shown, Visible):
            game_id, version, upto = shown.game_id, shown.version(), shown.upto()
        else:
            (game_id, version), handed = shown, watchers.seen(key)
            upto = version if handed is None else max(version, handed)
        yield message("version", {"game_id": game_id, "version": version}, None)
        if upto is None or upto > sent:
            sent = yield from new_events(store, game_id, sent, upto, recorded)
            store.release_connection()  # caught up: the watcher reads for every stream from now on
        for batch in handed_on(events):
            for event in batch:
                if event.seq > sent:
                    yield event.data
                    sent = event.seq
            if not batch:
                yield HEARTBEAT
    finally:
        watchers.leave(key, events)


def handed_on(events: queue.SimpleQueue) -> Iterator[Sequence]:
    """Each batch the watcher hands on (an empty one when a heartbeat is due) until it says
    the stream's lifetime is up: the stream waits on its queue alone, with no timer."""
    while (batch := events.get()) is not None:
        yield batch


def new_events(store, game_id: str, after: int, upto: int | None, recorded: Callable[[StoredEvent], Encoded]):
    for event in store.read(game_id, after=after, upto=upto):
        yield recorded(event).data
        after = event.seq
    return after


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


class BoardsLook:
    """A tournament's boards as one reader sees them, and what changed since the last look.

    The message id is the tournament's version plus all its games' versions: it only
    grows, so a reconnecting client whose id differs has missed something."""

    def __init__(self, store, tournament_id: str, reader: Audience, poll: float):
        self.store, self.tournament_id, self.reader, self.poll = store, tournament_id, reader, poll
        self.own = store.version(tournament_id)
        self.known = boards(store, tournament_id, reader)
        self.versions = {g: row.get("horizon") or store.version(g) for g, row in self.known.items()}
        self.cursor = self.own + sum(self.versions.values())

    def snapshot(self) -> bytes:
        rows = [{**board_message(self.store, row), "version": self.versions[g]} for g, row in self.known.items()]
        data = {"tournament_id": self.tournament_id, "version": self.own, "boards": rows}
        return message("snapshot", data, self.cursor)

    def __call__(self) -> list[bytes]:
        """A poll interval later: a ``board`` message per changed board, a ``tournament``
        message when the tournament changed."""
        time.sleep(self.poll)
        changes = []
        for game_id, row in boards(self.store, self.tournament_id, self.reader).items():
            if self.known.get(game_id, {}).get("updated_at") != row.get("updated_at"):
                self.known[game_id] = row
                board = board_message(self.store, row)
                self.cursor += board["version"] - self.versions.get(game_id, 0)
                self.versions[game_id] = board["version"]
                changes.append(message("board", board, self.cursor))
        now = self.store.version(self.tournament_id)
        if now != self.own:
            self.cursor, self.own = self.cursor + now - self.own, now
            changes.append(message("tournament", {"tournament_id": self.tournament_id, "version": now}, self.cursor))
        return changes


def tournament_messages(
    watchers: Watchers, key, look, first: Callable[[], BoardsLook], last: int | None, timing: tuple[float, float]
) -> Iterator[bytes]:
    """A snapshot of every board (unless the client already has it, by its id), then each
    change as the tournament's watcher finds it. The stream joins the watcher before it
    reads its snapshot, so no change falls between the two (one may come twice)."""
    changes = watchers.join(key, look, *timing)
    try:
        now = first()
        now.store.release_connection()  # the snapshot is read: the watcher looks for every stream from now on
        if last != now.cursor:
            yield now.snapshot()
        for batch in handed_on(changes):
            yield from batch
            if not batch:
                yield HEARTBEAT
    finally:
        watchers.leave(key, changes)
