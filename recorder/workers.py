"""Worker processes for the work one core cannot do fast enough: ``recorder verify``
(recorder/audit/walk.py) and ``recorder import`` (recorder/archive/parallel.py).

Both check records in Python, so one process works at the pace of one core whatever the
machine (the GIL: threads would take turns). Workers are never forked from the parent,
which holds open database connections and maybe threads that a forked child would
inherit half-used: they come from a fork server (a fresh interpreter) where the system
has one, else from "spawn". As always with those, a script that starts workers keeps
its work under ``if __name__ == "__main__":`` (each worker imports the script; the
``recorder`` command does).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def worker_context() -> Any:
    """A fork server where the system has one, else "spawn". The fork server is a fresh
    interpreter, not a copy of this process; it imports the recorder modules this process
    has (the CLI, when the parent is the ``recorder`` command) once, so the workers forked
    from it start at once instead of each importing them again (each child re-runs the
    parent's main script, and the CLI imports most of the recorder)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(sorted(name for name in sys.modules if name.split(".")[0] == "recorder"))
    return context


def in_order(pool: Any, function: Callable[[Any], Any], tasks: Iterable[Any], in_flight: int) -> Iterator[Any]:
    """``function(task)`` for each task, run by the pool's workers, results in task order;
    at most ``in_flight`` tasks handed out and not yet taken, so memory stays bounded
    however many tasks there are (``Pool.imap`` would read every task at once)."""
    pending: deque = deque()
    for task in tasks:
        pending.append(pool.apply_async(function, (task,)))
        if len(pending) >= in_flight:
            yield pending.popleft().get()
    while pending:
        yield pending.popleft().get()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a batch of records is checked. A check makes
    several objects per event and frees them all by reference counting, yet each few
    hundred allocations would start a collection over every object alive (a batch holds
    thousands of rows), a large share of a worker's time. Any cycle made meanwhile (a refused
    event's traceback) is collected once the collector is back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
