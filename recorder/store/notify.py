"""Waiting for a stream's next append: pushed by PostgreSQL ``LISTEN/NOTIFY``, polled on SQLite.

Live views (server-sent events) wait for a game to move past the version they last sent.
``wait_for_append(store, stream_id, after, timeout)`` returns the stream's version as soon
as it exceeds ``after`` (or when ``timeout`` runs out). On PostgreSQL every append sends
``NOTIFY recorder_appends`` in its transaction, delivered at commit to every app server;
each process keeps one listening connection (``AppendListener``) and wakes the waiters of
that stream. SQLite has no cross-process push: the waiter polls the stored version.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial

from .interface import EventStore

CHANNEL = "recorder_appends"
POLL_SECONDS = 0.25  # SQLite: how often a waiter reads the stored version


def wait_for_append(store: EventStore, stream_id: str, after: int, timeout: float) -> int:
    """The stream's version once it is above ``after``, or its version when ``timeout`` runs out."""
    listener = getattr(store, "append_listener", None)
    if callable(listener):
        return listener().wait(stream_id, after, timeout, store.version)
    deadline = time.monotonic() + timeout
    while (version := store.version(stream_id)) <= after and time.monotonic() < deadline:
        time.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))
    return version


class AppendListener:
    """One LISTEN connection per process, its notifications turned into wake-ups per stream."""

    reread = 1.0  # seconds between a waiter's reads without a notification (the connection may be re-opening)

    def __init__(self, connect: Callable[[], object]):
        self._connect = connect
        self._changed = threading.Condition()
        self._seen: dict[str, int] = {}  # stream id -> notifications received
        self._stopped = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="recorder-listen", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _listen(self) -> None:
        while not self._stopped.is_set():
            try:
                conn = self._connect()
                with conn:  # type: ignore[attr-defined]
                    conn.execute(f"LISTEN {CHANNEL}")  # type: ignore[attr-defined]
                    self._ready.set()
                    self._wake_everyone()  # appends made while we were not listening
                    while not self._stopped.is_set():
                        for note in conn.notifies(timeout=0.5):  # type: ignore[attr-defined]
                            self._wake(note.payload)
            except Exception:  # the database went away: listen again shortly, waiters poll meanwhile
                self._ready.set()
                self._stopped.wait(1.0)

    def _wake(self, stream_id: str) -> None:
        with self._changed:
            self._seen[stream_id] = self._seen.get(stream_id, 0) + 1
            self._changed.notify_all()

    def _wake_everyone(self) -> None:
        with self._changed:
            for stream_id in self._seen:
                self._seen[stream_id] += 1
            self._changed.notify_all()

    def wait(self, stream_id: str, after: int, timeout: float, version: Callable[[str], int]) -> int:
        deadline = time.monotonic() + timeout
        while True:
            with self._changed:
                seen = self._seen.setdefault(stream_id, 0)
            current = version(stream_id)  # read after noting `seen`: an append in between still wakes us
            remaining = deadline - time.monotonic()
            if current > after or remaining <= 0:
                return current
            with self._changed:
                self._changed.wait_for(partial(_moved, self._seen, stream_id, seen), min(remaining, self.reread))

    def close(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=5)


def _moved(seen_by_stream: dict[str, int], stream_id: str, seen: int) -> bool:
    return seen_by_stream[stream_id] != seen
