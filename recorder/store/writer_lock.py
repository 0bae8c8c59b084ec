"""A queue for the writers of one SQLite file, across threads and processes.

SQLite lets one writer in at a time; the others poll under ``busy_timeout``, sleeping
1, 2, 5, 10, 25... ms between tries. With two gunicorn workers appending at once that
polling, not the work, set the pace: throughput fell and the slowest appends waited
longest.
Here writers instead wait on an advisory ``flock`` of a small file beside
the database (threads of one process on a lock first): the kernel wakes the next
writer the moment the previous one releases, so BEGIN IMMEDIATE finds the database
free. The lock is an optimisation only: the guarantees still come from SQLite's own
locking (a writer that does not queue here, such as the sqlite3 shell, is still safe),
and the kernel releases it when a holder dies, even by SIGKILL.

The wait is bounded: a writer that cannot get the lock within ``WAIT_SECONDS`` (the
same 10 s as SQLite's busy timeout) gets ``Unavailable`` (503 with Retry-After), not a
hung request. Threads of one process queue on a lock with that timeout; across
processes the lock is polled, briefly (at most 2 ms between tries). The lock file is
created 0600: it says nothing, but nobody else needs to open it. And each holder checks
that the database file is still the one the store opened (same device and inode): a
database moved or replaced under a running server refuses writes instead of losing them
into an unlinked file.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from collections.abc import Iterator

try:
    import fcntl
except ImportError:  # not POSIX: SQLite's busy timeout alone orders the writers
    fcntl = None  # type: ignore[assignment]  # the module or None: callers test it before use

from recorder.errors import Unavailable

SUFFIX = "-writer.lock"
WAIT_SECONDS = 10.0
MAX_POLL = 0.002


class WriterLock:
    """``with lock.held():`` around one write transaction on the database at ``db_path``."""

    def __init__(self, db_path: str, wait_seconds: float = WAIT_SECONDS):
        self.db_path = db_path
        self.path = db_path + SUFFIX
        self.wait_seconds = wait_seconds
        self._identity: tuple[int, int] | None = None
        self._reset()
        _LOCKS.add(self)

    def _reset(self) -> None:
        self._fd: int | None = None
        self._threads = threading.RLock()
        self._opening = threading.Lock()

    def _descriptor(self) -> int:
        with self._opening:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                with contextlib.suppress(OSError):  # a file made by an older version, or another owner's
                    os.fchmod(self._fd, 0o600)
            return self._fd

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        fd = self._descriptor()
        deadline = time.monotonic() + self.wait_seconds
        if not self._threads.acquire(timeout=self.wait_seconds):
            raise self._busy()
        try:
            self._lock_file(fd, deadline)
            try:
                self._check_same_database()
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            self._threads.release()

    def _lock_file(self, fd: int, deadline: float) -> None:
        pause = 0.0001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise self._busy() from None
                time.sleep(pause)
                pause = min(pause * 2, MAX_POLL)

    def _busy(self) -> Unavailable:
        return Unavailable(
            f"another writer held the database for over {self.wait_seconds:g} s; nothing was written", retry_after=2
        )

    def _check_same_database(self) -> None:
        """The first holder notes which file the database is; later ones insist on it."""
        try:
            info = os.stat(self.db_path)
        except FileNotFoundError:
            raise self._replaced("is gone") from None
        identity = (info.st_dev, info.st_ino)
        if self._identity is None:
            self._identity = identity
        elif identity != self._identity:
            raise self._replaced("was replaced")

    def _replaced(self, what: str) -> Unavailable:
        return Unavailable(
            f"the database file {self.db_path} {what} since the server opened it; writes are refused so that"
            " none is lost: restart the server",
            retry_after=60,
        )

    def close(self) -> None:
        with self._opening:
            fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def _after_fork_in_child(self) -> None:
        """A descriptor inherited through fork shares the parent's lock: open our own."""
        inherited = self._fd
        self._reset()
        if inherited is not None:
            with contextlib.suppress(OSError):
                os.close(inherited)


_LOCKS: weakref.WeakSet[WriterLock] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for lock in list(_LOCKS):
        lock._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def writer_lock_for(db_path: str) -> WriterLock | None:
    """A lock for a database file; None for in-memory databases or where flock is missing."""
    if fcntl is None or not db_path or db_path == ":memory:" or db_path.startswith("file:"):
        return None
    return WriterLock(db_path)
