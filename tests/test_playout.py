"""The one random-game generator: every move it makes is one the deciders accept, and a
seed always gives the same game."""

import random

import pytest

from recorder.core.commands import decide_create, execute
from recorder.core.game import start_game
from recorder.core.playout import random_play
from recorder.core.redecide import command_for
from recorder.rules import VARIANTS


def played(variant: str, seed: int, moves: int = 150):
    rules_class = VARIANTS[variant]
    setup = {"variant": variant, "south": "A", "north": "B"}
    if rules_class.has_first_player:
        setup["first_player"] = "south"
    game = start_game("g", decide_create(setup))
    return game, list(random_play(game.rules, game.state, random.Random(seed), max_moves=moves, allocations=0.5))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_random_move_is_decided_as_recorded_and_folds_to_the_same_state(variant):
    game, moves = played(variant, 3)
    assert moves
    for event, state in moves:
        events, game = execute(game, command_for(event))  # raises if the deciders refuse it
        assert events == [event] and game.state == state


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_seed_gives_the_same_game(variant):
    assert played(variant, 5)[1] == played(variant, 5)[1]
    assert played(variant, 5)[1] != played(variant, 6)[1]
