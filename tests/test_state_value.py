"""The state value (rules/state.py, §8): one order of fields for its constructor, its
reads, equality, hashing and copies; copies change only what they name. Every value is of
its field's type, so the compiled class (which checks them) takes them as the pure one does."""

from typing import Any

import pytest

from recorder.rules.board import Player
from recorder.rules.state import FIELDS, Outcome, RoundRecord, State

S, N = Player.SOUTH, Player.NORTH
# Two values of each field's type, different from each other (not positions of any game).
VALUES: list[tuple[str, Any, Any]] = [
    ("holes", (1, 2), (2, 1)),
    ("owners", (S, N), (N, S)),
    ("specials", (None, S), (N, None)),
    ("stores", (3, 4), (4, 3)),
    ("to_move", S, N),
    ("first_turn_of_round", True, False),
    ("first_turn_pending", (S,), ()),
    ("awaiting", "lot", "next_round"),
    ("no_return", 5, 7),
    ("round", 6, 8),
    ("round_over", True, False),
    ("takings", (7, 8), (8, 7)),
    ("hole_counts", (9, 10), (10, 9)),
    ("game_over", True, False),
    ("outcome", Outcome(None, "agreement"), Outcome(S, "score")),
    ("score", (11, 12), (12, 11)),
    ("rounds", (RoundRecord(1, S, (6, 6)),), ()),
]
ONE = {name: value for name, value, _ in VALUES}
OTHER = {name: value for name, _, value in VALUES}


def one() -> State:
    return State(*(ONE[name] for name in FIELDS))


def test_a_state_reads_back_each_field_where_its_constructor_put_it():
    assert list(ONE) == list(FIELDS) == list(OTHER)
    state = one()
    assert {name: getattr(state, name) for name in FIELDS} == ONE
    assert state.values() == tuple(ONE.values())


def test_equal_states_are_equal_and_hash_alike_and_differ_by_any_field():
    assert one() == one() and hash(one()) == hash(one())
    for name in FIELDS:
        assert one()._replace(**{name: OTHER[name]}) != one(), name
    assert one() != one().values()  # a state is not a tuple


def test_a_copy_changes_only_the_fields_it_names_and_leaves_the_original_as_it_was():
    original = one()
    copy = original._replace(round=40, game_over=False)
    changed = {name for name in FIELDS if getattr(copy, name) != getattr(original, name)}
    assert changed == {"round", "game_over"} and (copy.round, copy.game_over) == (40, False)
    assert original.values() == tuple(ONE.values())


def test_a_copy_refuses_a_field_a_state_does_not_have():
    with pytest.raises(KeyError):
        one()._replace(hole=3)


SOWN = ("holes", "specials", "stores", "to_move", "no_return", "first_turn_of_round")


def test_after_sowing_sets_the_sowing_fields_and_keeps_the_others():
    original = one()
    after = original.after_sowing(*(OTHER[name] for name in SOWN))
    assert {name: getattr(after, name) for name in SOWN} == {name: OTHER[name] for name in SOWN}
    kept = [name for name in FIELDS if name not in SOWN]
    assert [getattr(after, name) for name in kept] == [ONE[name] for name in kept]
