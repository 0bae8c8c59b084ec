"""Seeded random games at the fold level, for the audit tests (not a test module).

Every event is decided by ``commands.decide`` exactly as the service would, so the
games are valid records of any registered variant, decisions included.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from recorder.core.commands import decide, decide_create
from recorder.core.game import Game, apply_event, start_game
from recorder.errors import EndlessSowing
from recorder.rules import VARIANTS

PLAYERS = ("south", "north")


def random_options(variant: str, rng: random.Random) -> dict:
    return {name: rng.choice(option.choices) for name, option in VARIANTS[variant].OPTIONS.items()}


def random_setup(variant: str, rng: random.Random, options: dict | None = None):
    rules_class = VARIANTS[variant]
    body = {
        "variant": variant,
        "options": options if options is not None else random_options(variant, rng),
        "south": "Abeba",
        "north": "Berhane",
        "first_player": rng.choice(PLAYERS) if rules_class.has_first_player else None,
    }
    return decide_create(body)


def random_race_board(rng: random.Random, names) -> dict:
    """GEN-37: 54 seeds over the 18 holes, scattered from the start by random single moves."""
    counts = [3] * len(names)
    for _ in range(40):
        source = rng.choice([i for i, c in enumerate(counts) if c])
        counts[source] -= 1
        counts[rng.randrange(len(counts))] += 1
    return dict(zip(names, counts))


def decision_command(game: Game, rng: random.Random) -> dict:
    awaiting = game.state.awaiting
    if awaiting == "race":
        return {"type": "race", "winner": rng.choice(PLAYERS), "holes": random_race_board(rng, game.rules.board.holes)}
    if awaiting == "opening":
        return {"type": "opening", "choice": rng.choice(("tuz", "plain"))}
    if awaiting == "lot":
        return {"type": "lot", "winner": rng.choice(PLAYERS)}
    return {"type": "next_round", "first_player": rng.choice(PLAYERS)}


def next_events(game: Game, rng: random.Random, result_chance: float = 0.0):
    """The events of one random valid command (a sowing that never ends is skipped, GEN-35)."""
    if game.state.awaiting:
        return decide(game, decision_command(game, rng))
    if rng.random() < result_chance:
        return decide(game, {"type": "result", "kind": "adjudication", "winner": rng.choice(PLAYERS + (None,))})
    holes = sorted(game.rules.board.holes[i] for i in game.rules.legal_moves(game.state))
    rng.shuffle(holes)
    for hole in holes:
        try:
            return decide(game, {"type": "sow", "hole": hole})
        except EndlessSowing:
            continue
    return decide(game, {"type": "result", "kind": "adjudication", "winner": None})


def random_game(
    variant: str, seed: int, *, max_events: int = 300, options: dict | None = None, result_chance: float = 0.0
) -> Iterator[tuple[Game | None, object, Game]]:
    """Yield ``(before, event, after)`` for every event of one seeded random game."""
    rng = random.Random(seed)
    setup = random_setup(variant, rng, options)
    game = start_game(f"{variant}-{seed}", setup)
    yield None, setup, game
    while not game.state.game_over and game.version < max_events:
        for event in next_events(game, rng, result_chance):
            after = apply_event(game, event, game.version + 1)
            yield game, event, after
            game = after
