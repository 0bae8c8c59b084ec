"""Verifying every stream of an archive, on every core: what ``recorder verify`` with no
GAME walks, and what the archive bench times.

A stream is verified by re-hashing its chain and re-deciding every event, all in Python,
so one process verifies at the pace of one core whatever the machine (the GIL: threads
would take turns). With more than one job the parent walks the stream ids in the events
table (``store.ids_in_events``, ids only), cuts them into contiguous ranges of at most
``CHUNK_MAX`` streams, and hands each range to a worker process; each worker opens its
own store on the same database (a SQLite file or a ``postgresql://`` URL), reads its range
in one query (``store.read_stream_range``) and sends back each stream's report line.
Results are taken in the order the ranges were handed out, so the report is line for
line what one process prints, and at most ``IN_FLIGHT_PER_JOB`` ranges per worker are in
flight (memory stays bounded however large the archive).
Workers are never forked from the parent, which holds open database connections and
maybe threads that a forked child would inherit half-used: they come from a fork server
(a fresh interpreter) where the system has one, else from "spawn". As always with those,
a script that walks with more than one job keeps its work under
``if __name__ == "__main__":`` (each worker imports the script; the ``recorder`` command does).
"""

from __future__ import annotations

import contextlib
import gc
import math
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

CHUNK_MAX = 250  # streams per range at most: a range's rows are read in one query
CHUNK_MIN = 50  # streams per range at least: a smaller archive is not worth starting workers for
CHUNKS_PER_JOB = 8  # ranges per worker, so that no worker is left alone with a long tail
IN_FLIGHT_PER_JOB = 2  # ranges handed out and not yet printed, per worker

# A stream's report line, how many events it holds, and whether it verified.
Checked = tuple[str, int, bool]


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def chunk_size(streams: int, jobs: int) -> int:
    """Streams per range: ``CHUNKS_PER_JOB`` ranges per job, within ``CHUNK_MIN``..``CHUNK_MAX``."""
    return max(CHUNK_MIN, min(CHUNK_MAX, math.ceil(streams / (max(jobs, 1) * CHUNKS_PER_JOB))))


def processes_for(streams: int, jobs: int) -> int:
    """How many processes verify ``streams`` streams with ``jobs`` jobs: 1 means in this
    process (``--jobs 1``, or an archive of a single range)."""
    return max(1, min(jobs, math.ceil(streams / chunk_size(streams, jobs))))


def check_stream(stream_id: str, stored: list) -> Checked:
    """One stream's report line, its events, and whether it verified."""
    with collector_paused():
        report = stream_report(stream_id, stored)
    return report_line(report), len(stored), bool(report["ok"])


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a stream or a range is checked. A check makes
    several objects per event and frees them all by reference counting, yet each few
    hundred allocations would start a collection over every object alive (a range holds
    thousands of rows): a fifth of a worker's time. Any cycle made meanwhile (a refused
    event's traceback) is collected once the collector is back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def checked_streams(store: Any, target: str, streams: int, jobs: int) -> Iterator[list[Checked]]:
    """Every stream in ``store``'s events table checked, in id order, a list per range
    (a list per stream in process). ``target`` names the same database for the workers
    and ``streams`` is how many streams the table holds (``store.ids_in_events``)."""
    processes = processes_for(streams, jobs)
    if processes == 1:
        yield from ([check_stream(stream_id, stored)] for stream_id, stored in store.read_streams())
        return
    ranges = id_ranges(store.ids_in_events(), chunk_size(streams, jobs))
    yield from _in_workers(target, ranges, processes)


def id_ranges(ids: Iterable[str], size: int) -> Iterator[tuple[str, str]]:
    """``(after, last)`` bounds of each run of ``size`` ids (the last run may be shorter);
    the ranges cover the ids with nothing between them left out."""
    after, taken, last = "", 0, None
    for stream_id in ids:
        last, taken = stream_id, taken + 1
        if taken == size:
            yield after, last
            after, taken = last, 0
    if taken:
        yield after, last  # type: ignore[misc]


def _in_workers(target: str, ranges: Iterator[tuple[str, str]], processes: int) -> Iterator[list[Checked]]:
    """Each range checked in one of ``processes`` spawned workers, results in range order."""
    context = _context()
    with context.Pool(processes, initializer=_open_store, initargs=(target,)) as pool:
        pending: deque = deque()
        for bounds in ranges:
            pending.append(pool.apply_async(_check_range, bounds))
            if len(pending) >= processes * IN_FLIGHT_PER_JOB:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
        pool.close()  # workers finish and close their stores (an interrupted walk terminates them)
        pool.join()


def _context() -> Any:
    """A fork server where the system has one, else "spawn". The fork server is a fresh
    interpreter, not a copy of this process; it imports the recorder modules this process
    has (the CLI, when the parent is the ``recorder`` command) once, so the workers forked
    from it start at once instead of each importing them again (each child re-runs the
    parent's main script, and the CLI's import is a second or so)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(sorted(name for name in sys.modules if name.split(".")[0] == "recorder"))
    return context


_store: Any = None  # the worker's own store, opened once by _open_store


def _open_store(target: str) -> None:
    """A worker's start: its own store on the database; Ctrl-C is left to the parent,
    which stops every worker (each would otherwise print its own traceback)."""
    from multiprocessing.util import Finalize

    from recorder.store.backends import open_store

    global _store
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _store = open_store(target)
    except Exception as error:  # a pool restarts a worker whose start fails, for ever: fail each range instead
        _store = WorkerFailed(f"a verifying worker could not open {target}: {error}")
        return
    Finalize(_store, _store.close, exitpriority=10)


class WorkerFailed(RuntimeError):
    """A worker could not open the database; raised in the parent by the range it was given."""


def _check_range(after: str, last: str) -> list[Checked]:
    if isinstance(_store, WorkerFailed):
        raise _store
    with collector_paused():
        return [check_stream(stream_id, stored) for stream_id, stored in _store.read_stream_range(after, last)]


# ------------------------------------------------------------------ one stream's report


def stream_report(stream_id: str, stored: list) -> dict:
    """A game's or a tournament's report, from its events as read from the events table."""
    from recorder.audit.verify import verify_record, verify_tournament
    from recorder.core import ids

    if not stored:
        return {"game_id": stream_id, "ok": False, "missing": True, "detail": "no such stream"}
    if stored[0].type == "tournament_created":
        return verify_tournament(stream_id, stored)
    report = verify_record(stream_id, stored)
    if report["ok"] and not ids.is_game_id(stream_id):
        report = {**report, "ok": False, "detail": "the id is not a game id (docs/security.md)"}
    return report


def report_line(report: dict) -> str:
    """One line of ``recorder verify``'s report for one stream."""
    stream = printable(report["game_id"])
    if report.get("missing"):
        return f"{'MISSING':<8}{stream}: {printable(report['detail'])}"
    if not report["ok"]:
        return f"{'BROKEN':<8}{stream}: {printable(report['detail'])}"
    result = f"  {report['result']}" if report["result"] else ""
    return f"{'ok':<8}{stream}: {report['version']} events, head {report['head_hash'][:16]}{result}"


def printable(text: object) -> str:
    """Text for one line of a report: control characters, line and paragraph separators
    and backslashes escaped (as in a Python literal), so stored text cannot start a
    line or move the cursor."""
    out = []
    for char in str(text):
        if char == "\\":
            out.append("\\\\")
        elif char.isprintable() and char not in "\u2028\u2029":
            out.append(char)
        else:
            out.append(char.encode("unicode_escape").decode("ascii"))
    return "".join(out)
