"""Fold once: a game's events are folded in O(events), retractions included.

A retraction steps back on the stack of effective moves (``core.moves``), which keeps
the state each move made, instead of re-folding the moves that remain. These tests pin
that by counting: every move is applied exactly once per fold, however many
retractions follow it; and the states the fold steps back to are the states a fold
of the remaining moves from the start gives.
"""

import dataclasses
import random

import pytest
from support.playouts import random_record

from recorder.bench import cost
from recorder.core import game as fold
from recorder.core.events import MOVE_TYPES, Sowed
from recorder.core.game import FoldedGame, apply_move, history, initial_state, replay
from recorder.core.moves import Moves
from recorder.games.service import stored_pairs
from recorder.store import SQLiteEventStore


@pytest.fixture
def store(tmp_path):
    store = SQLiteEventStore(str(tmp_path / "cost.sqlite3"))
    yield store
    store.close()


def adversarial_pairs(store, sowings=40, pairs=300):
    game = cost.build(store, "adv", cost.setup_body("Adversary"), cost.adversarial(sowings, pairs))
    return game, list(stored_pairs(store.read("adv")))


def test_the_adversarial_game_has_the_shape_it_is_named_for(store):
    game, pairs = adversarial_pairs(store, sowings=150, pairs=6_000)
    assert game.version == len(pairs) == 12_151
    assert sum(event.type == "moves_retracted" for _, event in pairs) == 6_000
    assert len(game.moves) == 150  # every pair's move was withdrawn


def test_a_retraction_applies_no_move_again(store, monkeypatch):
    _, pairs = adversarial_pairs(store)
    applied = []

    def counting(rules, state, event, trace=None):
        applied.append(event)
        return apply_move(rules, state, event, trace)

    monkeypatch.setattr(fold, "apply_move", counting)
    replay("adv", pairs)
    assert len(applied) == sum(event.type in MOVE_TYPES for _, event in pairs) == 40 + 300


@pytest.mark.parametrize("variant", ["selus", "tuz", "qelat", "gabata", "lahemay_walida"])
def test_stepping_back_gives_the_state_a_fold_of_the_remaining_moves_gives(variant):
    record = random_record(variant, seed=15, max_events=150, retractions=0.25, notes=0.1)
    game = record.game
    pairs = [(1, game.setup), *_events(record)]
    for folded in history("check", pairs):
        state = initial_state(folded.rules, folded.setup)
        for _, move in folded.moves:
            state = apply_move(folded.rules, state, move)
        assert state == folded.state, f"event {folded.version}"


def test_a_game_the_fold_makes_is_the_game_its_fields_make():
    """The fold makes a game per event by ``FoldedGame.folded``, its fields set at once rather
    than through the frozen dataclass's ``__init__``: each is still the game ``FoldedGame(...)``
    makes of the same fields, equal, with the same repr and attributes, and frozen.
    Notes and retractions included (they make games too)."""
    record = random_record("qelat", seed=16, max_events=120, retractions=0.2, notes=0.2)
    pairs = [(1, record.game.setup), *_events(record)]
    for folded in history("check", pairs):
        made = FoldedGame(**{f.name: getattr(folded, f.name) for f in dataclasses.fields(FoldedGame)})
        assert folded == made and repr(folded) == repr(made) and vars(folded) == vars(made)
        with pytest.raises(dataclasses.FrozenInstanceError):
            folded.version = 0


def _events(record):
    """The record's events in order, decided again from its commands (as the store would hold them)."""
    from recorder.core.commands import decide, decide_create
    from recorder.core.game import apply_event, start_game

    game = start_game("check", decide_create(record.setup))
    for command in record.commands:
        for event in decide(game, command):
            game = apply_event(game, event, game.version + 1)
            yield game.version, event


def test_the_moves_stack_shares_what_lies_below_and_reads_both_ways():
    rng = random.Random(3)
    bottom = Moves.start("s0")
    top = bottom
    for seq in range(2, 12):
        top = top.push(seq, Sowed(hole="a1", player=rng.choice(("south", "north"))), f"s{seq}")
    assert len(top) == 10 and top.top_seq == 11 and bottom.top_seq is None and not bottom
    assert [seq for seq, _ in top] == list(range(2, 12))
    assert [seq for seq, _ in reversed(top)] == list(range(11, 1, -1))
    assert [seq for seq, _ in top.latest(3)] == [9, 10, 11]
    back = top.pop(3)
    assert back.state == "s8" and back.top_seq == 8 and back.below is top.below.below.below.below
    assert top.pop(10) is bottom and top.pop(10).state == "s0"
    assert back == tuple(top)[:7] and back != top
    with pytest.raises(ValueError):
        top.pop(11)
