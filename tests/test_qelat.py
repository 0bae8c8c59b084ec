"""Qelat (rules/qelat.md): one test at least per rule, boards drawn as the spec draws them.

Diagrams show row 2 (North) on top, columns a..f left to right; ``4N`` is a North walda
holding 4. Expected values are worked out by hand from the rules, in the comments.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.boards import legal as board_legal
from support.boards import parse_rows, sown_both_ways
from support.boards import position as board_position
from support.boards import sow as board_sow

from recorder.core.events import GameCreated, Sowed
from recorder.core.game import replay
from recorder.core.playout import random_play
from recorder.errors import InvalidRecord
from recorder.rules import rules_for
from recorder.rules.board import Player
from recorder.rules.state import state_to_json

S, N = Player.SOUTH, Player.NORTH
QELAT = rules_for("qelat")


def position(row2: str, row1: str, to_move="south", rules=QELAT, **extra):
    """A state from a two-row diagram: six tokens a row, ``4N`` a North walda of 4."""
    holes, specials = parse_rows((("2", row2), ("1", row1)), "walda")
    return board_position(rules, holes, specials, (0, 0), to_move, owners=extra.pop("owners", {}), **extra)


def sow(state, hole, rules=QELAT):
    return board_sow(rules, state, hole)


def legal(state, rules=QELAT) -> list[str]:
    return board_legal(rules, state)


def row(state, number: int) -> list[int]:
    return [state.holes[QELAT.board.hole(f"{letter}{number}")] for letter in "abcdef"]


def walda(state, hole):
    owner = state.specials[QELAT.board.hole(hole)]
    return owner.json if owner is not None else None


def test_qel_1_two_rows_of_six_with_four_seeds_and_no_stores():
    state = QELAT.start(S)
    assert QELAT.board.name == "2x6"
    assert state.holes == (4,) * 12 and state.stores == (0, 0)
    assert QELAT.total_seeds == 48


def test_qel_2_ownership_is_by_row_all_game_and_there_are_no_rounds():
    # North makes a walda at f1 (QEL-E2); f1 is still a South hole, and there is no round 2.
    #   2:  6  1  7  7  1  2        2:  0  1  7  7  1  2
    #   1:  6  7  1  0  7  3   ->   1:  7  8  2  1  8 4N
    state = sow(position("6 1 7 7 1 2", "6 7 1 0 7 3", "north"), "a2")
    assert state.owners == QELAT.board.default_owners
    assert "next_round" not in QELAT.DECISIONS and not QELAT.is_match
    assert state.round == 1


def test_qel_3_the_first_player_is_recorded_at_setup():
    assert QELAT.start(N).to_move is N
    assert QELAT.start(S).to_move is S
    assert QELAT.has_first_player


def test_qel_4_a_player_sows_his_own_non_empty_non_walda_holes():
    #   2: 30S  3  0  2  2  0     North: b2 d2 e2 (a2 is a walda, c2 and f2 are empty)
    #   1:   1 2N  0  5  0  3     South: a1 d1 f1 (b1 is North's walda in South's row)
    state = position("30S 3 0 2 2 0", "1 2N 0 5 0 3")
    assert legal(state) == ["a1", "d1", "f1"]
    assert legal(state._replace(to_move=N)) == ["b2", "d2", "e2"]


@pytest.mark.parametrize(
    "hole, to_move, changed",
    [
        # South's left three go CW: c1 (4) -> b1 a1 a2 b2.
        ("c1", "south", {"c1": 0, "b1": 5, "a1": 5, "a2": 5, "b2": 5}),
        # South's right three go CCW: d1 (4) -> e1 f1 f2 e2.
        ("d1", "south", {"d1": 0, "e1": 5, "f1": 5, "f2": 5, "e2": 5}),
        # North's right three (a2 b2 c2) go CCW: c2 (4) -> b2 a2 a1 b1.
        ("c2", "north", {"c2": 0, "b2": 5, "a2": 5, "a1": 5, "b1": 5}),
        # North's left three (d2 e2 f2) go CW: d2 (4) -> e2 f2 f1 e1.
        ("d2", "north", {"d2": 0, "e2": 5, "f2": 5, "f1": 5, "e1": 5}),
    ],
)
def test_qel_5_the_hole_sown_sets_the_direction(hole, to_move, changed):
    state = sow(QELAT.start(Player.parse(to_move)), hole)
    for name in QELAT.board.holes:
        assert state.holes[QELAT.board.hole(name)] == changed.get(name, 4), name


def test_qel_5_vector_e1_directions_from_the_start():
    # QEL-E1: South f1 into f2 e2 d2 c2; North b2 into a2 a1 b1 c1.
    state = sow(sow(QELAT.start(S), "f1"), "b2")
    assert row(state, 2) == [5, 0, 5, 5, 5, 5]
    assert row(state, 1) == [5, 5, 5, 4, 4, 0]
    assert state.to_move is S


def test_qel_6_single_lap_never_relays():
    # South sows e1 (2) CCW into f1 and f2; f2 held 4, so a relaying game would go on.
    #   2:  4  4  4  4  4  4        2:  4  4  4  4  4  5
    #   1:  6  4  4  4  2  4   ->   1:  6  4  4  4  0  5
    state = position("4 4 4 4 4 4", "6 4 4 4 2 4")
    after = sow(state, "e1")
    assert row(after, 1) == [6, 4, 4, 4, 0, 5] and row(after, 2) == [4, 4, 4, 4, 4, 5]
    assert after.to_move is N


def test_qel_6_a_full_circuit_drops_a_seed_into_the_origin():
    # South sows d1 (13) CCW: e1 f1 f2 e2 d2 c2 b2 a2 a1 b1 c1 d1 e1 — 12 holes, then e1 again.
    #   2:  3  3  3  3  3  3        2:  4  4  4  4  4  4
    #   1:  5  3  3 13  3  3   ->   1:  6  4  4  1  5  4     no walda: e1 held 4 before its last seed
    state = position("3 3 3 3 3 3", "5 3 3 13 3 3")
    after = sow(state, "d1")
    assert row(after, 1) == [6, 4, 4, 1, 5, 4] and row(after, 2) == [4, 4, 4, 4, 4, 4]
    assert not any(after.specials)


def test_qel_7_a_last_seed_making_four_in_an_eligible_hole_makes_a_walda():
    # QEL-E2: North sows a2 (6) CCW into a1 … f1; f1 held 3 and is eligible for North.
    state = sow(position("6 1 7 7 1 2", "6 7 1 0 7 3", "north"), "a2")
    assert row(state, 1) == [7, 8, 2, 1, 8, 4] and walda(state, "f1") == "north"
    assert state.to_move is S


def test_qel_7_no_walda_in_an_ineligible_hole():
    # South sows f1 (3) CCW into f2 e2 d2; d2 held 3 and becomes 4, but d2 is never eligible.
    #   2:  4  4  4  3  4  4        2:  4  4  4  4  5  5
    #   1:  4  4  4  4  6  3   ->   1:  4  4  4  4  6  0
    state = sow(position("4 4 4 3 4 4", "4 4 4 4 6 3"), "f1")
    assert row(state, 2) == [4, 4, 4, 4, 5, 5]
    assert not any(state.specials)


def test_qel_7_an_existing_walda_is_not_made_again():
    # South sows e1 (1) into f1, North's walda holding 3: 3 -> 4, and it stays North's.
    #   2: 20S  0  0  0  0  0
    #   1:  24  0  0  0  1 3N
    state = sow(position("20S 0 0 0 0 0", "24 0 0 0 1 3N"), "e1")
    assert walda(state, "f1") == "north" and state.holes[QELAT.board.hole("f1")] == 4


def test_qel_8_eligible_holes_for_each_player():
    # South: b2 is eligible (North's outer two at that end). South sows a1 (2) CW: a2, b2.
    #   2:  4  3  4  4  4  5        2:  5 4S  4  4  4  5
    #   1:  2  4  4  4  4  6   ->   1:  0  4  4  4  4  6
    south = sow(position("4 3 4 4 4 5", "2 4 4 4 4 6"), "a1")
    assert walda(south, "b2") == "south"
    # North: a1 is eligible (a corner). North sows b2 (2) CCW: a2, a1; a1 held 3.
    #   2:  4  2  4  4  4  4        2:  5  0  4  4  4  4
    #   1:  3  5  4  4  4  6   ->   1: 4N  5  4  4  4  6
    north = sow(position("4 2 4 4 4 4", "3 5 4 4 4 6", "north"), "b2")
    assert walda(north, "a1") == "north"
    # North may not make one in c1: North sows a2 (3) CCW into a1 b1 c1; c1 held 3.
    blocked = sow(position("3 4 4 4 4 4", "4 4 3 4 4 6", "north"), "a2")
    assert walda(blocked, "c1") is None and blocked.holes[QELAT.board.hole("c1")] == 4


def test_qel_9_walda_seeds_stay_until_the_end_and_count_for_its_owner():
    # QEL-E3: North sows b2 through a2, South's walda, which keeps the seed; nobody may lift it.
    state = sow(position("6S 6 1 10 1 0", "2 5 0 4 3 10N", "north"), "b2")
    assert state.holes[QELAT.board.hole("a2")] == 7 and walda(state, "a2") == "south"
    assert "a2" not in legal(state._replace(to_move=N))


def test_qel_10_a_player_who_cannot_sow_passes_and_the_mover_sows_again():
    # North's only seeds are in his walda... North has none to sow after South's e1:
    #   2: 20S  0  0  0  0  0
    #   1:   0  0  2  0  1 25N    South sows e1 (1) into f1 (North's walda): North cannot sow,
    #                             so South, who can (c1), plays a new turn.
    state = sow(position("20S 0 0 0 0 0", "0 0 2 0 1 25N"), "e1")
    assert state.to_move is S and legal(state) == ["c1"]
    assert state.first_turn_of_round is False


def test_qel_11_no_return_after_a_lone_seed_across_the_end():
    # QEL-E4a: South sows a1 (1) CW into the empty a2: North may not sow a2 next turn.
    state = sow(position("0 0 3 2 2 20S", "1 0 2 0 0 18N"), "a1")
    assert legal(state) == ["c2", "d2", "e2"] and state.no_return == QELAT.board.hole("a2")
    assert state_to_json(QELAT, state)["no_return"] == "a2"


@pytest.mark.parametrize(
    "row2, row1, hole",
    [
        ("1 0 3 2 2 20S", "1 0 2 0 0 17N", "a1"),  # the opposite hole was not empty
        ("0 0 3 2 2 20S", "2 0 2 0 0 17N", "a1"),  # two seeds, not one
        ("0 0 3 2 2 20S", "0 1 2 0 0 18N", "b1"),  # b1 is not an end hole
    ],
)
def test_qel_11_only_a_lone_seed_into_an_empty_opposite_hole_qualifies(row2, row1, hole):
    state = sow(position(row2, row1), hole)
    assert state.no_return is None


def test_qel_11_the_option_off_allows_the_return():
    # QEL-E4b: with mazagebh_no_return = false, a2 is legal too.
    rules = rules_for("qelat", {"mazagebh_no_return": False})
    state = sow(position("0 0 3 2 2 20S", "1 0 2 0 0 18N", rules=rules), "a1", rules)
    assert legal(state, rules) == ["a2", "c2", "d2", "e2"]


def test_qel_12_a_pass_forced_by_the_ban_uses_it_up():
    # QEL-E4c: North's only seeds are in the banned a2, so North passes; South sows d1 and
    # the ban is over: North may now sow a2.
    state = sow(position("0 0 0 0 0 22S", "1 0 2 3 0 20N"), "a1")
    assert state.to_move is S and state.no_return is None
    state = sow(state, "d1")
    assert state.to_move is N and legal(state) == ["a2"]


def test_qel_12_the_ban_lasts_one_turn_only():
    # South sends a lone seed to a2; North sows c2 instead; after South's reply a2 is free.
    state = sow(position("0 0 3 2 2 20S", "1 0 2 0 0 18N"), "a1")
    state = sow(state, "c2")  # c2 (3) CCW: b2, a2, a1
    state = sow(state, "c1")  # c1 (2) CW: b1, a1
    assert "a2" in legal(state)


def test_qel_13_the_game_ends_when_neither_player_can_sow_and_waldas_are_counted():
    # QEL-E5: South sows e1 into f1 (North's walda): 25–23, South wins.
    state = sow(position("25S 0 0 0 0 0", "0 0 0 0 1 22N"), "e1")
    assert state.game_over and state.score == (25, 23) and state.outcome.name == "south_wins"
    assert state.to_move is None and legal(state) == []


def test_qel_13_equal_scores_are_a_draw():
    state = sow(position("24S 0 0 0 0 0", "0 0 0 0 1 23N"), "e1")
    assert state.score == (24, 24) and state.outcome.name == "draw"


def test_qel_13_a_banned_last_seed_ends_the_game_and_counts_for_nobody():
    # QEL-A5: South's lone seed goes from a1 to a2; North can sow only a2 (banned) and South
    # has nothing left: the game ends 20–27 with the banned seed counted for nobody.
    state = sow(position("0 0 0 0 0 20S", "1 0 0 0 0 27N"), "a1")
    assert state.game_over and state.score == (20, 27) and state.outcome.name == "north_wins"


def test_qel_6_full_game_e6_replays_through_the_fold():
    # QEL-E6: the 20-move game from the start, North first, replayed as stored events.
    moves = "b2 f1 f2 c1 e2 d1 a2 b1 e2 e1 c2 c1 e2 a1 f2 c1 b2 b1 c2 a1".split()
    setup = GameCreated("qelat", {"mazagebh_no_return": True}, "S", "N", first_player="north")
    players = ["north", "south"] * 10
    events = [(1, setup)] + [(i + 2, Sowed(m, p)) for i, (m, p) in enumerate(zip(moves, players))]
    state = replay("g", events).state
    assert row(state, 2) == [10, 3, 1, 12, 2, 0] and row(state, 1) == [0, 0, 1, 5, 4, 10]
    assert {walda(state, h) for h in ("a2", "e1", "f1")} == {"south", "north"}
    assert state.to_move is N


def test_gen_42_a_qelat_position_with_owners_or_stores_is_refused():
    with pytest.raises(InvalidRecord):
        position("4 4 4 4 4 4", "4 4 4 4 4 4", owners={"a1": "north"})


@settings(derandomize=True, max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), no_return=st.booleans())
def test_qel_13_random_games_conserve_seeds_and_replay_equals_live(seed, no_return):
    rules = rules_for("qelat", {"mazagebh_no_return": no_return})
    rng = random.Random(seed)
    first = rng.choice(["south", "north"])
    setup = GameCreated("qelat", dict(rules.options), "S", "N", first_player=first)
    state = start = rules.start(Player.parse(first))
    events: list = [(1, setup)]
    for ply, (event, state) in enumerate(random_play(rules, start, rng, max_moves=400)):
        events.append((ply + 2, event))
        assert state.seeds == 48 and state.stores == (0, 0)
        assert state.owners == rules.board.default_owners
    assert replay("g", events).state == state
    if state.game_over:
        assert sum(state.score) + sum(h for h, o in zip(state.holes, state.specials) if o is None) == 48


@settings(derandomize=True, max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), no_return=st.booleans())
def test_qel_10_the_untraced_route_equals_the_traced_one(seed, no_return):
    # Replay's untraced sowings end most turns in one step (rules/base.py, turn_simply_ended);
    # traced ones go through the whole turn flow. Both must give the same state after every sowing.
    rules = rules_for("qelat", {"mazagebh_no_return": no_return})
    rng = random.Random(seed)
    state = rules.start(rng.choice([S, N]))
    for _ in range(300):
        trace: list = []
        sown = sown_both_ways(rules, state, rng, trace)
        if sown is None:
            break
        assert trace[0]["step"] == "lifted"
        state = sown
