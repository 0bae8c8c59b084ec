"""The ``recorder`` command: serve, init-db, replay (and, in later commands, more)."""

from __future__ import annotations

import sys

import click

from recorder.app import create_app, database_path
from recorder.bench.plan import SECTIONS
from recorder.render.text import board_text

from . import archive, audit, tokens, tournaments
from .common import DB_OPTION, make_recorder


@click.group()
def main():
    """Record and audit Horn-of-Africa mancala games."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option(
    "--open",
    "open_mode",
    is_flag=True,
    envvar="RECORDER_OPEN",
    help="Let anyone write games outside tournaments without a token (a single-user machine only).",
)
@DB_OPTION
def serve(host: str, port: int, open_mode: bool, db: str | None):
    """Serve the API and the pages on an embedded SQLite file (use gunicorn wsgi:app in production).

    With no RECORDER_ADMIN_TOKEN, the first start creates an admin token, keeps its digest in
    the database and the token in <database>.admin-token (mode 0600), and prints a sign-in address.
    """
    from recorder.auth.service import token_file

    app = create_app({"DATABASE": database_path(db), "OPEN": open_mode})
    token = app.extensions["auth"].first_run_token(app.config["DATABASE"])
    click.echo(f"recording into {app.config['DATABASE']}")
    if token is not None:
        click.echo(f"admin token kept in {token_file(app.config['DATABASE'])} (mode 0600); sign in at:")
        click.echo(f"    http://{host}:{port}/?token={token}")
    else:
        click.echo(f"admin token from RECORDER_ADMIN_TOKEN; serving http://{host}:{port}/")
    if open_mode:
        click.echo("OPEN MODE: anyone who can reach this server may write games outside tournaments, as")
        click.echo("    'anonymous (open mode)'; tournaments and tokens still need a token (docs/security.md)")
    app.run(host=host, port=port, threaded=True, use_reloader=False)


@main.command("init-db")
@DB_OPTION
def init_db(db: str | None):
    """Create the database file and its tables (serving does this too)."""
    recorder = make_recorder(db)
    recorder.store.close()
    click.echo(f"database ready: {database_path(db)}")


@main.command()
@click.argument("game_id")
@click.option("--at", type=int, default=None, help="Show the board after event N (default: latest).")
@DB_OPTION
def replay(game_id: str, at: int | None, db: str | None):
    """Print a game's board as text after any event."""
    from recorder.errors import RecorderError

    recorder = make_recorder(db)
    try:
        game = recorder.game_at(game_id, at)
    except RecorderError as error:
        click.echo(f"error: {error.detail}", err=True)
        sys.exit(1)
    click.echo(
        f"{game.setup.variant} {game_id}: {game.setup.south} (south) v {game.setup.north} (north), "
        f"after event {game.version}"
    )
    from recorder.audit.trace import last_sowing

    click.echo(board_text(game.rules, game.state, last_hole=last_sowing(game)))


for _command in (*audit.COMMANDS, tournaments.tournament, tokens.token, *archive.COMMANDS):
    main.add_command(_command)


@main.command()
@click.option("--quick", is_flag=True, help="A short run (seconds, not minutes): a smoke test, not figures.")
@click.option(
    "--only",
    default=",".join(SECTIONS),
    show_default=True,
    help=f"Comma-separated sections: {', '.join(SECTIONS)}.",
)
@click.option("--seconds", type=float, default=None, help="Length of the measured append run (default 10, quick 3).")
def bench(quick: bool, only: str, seconds: float | None):
    """Measure the service on this machine (engine, appends, reads, exports, pairing), beside the targets."""
    from recorder.bench import Plan, parse_sections, run

    try:
        sections = parse_sections(only)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--only") from None
    run(sections, Plan.make(quick, seconds), click.echo)
