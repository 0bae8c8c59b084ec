"""``recorder import``, ``recorder export`` and ``recorder demo`` (recorder/archive/importer.py,
recorder/archive/transfer.py): arguments parsed here, the report printed.

Progress bars go to stderr, so ``recorder export > games.mn`` stays a clean archive. An
import prints one line per refused game (file, game, line, column, what was expected)
and exits with status 1 if any game was refused; the other games are stored.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import click
from marshmallow import ValidationError

from recorder.api.archive import schema_check
from recorder.app import database_path
from recorder.archive import importer
from recorder.archive.export_file import write_export
from recorder.archive.transfer import Archive, GameReport
from recorder.rules import VARIANTS
from recorder.store import StoreBackend
from recorder.workers import default_jobs
from schemas.archive import ExportQuerySchema
from schemas.fields import first_message

from .common import DB_OPTION, make_recorder, pace, say

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "notation"


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


def _bar(label: str, length: int):
    return click.progressbar(length=length, label=label, file=sys.stderr)


def _note(text: str) -> None:
    click.echo(text, err=True)


PROGRESS = importer.Progress(bar=_bar, note=_note)  # bars and notes on stderr: stdout stays the report


def import_into(
    store: StoreBackend, paths: Iterable[str], fmt: str = "auto", jobs: int = 1, recorded_by: str = "command line"
) -> tuple[dict, list[GameReport]]:
    """``recorder import``'s work (recorder/archive/importer.py), its commands checked by
    the HTTP boundary's schemas, its progress on stderr."""
    return importer.import_into(store, paths, fmt, jobs, recorded_by, check_command=schema_check, progress=PROGRESS)


def _plural(count: int, noun: str = "game") -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def _report(counts: dict, refused: list[GameReport]) -> None:
    for report in refused:
        say(f"refused: {(report.error or {}).get('detail')}", err=True)
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
            if importer.is_ndjson(output, fmt):
                chunks = archive.ndjson_archive(ids)
            else:
                chunks = archive.notation_archive(ids, full_history=full_history)
            try:
                write_export(output, chunks)  # a file past the page cache (recorder/archive/export_file.py)
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
