"""Run as a script: seeded random games of every variant and option set, one digest each.

``tests/test_engine.py`` runs it twice, under ``RECORDER_ENGINE=python`` and
``RECORDER_ENGINE=compiled``, and compares the output. Each digest covers every state,
its legal moves and position text, and the trace of every sowing replayed traced. Not a test module.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from recorder import engine
from recorder.core.commands import decide_create
from recorder.core.events import Sowed
from recorder.core.game import start_game
from recorder.core.playout import random_play
from recorder.rules import VARIANTS, qelat
from recorder.rules.position_text import position_text

# Defaults, and the non-default options of each game.
OPTION_SETS: list[tuple[str, dict]] = [
    ("selus", {}),
    ("selus", {"match": "single", "empty_wegue_landing": "leave_seed", "weak_wegues": True}),
    ("selus", {"wegue_block": "first_turn_each_player"}),
    ("gabata", {}),
    ("gabata", {"serial_capture": False, "capture_only_from_own_hole": True}),
    ("qelat", {}),
    ("qelat", {"mazagebh_no_return": False}),
    ("lahemay_walida", {}),
    ("lahemay_walida", {"group_size": 3, "after_final_capture": "end_turn"}),
    ("tuz", {}),
    ("tuz", {"after_tuz_capture": "end_turn"}),
]


def game_digest(variant: str, options: dict, seed: int, moves: int) -> str:
    setup = {"variant": variant, "south": "A", "north": "B", "options": options}
    if VARIANTS[variant].has_first_player:
        setup["first_player"] = "south" if seed % 2 else "north"
    game = start_game("g", decide_create(setup))
    rules, state, h = game.rules, game.state, hashlib.sha256()
    for event, after in random_play(rules, state, random.Random(seed), max_moves=moves, allocations=0.5):
        h.update(repr((event, after, rules.legal_moves(after), position_text(rules, after))).encode())
        if isinstance(event, Sowed):
            trace: list = []
            traced = rules.play(state, rules.board.hole(event.hole), trace)
            h.update(json.dumps(trace, sort_keys=True).encode() + repr(traced == after).encode())
        state = after
    return h.hexdigest()


def main(games: int, moves: int) -> None:
    digests = {}
    for variant, options in OPTION_SETS:
        for seed in range(games):
            digests[f"{variant} {json.dumps(options, sort_keys=True)} {seed}"] = game_digest(
                variant, options, seed, moves
            )
    print(json.dumps({"engine": engine.current().kind, "qelat": qelat.__file__, "digests": digests}))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
