"""A queue for the writers of one SQLite file, across threads and processes.

SQLite lets one writer in at a time; the others poll under ``busy_timeout``, sleeping
1, 2, 5, 10, 25... ms between tries. With two gunicorn workers appending at once that
polling, not the work, set the pace: throughput fell and p99 rose to hundreds of ms
(issue 10). Here writers instead wait on an advisory ``flock`` of a small file beside
the database (threads of one process on a lock first): the kernel wakes the next
writer the moment the previous one releases, so BEGIN IMMEDIATE finds the database
free. The lock is an optimisation only: the guarantees still come from SQLite's own
locking (a writer that does not queue here, such as the sqlite3 shell, is still safe),
and the kernel releases it when a holder dies, even by SIGKILL.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Iterator

try:
    import fcntl
except ImportError:  # not POSIX: SQLite's busy timeout alone orders the writers
    fcntl = None  # type: ignore[assignment]  # the module or None: callers test it before use

SUFFIX = "-writer.lock"


class WriterLock:
    """``with lock.held():`` around one write transaction on the database at ``db_path``."""

    def __init__(self, db_path: str):
        self.path = db_path + SUFFIX
        self._reset()
        _LOCKS.add(self)

    def _reset(self) -> None:
        self._fd: int | None = None
        self._threads = threading.RLock()
        self._opening = threading.Lock()

    def _descriptor(self) -> int:
        with self._opening:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            return self._fd

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        fd = self._descriptor()
        with self._threads:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

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
