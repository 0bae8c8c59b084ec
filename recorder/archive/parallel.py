"""``recorder import --jobs``: NDJSON game logs checked and stored by worker processes, in turn.

Checking a log (its hash chain, then every event re-decided: ``transfer.LogCheck``) needs
no store; storing needs the write lock, which one process holds at a time. So each worker
takes a task, reads its logs, checks them, then waits for its turn and stores the task's
checked games in one transaction on its own connection to the same database. Turns go in
task order (``_Turns``), so games are stored in file order, one task after another, while
the other worker checks its next task. A task is a range of the file's bytes holding whole
games (recorder/archive/ranges.py), which the worker reads itself, when the file is plain
(an export's is); else this process reads the file and groups its lines by game, and a
task is the lines of about ``TASK_EVENTS`` events' games. What crosses between processes
is a range (or those lines) going out and a few words of report per game coming back,
never the checked rows (handing those to one storing process was a large share of the
check: docs/decisions.md).

The reports, the order in which games are stored and every refusal are what one process
gives (tests/test_import_jobs.py). With ``store=False`` the workers check and store
nothing (the archive bench's check ceiling). How the workers start: recorder/workers.py.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from recorder.workers import collector_paused, in_order, worker_context

from .ndjson import EventLog, read_logs
from .ranges import FileRange
from .transfer import Archive, GameReport

TASK_EVENTS = 4_096  # a task holds whole games, at least this many events (the last one fewer)
IN_FLIGHT_PER_JOB = 3  # tasks handed out per worker at once: memory stays bounded
MIN_EVENTS = 5_000  # a smaller file is checked in this process: not worth starting workers for
TURN_WAIT_SECONDS = 600.0  # a turn comes after one task of another worker; none in ten minutes: that worker died


def worth_workers(jobs: int, events: int) -> bool:
    """Whether a file of ``events`` events is checked in ``jobs`` workers (else in this process)."""
    return jobs > 1 and events >= MIN_EVENTS


@dataclass(frozen=True)
class ImportJob:
    """What a worker needs to import as the command does: the database (a SQLite path or
    a PostgreSQL URL, opened by each worker itself), the ``Archive``'s settings, and
    whether to store what it checked."""

    database: str
    settings: dict[str, Any]
    store: bool = True


Task = list[EventLog] | FileRange  # logs read here, or a range of the file a worker reads


def imported(job: ImportJob, tasks: Iterable[Task], jobs: int) -> Iterator[GameReport]:
    """The games of each task (a range of a plain file, ``ranges.plain_ranges``, or logs
    read here, ``log_tasks``) checked and stored (or refused) by one of ``jobs`` workers;
    the reports in task order."""
    context = worker_context()
    turns = _Turns(context)
    with context.Pool(jobs, initializer=_start, initargs=(job, turns)) as pool:
        for reports in in_order(pool, _import_task, enumerate(tasks), jobs * IN_FLIGHT_PER_JOB):
            yield from reports
        pool.close()  # workers finish (an interrupted import terminates them)
        pool.join()


def range_logs(piece: FileRange) -> Iterator[EventLog]:
    """The logs of a range of a plain file, as ``read_logs`` reads them from the whole file
    (their lines numbered, their games counted, as there): the file's text, read and split
    as ``recorder import`` reads it (UTF-8, checked whole before any worker starts)."""
    with open(piece.path, "rb") as handle:
        handle.seek(piece.start)
        text = handle.read(piece.end - piece.start).decode("utf-8")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()  # what follows the range's last newline is the next range's
    return read_logs(lines, piece.path, first_line=piece.first_line, first_game=piece.first_game)


def log_tasks(logs: Iterable[EventLog]) -> Iterator[list[EventLog]]:
    """Consecutive logs, about ``TASK_EVENTS`` events a task (a log's lines, read or not)."""
    task: list[EventLog] = []
    events = 0
    for log in logs:
        task.append(log)
        events += len(log.raw) or len(log.events)
        if events >= TASK_EVENTS:
            yield task
            task, events = [], 0
    if task:
        yield task


class _Turns:
    """Whose turn it is to store: task ``n`` stores once tasks ``0 … n-1`` have, so games
    are stored in file order whichever worker checked them first."""

    def __init__(self, context: Any):
        self.next_task = context.Value("q", 0, lock=False)
        self.changed = context.Condition()

    def wait_for(self, task: int) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: self.next_task.value == task, TURN_WAIT_SECONDS):
                raise RuntimeError(f"task {task} waited {TURN_WAIT_SECONDS:.0f} s for its turn to store")

    def done(self, task: int) -> None:
        with self.changed:
            self.next_task.value = task + 1
            self.changed.notify_all()


@dataclass
class _Worker:
    job: ImportJob
    turns: _Turns
    archive: Archive | None
    failed: Exception | None = None  # why the worker could not start: raised by its first task


_worker: _Worker | None = None  # the worker's own, made once by _start


def _start(job: ImportJob, turns: _Turns) -> None:
    """A worker's start: its own connection to the database; Ctrl-C is left to the parent,
    which stops every worker. A start that fails (the database cannot be opened) is not
    raised here, where the pool would only start another worker in its place, and
    another: the worker's first task raises it, and the import stops with it."""
    from recorder.store.backends import open_store

    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = _Worker(job, turns, None)
    try:
        _worker.archive = Archive(open_store(job.database), **job.settings)
    except Exception as error:
        _worker.failed = error


def _import_task(numbered: tuple[int, Task]) -> list[GameReport]:
    """A task's logs checked, then (in its turn) stored in one transaction."""
    assert _worker is not None  # _start ran first
    if _worker.archive is None:
        _worker.turns.wait_for(numbered[0])  # in turn, so no task after it waits for it in vain
        _worker.turns.done(numbered[0])
        raise _worker.failed or RuntimeError("the worker did not start")
    number, task = numbered
    with collector_paused():
        # The task's checked games are freed when _imported returns, before the collector is
        # back on: else its first collection walks every one of them.
        return _imported(_worker, number, task if isinstance(task, list) else range_logs(task))


def _imported(worker: _Worker, number: int, logs: Iterable[EventLog]) -> list[GameReport]:
    archive = worker.archive
    assert archive is not None  # a worker that did not start raised before
    checked = [archive.prepared(log) for log in logs]
    if not worker.job.store:
        return [done if isinstance(done, GameReport) else done.checked() for done in checked]
    worker.turns.wait_for(number)
    try:
        with archive.store.batch():
            return [done if isinstance(done, GameReport) else archive.store_checked(done) for done in checked]
    finally:
        worker.turns.done(number)
