"""The ``recorder`` command: serve, init-db, replay (and, in later commands, more)."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any

import click

from recorder.app import create_app, database_path
from recorder.bench.plan import DEFAULT_SECTIONS, SECTIONS
from recorder.render.text import board_text
from recorder.rules.values import MAX_STORED_INT

from . import archive, audit, backends, engine, knockout, players, runtime, teams, tokens, tournaments  # noqa: F401 (knockout: its commands join the tournament group)
from .common import DB_OPTION, fail, make_recorder, opened, say, say_json, time_control_line


class _TextArguments(click.Group):
    """The ``recorder`` group, refusing an argument that is not text before any command
    runs: bytes that are not UTF-8 (the shell's ``$'\\xff'``) reach Python as lone
    surrogates, which no record can hold and no database can look up."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **options: Any) -> Any:
        for argument in sys.argv[1:] if args is None else args:
            if _SURROGATE.search(argument):
                shown = argument.encode("utf-8", "surrogateescape")
                fail(f"an argument is not UTF-8 text: {shown!r}", status=2)
        return super().main(args, *rest, **options)


_SURROGATE = re.compile("[\ud800-\udfff]")


@click.group(cls=_TextArguments)
def main():
    """Record and audit Horn-of-Africa mancala games."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
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

    An event-driven front (gevent) holds the live streams as greenlets and hands every
    other request to a recording process and the costly reads to one at idle priority,
    so neither spectators nor heavy reads hold a move back (docs/deployment.md). With no
    RECORDER_ADMIN_TOKEN, the first start
    creates an admin token, keeps its digest in the database and the token in
    <database>.admin-token (mode 0600), and prints a sign-in address.
    """
    from recorder import engine as chosen
    from recorder.api.hosts import configured_hosts
    from recorder.auth.service import token_file
    from recorder.store.backends import open_store
    from recorder.web.runtime import ensure_runtime_in_background

    from .serving import patch_process, serve_forever

    database = database_path(db)
    config = {"DATABASE": database, "OPEN": open_mode, "ALLOWED_HOSTS": configured_hosts(host)}
    opened(lambda: open_store(database)).close()  # a database that cannot open is told before patching
    patch_process()
    ensure_runtime_in_background(click.echo)  # once: Pyodide for the game page's rules, when npm is there
    app = opened(lambda: create_app(config))
    chosen.announce(click.echo)
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
    serve_forever(app, host, port, click.echo)


@main.command("init-db")
@DB_OPTION
@click.option("--app-role", default=None, help="PostgreSQL: a role (not the owner) granted to read and append only.")
def init_db(db: str | None, app_role: str | None):
    """Create the database's tables, or migrate them (serving does this too)."""
    recorder = make_recorder(db)
    try:
        if app_role is not None:
            from .backends import grant_app_role

            grant_app_role(recorder.store, app_role)
    finally:
        recorder.store.close()
    click.echo(f"database ready: {database_path(db)}")


@main.command()
@click.argument("game_id")
@click.option(
    "--at", type=click.IntRange(1, MAX_STORED_INT), default=None, help="Show the board after event N (default: latest)."
)
@DB_OPTION
def replay(game_id: str, at: int | None, db: str | None):
    """Print a game's board as text after any event."""
    from recorder.errors import RecorderError

    recorder = make_recorder(db, existing=True)
    try:
        game = recorder.game_at(game_id, at)
    except RecorderError as error:
        fail(error.detail)
    say(
        f"{game.setup.variant} {game_id}: {game.setup.south} (south) v {game.setup.north} (north), "
        f"after event {game.version}"
    )
    from recorder.audit.trace import last_sowing

    for line in clock_lines(game):
        say(line)
    click.echo(board_text(game.rules, game.state, last_hole=last_sowing(game)))


def clock_lines(game) -> list[str]:
    """The game's time control and the clocks as the latest reading left them (TIME-2)."""
    from recorder.core.clocks import latest_reading
    from recorder.notation.clock_text import time_text

    lines, control = [], game.setup.metadata.get("time_control")
    if control is not None:
        lines.append(time_control_line(control))
    latest = latest_reading(reversed(game.moves))
    if latest is not None:
        seq, clock = latest
        lines.append(f"clock: south {time_text(clock['south'])}, north {time_text(clock['north'])} (event {seq})")
    return lines


@main.command()
@DB_OPTION
def rebuild(db: str | None):
    """Rebuild the projections (games list, notation cache, position index) from the events."""
    from recorder.projections import game_ids
    from recorder.projections import rebuild as rebuild_projections

    recorder = make_recorder(db, existing=True)
    try:
        total = sum(len(ids) for ids in game_ids(recorder, 5000))
        with click.progressbar(length=total, label="rebuilding", file=sys.stderr) as bar:
            games = rebuild_projections(recorder, bar.update)
    finally:
        recorder.store.close()
    click.echo(f"rebuilt the projections of {games} game{'s' * (games != 1)}")


@main.command()
@click.argument("position")
@click.option("--limit", type=click.IntRange(1, 100_000), default=100, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the occurrences as JSON.")
@DB_OPTION
def search(position: str, limit: int, as_json: bool, db: str | None):
    """Find every game and event where POSITION (a position text, docs/notation.md) stood."""

    from recorder.errors import RecorderError
    from recorder.notation.clock_text import time_text
    from recorder.projections import search as search_position

    recorder = make_recorder(db, existing=True)
    try:
        found = search_position(recorder, position, limit=limit)
    except RecorderError as error:
        fail(error.detail, status=2)
    finally:
        recorder.store.close()
    if as_json:
        say_json(found, indent=2)
        return
    for hit in found["occurrences"]:
        clock = hit.get("clock")
        clocks = f"  clock {time_text(clock['south'])} {time_text(clock['north'])}" if clock else ""
        say(f"{hit['game_id']}  after event {hit['seq']}  {hit['variant']}  {hit['south']} v {hit['north']}{clocks}")
    more = " (more exist: raise --limit)" if found["truncated"] else ""
    count = len(found["occurrences"])
    click.echo(f"{count} occurrence{'s' * (count != 1)} of {found['position']}{more}", err=True)


for _command in (
    *audit.COMMANDS,
    tournaments.tournament,
    players.players,
    players.ratings,
    tokens.token,
    *archive.COMMANDS,
    *backends.COMMANDS,
    *engine.COMMANDS,
    *runtime.COMMANDS,
    *teams.COMMANDS,
):
    main.add_command(_command)


@main.command()
@click.option("--quick", is_flag=True, help="A short run (seconds, not minutes): a smoke test, not figures.")
@click.option(
    "--only",
    default=",".join(DEFAULT_SECTIONS),
    show_default=True,
    help=f"Comma-separated sections: {', '.join(SECTIONS)} (archive only when named: it is long).",
)
@click.option("--seconds", type=float, default=None, help="Length of the measured append run (default 10, quick 3).")
@click.option("--postgres", default=None, help="A scratch postgresql:// database: the api section runs on it too.")
@click.option(
    "--clocks",
    is_flag=True,
    help="The api, export and archive sections record a clock reading on every sowing (TIME-2).",
)
def bench(quick: bool, only: str, seconds: float | None, postgres: str | None, clocks: bool):
    """Measure the service on this machine (engine, appends, reads, exports, pairing, ...), beside the targets."""
    import dataclasses

    from recorder.bench import Plan, parse_sections, run

    try:
        sections = parse_sections(only)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--only") from None
    run(sections, dataclasses.replace(Plan.make(quick, seconds), postgres=postgres, clocks=clocks), click.echo)
