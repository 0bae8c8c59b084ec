"""Tuz (rules/tuz.md): one test or more per rule, the spec's vectors, options, properties, fixtures.

Boards in comments show row 2 on top, columns a–f left to right, as in the spec; `4S` is a
tuz of South's holding 4, `0N` an empty tuz of North's. Expected values are worked by hand
in the comments (or come from the spec's own examples), never pasted from the engine.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.boards import fixture_paths, parse_rows, play, replay, spec_examples
from support.boards import legal as board_legal
from support.boards import position as board_position
from support.boards import sow as board_sow
from support.boards import two_rows as rows

from recorder.core.events import Sowed
from recorder.core.playout import random_move
from recorder.errors import EndlessSowing, IllegalMove, InvalidRecord
from recorder.rules.board import PLAYERS, Player
from recorder.rules.positions import position_from_json
from recorder.rules.state import state_to_json
from recorder.rules.tuz import Tuz

VECTORS = spec_examples("tuz")
FIXTURES = fixture_paths("tuz")
SPEC_EXTRA = {"variant", "options", "round", "rounds", "legal_moves", "result_reason"}
S, N = Player.SOUTH, Player.NORTH
RULES = Tuz()
END_TURN_RULES = Tuz({"after_tuz_capture": "end_turn"})
H = RULES.board.index


# -- Helpers ------------------------------------------------------------------------


def position(row2: str, row1: str, stores=(0, 0), to_move="south", rules=RULES, **extra):
    """A state from a spec-style diagram; a suffix S or N marks a tuz and its owner."""
    holes, specials = parse_rows((("2", row2), ("1", row1)), "tuz")
    first_turn = extra.pop("first_turn_of_round", False)
    return board_position(rules, holes, specials, stores, to_move, first_turn, **extra)


def sow(state, *holes, rules=RULES):
    return board_sow(rules, state, *holes)


def legal(state, rules=RULES) -> list[str]:
    return board_legal(rules, state)


# -- The spec's vectors (examples.json) ---------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_tuz_examples_json_vectors(vector):
    rules = Tuz(vector["options"])
    state = replay(rules, position_from_json(rules, vector["before"]), vector["play"])
    ours = state_to_json(rules, state)
    expected = {k: v for k, v in vector["after"].items() if k != "legal_moves"}
    assert {k: v for k, v in ours.items() if k not in SPEC_EXTRA} == expected
    assert ours["legal_moves"] == vector["after"].get("legal_moves", [])


def test_tuz_vectors_cover_e1_to_e6():
    ids = {v["id"].rstrip("abc") for v in VECTORS}
    assert ids == {f"TUZ-E{n}" for n in range(1, 7)}


# -- Equipment and start ------------------------------------------------------------


def test_tuz_1_two_by_six_four_seeds_a_hole_empty_stores():
    state = RULES.start(S)
    assert RULES.board.name == "2x6" and RULES.board.size == 12
    assert state.holes == (4,) * 12 and state.seeds == 48 == RULES.total_seeds
    assert state.stores == (0, 0) and state.specials == (None,) * 12
    assert RULES.special_kind == "tuz"


def test_tuz_2_round_one_south_owns_row_1_north_row_2():
    state = RULES.start(N)
    assert state.owners == (S,) * 6 + (N,) * 6
    assert state_to_json(RULES, state)["owners"] == {}


def test_tuz_3_first_player_recorded_at_setup_and_in_next_round():
    state = RULES.start(N)
    assert state.to_move == N and state.rounds[0].first_player == N
    # A finished round, counts 6/6 (takings 24 each): next_round names the new starter.
    done = position(
        "0 0 0 0 0 0",
        "0 0 0 0 0 0",
        (24, 24),
        None,
        awaiting="next_round",
        round_over=True,
        takings={"south": 24, "north": 24},
    )
    nxt = RULES.start_next_round(done, S)
    assert nxt.to_move == S and nxt.rounds[-1].first_player == S and nxt.round == 2


# -- The opening --------------------------------------------------------------------


def test_tuz_4_no_sowing_before_the_opening():
    state = RULES.start(S)
    assert state.awaiting == "opening" and state.first_turn_of_round
    assert RULES.legal_moves(state) == ()
    assert "opening" in RULES.DECISIONS


def test_tuz_4_south_tuz_opening_table():
    # R = f1, R+1 = f2. Take one from f1 (3); f2→e2, d2→c2, b2→a2, a1→b1, c1→d1, e1→f1;
    # the held seed makes f2 3 → 4 and South's tuz.
    state = RULES.play_opening(RULES.start(S), "tuz")
    assert rows(state) == ("5 3 5 3 5 4S", "3 5 3 5 3 4")


def test_tuz_4_south_plain_opening_table():
    # As above, but the held seed goes back to f1: 4 → 5, and no tuz.
    state = RULES.play_opening(RULES.start(S), "plain")
    assert rows(state) == ("5 3 5 3 5 3", "3 5 3 5 3 5")


def test_tuz_4_north_tuz_opening_table():
    # R = a2, R+1 = a1. a1→b1, c1→d1, e1→f1, f2→e2, d2→c2, b2→a2; the held seed: a1 3 → 4N.
    state = RULES.play_opening(RULES.start(N), "tuz")
    assert rows(state) == ("4 3 5 3 5 3", "4N 5 3 5 3 5")


def test_tuz_4_north_plain_opening_table():
    # The same moves, the held seed back into a2: 4 → 5.
    state = RULES.play_opening(RULES.start(N), "plain")
    assert rows(state) == ("5 3 5 3 5 3", "3 5 3 5 3 5")


def test_tuz_4_opening_conserves_seeds_and_ends_the_first_turn():
    for first in PLAYERS:
        for choice in ("tuz", "plain"):
            state = RULES.play_opening(RULES.start(first), choice)
            assert state.seeds == 48 and state.stores == (0, 0)
            assert state.awaiting is None and not state.first_turn_of_round


def test_tuz_4_opening_choice_must_be_tuz_or_plain():
    for bad in ("Tuz", "", None, 1, True):
        with pytest.raises(InvalidRecord):
            RULES.play_opening(RULES.start(S), bad)


def test_tuz_4_opening_only_when_awaited():
    opened = RULES.play_opening(RULES.start(S), "tuz")
    with pytest.raises(IllegalMove):
        RULES.play_opening(opened, "plain")


def test_tuz_4_opening_needs_a_seed_in_every_hole_it_takes_from():
    # A hand-made position (GEN-42) with f1 empty: step 1 cannot take a seed from R.
    state = position("4 4 4 4 4 4", "4 4 4 4 8 0", first_turn_of_round=True, awaiting="opening")
    with pytest.raises(IllegalMove):
        RULES.play_opening(state, "plain")


def test_tuz_4_opening_trace_names_the_rule():
    trace: list = []
    RULES.play_opening(RULES.start(S), "tuz", trace=trace)
    assert {"step": "created", "rule": "TUZ-4", "hole": "f2", "kind": "tuz", "owner": "south"} in trace
    assert any(t["step"] == "opening" and t["choice"] == "tuz" for t in trace)


def test_tuz_5_the_other_player_makes_the_first_sowing():
    state = RULES.play_opening(RULES.start(N), "plain")
    assert state.to_move == S
    assert legal(state) == ["a1", "b1", "c1", "d1", "e1", "f1"]


def test_tuz_5_later_rounds_have_no_opening():
    done = position(
        "0 0 0 0 0 0",
        "0 0 0 0 0 0",
        (24, 24),
        None,
        awaiting="next_round",
        round_over=True,
        takings={"south": 24, "north": 24},
    )
    state = RULES.start_next_round(done, N)
    assert state.awaiting is None and state.to_move == N
    assert legal(state) == ["a2", "b2", "c2", "d2", "e2", "f2"]


# -- Legal sowings ------------------------------------------------------------------


def test_tuz_6_a_tuz_or_an_empty_hole_is_never_sown():
    #   2:   0  3S   0   0   0   0
    #   1:   2  4N   0   1   0   0
    # South may sow a1 and d1 (b1 is North's tuz; c1, e1, f1 are empty).
    # North owns b2, but it is South's tuz, and a2, c2 … f2 are empty: he may not sow.
    state = position("0 3S 0 0 0 0", "2 4N 0 1 0 0", (20, 18))
    assert legal(state) == ["a1", "d1"]
    assert RULES.legal_for(state, N) == ()


# -- Sowing -------------------------------------------------------------------------


def test_tuz_7_sowing_is_ccw_and_relays():
    #   2:   1   0   0   0   1   0    ->    2:   1   0   1   1   0   1
    #   1:   0   0   0   0   0   2          1:   0   0   0   0   0   0
    # f1 (2) → f2, e2 (held 1: relay 2) → d2, c2 (held 0: the turn ends).
    state = sow(position("1 0 0 0 1 0", "0 0 0 0 0 2", (22, 22)), "f1")
    assert rows(state) == ("1 0 1 1 0 1", "0 0 0 0 0 0")
    assert state.to_move == N and legal(state) == ["a2", "c2", "d2", "f2"]


def test_tuz_7_a_tuz_receives_seeds_and_is_never_lifted():
    #   2:   1   0   0   0   0   0    ->    2:   1   0   0   0   0   0
    #   1:   3   0  0N   1   0   0          1:   0   1  1N   0   1   1
    # a1 (3) → b1, c1 (North's tuz, keeps its seed), d1 (held 1: relay 2) → e1, f1 (empty).
    state = sow(position("1 0 0 0 0 0", "3 0 0N 1 0 0", (22, 21)), "a1")
    assert rows(state) == ("1 0 0 0 0 0", "0 1 1N 0 1 1")
    assert state.to_move == N


def test_tuz_8a_last_seed_in_opponents_tuz_takes_two_and_sows_again():
    # TUZ-E3: a1 (4) → b1, c1, d1, e1 = North's tuz holding 4: South takes 2, e1 = 3N.
    state = position("0 3 5 3 5 4S", "4 6 4 6 4N 4", to_move="south")
    after = sow(state, "a1")
    assert rows(after) == ("0 3 5 3 5 4S", "0 7 5 7 3N 4")
    assert after.stores == (2, 0) and after.to_move == S  # GEN-18: South sows again
    assert after.specials[H["e1"]] == N


def test_tuz_8a_end_turn_option_passes_the_turn():
    # TUZ-E3b, after_tuz_capture = "end_turn": the same capture, then North is to move.
    state = position("0 3 5 3 5 4S", "4 6 4 6 4N 4", rules=END_TURN_RULES)
    after = sow(state, "a1", rules=END_TURN_RULES)
    assert after.stores == (2, 0) and after.to_move == N
    assert legal(after, END_TURN_RULES) == ["b2", "c2", "d2", "e2"]


def test_tuz_8a_empty_tuz_gives_only_the_last_seed_and_stays():
    #   2:   1   0   0   0   0   0    ->    2:   1   0   0   0   0   0
    #   1:   0   1  0N   2   0   0          1:   0   0  0N   2   0   0     S 22 -> 23
    # b1 (1) → c1, North's empty tuz: South takes that seed, c1 stays North's tuz (0N),
    # then sows again: d1 is his only legal hole.
    state = sow(position("1 0 0 0 0 0", "0 1 0N 2 0 0", (22, 22)), "b1")
    assert rows(state) == ("1 0 0 0 0 0", "0 0 0N 2 0 0")
    assert state.stores == (23, 22) and state.to_move == S and legal(state) == ["d1"]


def test_tuz_8_order_a_before_d_an_existing_tuz_is_never_remade():
    #   2:   1   0   0   0   0   0    ->    2:   1   0   0   0   0   0
    #   1:   1  3N   0   0   0   0          1:   0  2N   0   0   0   0     S 21 -> 23
    # a1 (1) → b1, North's tuz holding 3: not a new tuz (8d) but a capture of 2 (8a).
    # South must sow again but has no legal hole (GEN-18), so North moves.
    state = sow(position("1 0 0 0 0 0", "1 3N 0 0 0 0", (21, 22)), "a1")
    assert rows(state) == ("1 0 0 0 0 0", "0 2N 0 0 0 0")
    assert state.stores == (23, 22) and state.to_move == N


def test_tuz_8a_trace_names_the_capture():
    trace: list = []
    RULES.play(position("1 0 0 0 0 0", "1 3N 0 0 0 0", (21, 22)), H["a1"], trace=trace)
    captured = [t for t in trace if t["step"] == "captured"]
    assert captured == [
        {"step": "captured", "rule": "TUZ-8a", "hole": "b1", "seeds": 2, "player": "south", "tuz_owner": "north"}
    ]


def test_tuz_8b_last_seed_in_own_tuz_stays_and_ends_the_turn():
    #   2:   1   0   0   0   0  3S    ->    2:   1   0   0   0   0  4S
    #   1:   0   0   0   0   0   1          1:   0   0   0   0   0   0
    # f1 (1) → f2, South's own tuz holding 3 (on North's side): the seed stays, no new
    # tuz, no capture, and North is to move.
    state = sow(position("1 0 0 0 0 3S", "0 0 0 0 0 1", (22, 21)), "f1")
    assert rows(state) == ("1 0 0 0 0 4S", "0 0 0 0 0 0")
    assert state.stores == (22, 21) and state.to_move == N


def test_tuz_8c_last_seed_in_an_empty_hole_ends_the_turn():
    #   2:   1   0   0   0   0   0    ->    2:   1   0   0   0   0   0
    #   1:   2   0   0   0   0   0          1:   0   1   1   0   0   0
    state = sow(position("1 0 0 0 0 0", "2 0 0 0 0 0", (22, 23)), "a1")
    assert rows(state) == ("1 0 0 0 0 0", "0 1 1 0 0 0")
    assert state.to_move == N


def test_tuz_8d_making_four_in_an_opponents_hole_makes_a_tuz():
    # TUZ-E2: a2 (5) → a1, b1, c1, d1, e1; e1 held 3 and is South's: North's tuz.
    state = sow(position("5 3 5 3 5 4S", "3 5 3 5 3 4", to_move="north"), "a2")
    assert rows(state) == ("0 3 5 3 5 4S", "4 6 4 6 4N 4")
    assert state.to_move == S and state.stores == (0, 0)


def test_tuz_8d_making_four_in_own_hole_relays():
    #   2:   1   0   0   0   0   0    ->    2:   1   0   0   0   0   0
    #   1:   1   3   0   0   0   0          1:   0   0   1   1   1   1
    # a1 (1) → b1, South's own hole (held 3): no tuz; relay 4 → c1, d1, e1, f1 (empty).
    state = sow(position("1 0 0 0 0 0", "1 3 0 0 0 0", (21, 22)), "a1")
    assert rows(state) == ("1 0 0 0 0 0", "0 0 1 1 1 1")
    assert state.to_move == N


def test_tuz_8d_the_owner_is_this_rounds_owner_not_the_row():
    # Round 2, South owns f2:
    #   2:   0   0   0   0   0   3    ->    2:   0   1   1   1   1   0
    #   1:   0   0   0   0   2   0          1:   0   0   0   0   0   1
    # e1 (2) → f1, f2 (held 3, but South's this round): no tuz; relay 4 → e2, d2, c2,
    # b2 (empty): the turn ends.
    state = position("0 0 0 0 0 3", "0 0 0 0 2 0", (20, 23), round=2, owners={"f2": "south"})
    after = sow(state, "e1")
    assert rows(after) == ("0 1 1 1 1 0", "0 0 0 0 0 1")
    assert after.specials == (None,) * 12 and after.to_move == N


def test_tuz_8d_a_tuz_in_the_movers_own_row_when_the_opponent_owns_it():
    # Round 2, North owns a1:
    #   2:   0   0   0   0   0   0    ->    2:   1   1   1   1   1   1
    #   1:   3   0   0   0   0   7          1:  4S   0   0   0   0   0
    # f1 (7) → f2, e2, d2, c2, b2, a2, a1 (held 3, North's this round): South's tuz.
    state = position("0 0 0 0 0 0", "3 0 0 0 0 7", (19, 19), round=2, owners={"a1": "north"})
    after = sow(state, "f1")
    assert rows(after) == ("1 1 1 1 1 1", "4S 0 0 0 0 0")
    assert after.to_move == N and legal(after) == ["a2", "b2", "c2", "d2", "e2", "f2"]


def test_tuz_8e_relay_from_a_hole_that_held_seeds():
    #   2:   1   0   0   0   0   0    ->    2:   1   0   0   1   1   1
    #   1:   0   0   0   0   1   2          1:   0   0   0   0   0   0
    # e1 (1) → f1, which held 2: relay 3 → f2, e2, d2 (empty): the turn ends.
    state = sow(position("1 0 0 0 0 0", "0 0 0 0 1 2", (21, 23)), "e1")
    assert rows(state) == ("1 0 0 1 1 1", "0 0 0 0 0 0")
    assert state.to_move == N


# -- Tuzes, passing, the end of a round ---------------------------------------------


def test_tuz_9_a_player_may_own_several_tuzes_for_the_whole_round():
    # TUZ-E3a: after a1 and b1 South owns d2 and f2, and North still owns e1 (now 4N).
    state = position("0 3 5 3 5 4S", "4 6 4 6 4N 4")
    after = sow(state, "a1", "b1")
    assert [RULES.board.holes[i] for i, o in enumerate(after.specials) if o == S] == ["d2", "f2"]
    assert after.specials[H["e1"]] == N
    # TUZ-15: a new round clears every tuz.
    done = position(
        "0 0 0 0 0 10S",
        "0 0 7N 0 0 0",
        (19, 12),
        None,
        awaiting="next_round",
        round_over=True,
        takings={"south": 29, "north": 19},
    )
    assert RULES.start_next_round(done, S).specials == (None,) * 12


def test_tuz_10_opponent_without_a_sowing_passes():
    #   2:   0   0  5S   0   0   0    ->    2:   0   0  5S   0   0   0
    #   1:   2   0   0   1   0   0          1:   0   1   1   1   0   0
    # a1 (2) → b1, c1 (empty). North's only seeds are in South's tuz c2: he passes (GEN-19)
    # and South plays a new turn.
    state = sow(position("0 0 5S 0 0 0", "2 0 0 1 0 0", (20, 20)), "a1")
    assert rows(state) == ("0 0 5S 0 0 0", "0 1 1 1 0 0")
    assert state.to_move == S and legal(state) == ["b1", "c1", "d1"]
    assert not state.round_over


def test_tuz_10_round_ends_when_only_tuzes_hold_seeds():
    #   2:   0   0   0   0   0  6S    ->    2:   0   0   0   0   0  7S
    #   1:   0   0  3N   0   0   1          1:   0   0  3N   0   0   0
    state = sow(position("0 0 0 0 0 6S", "0 0 3N 0 0 1", (20, 18)), "f1")
    assert state.round_over and state.to_move is None
    assert rows(state) == ("0 0 0 0 0 7S", "0 0 3N 0 0 0")  # the board as the sowing left it


def test_tuz_11_takings_are_store_plus_own_tuzes():
    # The board of the test above: South 20 + 7 (f2) = 27, North 18 + 3 (c1) = 21.
    state = sow(position("0 0 0 0 0 6S", "0 0 3N 0 0 1", (20, 18)), "f1")
    assert state.takings == (27, 21) and state.stores == (20, 18)
    assert state.rounds[-1].takings == (27, 21)


def test_tuz_12_remainder_three_earns_a_hole():
    # 27 = 6×4 + 3 and 21 = 5×4 + 1: South 7 holes, North 5.
    state = sow(position("0 0 0 0 0 6S", "0 0 3N 0 0 1", (20, 18)), "f1")
    assert state.hole_counts == (7, 5) and state.awaiting == "next_round"


def test_tuz_12_remainders_two_and_two_need_a_lot():
    # Stores 19/19: takings 26 and 22, remainders 2 and 2: a lot decides.
    state = sow(position("0 0 0 0 0 6S", "0 0 3N 0 0 1", (19, 19)), "f1")
    assert state.takings == (26, 22) and state.awaiting == "lot" and state.hole_counts is None
    assert RULES.legal_moves(state) == ()
    north = RULES.draw_lot(state, N)
    assert north.hole_counts == (6, 6) and north.awaiting == "next_round"
    assert north.rounds[-1].lot_winner == N
    south = RULES.draw_lot(state, S)
    assert south.hole_counts == (7, 5)


def test_tuz_12_exact_fours_need_nothing_more():
    # Stores 21/17: takings 28 and 20, remainders 0 and 0.
    state = sow(position("0 0 0 0 0 6S", "0 0 3N 0 0 1", (21, 17)), "f1")
    assert state.hole_counts == (7, 5) and state.awaiting == "next_round"


# -- The end of the match -----------------------------------------------------------


def test_tuz_13_no_hole_loses_the_match():
    # TUZ-E6: f1 (1) → f2, South's tuz: 46 → 47. Takings 47 and 1: counts 12 and 0.
    state = sow(position("0 0 0 0 0 46S", "0 0 0 0 0 1", (0, 1)), "f1")
    assert state.hole_counts == (12, 0) and state.game_over
    assert state.outcome.winner == S and state.outcome.reason == "holes"
    assert state.awaiting is None and state.to_move is None


def test_tuz_13_too_few_seeds_ends_the_match_rather_than_stalling():
    # A reported case: a round leaving North with no seeds at all (takings 48 and 0).
    #   2:   0   0   0   0   0  47S  -> f1 (1) → f2: takings 48 / 0.
    #   1:   0   0   0   0   0   1
    state = sow(position("0 0 0 0 0 47S", "0 0 0 0 0 1", (0, 0)), "f1")
    assert state.takings == (48, 0) and state.hole_counts == (12, 0)
    assert state.game_over and RULES.legal_moves(state) == ()
    out = state_to_json(RULES, state)
    assert out["result"] == "south_wins" and "awaiting" not in out and "score" not in out


def test_tuz_13_two_seeds_and_a_lost_lot_end_the_match():
    # Takings 46 and 2: remainders 2 and 2. North losing the lot has 0 holes; winning
    # it he keeps 1 hole and the match goes on.
    state = sow(position("0 0 0 0 0 45S", "0 0 0 0 0 1", (0, 2)), "f1")
    assert state.awaiting == "lot"
    lost = RULES.draw_lot(state, S)
    assert lost.hole_counts == (12, 0) and lost.game_over and lost.outcome.winner == S
    won = RULES.draw_lot(state, N)
    assert won.hole_counts == (11, 1) and not won.game_over and won.awaiting == "next_round"
    nxt = RULES.start_next_round(won, N)
    assert legal(nxt) == ["a2"]  # North keeps his rightmost hole only (TUZ-14)


# -- Next round ---------------------------------------------------------------------


def finished(takings: tuple[int, int], **extra):
    return position(
        "0 0 0 0 0 0",
        "0 0 0 0 0 0",
        takings,
        None,
        awaiting="next_round",
        round_over=True,
        takings={"south": takings[0], "north": takings[1]},
        **extra,
    )


def test_tuz_14_default_allocation_poorer_keeps_his_rightmost_holes():
    # TUZ-E5b: 7/5 → North gives up f2 (his leftmost).
    state = RULES.start_next_round(finished((29, 19)), S)
    assert state_to_json(RULES, state)["owners"] == {"f2": "south"}
    # 12/36 → 3/9: South keeps f1, e1, d1 and gives up a1, b1, c1.
    state = RULES.start_next_round(finished((12, 36)), N)
    assert state_to_json(RULES, state)["owners"] == {"a1": "north", "b1": "north", "c1": "north"}
    assert legal(state) == ["a1", "a2", "b1", "b2", "c1", "c2", "d2", "e2", "f2"]


def test_tuz_14_allocation_counts_from_the_default_ownership():
    # GEN-38: a round-2 position where South held f2; counts 6/6 give the default again.
    state = RULES.start_next_round(finished((24, 24), round=2, owners={"f2": "south"}), N)
    assert state.owners == RULES.board.default_owners and state.round == 3


def test_tuz_14_recorded_allocation_is_used():
    owners = tuple(S if name in ("a1", "b1", "c1", "d1", "e1", "f1", "a2") else N for name in RULES.board.holes)
    state = RULES.start_next_round(finished((29, 19)), N, owners)
    assert state.owners == owners and legal(state) == ["b2", "c2", "d2", "e2", "f2"]


def test_tuz_15_a_new_round_is_fresh():
    state = RULES.start_next_round(finished((29, 19)), N)
    assert state.holes == (4,) * 12 and state.stores == (0, 0) and state.specials == (None,) * 12
    assert state.awaiting is None and state.first_turn_of_round and state.round == 2
    assert not state.round_over and state.takings is None and not state.game_over
    assert [r.number for r in state.rounds] == [1, 2]


def test_tuz_15_match_ends_by_a_recorded_result():
    state = RULES.record_result(RULES.start(S), "resignation", N)
    assert state.game_over and state.outcome.winner == N and state.first_turn_of_round


# -- Lap cap (GEN-16, GEN-35) -------------------------------------------------------


def test_gen_16_relays_that_circle_for_ever_are_rejected():
    #   2:   2   4   1   3   0   2      Along the CCW track from a1 the board reads
    #   1:   5   2   0   3   1   4      5 | 2 0 3 1 4 2 0 3 1 4 2 (a1 … f1, f2 … a2).
    # Lifting a1 leaves a hand of 5 followed by 2 0 3 1 4 2 0 3 1 4 2. The lap turns the
    # next five into 3 1 4 2 5 and ends in the fifth, which held 4 (no tuz, not empty:
    # relay 5). After that hand the board reads 2 0 3 1 4 2, 0, 3 1 4 2: the same pattern
    # again, five holes on. So every lap relays 5 and the sowing never ends.
    state = position("2 4 1 3 0 2", "5 2 0 3 1 4", (11, 10))
    assert H["a1"] in RULES.legal_moves(state)  # GEN-35: still legal
    with pytest.raises(EndlessSowing):
        RULES.play(state, H["a1"])
    with pytest.raises(EndlessSowing):
        RULES.play(state, H["a1"], trace=[])


# -- Options ------------------------------------------------------------------------


def test_tuz_options_defaults_and_invalid_values():
    assert RULES.options == {"after_tuz_capture": "sow_again"}
    assert RULES.describe()["options"]["after_tuz_capture"]["choices"] == ["sow_again", "end_turn"]
    for bad in ({"after_tuz_capture": "again"}, {"after_tuz_capture": None}, {"tuz": 1}):
        with pytest.raises(InvalidRecord):
            Tuz(bad)


# -- Properties ---------------------------------------------------------------------


def check_state(rules, state, previous):
    assert state.seeds == 48
    if previous is not None and state.round == previous.round:
        assert state.owners == previous.owners  # GEN-7
        assert all(p is None or p == now for p, now in zip(previous.specials, state.specials))  # TUZ-9
    for hole, owner in enumerate(state.specials):
        assert owner is None or state.owners[hole] != owner  # TUZ-A2: only on the opponent's holes
    if state.to_move is not None and not state.awaiting:
        assert rules.legal_moves(state)  # GEN-20
    if state.round_over:
        assert all(seeds == 0 or state.specials[i] is not None for i, seeds in enumerate(state.holes))


@settings(derandomize=True, max_examples=25, deadline=None)
@given(seed=st.integers(), end_turn=st.booleans())
def test_tuz_random_playouts_keep_the_invariants(seed, end_turn):
    rules = END_TURN_RULES if end_turn else RULES
    rng = random.Random(seed)
    state, previous = rules.start(rng.choice(PLAYERS)), None
    for _ in range(400):
        move = random_move(rules, state, rng)
        if move is None:
            break
        event, nxt = move
        if isinstance(event, Sowed):
            assert rules.play(state, H[event.hole], trace=[]) == nxt  # tracing changes nothing
        check_state(rules, nxt, state)
        previous, state = state, nxt
    assert previous is None or state.seeds == 48


# -- Fixtures -----------------------------------------------------------------------


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name for p in FIXTURES])
def test_regression_tuz_fixture_replays_to_its_expected_end(path):
    record = json.loads(path.read_text())
    setup = record["setup"]
    rules = Tuz(setup["options"])
    state = rules.start(Player.parse(setup["first_player"]))
    for command in record["commands"]:
        assert not state.game_over
        state = play(rules, state, command)
    expect = record["expect"]
    assert state.game_over and state.outcome.name == expect["result"]
    assert state.round == expect["rounds"]
    assert {"south": state.stores[0], "north": state.stores[1]} == expect["final_stores"]
    assert state.outcome.reason == "holes" and 0 in state.hole_counts  # TUZ-13


def test_tuz_fixtures_include_a_match_with_a_lot_and_changed_owners():
    def qualifies(record):
        rules = Tuz(record["setup"]["options"])
        state = rules.start(Player.parse(record["setup"]["first_player"]))
        changed = False
        for command in record["commands"]:
            state = play(rules, state, command)
            changed = changed or state.owners != rules.board.default_owners
        lots = [c for c in record["commands"] if c["type"] == "lot"]
        return state.round >= 3 and changed and lots and state.outcome.reason == "holes"

    assert any(qualifies(json.loads(p.read_text())) for p in FIXTURES)
