"""``recorder runtime fetch|status``: Pyodide for the rules in the game page (docs/web.md)."""

from __future__ import annotations

import click

from recorder.web import runtime as pyodide

from .common import fail


@click.group()
def runtime():
    """The rules in the browser: Pyodide from the npm registry, kept outside the repository."""


@runtime.command()
def fetch():
    """Fetch the pinned Pyodide with npm and check it (the first `recorder serve` does it too)."""
    try:
        pyodide.fetch_runtime(click.echo)
    except (pyodide.RuntimeUnavailable, OSError) as error:
        fail(f"{error}; the game page records offline without the rules on the device")


@runtime.command()
def status():
    """Say whether the service can give pages the rules, and where Pyodide is kept."""
    folder = pyodide.runtime_dir()
    if pyodide.installed(folder):
        size, gzipped = pyodide.runtime_size(folder) / 1e6, pyodide.runtime_size(folder, gzipped=True) / 1e6
        click.echo(f"pyodide {pyodide.PYODIDE_VERSION}: installed in {folder}")
        click.echo(f"    a recording page downloads it once: {size:.1f} MB, {gzipped:.1f} MB gzipped")
    else:
        click.echo(f"pyodide {pyodide.PYODIDE_VERSION}: not installed ({folder}); recorder runtime fetch")
    data, digest = pyodide.rules_archive()
    click.echo(f"rules zip: {digest} ({len(data) / 1e3:.0f} kB)")


COMMANDS = (runtime,)
