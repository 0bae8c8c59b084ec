"""Imported commands checked by the HTTP schemas once per shape, not once per event.

An archive re-decides every event through the command that would record it, and each
command first passes ``check_command`` (``api.archive.schema_check``: the marshmallow
schemas of ``POST /commands``), so imported commands meet the limits live ones do. A
long archive holds few distinct commands (a sowing names one of 18 holes and one of two
players), and a schema's verdict depends on the command alone: ``OncePerShape`` asks
the schemas about each distinct flat command once and remembers what they passed. A
command that holds a list or a dict (a race's board, an allocation) is checked every
time; a refused one is never remembered, so its error is raised anew.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FLAT_TYPES = frozenset((str, int, bool, float, type(None)))
# Distinct commands kept; past that the memory starts afresh. A text the schemas pass is
# at most 5,000 characters, so the memory stays under a few MiB whatever the archive holds.
REMEMBERED = 1024


class OncePerShape:
    """``check`` (a command -> the loaded command, or raises) asked once per distinct flat command."""

    def __init__(self, check: Callable[[dict], dict]):
        self.check = check
        self.passed: dict[tuple, dict] = {}

    def __call__(self, command: dict) -> dict:
        key = shape_key(command)
        if key is None:
            return self.check(command)
        loaded = self.passed.get(key)
        if loaded is None:
            loaded = self.check(command)  # a refusal raises here and is not remembered
            if len(self.passed) >= REMEMBERED:
                self.passed.clear()
            self.passed[key] = loaded
        return dict(loaded)  # a copy: a caller may not change what the next command gets


def shape_key(command: Any) -> tuple | None:
    """What the schemas' verdict depends on: every key and value, and each value's exact
    type (so ``1``, ``1.0`` and ``True`` differ); None when the command is not flat."""
    if type(command) is not dict:
        return None
    kinds = tuple(map(type, command.values()))
    if not FLAT_TYPES.issuperset(kinds):
        return None
    return tuple(command.items()), kinds
