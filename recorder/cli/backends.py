"""``recorder backup`` (a one-off copy of the SQLite file) and ``recorder copy`` (between backends)."""

from __future__ import annotations

import sys

import click

from recorder.app import database_path

from .common import DB_OPTION, opened, say


@click.command()
@click.argument("destination", type=click.Path(dir_okay=False))
@DB_OPTION
def backup(destination: str, db: str | None):
    """Copy the SQLite database to DESTINATION while the service runs (SQLite's online backup API)."""
    from recorder.errors import Unavailable
    from recorder.store.backends import is_postgres, sqlite_path
    from recorder.store.backup import backup_sqlite

    source = database_path(db)
    if is_postgres(source):
        raise click.ClickException("recorder backup copies a SQLite file; back PostgreSQL up with pg_dump")
    try:
        events = backup_sqlite(sqlite_path(source), destination)
    except (FileExistsError, FileNotFoundError) as error:
        raise click.ClickException(str(error)) from error
    except Unavailable as error:  # a folder, a file that is not SQLite, a destination in no folder
        raise click.ClickException(error.detail) from None
    click.echo(f"backed up {events} event{'s' * (events != 1)} to {destination}")


@click.command("copy")
@click.option("--from", "source", required=True, help="The database to copy: sqlite:PATH or a postgresql:// URL.")
@click.option("--to", "target", required=True, help="The empty database to fill: a postgresql:// URL or sqlite:PATH.")
def copy(source: str, target: str):
    """Copy every stream, byte for byte, into an empty database; verify it; rebuild its projections."""
    from recorder.games.service import Recorder
    from recorder.projections import rebuild
    from recorder.store.backends import open_store
    from recorder.store.copy import TargetNotEmpty, all_streams, copy_streams, differences

    origin = opened(lambda: open_store(source))
    try:
        destination = opened(lambda: open_store(target))
    except SystemExit:
        origin.close()
        raise
    try:
        streams = sum(1 for _ in all_streams(origin))
        with click.progressbar(length=streams, label="copying", file=sys.stderr) as bar:
            try:
                events = copy_streams(origin, destination, bar.update)
            except TargetNotEmpty as error:
                raise click.ClickException(str(error)) from error
        problems = list(differences(origin, destination))
        for line in problems:
            say(f"differs: {line}", err=True)
        if problems:
            raise click.ClickException(f"the copy differs from the source in {len(problems)} streams")
        games = rebuild(Recorder(destination))
    finally:
        origin.close()
        destination.close()
    click.echo(f"copied {streams} streams ({events} events, every chain verified); rebuilt the lists of {games} games")


def grant_app_role(store, role: str) -> None:
    """``init-db --app-role``: let ROLE read and append events, never change them (PostgreSQL only)."""
    from recorder.store.pg_schema import grant_app_role as grant
    from recorder.store.postgres import PostgresEventStore

    if not isinstance(store, PostgresEventStore):
        raise click.ClickException("--app-role is for PostgreSQL; a SQLite file's triggers guard its events")
    grant(store.handle().raw, role)


COMMANDS = (backup, copy)
