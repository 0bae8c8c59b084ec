"""The positions after moves queued offline, decided as the service would decide them.

The game page runs this module in the browser (Pyodide, recorder/web/runtime.py) while
the network is down: the game's stored events are replayed, then each queued command is
decided and folded through the same ``Game`` the service uses. The answer is the state
after each queued command (the API's shape, ``legal_moves`` and ``awaiting`` included),
or where the first one the rules refuse stops, with the named error's words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from recorder.errors import RecorderError

from .facade import Game


def fold_queue(events: Sequence[Mapping[str, Any]], commands: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"states": [state after each command], "refused": None | {"index", "title", "detail"}}``."""
    game = Game.replay(events)
    states: list[dict[str, Any]] = []
    for index, command in enumerate(commands):
        try:
            game.play(command)
        except RecorderError as error:
            return {"states": states, "refused": {"index": index, "title": error.title, "detail": error.detail}}
        states.append(game.state_json())
    return {"states": states, "refused": None}


def fold_queue_json(request: str) -> str:
    """``fold_queue`` over JSON text, ``{"events": [...], "commands": [...]}``: what the page's worker calls."""
    asked = json.loads(request)
    return json.dumps(fold_queue(asked["events"], asked["commands"]))
