"""General sowing rules (rules/README.md): GEN-13, GEN-14, GEN-15, GEN-36, GEN-39, GEN-41.

Each test plays one small hand-made position in the game whose rules exercise the general
rule. Diagrams are drawn as the spec draws them: the top row first (row 2 of a 2×6 board,
row 3 of a 3×6 board), columns a..f left to right, ``5S`` a special hole of South's holding
5. Expected values are worked out by hand from the spec, seed by seed, in the comments.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from support.boards import legal, parse_rows, position, sow, sown_both_ways

from recorder.core.game import apply_move
from recorder.core.playout import random_decision
from recorder.rules import VARIANTS, rules_for
from recorder.rules.base import Rules
from recorder.rules.board import PLAYERS, Player
from recorder.rules.state import State, state_to_json

S, N = Player.SOUTH, Player.NORTH
QELAT = rules_for("qelat")
SELUS = rules_for("selus")
LW = rules_for("lahemay_walida")
TUZ = rules_for("tuz")


def diagram(rules: Rules, *rows: str) -> tuple[dict, dict]:
    """Hole counts and special holes of a diagram given top row first."""
    numbers = [str(n) for n in range(len(rows), 0, -1)]
    return parse_rows(zip(numbers, rows), rules.special_kind or "")


def at(rules: Rules, *rows: str, stores=(0, 0), to_move="south", **fields) -> State:
    return position(rules, *diagram(rules, *rows), stores, to_move, **fields)


def board(rules: Rules, state: State) -> tuple[dict, dict]:
    """The state's holes and special holes, in the shape ``diagram`` gives."""
    out = state_to_json(rules, state)
    return out["holes"], out["specials"]


def steps(trace: list, kind: str) -> list[dict]:
    return [step for step in trace if step["step"] == kind]


def relays(trace: list) -> list[tuple[str, int]]:
    return [(step["hole"], step["seeds"]) for step in steps(trace, "relayed")]


# -- GEN-13: no origin skipping ---------------------------------------------------------


def test_gen_13_a_lap_of_twelve_on_2x6_drops_its_last_seed_into_its_origin():
    # Qelat. South sows a1 (12): a left-three hole, so CW (QEL-5).
    #   2:  3 5S  3  3  3  3        2:  4 6S  4  4  4  4
    #   1: 12  3  3  3  3  4   ->   1:  1  4  4  4  4  5
    # Seeds 1-11: a2 b2 (South's walda, not skipped) c2 d2 e2 f2 f1 e1 d1 c1 b1, one each.
    # Seed 12 comes round to a1, the origin, emptied by the lift: 0 -> 1. n = 0, so no
    # walda (QEL-7), and 12 seeds is no lone seed (QEL-11). North is to move.
    trace: list = []
    after = sow(QELAT, at(QELAT, "3 5S 3 3 3 3", "12 3 3 3 3 4"), "a1", trace=trace)
    assert [step["hole"] for step in steps(trace, "dropped")] == "a2 b2 c2 d2 e2 f2 f1 e1 d1 c1 b1 a1".split()
    assert board(QELAT, after) == diagram(QELAT, "4 6S 4 4 4 4", "1 4 4 4 4 5")
    assert after.to_move is N and legal(QELAT, after) == ["a2", "c2", "d2", "e2", "f2"]


def test_gen_13_a_lap_of_eighteen_on_3x6_drops_its_last_seed_into_its_origin():
    # Selus, creation allowed (not the first turn). South sows a1 (18) along the track.
    #   3:  3  3 3S  3  3  3        3:  4  4 4S  4  4  4
    #   2:  3  3  3  3  3  3   ->   2:  4  4  4  4  4  4
    #   1: 18  0  0  0  0  0        1:  1  1  1  1  1  1
    # Seeds 1-17: b1 c1 d1 e1 f1 f2 e2 d2 f3 e3 d3 c3 (South's wegue, not skipped) b3 a3
    # a2 b2 c2, one each. Seed 18 comes round to a1, emptied by the lift: n = 0, kwah
    # (SEL-7b), and the turn ends. North is to move; c3 is a wegue, so not his to sow.
    after = sow(SELUS, at(SELUS, "3 3 3S 3 3 3", "3 3 3 3 3 3", "18 0 0 0 0 0"), "a1")
    assert board(SELUS, after) == diagram(SELUS, "4 4 4S 4 4 4", "4 4 4 4 4 4", "1 1 1 1 1 1")
    assert after.stores == (0, 0) and after.to_move is N
    assert legal(SELUS, after) == ["a2", "a3", "b2", "b3", "c2", "d3", "e3", "f3"]


def test_gen_13_a_relay_lap_of_twelve_comes_round_to_its_relay_hole():
    # Tuz. South sows f1 (1) into f2: 11 -> 12, n = 11, so it relays (TUZ-8e).
    #   2:  0  0  0  0  0 11        2:  1  1  1  1  1  1
    #   1:  0  0  0  0  0  1   ->   1:  1  1  1  1  1  1      stores S18 N18 unchanged
    # The relay lifts all 12 from f2 and sows e2 d2 c2 b2 a2 a1 b1 c1 d1 e1 f1 (seeds
    # 1-11), and seed 12 comes round to f2, where the lap started: 0 -> 1. n = 0, so the
    # turn ends (TUZ-8c). North is to move.
    trace: list = []
    after = sow(TUZ, at(TUZ, "0 0 0 0 0 11", "0 0 0 0 0 1", stores=(18, 18)), "f1", trace=trace)
    assert relays(trace) == [("f2", 12)]
    assert steps(trace, "dropped")[-1]["hole"] == "f2"
    assert board(TUZ, after) == diagram(TUZ, "1 1 1 1 1 1", "1 1 1 1 1 1")
    assert after.stores == (18, 18) and after.to_move is N


# -- GEN-14: "H held n before the last seed" ----------------------------------------------


def test_gen_14_n_counts_a_seed_the_same_lap_dropped_on_its_first_circuit():
    # Qelat. South sows a1 (13) CW.
    #   2:  2  3  3  3  3  3        2: 4S  4  4  4  4  4
    #   1: 13  3  3  3  3  6   ->   1:  1  4  4  4  4  7
    # Seed 1: a2 2 -> 3. Seeds 2-11: b2 c2 d2 e2 f2 f1 e1 d1 c1 b1 (b2 and e2 reach 4, but
    # not with a last seed: nothing). Seed 12: a1 0 -> 1. Seed 13, the last: a2 3 -> 4.
    # a2 held n = 3 (2 from before the lap + 1 from seed 1): "making four", and a2 is
    # eligible for South (QEL-8), so it becomes South's walda (QEL-7). Had n counted only
    # the 2 seeds a2 held when the lap began, there would be no walda.
    after = sow(QELAT, at(QELAT, "2 3 3 3 3 3", "13 3 3 3 3 6"), "a1")
    assert board(QELAT, after) == diagram(QELAT, "4S 4 4 4 4 4", "1 4 4 4 4 7")
    assert after.to_move is N and legal(QELAT, after) == ["b2", "c2", "d2", "e2", "f2"]


def test_gen_14_making_four_on_the_second_circuit_is_a_final_group_lw_7a():
    # Lahemay Walida (g = 4). South sows a1 (13) CCW.
    #   2:  0  0  0  0  0  0        2:  1  1  1  1  1  1
    #   1: 13  2  0  0  0  0   ->   1:  1  0  1  1  1  1      S17 N16 -> S21 N16
    # Seed 1: b1 2 -> 3 (not 4: no LW-6 group). Seeds 2-11: c1 d1 e1 f1 f2 e2 d2 c2 b2 a2,
    # 0 -> 1 each. Seed 12: a1 0 -> 1. Seed 13, the last: b1 3 -> 4, so n = 3: South
    # takes the 4 (LW-7a) and must make a bonus sowing from a1 c1 d1 e1 or f1.
    after = sow(LW, at(LW, "0 0 0 0 0 0", "13 2 0 0 0 0", stores=(17, 16)), "a1")
    assert board(LW, after) == diagram(LW, "1 1 1 1 1 1", "1 0 1 1 1 1")
    assert after.stores == (21, 16)
    assert after.to_move is S and legal(LW, after) == ["a1", "c1", "d1", "e1", "f1"]


def test_gen_14_n_reflects_a_group_removed_earlier_in_the_lap_lw_6():
    # Lahemay Walida (g = 4). South sows f1 (13) CCW.
    #   2:  0  0  0  0  0  3        2:  1  1  1  1  1  1
    #   1:  0  0  0  0  0 13   ->   1:  1  1  1  1  1  1      S16 N16 -> S16 N20
    # Seed 1: f2 3 -> 4 with seeds still in hand, so the 4 go to f2's owner, North (LW-6),
    # and f2 is left empty. Seeds 2-11: e2 d2 c2 b2 a2 a1 b1 c1 d1 e1, 0 -> 1 each.
    # Seed 12: f1 0 -> 1. Seed 13, the last: f2 0 -> 1, so n = 0 (not 4): the turn ends
    # (LW-7b) with no relay, and North, who owns seeds, is to move.
    trace: list = []
    after = sow(LW, at(LW, "0 0 0 0 0 3", "0 0 0 0 0 13", stores=(16, 16)), "f1", trace=trace)
    assert [(step["rule"], step["hole"], step["player"]) for step in steps(trace, "captured")] == [
        ("LW-6", "f2", "north")
    ]
    assert relays(trace) == []
    assert board(LW, after) == diagram(LW, "1 1 1 1 1 1", "1 1 1 1 1 1")
    assert after.stores == (16, 20) and after.to_move is N


# -- GEN-15: relays, and Qelat's single lap -------------------------------------------------


def test_gen_15_a_relay_lifts_every_seed_of_the_last_hole_including_the_last_seed():
    # Lahemay Walida. South sows c1 (2) CCW.
    #   2:  2  0  0  0  0  1        2:  2  0  0  0  1  2
    #   1:  0  0  2  0  2  0   ->   1:  0  0  0  1  0  1      stores S20 N21 unchanged
    # d1 0 -> 1; the last seed: e1 2 -> 3, n = 2 (not 3, not 0), so relay (LW-7c). All 3
    # seeds of e1 are lifted, the last one included, and sown from e1: f1 0 -> 1,
    # f2 1 -> 2, and the last into e2 0 -> 1: n = 0, the turn ends (LW-7b). Lifting only
    # the 2 older seeds would end the relay in f2 instead.
    trace: list = []
    after = sow(LW, at(LW, "2 0 0 0 0 1", "0 0 2 0 2 0", stores=(20, 21)), "c1", trace=trace)
    assert relays(trace) == [("e1", 3)]
    assert board(LW, after) == diagram(LW, "2 0 0 0 1 2", "0 0 0 1 0 1")
    assert after.stores == (20, 21) and after.to_move is N


def test_gen_15_a_relay_lifts_from_the_opponents_hole():
    # Selus, creation allowed. South sows e2 (2; his own hole) along the track: e2 -> d2 -> f3.
    #   3:  0  0  0  0  0  4        3:  1  1  1  1  1  0
    #   2:  0  0  0  0  2  0   ->   2:  0  0  0  1  0  0
    #   1:  0  0  0  0  0  0        1:  0  0  0  0  0  0      stores S24 N24 unchanged
    # d2 0 -> 1; the last seed: f3 (North's hole) 4 -> 5, n = 4, so relay (SEL-7d). South
    # lifts the 5 from North's f3 and sows e3 d3 c3 b3 a3, 0 -> 1 each; a3 held 0: kwah.
    trace: list = []
    before = at(SELUS, "0 0 0 0 0 4", "0 0 0 0 2 0", "0 0 0 0 0 0", stores=(24, 24))
    after = sow(SELUS, before, "e2", trace=trace)
    assert relays(trace) == [("f3", 5)]
    assert board(SELUS, after) == diagram(SELUS, "1 1 1 1 1 0", "0 0 0 1 0 0", "0 0 0 0 0 0")
    assert after.to_move is N and legal(SELUS, after) == ["a3", "b3", "c3", "d3", "e3"]


def test_gen_15_a_relay_never_lifts_a_special_hole():
    # Tuz. South sows e1 (2) CCW into f1 and then f2, his own tuz holding 5.
    #   2:  2  0  0  0  0 5S        2:  2  0  0  0  0 6S
    #   1:  0  0  0  0  2  0   ->   1:  0  0  0  0  0  1      stores S19 N20 unchanged
    # f1 0 -> 1; the last seed: f2 5 -> 6. f2 is special, so nothing is lifted from it:
    # the seed stays and the turn ends (TUZ-8b). North is to move.
    trace: list = []
    after = sow(TUZ, at(TUZ, "2 0 0 0 0 5S", "0 0 0 0 2 0", stores=(19, 20)), "e1", trace=trace)
    assert relays(trace) == []
    assert board(TUZ, after) == diagram(TUZ, "2 0 0 0 0 6S", "0 0 0 0 0 1")
    assert after.stores == (19, 20) and after.to_move is N


def test_gen_15_qelat_sowing_ends_when_the_hand_is_first_empty():
    # Qelat. South sows e1 (2), a right-three hole, so CCW (QEL-5).
    #   2:  4  4  4  4  4  4        2:  4  4  4  4  4  5
    #   1:  4  4  4  4  2  6   ->   1:  4  4  4  4  0  7
    # f1 6 -> 7; the last seed: f2 4 -> 5. The hand is empty, so the sowing ends although
    # f2 held 4 (a relay game would lift its 5). n = 4, so no walda. North is to move.
    trace: list = []
    after = sow(QELAT, at(QELAT, "4 4 4 4 4 4", "4 4 4 4 2 6"), "e1", trace=trace)
    assert [step["hole"] for step in steps(trace, "dropped")] == ["f1", "f2"]
    assert relays(trace) == []
    assert board(QELAT, after) == diagram(QELAT, "4 4 4 4 4 5", "4 4 4 4 0 7")
    assert after.to_move is N


# -- GEN-36: captures out of special holes ---------------------------------------------


def test_gen_36_sel_9c_takes_a_seed_out_of_a_wegue():
    # Selus, creation allowed. South sows c1 (2): d1, then e1, North's wegue holding 5.
    #   3:  0  0  0  0  0  2        3:  0  0  0  0  0  2
    #   2:  0  0  0  0  0  0   ->   2:  0  0  0  0  0  0
    #   1:  0  0  2  0 5N  0        1:  0  0  0  1 4N  0      S22 N23 -> S24 N23
    # d1 0 -> 1; the last seed: e1 5 -> 6, n = 5. e1 is a wegue (SEL-7a) and not South's
    # ayemi (a1), and n >= 1, so SEL-9c: South moves the last seed and one more from e1 to
    # his store: e1 6 -> 4, South 22 -> 24. The wegue stays North's. SEL-10: e1 is neither
    # North's ayemi (f3) nor South's wegue, so the turn ends; North sows f3 next.
    before = at(SELUS, "0 0 0 0 0 2", "0 0 0 0 0 0", "0 0 2 0 5N 0", stores=(22, 23))
    after = sow(SELUS, before, "c1")
    assert board(SELUS, after) == diagram(SELUS, "0 0 0 0 0 2", "0 0 0 0 0 0", "0 0 0 1 4N 0")
    assert after.stores == (24, 23) and after.to_move is N


def test_gen_36_tuz_8a_takes_a_seed_out_of_a_tuz():
    # Tuz (after_tuz_capture = sow_again). South sows b1 (3) CCW: c1, d1, e1.
    #   2:  2  0  0  0  0  0        2:  2  0  0  0  0  0
    #   1:  0  3  0  0 4N  1   ->   1:  0  0  1  1 3N  1      S19 N19 -> S21 N19
    # c1 0 -> 1, d1 0 -> 1; the last seed: e1, North's tuz, 4 -> 5, n = 4. TUZ-8a: South
    # puts the last seed and one more from e1 in his store: e1 5 -> 3, South 19 -> 21. The
    # tuz stays North's, and South must sow again: c1, d1 or f1.
    after = sow(TUZ, at(TUZ, "2 0 0 0 0 0", "0 3 0 0 4N 1", stores=(19, 19)), "b1")
    assert board(TUZ, after) == diagram(TUZ, "2 0 0 0 0 0", "0 0 1 1 3N 1")
    assert after.stores == (21, 19)
    assert after.to_move is S and legal(TUZ, after) == ["c1", "d1", "f1"]


# -- GEN-39: the last mover when a Lahemay Walida round ends -------------------------------


def test_gen_39_the_seeds_left_go_to_the_last_mover_though_nobody_is_to_move():
    # Lahemay Walida (bonus_sowing), North to move.
    #   2:  3  1  0  2  0  0        2:  0  0  0  2  0  0        2:  0  1  1  0  0  0
    #   1:  0  0  0  0  0  0   ->   1:  0  0  0  0  0  0   ->   1:  0  0  0  0  0  0
    #       S20 N22                     S20 N26                     S20 N26
    # North sows b2 (1) CCW into a2: 3 -> 4 with the last seed (n = 3), so North takes the
    # 4 (LW-7a) and must sow again; he owns seeds only in d2. d2 (2): c2 0 -> 1, and the
    # last seed b2 0 -> 1 (n = 0): his turn ends (LW-7b). South owns no seeds, so the
    # round ends (LW-9). The last mover is North: the 2 seeds left (b2, c2) are his
    # (LW-11, GEN-39). Takings S20, N26 + 2 = 28; 20 = 5×4 and 28 = 7×4, so 5 and 7 holes.
    state = sow(LW, at(LW, "3 1 0 2 0 0", "0 0 0 0 0 0", stores=(20, 22), to_move="north"), "b2")
    assert state.to_move is N and state.stores == (20, 26)
    after = sow(LW, state, "d2")
    out = state_to_json(LW, after)
    assert board(LW, after) == diagram(LW, "0 1 1 0 0 0", "0 0 0 0 0 0")
    assert out["stores"] == {"south": 20, "north": 26}
    assert out["to_move"] is None and out["round_over"] is True and out["awaiting"] == "next_round"
    assert out["takings"] == {"south": 20, "north": 28}
    assert out["hole_counts"] == {"south": 5, "north": 7}


# -- GEN-41: Qelat's no-return details -----------------------------------------------------


def test_gen_41_the_ban_binds_only_the_opponents_next_turn():
    # Qelat (mazagebh_no_return = true). QEL-E4a's position.
    #   2:  0  0  3  2  2 20S       2:  1  0  3  2  2 20S       2:  1  0  3  0  3 21S
    #   1:  1  0  2  0  0 18N  ->   1:  0  0  2  0  0 18N  ->   1:  0  0  2  0  0 18N  -> ...
    # South sows a1 (1) CW into the empty a2 (QEL-11): North may not sow a2 and the ban is
    # shown. North sows d2 (2) CW instead: e2 2 -> 3, f2 (South's walda) 20 -> 21; 2 seeds,
    # so no new ban, and none is shown while South is to move. South sows c1 (2) CW: b1
    # 0 -> 1, a1 0 -> 1. North's next turn is not banned: a2 is legal again.
    #   2:  1  0  3  0  3 21S
    #   1:  1  1  0  0  0 18N
    banned = sow(QELAT, at(QELAT, "0 0 3 2 2 20S", "1 0 2 0 0 18N"), "a1")
    assert state_to_json(QELAT, banned)["no_return"] == "a2"
    assert legal(QELAT, banned) == ["c2", "d2", "e2"]
    answered = sow(QELAT, banned, "d2")
    assert answered.to_move is S and "no_return" not in state_to_json(QELAT, answered)
    after = sow(QELAT, answered, "c1")
    assert board(QELAT, after) == diagram(QELAT, "1 0 3 0 3 21S", "1 1 0 0 0 18N")
    assert "no_return" not in state_to_json(QELAT, after)
    assert after.to_move is N and legal(QELAT, after) == ["a2", "c2", "e2"]


def test_gen_41_a_pass_forced_by_the_ban_uses_it_up():
    # Qelat. QEL-E4c's position.
    #   2:  0  0  0  0  0 22S       2:  1  0  0  0  0 22S       2:  1  0  0  0  0 23S
    #   1:  1  0  2  3  0 20N  ->   1:  0  0  2  3  0 20N  ->   1:  0  0  2  0  1 21N
    # South sows a1 (1) CW into the empty a2: North's only seeds are in the banned a2, so
    # North passes (GEN-19.2) and South, who can sow c1 or d1, plays a new turn. The pass
    # used the ban up: nothing is banned or shown while South is to move. South sows d1
    # (3) CCW: e1 0 -> 1, f1 (North's walda) 20 -> 21, f2 (South's walda) 22 -> 23; no
    # new ban. North is then judged with no ban: a2 is his legal sowing.
    passed = sow(QELAT, at(QELAT, "0 0 0 0 0 22S", "1 0 2 3 0 20N"), "a1")
    assert passed.to_move is S and passed.no_return is None
    assert "no_return" not in state_to_json(QELAT, passed)
    assert legal(QELAT, passed) == ["c1", "d1"]
    after = sow(QELAT, passed, "d1")
    assert board(QELAT, after) == diagram(QELAT, "1 0 0 0 0 23S", "0 0 2 0 1 21N")
    assert after.to_move is N and legal(QELAT, after) == ["a2"]


def test_gen_41_a_full_circuit_makes_a_walda_in_its_own_origin():
    # Qelat. South sows f1 (48), a right-three hole, so CCW: f2 e2 d2 c2 b2 a2 a1 b1 c1 d1
    # e1 f1, four times round.
    #   2:  0  0  0  0  0  0        2:  4  4  4  4  4  4
    #   1:  0  0  0  0  0 48   ->   1:  4  4  4  4  4 4S
    # Every hole gets 4. f1, emptied by the lift, gets seeds 12, 24, 36 and 48: it held 3
    # before the last seed, which makes 4 in a hole eligible for South (his own end hole),
    # so f1 becomes South's walda though it is the origin (QEL-7 read literally).
    after = sow(QELAT, at(QELAT, "0 0 0 0 0 0", "0 0 0 0 0 48"), "f1")
    assert board(QELAT, after) == diagram(QELAT, "4 4 4 4 4 4", "4 4 4 4 4 4S")
    assert after.to_move is N and legal(QELAT, after) == ["a2", "b2", "c2", "d2", "e2", "f2"]


@settings(derandomize=True, max_examples=40, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32 - 1))
def test_gen_19_an_untraced_sowing_ends_the_turn_as_the_traced_one_in_every_game(variant, seed):
    # Untraced sowings (replay's) end most turns in one step (rules/base.py,
    # turn_simply_ended); traced ones go through the whole turn flow: passes, first turns,
    # sowing again, the ends of rounds. Both must give the same state after every sowing.
    rules, rng = rules_for(variant), random.Random(seed)
    state = rules.start(rng.choice(PLAYERS) if rules.has_first_player else None)
    for _ in range(400):
        if state.game_over:
            break
        if state.awaiting:
            state = apply_move(rules, state, random_decision(rules, state, rng))
            continue
        sown = sown_both_ways(rules, state, rng, [])
        if sown is None:
            break
        state = sown
