"""Gabata (rules/gabata.md): one test or more per GAB rule, the worked examples GAB-E1..E5,
the game records in fixtures/games/gabata-*.json, and random playouts.

Boards are written as in the spec, row 3 on top:
      a  b  c  d  e  f
  3:  .  .  .  .  .  .    North's back row
  2:  .  .  .  .  .  .    a2 b2 c2 North's, d2 e2 f2 South's
  1:  .  .  .  .  .  .    South's back row
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from support.boards import fixture_paths, numbered_rows, parse_rows, replay, spec_examples, spec_view
from support.boards import position as board_position
from support.boards import sow as board_sow

from recorder.core.events import Sowed
from recorder.core.playout import random_play
from recorder.errors import EndlessSowing, InvalidRecord
from recorder.rules import base
from recorder.rules.board import THREE_ROWS, Player
from recorder.rules.gabata import Gabata, race_board_problem
from recorder.rules.positions import position_from_json

S, N = Player.SOUTH, Player.NORTH
NO_SERIAL = {"serial_capture": False}
OWN_HOLE_ONLY = {"capture_only_from_own_hole": True}
FIXTURES = fixture_paths("gabata")


def counts(diagram: str) -> dict[str, int]:
    """Hole counts from a spec diagram: three lines ``3: …``, ``2: …``, ``1: …``."""
    return parse_rows(numbered_rows(diagram), "none")[0]


def holes(diagram: str) -> tuple[int, ...]:
    named = counts(diagram)
    return tuple(named[name] for name in THREE_ROWS.holes)


def position(diagram: str, stores: tuple[int, int], to_move: str = "south", **options) -> tuple[Gabata, object]:
    rules = Gabata(options)
    return rules, board_position(rules, counts(diagram), None, stores, to_move)


def sow(rules: Gabata, state, name: str, trace=None):
    return board_sow(rules, state, name, trace=trace)


def names(rules: Gabata, indices) -> list[str]:
    return sorted(rules.board.holes[i] for i in indices)


# -- GAB-1 Equipment and start ------------------------------------------------------


def test_gab_1_start_is_3_seeds_a_hole_empty_stores_default_owners_awaiting_the_race():
    rules = Gabata()
    state = rules.start(None)
    assert state.holes == (3,) * 18 and state.seeds == 54
    assert state.stores == (0, 0)
    assert state.owners == THREE_ROWS.default_owners
    assert state.specials == (None,) * 18 and rules.special_kind is None
    assert not rules.is_match and state.rounds == ()
    assert (state.awaiting, state.to_move, state.first_turn_of_round) == ("race", None, True)
    assert rules.legal_moves(state) == ()


def test_gab_1_describe_and_options():
    rules = Gabata()
    assert rules.options == {"serial_capture": True, "capture_only_from_own_hole": False}
    described = rules.describe()
    assert described["needs_first_player"] is False
    assert described["decisions"] == ["race", "result"]
    assert set(described["options"]) == {"serial_capture", "capture_only_from_own_hole"}
    assert Gabata({"serial_capture": False}).options["serial_capture"] is False


@pytest.mark.parametrize(
    "options",
    [{"serial": True}, {"serial_capture": 1}, {"serial_capture": None}, {"capture_only_from_own_hole": "true"}],
)
def test_gab_1_unknown_options_and_wrong_types_are_invalid(options):
    with pytest.raises(InvalidRecord):
        Gabata(options)


def test_gen_30_start_names_no_first_player():
    with pytest.raises(InvalidRecord):
        Gabata().start(S)


# -- GAB-2 The race -----------------------------------------------------------------

E1_BOARD = """
  3:   5   5   1   0   5   1
  2:   5   1   4   4   1   5
  1:   1   5   0   1   5   5
"""


def test_gab_2_e1_race_gives_board_and_first_mover():
    # GAB-E1: North wins the race; the board is recorded; North to move, first turn still ahead.
    rules = Gabata()
    state = rules.record_race(rules.start(None), N, holes(E1_BOARD))
    assert state.holes == holes(E1_BOARD)
    assert (state.to_move, state.awaiting, state.stores) == (N, None, (0, 0))
    assert state.first_turn_of_round is True
    assert not state.game_over
    assert names(rules, rules.legal_moves(state)) == ["a2", "a3", "b2", "b3", "c2", "c3", "e3", "f3"]


def test_gab_2_first_sowing_after_the_race_ends_the_first_turn():
    rules = Gabata()
    state = rules.record_race(rules.start(None), N, holes(E1_BOARD))
    state = sow(rules, state, "c3")  # one seed into the empty b3: column b, South owns none
    assert state.first_turn_of_round is False
    assert state.to_move == S


def test_gab_2_race_board_problem_accepts_a_valid_board():
    assert race_board_problem(counts(E1_BOARD)) is None
    assert Gabata().race_board_problem(counts(E1_BOARD)) is None


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda b: b.pop("a1"), "a1"),
        (lambda b: b.update(g1=0), "g1"),
        (lambda b: b.update(a1=True, b1=5), "a1"),
        (lambda b: b.update(a1=1.0), "a1"),
        (lambda b: b.update(a1=-1, b1=7), "a1"),
        (lambda b: b.update(a1="1"), "a1"),
        (lambda b: b.update(a1=2), "54"),
    ],
    ids=["missing", "unknown", "bool", "float", "negative", "string", "sum"],
)
def test_gen_37_race_board_problem_names_what_is_wrong(change, words):
    board = counts(E1_BOARD)
    change(board)
    problem = race_board_problem(board)
    assert problem is not None and words in problem


def test_gen_37_race_board_must_be_an_object():
    assert race_board_problem([3] * 18) is not None
    assert race_board_problem(None) is not None


def test_gab_2_race_that_empties_a_side_ends_the_game_at_once():
    # GAB-8 after the race; GEN-34: no turn has ended, so first_turn_of_round stays true.
    board = holes("""
      3:   9   9   9   9   9   9
      2:   0   0   0   0   0   0
      1:   0   0   0   0   0   0
    """)
    rules = Gabata()
    state = rules.record_race(rules.start(None), S, board)
    assert state.game_over and state.to_move is None
    assert state.first_turn_of_round is True
    assert state.score == (0, 54)
    assert state.outcome.winner == N and state.outcome.reason == "score"
    assert state.holes == board and state.stores == (0, 0)


# -- GAB-3 Legal sowings ------------------------------------------------------------


def test_gab_3_player_sows_any_nonempty_hole_he_owns():
    rules = Gabata()
    state = rules.record_race(rules.start(None), S, holes(E1_BOARD))
    # c1 is empty; South owns row 1 and d2 e2 f2.
    assert names(rules, rules.legal_moves(state)) == ["a1", "b1", "d1", "d2", "e1", "e2", "f1", "f2"]
    assert names(rules, rules.legal_for(state, N)) == ["a2", "a3", "b2", "b3", "c2", "c3", "e3", "f3"]


# -- GAB-4 Relay sowing -------------------------------------------------------------


def test_gab_4_lap_ending_in_an_occupied_hole_relays():
    #   3:  1 0 0 0 4 0      South sows a1 into b1 (held 2): relay 3 seeds from b1
    #   2:  0 0 0 0 0 0      to c1 d1 e1; e1 was empty, so e3 (4) is captured, and the
    #   1:  1 2 0 0 0 0      serial seed goes to f1 (empty; column f holds nothing).
    rules, state = position(
        """
      3:   1   0   0   0   4   0
      2:   0   0   0   0   0   0
      1:   1   2   0   0   0   0
    """,
        (20, 26),
    )
    trace: list = []
    state = sow(rules, state, "a1", trace)
    assert state.holes == holes("""
      3:   1   0   0   0   0   0
      2:   0   0   0   0   0   0
      1:   0   0   1   1   0   1
    """)
    assert state.stores == (24, 26)
    relays = [step for step in trace if step["step"] == "relayed"]
    assert [(r["hole"], r["seeds"]) for r in relays] == [("b1", 3), ("e1", 1)]


def test_gab_4_relay_lifts_from_any_hole_whoever_owns_it():
    # South sows d2 to f3 e3 d3; d3 is North's and held 3, so 4 seeds relay from it to
    # c3 b3 a3 a2. a2 was empty: column a gives South a3 (now 1); a1 is his own.
    rules, state = position(
        """
      3:   0   0   2   3   0   0
      2:   0   0   0   3   0   0
      1:   1   0   0   0   0   0
    """,
        (20, 25),
        **NO_SERIAL,
    )
    state = sow(rules, state, "d2")
    assert state.holes == holes("""
      3:   0   1   3   0   1   1
      2:   1   0   0   0   0   0
      1:   1   0   0   0   0   0
    """)
    assert state.stores == (21, 25)


# -- GAB-5 Column capture -----------------------------------------------------------

E2_BEFORE = """
  3:   1   0   0   0   4   3
  2:   0   1   0   0   2   0
  1:   0   0   2   0   0   0
"""
E3_BEFORE = """
  3:   0   0   0   0   0   1
  2:   0   0   0   4   2   0
  1:   2   0   0   1   3   0
"""
E4_BEFORE = """
  3:   0   0   1   1   1   1
  2:   0   3   0   5   0   0
  1:   0   2   0   0   0   0
"""


def test_gab_5_e2b_own_hole_captures_the_far_back_row_only():
    # GAB-E2b: South ends in e1 (empty); e2 is his own, e3 (4) is taken; the turn ends.
    rules, state = position(E2_BEFORE, (20, 21), **NO_SERIAL)
    state = sow(rules, state, "c1")
    assert state.holes == holes("""
      3:   1   0   0   0   0   3
      2:   0   1   0   0   2   0
      1:   0   0   0   1   1   0
    """)
    assert state.stores == (24, 21)
    assert state.to_move == N
    assert names(rules, rules.legal_moves(state)) == ["a3", "b2", "f3"]


def test_gab_5_e3b_own_left_half_back_row_captures_middle_and_far():
    # GAB-E3b: North ends in e3 (his left half); e2 (2) and e1 (3) are taken; e3 keeps its seed.
    rules, state = position(E3_BEFORE, (18, 23), to_move="north", **NO_SERIAL)
    state = sow(rules, state, "f3")
    assert state.holes == holes("""
      3:   0   0   0   0   1   0
      2:   0   0   0   4   0   0
      1:   2   0   0   1   0   0
    """)
    assert state.stores == (18, 28)
    assert names(rules, rules.legal_moves(state)) == ["a1", "d1", "d2"]


def test_gab_5_opponent_left_half_back_row_captures_nothing():
    # South's lap ends in North's empty e3: the other holes of column e are South's own.
    rules, state = position(
        """
      3:   1   0   0   0   0   2
      2:   0   0   0   2   3   0
      1:   0   0   0   0   4   0
    """,
        (20, 22),
    )
    trace: list = []
    state = sow(rules, state, "d2", trace)  # f3 (2 -> 3), e3 (0 -> 1)
    assert state.holes == holes("""
      3:   1   0   0   0   1   3
      2:   0   0   0   0   3   0
      1:   0   0   0   0   4   0
    """)
    assert state.stores == (20, 22)
    assert not [step for step in trace if step["step"] in ("captured", "serial_capture")]
    assert state.to_move == N


def test_gab_5_e4_opponent_other_hole_captures_his_one_other_hole_in_the_column():
    # GAB-E4a with serial capture off: b3 (North's, empty) gives b2 (3); b3 itself stays.
    rules, state = position(E4_BEFORE, (19, 21), **NO_SERIAL)
    state = sow(rules, state, "d2")
    assert state.holes == holes("""
      3:   0   1   2   2   2   2
      2:   0   0   0   0   0   0
      1:   0   2   0   0   0   0
    """)
    assert state.stores == (22, 21)


def test_gab_5_e4b_capture_only_from_own_hole_takes_nothing_in_an_opponent_hole():
    # GAB-E4b: b3 is North's, so nothing is captured: b3 = 1 and b2 = 3 remain.
    rules, state = position(E4_BEFORE, (19, 21), **OWN_HOLE_ONLY)
    state = sow(rules, state, "d2")
    assert state.holes == holes("""
      3:   0   1   2   2   2   2
      2:   0   3   0   0   0   0
      1:   0   2   0   0   0   0
    """)
    assert state.stores == (19, 21)
    assert state.to_move == N
    assert names(rules, rules.legal_moves(state)) == ["b2", "b3", "c3", "d3", "e3", "f3"]


def test_gab_5_capture_only_from_own_hole_still_captures_from_an_own_hole():
    # GAB-E3a is played in North's own holes throughout, so the option changes nothing.
    rules, state = position(E3_BEFORE, (18, 23), to_move="north")
    own_rules, own_state = position(E3_BEFORE, (18, 23), to_move="north", **OWN_HOLE_ONLY)
    expected = sow(rules, state, "f3")
    assert sow(own_rules, own_state, "f3") == expected
    assert expected.stores == (18, 33)


def test_gab_5_capture_is_traced_with_its_rule():
    rules, state = position(E2_BEFORE, (20, 21), **NO_SERIAL)
    trace: list = []
    sow(rules, state, "c1", trace)
    captured = [step for step in trace if step["step"] == "captured"]
    assert captured == [{"step": "captured", "rule": "GAB-5", "hole": "e3", "seeds": 4, "player": "south"}]


# -- GAB-6 Serial capture -----------------------------------------------------------


def test_gab_6_e2a_serial_capture_moves_the_seed_on_while_it_captures():
    # GAB-E2a: e1 takes e3 (4); the seed goes to f1 and takes f3 (3); then to f2: nothing.
    rules, state = position(E2_BEFORE, (20, 21))
    trace: list = []
    state = sow(rules, state, "c1", trace)
    assert state.holes == holes("""
      3:   1   0   0   0   0   0
      2:   0   1   0   0   2   1
      1:   0   0   0   1   0   0
    """)
    assert state.stores == (27, 21)
    assert state.to_move == N
    assert names(rules, rules.legal_moves(state)) == ["a3", "b2"]
    assert [step["hole"] for step in trace if step["step"] == "serial_capture"] == ["e1", "f1"]


def test_gab_6_e3a_serial_capture_along_norths_back_row():
    # GAB-E3a: e3 takes e2+e1 (5); d3 takes d2+d1 (5); c3 finds c2 North's own and c1 empty.
    rules, state = position(E3_BEFORE, (18, 23), to_move="north")
    state = sow(rules, state, "f3")
    assert state.holes == holes("""
      3:   0   0   1   0   0   0
      2:   0   0   0   0   0   0
      1:   2   0   0   0   0   0
    """)
    assert state.stores == (18, 33)
    assert names(rules, rules.legal_moves(state)) == ["a1"]


def test_gab_6_e4a_serial_step_that_captures_nothing_ends_the_sowing():
    # GAB-E4a: b3 takes b2 (3); the seed moves on to a3, where there is nothing to capture.
    rules, state = position(E4_BEFORE, (19, 21))
    state = sow(rules, state, "d2")
    assert state.holes == holes("""
      3:   1   0   2   2   2   2
      2:   0   0   0   0   0   0
      1:   0   2   0   0   0   0
    """)
    assert state.stores == (22, 21)
    assert names(rules, rules.legal_moves(state)) == ["a3", "c3", "d3", "e3", "f3"]


def test_gab_6_serial_steps_count_towards_the_lap_cap(monkeypatch):
    # GEN-16: E2a is one lap plus two serial steps = 3 laps. A cap of 3 lets it end;
    # with a cap of 2 the rules would start a third lap, so the sowing is rejected.
    rules, state = position(E2_BEFORE, (20, 21))
    monkeypatch.setattr(base, "LAP_CAP", 3)
    assert sow(rules, state, "c1").stores == (27, 21)
    monkeypatch.setattr(base, "LAP_CAP", 2)
    with pytest.raises(EndlessSowing):
        sow(rules, state, "c1")
    # Without serial capture the same sowing is a single lap.
    no_serial, same = position(E2_BEFORE, (20, 21), **NO_SERIAL)
    monkeypatch.setattr(base, "LAP_CAP", 1)
    assert sow(no_serial, same, "c1").stores == (24, 21)


# -- GAB-7 One sowing per turn ------------------------------------------------------


@pytest.mark.parametrize("options", [{}, NO_SERIAL, OWN_HOLE_ONLY])
def test_gab_7_every_sowing_passes_the_turn_until_the_game_ends(options):
    for seed in range(20):
        rules = Gabata(options)
        state = rules.record_race(rules.start(None), N, holes(E1_BOARD))
        for after, mover in playout(rules, state, random.Random(seed)):
            if not after.game_over:
                assert after.to_move == mover.opponent
                assert after.first_turn_of_round is False


# -- GAB-8 End and scoring ----------------------------------------------------------


def test_gab_8_e5_the_last_capture_empties_norths_side():
    # GAB-E5: c1 takes e3 (2); the serial seed stops in f1; North's holes are all empty.
    rules, state = position(
        """
      3:   0   0   0   0   2   0
      2:   0   0   0   0   0   3
      1:   4   0   2   0   0   0
    """,
        (20, 23),
    )
    state = sow(rules, state, "c1")
    assert state.holes == holes("""
      3:   0   0   0   0   0   0
      2:   0   0   0   0   0   3
      1:   4   0   0   1   0   1
    """)
    assert state.stores == (22, 23)  # the position as the sowing left it
    assert state.game_over and state.to_move is None
    assert state.score == (31, 23)
    assert state.outcome.winner == S and state.outcome.reason == "score"
    assert rules.legal_moves(state) == ()


def test_gab_8_mover_emptying_his_own_side_ends_the_game_27_27_is_a_draw():
    # South's last seed goes from d2 into North's empty f3; column f has nothing of North's
    # but H. South has no seeds left: South 27, North 22 + 4 + 1 = 27.
    rules, state = position(
        """
      3:   1   1   1   0   0   0
      2:   1   0   0   1   0   0
      1:   0   0   0   0   0   0
    """,
        (27, 22),
    )
    state = sow(rules, state, "d2")
    assert state.game_over and state.score == (27, 27)
    assert state.outcome.winner is None
    assert spec_view(rules, state)["result"] == "draw"


def test_gab_8_north_wins_on_score():
    # South's last seed goes from d2 into North's empty f3: South 10, North 41 + 2 + 1 = 44.
    rules, state = position(
        """
      3:   2   0   0   0   0   0
      2:   0   0   0   1   0   0
      1:   0   0   0   0   0   0
    """,
        (10, 41),
    )
    state = sow(rules, state, "d2")
    assert state.game_over and state.score == (10, 44)
    assert state.outcome.winner == N
    view = spec_view(rules, state)
    assert view["result"] == "north_wins" and view["score"] == {"south": 10, "north": 44}
    assert "awaiting" not in view and "legal_moves" not in view and view["to_move"] is None


# -- GAB-9 Nobody ever passes --------------------------------------------------------


def playout(rules: Gabata, state, rng: random.Random, limit: int = 500):
    """Random sowings to the end (``core.playout``); yields (state after, mover)."""
    for event, after in random_play(rules, state, rng, max_moves=limit):
        assert isinstance(event, Sowed)
        yield after, Player.parse(event.player)


@pytest.mark.parametrize("options", [{}, NO_SERIAL, OWN_HOLE_ONLY])
def test_gab_9_player_to_move_always_has_a_sowing_and_seeds_are_conserved(options):
    ended = 0
    for seed in range(30):
        rng = random.Random(seed)
        rules = Gabata(options)
        (_race, start), *_ = random_play(rules, rules.start(None), rng, max_moves=1)  # GEN-24: a random race
        for state, _ in playout(rules, start, rng):
            assert state.seeds == 54
            assert all(count >= 0 for count in state.holes)
            if state.game_over:
                assert 0 in rules.seeds_owned(state)
                assert sum(state.score) == 54
            else:
                assert rules.legal_moves(state)
        ended += state.game_over
    assert ended == 30


# -- Worked examples and game records ------------------------------------------------


@pytest.mark.parametrize("example", spec_examples("gabata"), ids=lambda e: e["id"])
def test_gab_examples_json_vectors(example):
    rules = Gabata(example["options"])
    state = replay(rules, position_from_json(rules, example["before"]), example["play"])
    assert spec_view(rules, state) == example["after"]


def load_fixture(path: Path) -> dict:
    """A fixture record as (options, play, after): commands back into a vector's play list."""
    record = json.loads(path.read_text())
    play = [
        command["hole"] if command["type"] == "sow" else {"decision": command["type"], **_fields(command)}
        for command in record["commands"]
    ]
    return {"options": record["setup"]["options"], "play": play, "after": record["expect"]["state"]}


def _fields(command: dict) -> dict:
    return {k: v for k, v in command.items() if k != "type"}


def test_fixtures_cover_the_options():
    options = [load_fixture(path)["options"] for path in FIXTURES]
    assert {"serial_capture": True, "capture_only_from_own_hole": False} in options
    assert {"serial_capture": False, "capture_only_from_own_hole": False} in options
    assert {"serial_capture": True, "capture_only_from_own_hole": True} in options


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_regression_fixture_game_replays_from_the_race_to_the_gab_8_sweep(path):
    record = load_fixture(path)
    rules = Gabata(record["options"])
    start = rules.start(None)
    assert record["play"][0]["decision"] == "race"
    state = replay(rules, start, record["play"])
    assert spec_view(rules, state) == record["after"]
    assert state.game_over and state.outcome.reason == "score"
    assert rules.is_swept(state)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_game_exercises_its_options(path):
    # Each non-default option must change at least one sowing of its record.
    record = load_fixture(path)
    rules = Gabata(record["options"])
    defaults = Gabata()
    state = replay(rules, rules.start(None), record["play"][:1])
    changed = 0
    for hole in record["play"][1:]:
        after = sow(rules, state, hole)
        try:
            changed += defaults.play(state, rules.board.hole(hole)) != after
        except EndlessSowing:
            changed += 1
        state = after
    assert (changed > 0) == (rules.options != defaults.options)
