"""``recorder import``'s pipeline: files of games (notation, or NDJSON event logs) imported
into a store, in batches or by worker processes (recorder/archive/parallel.py), their
positions indexed at the end.

No terminal here: the command line (recorder/cli/archive.py) parses the arguments, passes
a ``Progress`` that draws its bars and notes, and prints the report. The bench imports
through the same functions.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, BinaryIO, Protocol

from recorder.errors import NotationError
from recorder.store import StoreBackend
from recorder.store.backends import MEMORY
from recorder.workers import collector_paused

from . import parallel, ranges
from .frame import check_ndjson_frame, ndjson_lines, without_frame
from .ndjson import EventLog, read_logs
from .ranges import FileRange
from .transfer import Archive, GameReport, notation_games

NDJSON_SUFFIXES = (".ndjson", ".jsonl")
BATCH_SECONDS = 0.2
BLOCK_BYTES = 1 << 16  # bytes of a file read at once while its frame is checked
FILE_ENCODING = "utf-8-sig"  # UTF-8, a byte order mark before the text (an editor's) dropped
TAIL_BYTES = 4096  # the end of a framed file read to find its last line (the terminator: far shorter)

CheckCommand = Callable[[dict], dict]


class Bar(Protocol):
    """A progress bar: told how much more is done."""

    def update(self, n_steps: int) -> None: ...


class _NoBar:
    def update(self, n_steps: int) -> None:
        pass


def _no_bar(label: str, length: int) -> contextlib.AbstractContextManager[Bar]:
    return contextlib.nullcontext(_NoBar())


def _ignore(note: str) -> None:
    pass


@dataclass(frozen=True)
class Progress:
    """How an import shows itself: ``bar(label, length)`` gives a context holding a bar for
    each file read and for the positions indexed; ``note(text)`` tells of a file that
    cannot be read. The default shows nothing."""

    bar: Callable[[str, int], contextlib.AbstractContextManager[Bar]] = _no_bar
    note: Callable[[str], None] = _ignore


def is_ndjson(path: str, fmt: str) -> bool:
    return fmt == "ndjson" or (fmt == "auto" and path.lower().endswith(NDJSON_SUFFIXES))


def import_into(
    store: StoreBackend,
    paths: Iterable[str],
    fmt: str = "auto",
    jobs: int = 1,
    recorded_by: str = "command line",
    *,
    check_command: CheckCommand,
    progress: Progress = Progress(),
) -> tuple[dict, list[GameReport]]:
    """``recorder import``'s work on a database: the files imported as the database file's
    owner (who restores, as the admin does), their positions indexed at the end.
    ``check_command``: the HTTP boundary's schema check (``api.archive.schema_check``)."""
    archive = importing_archive(store, recorded_by, check_command)
    imported = import_files(archive, paths, fmt, jobs, progress)
    index_positions(archive, progress)
    store.sync()  # the batches committed without waiting for the disk: durable before the report
    return imported


def importing_archive(store: StoreBackend, recorded_by: str, check_command: CheckCommand) -> Archive:
    """The archive ``recorder import`` imports through: the database file's owner restores
    (the logs' own ids, times and hashes kept), and positions are indexed at the end."""
    return Archive(store, recorded_by=recorded_by, check_command=check_command, restore=True, positions_later=True)


def import_job(archive: Archive, store: bool = True) -> parallel.ImportJob | None:
    """How ``archive``'s workers import (``store``) or only check: on their own connections
    to its database, with its settings; None when no other process can open that database
    (SQLite in memory)."""
    if archive.store.path == MEMORY:
        return None
    return parallel.ImportJob(archive.store.path, archive.settings, store)


def file_logs(path: str, framed: bool) -> Iterator[EventLog]:
    """An NDJSON file's game logs, its frame checked, read a line at a time."""
    return read_logs(without_frame(file_lines(path), framed), path)


def ndjson_frame(path: str) -> tuple[bool, int]:
    """Whether an NDJSON file is framed, and how many events it holds: its frame checked a
    block at a time (NotationError for an archive cut short, before any log is read)."""
    return check_ndjson_frame(file_blocks(path), path)


def ndjson_worker_reports(job: parallel.ImportJob, path: str, framed: bool, jobs: int) -> Iterator[GameReport]:
    """An NDJSON file's games, its frame checked, imported (or only checked, as ``job``
    says) by ``jobs`` workers (recorder/archive/parallel.py), in the tasks ``ndjson_tasks``
    makes of it."""
    return parallel.imported(job, ndjson_tasks(path, framed), jobs)


def ndjson_tasks(path: str, framed: bool, range_bytes: int | None = None) -> Iterator[parallel.Task]:
    """An NDJSON file's body (its frame left out) as workers' tasks: ranges of whole games of
    about ``range_bytes``, which the workers read themselves, as long as the file is plain
    (recorder/archive/ranges.py, an export's is); from the first range that is not, its
    logs read and grouped here, line by line, about ``parallel.TASK_EVENTS`` a task."""
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        start, first_line, end = 0, 1, size
        if framed:  # checked before: the first line, then the body, then the terminator and its newline
            start, first_line = len(handle.readline()), 2
            handle.seek(max(0, size - TAIL_BYTES))
            tail = handle.read()
            end = size - len(tail) + tail.rfind(b"\n", 0, len(tail) - 1) + 1
        handle.seek(start)
        block = range_bytes or ranges.RANGE_BYTES  # a range ends in the block that reaches its size
        for task in ranges.plain_ranges(path, _byte_blocks(handle, end - start, block), start, first_line, block):
            if isinstance(task, FileRange):
                yield task
            else:
                yield from parallel.log_tasks(_rest_logs(path, framed, task))


def _rest_logs(path: str, framed: bool, rest: ranges.Rest) -> Iterator[EventLog]:
    """The logs of a file's lines from ``rest`` on, read as ``file_logs`` reads them all."""
    lines = islice(without_frame(file_lines(path), framed), rest.first_line - 1, None)
    return read_logs(lines, path, first_line=rest.first_line, first_game=rest.first_game)


def _byte_blocks(handle: BinaryIO, length: int, size: int) -> Iterator[bytes]:
    while length > 0 and (block := handle.read(min(size, length))):
        length -= len(block)
        yield block


def import_files(
    archive: Archive, paths: Iterable[str], fmt: str = "auto", jobs: int = 1, progress: Progress = Progress()
) -> tuple[dict, list[GameReport]]:
    """Import every game of every file, a progress bar each; (counts by status and of the
    events imported, refusals). NDJSON logs are checked and stored by ``jobs`` worker
    processes (recorder/archive/parallel.py)."""
    counts, refused = {"imported": 0, "exists": 0, "events": 0}, []
    for path in paths:
        try:
            games, total, size, imported = _games_of(archive, path, fmt, jobs)
            if not total:
                refused.append(GameReport(0, "refused", error={"detail": f"{path}: the file holds no game"}))
                continue
            with progress.bar(path, total) as bar:
                _tally(imported(_progress(games, bar, size)), counts, refused)
        except (OSError, UnicodeDecodeError) as error:
            progress.note(f"{path}: cannot read: {error}")
            refused.append(GameReport(0, "refused", error={"detail": f"{path}: cannot read"}))
        except NotationError as error:  # an archive cut short: none of its games is stored
            refused.append(GameReport(0, "refused", error={"detail": error.detail}))
    return counts, refused


def _tally(reports: Iterable[GameReport], counts: dict, refused: list) -> None:
    for report in reports:
        if report.status in ("imported", "exists"):
            counts[report.status] += 1
            counts["events"] += report.events if report.status == "imported" else 0
        else:
            refused.append(report)


Imported = Callable[[Iterator[Any]], Iterator[GameReport]]


def _in_batches(archive: Archive, take: Callable[[Any], GameReport]) -> Imported:
    """Games imported here by ``take``, in batches of about ``BATCH_SECONDS``: one commit
    per batch, not per game."""

    def imported(games: Iterator[Any]) -> Iterator[GameReport]:
        while True:
            with archive.store.batch(), collector_paused():
                reports = _take_for(games, take, BATCH_SECONDS)
            if not reports:
                return
            yield from reports

    return imported


def _games_of(archive: Archive, path: str, fmt: str, jobs: int = 1) -> tuple[Iterator, int, Callable, Imported]:
    """A file's games, how much they hold, the size of each, and how they are imported.
    NotationError for an archive cut short, before anything is read into games.

    An NDJSON file is read a block at a time to check its frame and count its events (the
    non-blank lines, the progress bar's unit), then a game at a time as the games are
    imported: checked and stored by ``jobs`` worker processes when it holds enough events,
    in ranges the workers read themselves when the file is plain (``ndjson_tasks``;
    recorder/archive/parallel.py; the games then come as their reports).
    Memory holds a few tasks' events per worker, whatever the size of the file. A
    notation file (and standard input, "-") is read whole, and counted in games."""
    if is_ndjson(path, fmt) and path != "-":
        framed, events = ndjson_frame(path)
        job = import_job(archive)
        if job is not None and parallel.worth_workers(jobs, events):
            return ndjson_worker_reports(job, path, framed, jobs), events, _report_size, iter
        return file_logs(path, framed), events, _log_size, _in_batches(archive, archive.import_log)
    text = whole_text(path)
    if is_ndjson(path, fmt):
        lines = ndjson_lines(text, path)
        events = sum(1 for line in lines if line.strip())
        return read_logs(lines, path), events, _log_size, _in_batches(archive, archive.import_log)
    parsed = notation_games(text, path)
    return iter(parsed), len(parsed), lambda game: 1, _in_batches(archive, archive.import_parsed)


def whole_text(path: str) -> str:
    """A file's text, or standard input's ("-"), read whole as UTF-8, newlines read as
    ``open`` reads them (universal newlines)."""
    if path != "-":
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    try:
        return stdin.read()
    finally:
        stdin.detach()  # standard input stays open: it is not ours to close


def _log_size(log: Any) -> int:
    return len(log.events)


def _report_size(report: GameReport) -> int:
    return report.events if report.status == "imported" else 0


def file_blocks(path: str, size: int = BLOCK_BYTES) -> Iterator[str]:
    """A file's text in consecutive blocks of ``size`` bytes decoded, newlines read as
    ``open`` reads them (universal newlines), as ``file_lines`` reads them; a byte order
    mark before the text is dropped, as ``ndjson_lines`` drops it.

    Read as bytes and decoded here: a text file's reading translates every newline as it
    goes, most of the reading's work; here only a block holding a carriage return is
    translated (an export holds none)."""
    decode = codecs.getincrementaldecoder(FILE_ENCODING)().decode
    held = ""  # a carriage return at a block's end: the next block may begin with its newline
    with open(path, "rb") as handle:
        while block := handle.read(size):
            text = held + decode(block)
            held = ""
            if "\r" in text:
                if text.endswith("\r"):
                    text, held = text[:-1], "\r"
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            if text:
                yield text
    text = held + decode(b"", final=True)
    if text:
        yield text.replace("\r", "\n")


def file_lines(path: str) -> Iterator[str]:
    """A file's lines as ``text.split("\n")`` gives them (each without its newline, and an
    empty last one after a final newline), read one at a time. Newlines are read as
    ``open`` reads them (universal newlines), as the whole-text read does."""
    with open(path, encoding=FILE_ENCODING) as handle:
        line = ""
        for line in handle:
            yield line.removesuffix("\n")
        if line == "" or line.endswith("\n"):
            yield ""


def _progress(games: Iterable[Any], bar: Bar, size: Callable[[Any], int]) -> Iterator[Any]:
    for game in games:
        yield game
        bar.update(size(game))


def _take_for(games: Iterator, take: Callable, seconds: float) -> list[GameReport]:
    """Import games until ``seconds`` have passed (at least one game); [] when none is left.
    A batch holds the write lock, so it stays short: live recording waits at most that long."""
    started, reports = time.monotonic(), list[GameReport]()
    for game in games:
        reports.append(take(game))
        if time.monotonic() - started >= seconds:
            break
    return reports


def index_positions(archive: Archive, progress: Progress = Progress()) -> None:
    """The positions an import queued (and any an earlier one left), indexed in key order."""
    pending = archive.positions.count_pending()
    if pending:
        with progress.bar("indexing positions", pending) as bar:
            archive.positions.index_pending(bar.update)
