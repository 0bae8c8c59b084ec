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

Importing ``recorder`` loads no web framework and no database driver. Its one name is
the engine's front door, ``Game`` (recorder/core/facade.py).
"""

from recorder import engine

engine.install()  # before anything imports the rules: compiled when a fresh build exists (docs/engine.md)

from recorder.core.facade import Game  # noqa: E402

__all__ = ["Game"]
