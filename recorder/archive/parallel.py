"""``recorder import --jobs``: NDJSON game logs checked in worker processes, stored here.

Checking a log (its hash chain, then every event re-decided: ``transfer.LogCheck``) is
most of an import's work and needs no store; storing needs the write lock, which one
process holds at a time. So this process reads the file and stores, and the workers
check: logs go out in tasks of ``GAMES_PER_TASK`` games, at most ``IN_FLIGHT_PER_JOB``
tasks per worker at once (memory stays bounded however large the file), and come back in
file order, so the reports, the order in which games are stored and every refusal are
what one process gives. How the workers start: recorder/workers.py.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Iterator
from itertools import islice

from recorder.workers import collector_paused, in_order, worker_context

from .ndjson import EventLog
from .transfer import CheckedLog, GameReport, LogCheck

GAMES_PER_TASK = 16  # a task's logs are pickled together: fewer, larger messages
IN_FLIGHT_PER_JOB = 4
MIN_EVENTS = 5_000  # a smaller file is checked in this process: not worth starting workers for

_check: LogCheck | None = None  # the worker's checker, given once by _start


def worth_workers(jobs: int, events: int) -> bool:
    """Whether a file of ``events`` events is checked in ``jobs`` workers (else in this process)."""
    return jobs > 1 and events >= MIN_EVENTS


def checked_logs(check: LogCheck, logs: Iterable[EventLog], jobs: int) -> Iterator[CheckedLog | GameReport]:
    """Each log checked by ``check`` in one of ``jobs`` workers, in the order of ``logs``."""
    with worker_context().Pool(jobs, initializer=_start, initargs=(check,)) as pool:
        for checked in in_order(pool, _check_task, _tasks(logs), jobs * IN_FLIGHT_PER_JOB):
            yield from checked
        pool.close()  # workers finish (an interrupted import terminates them)
        pool.join()


def _tasks(logs: Iterable[EventLog]) -> Iterator[list[EventLog]]:
    iterator = iter(logs)
    while task := list(islice(iterator, GAMES_PER_TASK)):
        yield task


def _start(check: LogCheck) -> None:
    """A worker's start: Ctrl-C is left to the parent, which stops every worker."""
    global _check
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _check = check


def _check_task(logs: list[EventLog]) -> list[CheckedLog | GameReport]:
    assert _check is not None  # _start ran first
    with collector_paused():
        return [_check(log) for log in logs]
