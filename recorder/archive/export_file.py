"""The file ``recorder export --output`` writes, past the operating system's page cache.

An archive is written once and read later, most of it by someone else. Written through
the page cache, every byte of it first takes a page of memory: a large export pushes
the database's own pages out of memory to hold it, and the kernel's work for those pages
becomes most of the export's time (docs/decisions.md has the figures).

So a regular file on a system that has ``O_DIRECT`` is written in whole blocks straight
from aligned memory to the disk (``DirectFile``): one buffer is filled while a thread
writes the other, and the tail that is not a whole block is written without ``O_DIRECT``
at the end. Anywhere the flag is refused (a file system without direct I/O, such as
tmpfs; a system without the flag; standard output; a device or a pipe) the file is
written as before, through a buffered text file. The bytes are the same either way.
"""

from __future__ import annotations

import contextlib
import errno
import io
import mmap
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TextIO

try:
    import fcntl
except ImportError:  # not POSIX: there is no O_DIRECT either, so every file goes through the cache
    fcntl = None  # type: ignore[assignment]  # the module or None: _stop_direct tests it

ALIGNMENT = 4096  # O_DIRECT writes whole blocks from aligned memory: 4 KiB suits 512-byte and 4 KiB devices
BUFFER = 1 << 20  # bytes per write (a multiple of ALIGNMENT): as fast as larger writes here; two are held
_O_DIRECT = getattr(os, "O_DIRECT", 0)  # 0 where the system has no such flag


def write_export(path: str, chunks: Iterable[str]) -> None:
    """``recorder export``'s text chunks written to ``path`` ("-": standard output)."""
    with open_export(path) as out:
        for chunk in chunks:
            out.write(chunk)


def open_export(path: str) -> contextlib.AbstractContextManager[Any]:
    """A context giving a writer of text chunks (``write(str)``) to ``path`` ("-": standard output)."""
    fd = _open_direct(path)
    if fd is None:
        return _standard_output() if path == "-" else open(path, "w", encoding="utf-8")
    return contextlib.closing(DirectFile(fd))


@contextlib.contextmanager
def _standard_output() -> Iterator[TextIO]:
    """Standard output as UTF-8 text, left open: itself when it is UTF-8 already, else a
    UTF-8 writer over its bytes, detached (not closed) at the end."""
    if (sys.stdout.encoding or "").lower().replace("-", "") == "utf8":
        yield sys.stdout
        sys.stdout.flush()
        return
    sys.stdout.flush()
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8")
    try:
        yield out
    finally:
        out.flush()
        out.detach()


def _open_direct(path: str) -> int | None:
    """The file opened for direct writes, truncated; None where direct writes do not apply."""
    if path == "-" or not _O_DIRECT or not _regular_or_new(path):
        return None
    try:
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | _O_DIRECT, 0o666)
    except OSError as error:
        if error.errno == errno.EINVAL:  # the file system has no direct I/O
            return None
        raise


def _regular_or_new(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


class DirectFile:
    """Text written to ``fd`` in ``buffer_size`` blocks of UTF-8 from page-aligned memory.

    A full buffer is handed to a writer thread once the one before it is written (a failed
    write raises in the caller at that point), and the other buffer is filled meanwhile:
    the disk's time overlaps the export's own. Memory holds the two buffers, whatever
    the file's size."""

    def __init__(self, fd: int, buffer_size: int = BUFFER):
        if buffer_size % ALIGNMENT:
            raise ValueError(f"the buffer size must be a multiple of {ALIGNMENT}")
        self._fd, self._size = fd, buffer_size
        self._buffers = [_resident(buffer_size), _resident(buffer_size)]
        self._current, self._filled = 0, 0
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="export-writer")
        self._pending: Future | None = None

    def write(self, text: str) -> None:
        data = memoryview(text.encode("utf-8"))
        while data:
            taken = min(self._size - self._filled, len(data))
            self._buffers[self._current][self._filled : self._filled + taken] = data[:taken]
            self._filled += taken
            data = data[taken:]
            if self._filled == self._size:
                self._hand_on(self._size)

    def close(self) -> None:
        """The whole blocks left, then the tail short of a block without ``O_DIRECT``; the
        file is closed even when a write fails (the failure is raised)."""
        try:
            whole = self._filled - self._filled % ALIGNMENT
            tail = self._buffers[self._current][whole : self._filled]
            if whole:
                self._hand_on(whole)
            self._wait()
            if tail:
                _stop_direct(self._fd)
                _write_all(self._fd, tail, len(tail))
        finally:
            self._writer.shutdown(wait=True)
            os.close(self._fd)
            self._buffers = []  # unmapped when unreferenced (a failed write's traceback may still hold a view)

    def _hand_on(self, size: int) -> None:
        self._wait()
        self._pending = self._writer.submit(_write_all, self._fd, self._buffers[self._current], size)
        self._current, self._filled = 1 - self._current, 0

    def _wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()


def _resident(size: int) -> mmap.mmap:
    """Page-aligned memory (an anonymous map), every page touched at once: the export's
    memory is then the same from its first byte, whatever it goes on to write."""
    buffer = mmap.mmap(-1, size)
    buffer.write(bytes(size))
    return buffer


def _write_all(fd: int, buffer: mmap.mmap | bytes, size: int) -> None:
    """``size`` bytes of ``buffer`` written, however many calls that takes. A file system
    that opened the file with ``O_DIRECT`` but refuses a direct write (EINVAL) gets it,
    and the rest of the file, written through the page cache."""
    view = memoryview(buffer)[:size]
    try:
        while view:
            try:
                written = os.write(fd, view)
            except OSError as error:
                if error.errno != errno.EINVAL or not _stop_direct(fd):
                    raise
                continue
            view = view[written:]
    finally:
        view.release()


def _stop_direct(fd: int) -> bool:
    """Turn ``O_DIRECT`` off for ``fd``; whether it was on."""
    if fcntl is None or not _O_DIRECT:
        return False
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    if not flags & _O_DIRECT:
        return False
    fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~_O_DIRECT)
    return True
