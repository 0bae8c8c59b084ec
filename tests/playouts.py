"""Seeded random records of every variant, for the notation and archive tests.

``random_record(variant, seed)`` plays a random but legal game in memory through the
same deciders as live recording and returns its setup body and command list, as the
JSON fixtures hold them. Besides sowings it makes every decision a variant has (race,
opening, lot, next round with or without an allocation), and on request annotations
with awkward texts, retractions and results decided off the board.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from recorder.core.commands import decide, decide_create
from recorder.core.game import Game, apply_event, start_game
from recorder.errors import EndlessSowing
from recorder.rules import find_variant

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


@dataclass
class Record:
    setup: dict
    commands: list[dict]
    game: Game  # the game after the commands


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
    setup = _setup(variant, rng, metadata)
    setup["options"].update(options or {})
    game = start_game("random", decide_create(setup))
    commands: list[dict] = []
    while not game.state.game_over and len(commands) < max_events:
        command = _next_command(game, rng, notes, retractions, results)
        try:
            events = decide(game, command)
        except EndlessSowing:  # GEN-35: a capped sowing is refused; end the game instead
            command = {"type": "result", "kind": "adjudication", "winner": None}
            events = decide(game, command)
        for event in events:
            game = apply_event(game, event, game.version + 1)
        commands.append(command)
    return Record(setup, commands, game)


def _setup(variant: str, rng: random.Random, metadata: bool) -> dict:
    rules_class = find_variant(variant)
    south, north = rng.sample(NAMES, 2)
    setup = {
        "variant": variant,
        "south": south,
        "north": north,
        "options": {name: rng.choice(option.choices) for name, option in rules_class.OPTIONS.items()},
    }
    if rules_class.has_first_player:
        setup["first_player"] = rng.choice(("south", "north"))
    if metadata:
        setup.update(
            event="Asmara Open", site="Asmara", date=f"2026-11-{rng.randint(10, 28)}", round=str(rng.randint(1, 7))
        )
    return setup


def _next_command(game: Game, rng: random.Random, notes: float, retractions: float, results: float) -> dict:
    state = game.state
    if rng.random() < notes:
        return {"type": "annotate", "text": rng.choice(NOTES)}
    if game.moves and rng.random() < retractions:
        return {"type": "retract", "count": rng.randint(1, min(3, len(game.moves))), "reason": "arbiter's correction"}
    if rng.random() < results:
        return _result(rng)
    if state.awaiting is not None:
        return _decision(game, rng)
    if state.to_move is None:  # a game that no move can go on from (GEN-35)
        return {"type": "result", "kind": "adjudication", "winner": None}
    hole = rng.choice(game.rules.legal_moves(state))
    return {"type": "sow", "hole": game.rules.board.holes[hole]}


def _result(rng: random.Random) -> dict:
    kind = rng.choice(("resignation", "agreement", "adjudication", "forfeit"))
    winners = ("south", "north", None) if kind in ("agreement", "adjudication") else ("south", "north")
    command = {"type": "result", "kind": kind, "winner": rng.choice(winners)}
    if rng.random() < 0.5:
        command["note"] = rng.choice(NOTES)
    return command


def _decision(game: Game, rng: random.Random) -> dict:
    awaiting, players = game.state.awaiting, ("south", "north")
    if awaiting == "race":
        return {"type": "race", "winner": rng.choice(players), "holes": _race_board(game, rng)}
    if awaiting == "opening":
        return {"type": "opening", "choice": rng.choice(("tuz", "plain"))}
    if awaiting == "lot":
        return {"type": "lot", "winner": rng.choice(players)}
    command: dict[str, Any] = {"type": "next_round", "first_player": rng.choice(players)}
    counts = game.state.hole_counts
    if rng.random() < 0.4 and counts is not None:
        holes = list(game.rules.board.holes)
        rng.shuffle(holes)
        south = counts[0]
        command["allocation"] = {"south": holes[:south], "north": holes[south:]}
    return command


def _race_board(game: Game, rng: random.Random) -> dict:
    """54 seeds spread at random over the 18 holes (GEN-37), most holes kept busy."""
    names = game.rules.board.holes
    counts = [1] * len(names)
    for _ in range(game.rules.total_seeds - len(names)):
        counts[rng.randrange(len(names))] += 1
    return dict(zip(names, counts))
