"""``recorder engine build|status``: the compiled rules engine (docs/engine.md)."""

from __future__ import annotations

import click

from recorder import engine as chosen

from .common import fail


@click.group()
def engine():
    """The rules engine: pure Python, or the same source compiled by mypyc."""


@engine.command()
@click.option("--force", is_flag=True, help="Compile again even when a build of these sources exists.")
def build(force: bool):
    """Compile the rules with mypyc into the virtualenv (any first start does it too; needs gcc and Python.h)."""
    from recorder.engine.auto import failure_marker
    from recorder.engine.build import BuildFailed
    from recorder.engine.build import build as build_engine

    try:
        build_engine(click.echo, force=force)
        failure_marker().unlink(missing_ok=True)  # the automatic build may try these sources again
    except BuildFailed as error:
        fail(f"{error}\nthe pure-Python engine stays in use")


@engine.command()
def status():
    """Say which engine this process runs and where a build of the current sources would be."""
    click.echo(f"engine: {chosen.current().describe()}")
    click.echo(f"sources digest: {chosen.digest()}  cache: {chosen.cache_root()}")


COMMANDS = (engine,)
