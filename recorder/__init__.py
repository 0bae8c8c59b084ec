"""The record service for Horn-of-Africa mancala: Selus, Gabata, Qelat, Lahemay Walida, Tuz.

The package is laid out by concern, pure layers at the bottom:

- ``rules/``: the five games (pure, standard library only);
- ``core/``: events, commands that decide them, and the one fold (pure);
- ``notation/`` and ``render/``: the text notation and pictures of positions (pure);
- ``audit/``: traces, claims, what-if replays, verification, signed checkpoints;
- ``store/``: the event store, the only code that touches SQLite;
- ``service.py``: commands in, events stored, games folded;
- ``archive/``, ``tournaments/``: bulk import and export, and tournaments;
- ``api/``, ``web/``, ``cli/``, ``app.py``: Flask and click, at the top;
- ``engine/``: which rules engine runs, pure or compiled by mypyc (docs/engine.md);
- ``bench/``: the benchmark.

Importing ``recorder`` loads no web framework and no database driver and installs no
import hook: it loads the compiled rules when a build of these sources exists (from their
files, recorder/engine/__init__.py), else nothing, and the ``recorder`` command may build
the compiled engine first (recorder/__main__.py).
Its names are the engine's front door, ``Game`` (recorder/core/facade.py), and the value
its ``outcome`` gives, ``Outcome`` (the rules' one outcome, recorder/rules/state.py, its
winner by name), loaded on first use.
"""

from importlib import import_module
from typing import TYPE_CHECKING

from recorder import engine

engine.install()  # before anything imports the rules: compiled when a fresh build exists (docs/engine.md)

if TYPE_CHECKING:
    from recorder.core.facade import Game
    from recorder.rules.state import Outcome

__all__ = ["Game", "Outcome"]

_HOMES = {"Game": "recorder.core.facade", "Outcome": "recorder.rules.state"}  # where each name is defined


def __getattr__(name: str) -> object:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'recorder' has no attribute {name!r}")
