"""Seeded random records of every variant, through the same deciders as live recording.

The moves come from the project's one random-game generator (``recorder.core.playout``);
this module adds what only records have: a setup body, and on request annotations with
awkward texts, retractions and results decided off the board.

- ``random_record(variant, seed)`` returns the setup body and command list (as the JSON
  fixtures hold them) and the game they give: for the notation and archive tests.
- ``random_game(variant, seed)`` yields ``(before, event, after)`` for every event: for
  the audit tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from recorder.core.commands import decide, decide_create, execute
from recorder.core.events import Event
from recorder.core.game import FoldedGame, apply_event, start_game
from recorder.core.playout import random_move
from recorder.core.redecide import command_for
from recorder.rules import find_variant
from recorder.rules.base import RESULT_KINDS

NOTES = (
    "a fine sowing",
    "round about here the game turned",
    "braces { and } inside",
    'a "quoted" word',
    "two\nlines",
    "  padded  ",
    "émigré ✓ ሰላም",
    "\\backslash",
    "result? not yet",
    "; not a remark",
)
NAMES = ("Abeba", "Berhane", "Selam", "Tesfay", "Mulu", "Yonas")
ALLOCATIONS = 0.4  # how often a next round names its own allocation (GEN-38)
ADJUDICATED_DRAW = {"type": "result", "kind": "adjudication", "winner": None}


@dataclass
class Record:
    setup: dict
    commands: list[dict]
    game: FoldedGame  # the game after the commands


def random_record(
    variant: str,
    seed: int,
    *,
    max_events: int = 120,
    notes: float = 0.0,
    retractions: float = 0.0,
    results: float = 0.0,
    metadata: bool = False,
    options: dict | None = None,
) -> Record:
    rng = random.Random(seed)
    setup = random_setup(variant, rng, metadata=metadata, options=options)
    game = start_game("random", decide_create(setup))
    commands: list[dict] = []
    while not game.state.game_over and len(commands) < max_events:
        command = _next_command(game, rng, notes, retractions, results)
        game = execute(game, command)[1]
        commands.append(command)
    return Record(setup, commands, game)


def random_game(
    variant: str, seed: int, *, max_events: int = 300, options: dict | None = None, result_chance: float = 0.0
) -> Iterator[tuple[FoldedGame | None, Event, FoldedGame]]:
    """Yield ``(before, event, after)`` for every event of one seeded random game."""
    rng = random.Random(seed)
    setup = decide_create(random_setup(variant, rng, options=options))
    game = start_game(f"{variant}-{seed}", setup)
    yield None, setup, game
    while not game.state.game_over and game.version < max_events:
        for event in decide(game, _next_command(game, rng, 0.0, 0.0, result_chance)):
            after = apply_event(game, event, game.version + 1)
            yield game, event, after
            game = after


def random_setup(variant: str, rng: random.Random, *, metadata: bool = False, options: dict | None = None) -> dict:
    """A ``POST /api/games`` body: random players and options, ``options`` overriding them."""
    rules_class = find_variant(variant)
    south, north = rng.sample(NAMES, 2)
    chosen = {name: rng.choice(option.choices) for name, option in rules_class.OPTIONS.items()}
    setup = {"variant": variant, "south": south, "north": north, "options": {**chosen, **(options or {})}}
    if rules_class.has_first_player:
        setup["first_player"] = rng.choice(("south", "north"))
    if metadata:
        setup.update(
            event="Asmara Open", site="Asmara", date=f"2026-11-{rng.randint(10, 28)}", round=str(rng.randint(1, 7))
        )
    return setup


def _next_command(game: FoldedGame, rng: random.Random, notes: float, retractions: float, results: float) -> dict:
    if rng.random() < notes:
        return {"type": "annotate", "text": rng.choice(NOTES)}
    if game.moves and rng.random() < retractions:
        return {"type": "retract", "count": rng.randint(1, min(3, len(game.moves))), "reason": "arbiter's correction"}
    if rng.random() < results:
        return random_result(rng)
    move = random_move(game.rules, game.state, rng, allocations=ALLOCATIONS)
    if move is None:  # every sowing is endless: the game needs adjudication (GEN-35)
        return ADJUDICATED_DRAW
    return command_for(move[0])


def random_result(rng: random.Random) -> dict:
    """GEN-28: any kind; a draw only by agreement or adjudication; sometimes a note."""
    kind = rng.choice(RESULT_KINDS)
    winners = ("south", "north", None) if kind in ("agreement", "adjudication") else ("south", "north")
    command = {"type": "result", "kind": kind, "winner": rng.choice(winners)}
    if rng.random() < 0.5:
        command["note"] = rng.choice(NOTES)
    return command
