"""``recorder import``, ``recorder export`` and ``recorder demo`` (recorder/archive/transfer.py).

Progress bars go to stderr, so ``recorder export > games.mn`` stays a clean archive. An
import prints one line per refused game (file, game, line, column, what was expected)
and exits with status 1 if any game was refused; the other games are stored.
"""

from __future__ import annotations

import codecs
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit, urlunsplit

import click
from marshmallow import ValidationError

from recorder.api.archive import schema_check
from recorder.app import database_path
from recorder.archive import parallel, ranges
from recorder.archive.frame import check_ndjson_frame, ndjson_lines, without_frame
from recorder.archive.ndjson import EventLog, read_logs
from recorder.archive.ranges import FileRange
from recorder.archive.transfer import Archive, GameReport, notation_games
from recorder.errors import NotationError
from recorder.rules import VARIANTS
from recorder.store import StoreBackend
from recorder.store.backends import MEMORY
from recorder.workers import collector_paused, default_jobs
from schemas.archive import ExportQuerySchema
from schemas.fields import first_message

from .common import DB_OPTION, make_recorder, pace
from .export_file import write_export

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "notation"
NDJSON_SUFFIXES = (".ndjson", ".jsonl")
BATCH_SECONDS = 0.2
BLOCK_BYTES = 1 << 16  # bytes of a file read at once while its frame is checked
FILE_ENCODING = "utf-8-sig"  # UTF-8, a byte order mark before the text (an editor's) dropped
TAIL_BYTES = 4096  # the end of a framed file read to find its last line (the terminator: far shorter)


def _filter(ctx, param, value: str | None) -> str | None:
    """A filter as GET /api/export takes it (``schemas.archive.ExportQuerySchema``): a
    player or tournament as the API names them, a date of the calendar."""
    if value is None:
        return None
    try:
        ExportQuerySchema(only=(param.name,)).load({param.name: value})
    except ValidationError as error:
        raise click.BadParameter(first_message(error.messages)) from None
    return value


def _is_ndjson(path: str, fmt: str) -> bool:
    return fmt == "ndjson" or (fmt == "auto" and path.lower().endswith(NDJSON_SUFFIXES))


def import_into(
    store: StoreBackend, paths: Iterable[str], fmt: str = "auto", jobs: int = 1, recorded_by: str = "command line"
) -> tuple[dict, list[GameReport]]:
    """``recorder import``'s work on a database: the files imported as the database file's
    owner (who restores, as the admin does), their positions indexed at the end."""
    archive = importing_archive(store, recorded_by)
    imported = import_files(archive, paths, fmt, jobs)
    index_positions(archive)
    store.sync()  # the batches committed without waiting for the disk: durable before the report
    return imported


def importing_archive(store: StoreBackend, recorded_by: str) -> Archive:
    """The archive ``recorder import`` imports through: the database file's owner restores
    (the logs' own ids, times and hashes kept), and positions are indexed at the end."""
    return Archive(store, recorded_by=recorded_by, check_command=schema_check, restore=True, positions_later=True)


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
    archive: Archive, paths: Iterable[str], fmt: str = "auto", jobs: int = 1
) -> tuple[dict, list[GameReport]]:
    """Import every game of every file with a progress bar; (counts by status and of the
    events imported, refusals). NDJSON logs are checked and stored by ``jobs`` worker
    processes (recorder/archive/parallel.py)."""
    counts, refused = {"imported": 0, "exists": 0, "events": 0}, []
    for path in paths:
        try:
            games, total, size, imported = _games_of(archive, path, fmt, jobs)
            if not total:
                refused.append(GameReport(0, "refused", error={"detail": f"{path}: the file holds no game"}))
                continue
            with click.progressbar(length=total, label=path, file=sys.stderr) as bar:
                _tally(imported(_progress(games, bar, size)), counts, refused)
        except (OSError, UnicodeDecodeError) as error:
            click.echo(f"{path}: cannot read: {error}", err=True)
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
    notation file (and standard input) is read whole, and counted in games."""
    if _is_ndjson(path, fmt) and path != "-":
        framed, events = ndjson_frame(path)
        job = import_job(archive)
        if job is not None and parallel.worth_workers(jobs, events):
            return ndjson_worker_reports(job, path, framed, jobs), events, _report_size, iter
        return file_logs(path, framed), events, _log_size, _in_batches(archive, archive.import_log)
    with click.open_file(path, encoding="utf-8") as handle:
        text = handle.read()
    if _is_ndjson(path, fmt):
        lines = ndjson_lines(text, path)
        events = sum(1 for line in lines if line.strip())
        return read_logs(lines, path), events, _log_size, _in_batches(archive, archive.import_log)
    parsed = notation_games(text, path)
    return iter(parsed), len(parsed), lambda game: 1, _in_batches(archive, archive.import_parsed)


def _log_size(log: Any) -> int:
    return len(log.events)


def _report_size(report: GameReport) -> int:
    return report.events if report.status == "imported" else 0


def file_blocks(path: str, size: int = BLOCK_BYTES) -> Iterator[str]:
    """A file's text in consecutive blocks of ``size`` bytes decoded, newlines read as
    ``open`` reads them (universal newlines), as ``file_lines`` reads them; a byte order
    mark before the text is dropped, as ``ndjson_lines`` drops it.

    Read as bytes and decoded here: a text file's reading translates every newline as it
    goes, which took 2.1 of the 2.5 s that reading a 4 GB archive took; here only a block
    holding a carriage return is translated (an export holds none)."""
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


def _progress(games: Iterable[Any], bar, size: Callable[[Any], int]) -> Iterator[Any]:
    for game in games:
        yield game
        bar.update(size(game))


def _plural(count: int, noun: str = "game") -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def _take_for(games: Iterator, take: Callable, seconds: float) -> list[GameReport]:
    """Import games until ``seconds`` have passed (at least one game); [] when none is left.
    A batch holds the write lock, so it stays short: live recording waits at most that long."""
    started, reports = time.monotonic(), list[GameReport]()
    for game in games:
        reports.append(take(game))
        if time.monotonic() - started >= seconds:
            break
    return reports


def index_positions(archive: Archive) -> None:
    """The positions an import queued (and any an earlier one left), indexed in key order."""
    pending = archive.positions.count_pending()
    if pending:
        with click.progressbar(length=pending, label="indexing positions", file=sys.stderr) as bar:
            archive.positions.index_pending(bar.update)


def _report(counts: dict, refused: list[GameReport]) -> None:
    for report in refused:
        click.echo(f"refused: {(report.error or {}).get('detail')}", err=True)
    line = f"imported {_plural(counts['imported'])}, refused {len(refused)}"
    if counts["exists"]:
        line += f"; {_plural(counts['exists'])} existed already (imported before), not stored again"
    click.echo(line)


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "notation", "ndjson"]),
    default="auto",
    show_default=True,
    help="auto: .ndjson/.jsonl files are NDJSON event logs, anything else notation.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes checking NDJSON logs (default: the CPUs available; 1: in this process).",
)
@DB_OPTION
def import_command(files: tuple[str, ...], fmt: str, jobs: int | None, db: str | None):
    """Import games from notation files (*.mn) or NDJSON event logs, each one checked
    through the same commands as live recording; a refused game stores nothing."""
    recorder = make_recorder(db)
    try:
        # The command line works on the database file: its owner restores, as the admin does.
        started = time.perf_counter()
        counts, refused = import_into(recorder.store, files, fmt, jobs or default_jobs())
        seconds = time.perf_counter() - started
    finally:
        recorder.store.close()
    _report(counts, refused)
    click.echo(pace(counts["events"], seconds), err=True)
    if refused:
        sys.exit(1)


@click.command("export")
@click.option(
    "-o",
    "--output",
    default="-",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="File to write (default: standard output).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "notation", "ndjson"]),
    default="auto",
    show_default=True,
    help="auto: NDJSON when the output ends in .ndjson or .jsonl, else notation.",
)
@click.option("--variant", type=click.Choice(sorted(VARIANTS)))
@click.option("--player", callback=_filter, help="Games where this player is South or North.")
@click.option("--tournament", callback=_filter, help="Games of this tournament id.")
@click.option("--date-from", callback=_filter, help="Games dated on or after (YYYY[-MM[-DD]]).")
@click.option("--date-to", callback=_filter, help="Games dated on or before.")
@click.option("--result", type=click.Choice(["south_wins", "north_wins", "draw", "unfinished"]))
@click.option("--full-history", is_flag=True, help="Notation: include retracted moves and the retractions.")
@DB_OPTION
def export_command(output: str, fmt: str, full_history: bool, db: str | None, **filters: str | None):
    """Export games, streamed one at a time, as notation or NDJSON event logs."""
    recorder = make_recorder(db, existing=True)
    archive = Archive(recorder.store, fill_cache=True)  # the next export reads what this one wrote
    try:
        total = sum(1 for _ in archive.select(**filters))
        with click.progressbar(length=total, label="exporting", file=sys.stderr) as bar:
            ids = _counted(archive.select(**filters), bar)
            if _is_ndjson(output, fmt):
                chunks = archive.ndjson_archive(ids)
            else:
                chunks = archive.notation_archive(ids, full_history=full_history)
            try:
                write_export(output, chunks)  # a file past the page cache (recorder/cli/export_file.py)
            except OSError as error:
                raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
    finally:
        recorder.store.close()
    click.echo(f"exported {total} game{'s' * (total != 1)}", err=True)


def _counted(ids: Iterable[str], bar) -> Iterator[str]:
    for game_id in ids:
        yield game_id
        bar.update(1)


@click.command()
@click.option(
    "--fixtures",
    default=str(FIXTURES),
    show_default=True,
    type=click.Path(exists=True, file_okay=False),
    help="Folder of notation files to load.",
)
@DB_OPTION
def demo(fixtures: str, db: str | None):
    """Load the demo games (complete games of every variant, in the notation) into the database.
    Running it again stores nothing new: each game's id comes from its content."""
    paths = sorted(str(path) for path in Path(fixtures).glob("*.mn"))
    recorder = make_recorder(db)
    try:
        counts, refused = import_into(recorder.store, paths, recorded_by="demo")
    finally:
        recorder.store.close()
    if counts["imported"] == 0 and counts["exists"] and not refused:
        click.echo(f"nothing imported: the {_plural(counts['exists'], 'demo game')} are in the database already")
    else:
        _report(counts, refused)
    click.echo(f"try: .venv/bin/recorder serve --db {_shown_database(db)}, then GET /api/games or GET /api/export")
    if refused:
        sys.exit(1)


def _shown_database(db: str | None) -> str:
    """The database a command used, as ``--db`` takes it, so that the ``serve`` it suggests
    serves these games (a PostgreSQL URL's password is not printed)."""
    path = database_path(db)
    if "://" not in path:
        return shlex.quote(path)
    url = urlsplit(path)
    if url.password is not None:
        url = url._replace(netloc=url.netloc.replace(f":{url.password}@", ":…@", 1))
    return shlex.quote(urlunsplit(url))


COMMANDS = (import_command, export_command, demo)
