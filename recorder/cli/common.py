"""What every ``recorder`` command shares: the database option and the recording service."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

from recorder.app import database_path
from recorder.core.names import printable

T = TypeVar("T")

DB_OPTION = click.option(
    "--db",
    "db",
    envvar="RECORDER_DB",
    default=None,
    help="The database: a SQLite file's path or a postgresql:// URL (default: $RECORDER_DB, else recorder.sqlite3).",
)


def fail(message: str, status: int = 1) -> NoReturn:
    """A command refused: one line on stderr, ``error: …``, and the exit status (1, or 2
    for a usage error)."""
    say(f"error: {message}", err=True)
    sys.exit(status)


def say(text: object, *, err: bool = False) -> None:
    """Output that holds stored text (names, details): each line printed with whatever
    does not show as itself escaped (``printable``: ``\\x1b``, ``\\u202e``), so a name
    cannot retitle the terminal, move its cursor, start a line or reverse what follows."""
    lines = str(text).split("\n")
    click.echo("\n".join(printable(line, backslashes=False) for line in lines), err=err)


def say_json(value: Any, **options: Any) -> None:
    """JSON output that holds stored text: the same JSON, every character that does not
    show as itself written as its ``\\u`` escape (a JSON document's own characters are
    plain ASCII, so only the strings' change, and they mean what they meant)."""
    text = json.dumps(value, ensure_ascii=False, **options)
    click.echo("".join(char if char.isprintable() or char in "\n " else _json_escape(char) for char in text))


def _json_escape(char: str) -> str:
    return json.dumps(char)[1:-1]  # ASCII: \\u202e, a surrogate pair past the BMP


def say_file(text: str) -> None:
    """A file's text (an export, a TRF) on stdout: as the file holds it when stdout is a
    pipe or a file, so a redirect keeps its bytes; escaped line by line when it is a
    terminal, which would act on a control sequence in it."""
    if sys.stdout.isatty():
        lines = re.split(r"(\r\n|\n)", text)  # the line ends kept as they are
        click.echo(
            "".join(part if part in ("\r\n", "\n") else printable(part, backslashes=False) for part in lines), nl=False
        )
    else:
        click.echo(text, nl=False)


def opened(open_database: Callable[[], T]) -> T:
    """What ``open_database`` opens; a database that cannot be opened (no such folder, not
    SQLite, a PostgreSQL server that cannot be reached) is one line and exit status 1,
    not a traceback."""
    from recorder.errors import Unavailable

    try:
        return open_database()
    except Unavailable as error:
        fail(error.detail)


def make_recorder(db: str | None, *, existing: bool = False):
    """The service on ``db``; its store is closed when the command ends, however it ends
    (``sys.exit`` included): a PostgreSQL pool left open would be closed by the garbage
    collector in one of its own threads, which cannot join itself. ``existing``: a command
    that only reads (or rebuilds) refuses a SQLite file that is not there, creating none."""
    from recorder.feature_tables import ensure_all
    from recorder.games.service import Recorder
    from recorder.store import backends

    open_database = backends.open_existing_store if existing else backends.open_store
    store = opened(lambda: open_database(database_path(db)))
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(store.close)
    opened(lambda: ensure_all(store))  # every feature's tables, before any command reads one
    return Recorder(store)


def time_control_line(control: dict[str, Any]) -> str:
    """A time control as ``replay`` and ``tournament show`` print it: the notation's form
    (the TimeControl tag, TRF's 122) and, in brackets, its words."""
    from recorder.core.clocks import time_control_text, time_control_words

    return f"time control: {time_control_text(control)} ({time_control_words(control)})"


def pace(events: int, seconds: float) -> str:
    """How fast a bulk command went, for stderr beside its progress bar (stdout stays its report)."""
    return f"in {seconds:.1f} s: {events / seconds if seconds > 0 else 0:,.0f} events/s"
