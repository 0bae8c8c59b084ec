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
flight (memory stays bounded however large the archive). How workers are started, and
what that asks of a script that walks with more than one job: recorder/workers.py.
"""

from __future__ import annotations

import math
import signal
from collections.abc import Iterable, Iterator
from typing import Any

from recorder.core.names import printable
from recorder.workers import collector_paused, in_order, worker_context

CHUNK_MAX = 250  # streams per range at most: a range's rows are read in one query
CHUNK_MIN = 50  # streams per range at least: a smaller archive is not worth starting workers for
CHUNKS_PER_JOB = 8  # ranges per worker, so that no worker is left alone with a long tail
IN_FLIGHT_PER_JOB = 2  # ranges handed out and not yet printed, per worker

# A stream's report line, how many events it holds, and whether it verified.
Checked = tuple[str, int, bool]


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


def check_named(store: Any, stream_id: str) -> Checked:
    """A stream named on the command line checked: like ``check_stream``, but one whose
    events are all gone while the streams table names it is reported as such."""
    stored = store.read(stream_id)
    if not stored:
        heads = store.stream_heads(stream_id)
        if heads:
            return head_line(heads[0]), 0, False
    return check_stream(stream_id, stored)


def streams_to_walk(store: Any) -> int:
    """How many streams the events table holds: what a walk over every stream checks.
    The store is first asked to read itself ahead (``read_ahead``): the walk reads every
    page, in id order, scattered over a SQLite file, and asked at once the system reads
    them in file order instead (docs/auditing.md)."""
    store.read_ahead()
    return sum(1 for _ in store.ids_in_events())


def checked_streams(store: Any, target: str, streams: int, jobs: int) -> Iterator[list[Checked]]:
    """Every stream in ``store``'s events table checked, in id order, a list per range
    (a list per stream in process). ``target`` names the same database for the workers
    and ``streams`` is how many streams the table holds (``streams_to_walk``)."""
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
    with worker_context().Pool(processes, initializer=_open_store, initargs=(target,)) as pool:
        yield from in_order(pool, _check_range, ranges, processes * IN_FLIGHT_PER_JOB)
        pool.close()  # workers finish and close their stores (an interrupted walk terminates them)
        pool.join()


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


def _check_range(bounds: tuple[str, str]) -> list[Checked]:
    after, last = bounds
    if isinstance(_store, WorkerFailed):
        raise _store
    with collector_paused():
        return [check_stream(stream_id, stored) for stream_id, stored in _store.read_stream_range(after, last)]


# ------------------------------------------------------------------ one stream's report


def stream_report(stream_id: str, stored: list) -> dict:
    """A game's, a tournament's, a player's or a team's report, from its events as read from the events table."""
    from recorder.audit.verify import verify_player, verify_record, verify_team, verify_tournament

    if not stored:
        return {"game_id": stream_id, "ok": False, "missing": True, "detail": "no such stream"}
    if stored[0].type == "tournament_created":
        return verify_tournament(stream_id, stored)
    if stored[0].type == "player_registered":
        return verify_player(stream_id, stored)
    if stored[0].type == "team_registered":
        return verify_team(stream_id, stored)
    return verify_record(stream_id, stored)


def report_line(report: dict) -> str:
    """One line of ``recorder verify``'s report for one stream."""
    stream = printable(report["game_id"])
    if report.get("missing"):
        return f"{'MISSING':<8}{stream}: {printable(report['detail'])}"
    if not report["ok"]:
        return f"{'BROKEN':<8}{stream}: {printable(report['detail'])}"
    result = f"  {report['result']}" if report["result"] else ""
    return f"{'ok':<8}{stream}: {report['version']} events, head {report['head_hash'][:16]}{result}"


# ------------------------------------------------------------------ the streams table and heads


def stream_problems(store: Any, stream_ids: Iterable[str] | None = None) -> Iterator[str]:
    """One report line for each disagreement between the streams table, each stream's
    recorded head (the seq and hash of its last event, written by every append) and the
    events: a stream whose events are gone, a stream whose last events are gone (the chain
    that is left still links, so only the head tells), events of a stream the streams table
    does not name. Every stream of the table, or only ``stream_ids``."""
    if stream_ids is None:
        heads = store.stream_heads()
        orphans = (stream_id for stream_id in store.ids_in_events() if store.stream_type(stream_id) is None)
    else:
        named = list(stream_ids)  # an emptied one was reported by ``check_named``
        heads = [h for i in named for h in store.stream_heads(i) if not h.agrees and h.last_seq is not None]
        orphans = (
            stream_id for stream_id in named if store.stream_type(stream_id) is None and store.read(stream_id, upto=1)
        )
    for head in heads:
        yield head_line(head)
    for stream_id in orphans:
        yield (
            f"{'BROKEN':<8}{printable(stream_id)}: the stream is not in the streams table (its row was"
            " deleted), though the events table holds its events"
        )


def head_line(head: Any) -> str:
    """The report line of a stream whose recorded head disagrees with its events."""
    from recorder.audit.verify import head_problem

    label = "MISSING" if head.last_seq is None else "BROKEN"
    return f"{label:<8}{printable(head.stream_id)}: {head_problem(head)}"
