"""What every ``recorder`` command shares: the database option and the recording service."""

from __future__ import annotations

import click

from recorder.app import database_path

DB_OPTION = click.option(
    "--db",
    "db",
    envvar="RECORDER_DB",
    default=None,
    help="A SQLite file or a postgresql:// URL (default: $RECORDER_DB or recorder.sqlite3).",
)


def make_recorder(db: str | None):
    from recorder.service import Recorder
    from recorder.store.backends import open_store

    return Recorder(open_store(database_path(db)))


def pace(events: int, seconds: float) -> str:
    """How fast a bulk command went, for stderr beside its progress bar (stdout stays its report)."""
    return f"in {seconds:.1f} s: {events / seconds if seconds > 0 else 0:,.0f} events/s"
