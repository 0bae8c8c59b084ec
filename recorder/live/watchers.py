"""Live fan-out: one watcher per live game per process, whatever the number of its streams.

A game's first stream in a process starts a watcher (a daemon thread); every later
stream of that game and audience joins it. The watcher learns of an append as a stream
used to (``store.notify.wait_for_append``: PostgreSQL's NOTIFY wakes it, on SQLite it
looks at the version every poll interval), reads the new events once and hands them to
every stream's queue. So the store's cost grows with the live games, not the watchers.
When its last stream leaves, the watcher ends; the next stream starts a new one.

Streams that see a game differently share no watcher: the key is the game and whether
the reader sees all of it (its tournament's arbiters and the admin) or what a broadcast
delay lets through (docs/security.md, "Broadcast delay"), which grows with time, so its
watcher looks every poll interval rather than waiting for an append.
"""

from __future__ import annotations

import heapq
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..store import StoredEvent
from ..store.notify import wait_for_append

log = logging.getLogger(__name__)
Key = tuple[str, str, bool]  # ("game" or "tournament", its id, the reader sees every event)


class Visible:
    """How far a reader may see a game, asked again at every look (a broadcast delay lets
    moves through as they age; the tournament may change its delay)."""

    def __init__(self, store, reader, game_id: str):
        self.store, self.reader, self.game_id = store, reader, game_id

    def upto(self) -> int | None:
        return self.reader.horizon(self.game_id)

    def version(self) -> int:
        upto = self.upto()
        return self.store.version(self.game_id) if upto is None else upto


class Encoded(NamedTuple):
    """An event as its streams send it: its seq and the message's bytes, encoded once for all."""

    seq: int
    data: bytes


class GameLook:
    """One look at a game for its watcher: wait for an append (or, held back, a poll
    interval), then the events that became visible, read and encoded once."""

    def __init__(self, store, visible: Visible, poll: float, encode: Callable[[StoredEvent], Encoded]):
        self.store, self.visible, self.poll, self.encode = store, visible, poll, encode
        self.seen = visible.version()  # the last event handed on
        self.stored = store.version(visible.game_id)  # the store's version at the last look

    def __call__(self) -> Sequence[Encoded]:
        game_id = self.visible.game_id
        if self.visible.upto() is None:
            self.stored = wait_for_append(self.store, game_id, self.stored, self.poll)
        else:  # held back: events come of age with time, whether or not anything is appended
            time.sleep(self.poll)
        version = self.visible.version()
        events = self.store.read(game_id, after=self.seen, upto=version) if version > self.seen else []
        # Also down: a longer delay set meanwhile holds back again what was let through, and
        # a stream that joins now still gets those events once they come of age (each
        # stream skips what it has already sent).
        self.seen = version
        return [self.encode(event) for event in events]


class Watcher:
    """One look at the store, repeated for all the streams of one key in this process.

    The watcher also keeps its streams' time, so that a waiting stream holds no timer of
    its own: when nothing was handed on for a heartbeat interval it hands on an empty
    batch (each stream sends a comment), and when a stream's lifetime is up it hands that
    stream ``None`` (the stream ends). Both come at the next look, within a poll interval."""

    def __init__(self, registry: Watchers, key: Key, look: Callable[[], Sequence], heartbeat: float):
        self.registry, self.key, self.look, self.heartbeat = registry, key, look, heartbeat
        self.streams: set[queue.SimpleQueue] = set()
        self.ends: list[tuple[float, int, queue.SimpleQueue]] = []  # a heap: when each stream's lifetime is up
        self.handed = time.monotonic()  # when a batch (or a heartbeat) was last handed on

    def run(self) -> None:
        try:
            while self.registry.still_watched(self):
                batch = self.look_once()
                now = time.monotonic()
                if batch or now - self.handed >= self.heartbeat:
                    self.hand_on(batch)
                    self.handed = now
                self.end_streams(now)
        finally:
            self.end_streams(float("inf"))  # should the watcher fail, no stream waits for it forever
            self.registry.release(self)

    def look_once(self) -> Sequence:
        try:
            return self.look()
        except Exception:  # the database is away: the streams wait, the watcher tries again
            log.exception("live watcher of %s", self.key[1])
            time.sleep(1.0)
            return ()

    def hand_on(self, batch: Sequence) -> None:
        with self.registry.lock:
            streams = list(self.streams)
        for stream in streams:
            stream.put(batch)

    def add(self, stream: queue.SimpleQueue, ends: float) -> None:
        """Called with the registry's lock held."""
        self.streams.add(stream)
        heapq.heappush(self.ends, (ends, id(stream), stream))

    def end_streams(self, now: float) -> None:
        ended = []
        with self.registry.lock:
            while self.ends and self.ends[0][0] <= now:
                stream = heapq.heappop(self.ends)[2]
                if stream in self.streams:
                    self.streams.discard(stream)
                    ended.append(stream)
        for stream in ended:
            stream.put(None)


class Watchers:
    """The process's watchers, by key; a stream joins (starting one) and leaves."""

    def __init__(self, release: Callable[[], None] = lambda: None):
        self.lock = threading.Lock()
        self._watchers: dict[Key, Watcher] = {}
        self._release = release  # the store's release_connection: a watcher's thread gives its connection back

    def release(self, _watcher: Watcher) -> None:
        self._release()

    def join(
        self, key: Key, make_look: Callable[[], Callable[[], Sequence]], heartbeat: float, lifetime: float
    ) -> queue.SimpleQueue:
        """A queue that receives each batch the key's watcher finds (started with
        ``make_look()`` when this is the key's first stream in the process), an empty
        batch when ``heartbeat`` seconds passed without one, and ``None`` once the
        stream's ``lifetime`` is up."""
        stream: queue.SimpleQueue = queue.SimpleQueue()
        ends = time.monotonic() + lifetime
        with self.lock:
            watcher = self._watchers.get(key)
            if watcher is not None:
                watcher.add(stream, ends)
                return stream
        look = make_look()  # outside the lock: it reads the store
        with self.lock:
            watcher = self._watchers.get(key)
            start = watcher is None
            if watcher is None:
                watcher = self._watchers[key] = Watcher(self, key, look, heartbeat)
            watcher.add(stream, ends)
        if start:
            threading.Thread(target=watcher.run, name=f"live-{key[1]}", daemon=True).start()
        return stream

    def leave(self, key: Key, stream: queue.SimpleQueue) -> None:
        with self.lock:
            watcher = self._watchers.get(key)
            if watcher is not None:
                watcher.streams.discard(stream)

    def seen(self, key: Key) -> int | None:
        """The last seq the key's game watcher has handed on (None: no such watcher, or a
        tournament's). A stream that joined reads from the store only what is past its own
        last seq and not past this: what comes later reaches it through its queue."""
        with self.lock:
            watcher = self._watchers.get(key)
        return getattr(watcher.look, "seen", None) if watcher is not None else None

    def still_watched(self, watcher: Watcher) -> bool:
        """False (and the watcher forgotten) once its last stream left."""
        with self.lock:
            if watcher.streams:
                return True
            if self._watchers.get(watcher.key) is watcher:
                del self._watchers[watcher.key]
            return False

    def count(self) -> int:
        with self.lock:
            return len(self._watchers)
