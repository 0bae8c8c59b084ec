"""GEN-1..GEN-4, GEN-6, GEN-9, GEN-10 (shared/rules/README.md §1-§3): variants, players,
hole names, default ownership and the tracks, pinned against the engine's board objects.

Every expected value below is written out by hand from the spec's text, never taken from
the engine. Diagrams are drawn as the spec draws them: the top row is North's, columns
a..f from South's left to South's right.
"""

import pytest

from recorder.errors import InvalidRecord
from recorder.rules import VARIANTS, rules_for
from recorder.rules.board import PLAYERS, THREE_ROWS, TWO_ROWS, Board, Player, lap
from recorder.rules.lahemay_walida import LahemayWalida
from recorder.rules.tuz import Tuz

S, N = Player.SOUTH, Player.NORTH


def names(board: Board, holes) -> list[str]:
    return [board.name_of(i) for i in holes]


def walk(board: Board, direction: str) -> list[str]:
    """The holes met following ``direction`` from a1 until the track is back at a1."""
    successors = board.successors[direction]
    hole, seen = board.hole("a1"), list[str]()
    while True:
        seen.append(board.name_of(hole))
        hole = successors[hole]
        if hole == board.hole("a1") or len(seen) > board.size:
            return seen


def owners(board: Board) -> dict[str, str]:
    return {board.name_of(i): owner.json for i, owner in enumerate(board.default_owners)}


# -- GEN-1 Variants ------------------------------------------------------------------------


def test_gen_1_there_are_exactly_five_variant_ids():
    assert sorted(VARIANTS) == ["gabata", "lahemay_walida", "qelat", "selus", "tuz"]
    for variant in VARIANTS:
        assert rules_for(variant).name == variant


def test_gen_1_no_other_variant_id_is_known():
    for other in ("Selus", "lahemay-walida", "walida", "mancala"):
        with pytest.raises(InvalidRecord):
            rules_for(other)


@pytest.mark.parametrize(
    "variant, board, rows, size",
    [
        ("selus", "3x6", 3, 18),
        ("gabata", "3x6", 3, 18),
        ("qelat", "2x6", 2, 12),
        ("lahemay_walida", "2x6", 2, 12),
        ("tuz", "2x6", 2, 12),
    ],
)
def test_gen_1_selus_and_gabata_use_the_3x6_board_the_others_the_2x6(variant, board, rows, size):
    rules = rules_for(variant)
    assert (rules.board.name, rules.board.rows, rules.board.size) == (board, rows, size)
    assert rules.board is (THREE_ROWS if rows == 3 else TWO_ROWS)


# -- GEN-2 Players ---------------------------------------------------------------------------


def test_gen_2_the_two_players_are_south_and_north():
    assert [player.json for player in PLAYERS] == ["south", "north"]
    assert Player.parse("south") is S and Player.parse("north") is N
    assert S.opponent is N and N.opponent is S


@pytest.mark.parametrize("board", [THREE_ROWS, TWO_ROWS], ids=["3x6", "2x6"])
def test_gen_2_south_sits_at_row_1(board):
    #   3x6: row 1 is South's back row (GEN-3); 2x6: row 1 is South's row (GEN-4).
    assert {owners(board)[f"{letter}1"] for letter in "abcdef"} == {"south"}


# -- GEN-3 The 3x6 board -----------------------------------------------------------------


def test_gen_3_the_3x6_board_has_columns_a_to_f_and_rows_1_to_3():
    #          a  b  c  d  e  f
    #   row 3  a3 b3 c3 d3 e3 f3
    #   row 2  a2 b2 c2 d2 e2 f2
    #   row 1  a1 b1 c1 d1 e1 f1
    expected = {
        "a1", "b1", "c1", "d1", "e1", "f1",
        "a2", "b2", "c2", "d2", "e2", "f2",
        "a3", "b3", "c3", "d3", "e3", "f3",
    }  # fmt: skip
    assert THREE_ROWS.rows == 3 and THREE_ROWS.size == 18
    assert set(THREE_ROWS.holes) == expected


def test_gen_3_row_1_is_souths_back_row_row_3_norths_and_row_2_the_middle():
    row = {number: {owners(THREE_ROWS)[f"{letter}{number}"] for letter in "abcdef"} for number in (1, 2, 3)}
    assert row[1] == {"south"}  # South's back row
    assert row[3] == {"north"}  # North's back row
    assert row[2] == {"south", "north"}  # the middle row, shared (GEN-6)


def test_gen_3_a_column_is_one_letter_through_rows_1_2_3():
    assert names(THREE_ROWS, THREE_ROWS.column(THREE_ROWS.hole("c2"))) == ["c1", "c2", "c3"]
    assert names(THREE_ROWS, THREE_ROWS.column(THREE_ROWS.hole("f3"))) == ["f1", "f2", "f3"]


# -- GEN-4 The 2x6 board -----------------------------------------------------------------


def test_gen_4_the_2x6_board_has_columns_a_to_f_and_rows_1_and_2():
    #          a  b  c  d  e  f
    #   row 2  a2 b2 c2 d2 e2 f2    North's row
    #   row 1  a1 b1 c1 d1 e1 f1    South's row
    expected = {"a1", "b1", "c1", "d1", "e1", "f1", "a2", "b2", "c2", "d2", "e2", "f2"}
    assert TWO_ROWS.rows == 2 and TWO_ROWS.size == 12
    assert set(TWO_ROWS.holes) == expected


def test_gen_4_row_1_is_souths_row_and_row_2_norths():
    assert {owners(TWO_ROWS)[f"{letter}1"] for letter in "abcdef"} == {"south"}
    assert {owners(TWO_ROWS)[f"{letter}2"] for letter in "abcdef"} == {"north"}


@pytest.mark.parametrize("rules", [LahemayWalida, Tuz], ids=["lahemay_walida", "tuz"])
def test_gen_4_south_runs_a1_to_f1_and_north_f2_to_a2_from_left_to_right(rules):
    # Each player's row from his leftmost hole to his rightmost, as he sees it:
    #   North (facing South):  leftmost f2 ... rightmost a2
    #   South:                 leftmost a1 ... rightmost f1
    # The match rules cede a poorer player's holes leftmost first (LW-14, TUZ-14), so their
    # cede order is exactly this left-to-right order.
    assert names(TWO_ROWS, rules.CEDE_ORDER[S]) == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert names(TWO_ROWS, rules.CEDE_ORDER[N]) == ["f2", "e2", "d2", "c2", "b2", "a2"]


@pytest.mark.parametrize("letter", "abcdef")
def test_gen_4_holes_x1_and_x2_are_directly_opposite(letter):
    opposite = [f"{letter}1", f"{letter}2"]
    assert names(TWO_ROWS, TWO_ROWS.column(TWO_ROWS.hole(f"{letter}1"))) == opposite
    assert names(TWO_ROWS, TWO_ROWS.column(TWO_ROWS.hole(f"{letter}2"))) == opposite


def test_gen_4_the_tracks_cross_the_board_only_to_the_directly_opposite_hole():
    # GEN-10's cycles go from one row to the other at the ends only: f1->f2 and a2->a1
    # anticlockwise, a1->a2 and f2->f1 clockwise (TUZ-4: R+1 is directly opposite R).
    crossings = {
        direction: sorted(
            (TWO_ROWS.name_of(hole), TWO_ROWS.name_of(after))
            for hole, after in enumerate(TWO_ROWS.successors[direction])
            if TWO_ROWS.name_of(hole)[1] != TWO_ROWS.name_of(after)[1]
        )
        for direction in ("ccw", "cw")
    }
    assert crossings == {"ccw": [("a2", "a1"), ("f1", "f2")], "cw": [("a1", "a2"), ("f2", "f1")]}


# -- GEN-6 Default ownership ---------------------------------------------------------------


@pytest.mark.parametrize("variant", ["selus", "gabata"])
def test_gen_6_3x6_default_owners_hole_by_hole(variant):
    #          a  b  c  d  e  f
    #   row 3  N  N  N  N  N  N
    #   row 2  N  N  N  S  S  S
    #   row 1  S  S  S  S  S  S
    south, north = "south", "north"
    expected = {
        "a1": south, "b1": south, "c1": south, "d1": south, "e1": south, "f1": south,
        "a2": north, "b2": north, "c2": north, "d2": south, "e2": south, "f2": south,
        "a3": north, "b3": north, "c3": north, "d3": north, "e3": north, "f3": north,
    }  # fmt: skip
    assert owners(rules_for(variant).board) == expected


def test_gen_6_each_player_owns_his_back_row_and_the_middle_half_on_his_own_right():
    # South's right is f (GEN-3: "his right is f1"), North's right is a ("his right is a3").
    board = owners(THREE_ROWS)
    south = {hole for hole, owner in board.items() if owner == "south"}
    north = {hole for hole, owner in board.items() if owner == "north"}
    assert south == {"a1", "b1", "c1", "d1", "e1", "f1", "d2", "e2", "f2"}
    assert north == {"a3", "b3", "c3", "d3", "e3", "f3", "a2", "b2", "c2"}


@pytest.mark.parametrize("variant", ["qelat", "lahemay_walida", "tuz"])
def test_gen_6_2x6_default_owners_hole_by_hole(variant):
    #          a  b  c  d  e  f
    #   row 2  N  N  N  N  N  N
    #   row 1  S  S  S  S  S  S
    south, north = "south", "north"
    expected = {
        "a1": south, "b1": south, "c1": south, "d1": south, "e1": south, "f1": south,
        "a2": north, "b2": north, "c2": north, "d2": north, "e2": north, "f2": north,
    }  # fmt: skip
    assert owners(rules_for(variant).board) == expected


@pytest.mark.parametrize("board", [THREE_ROWS, TWO_ROWS], ids=["3x6", "2x6"])
def test_gen_6_every_hole_has_exactly_one_owner(board):
    assert len(board.default_owners) == board.size
    assert all(owner in PLAYERS for owner in board.default_owners)


# -- GEN-9 The 3x6 track -------------------------------------------------------------------


def test_gen_9_the_3x6_track_runs_a1_to_c2_and_back_to_a1():
    # The place of each hole on the one track, from a1:
    #          a   b   c   d   e   f
    #   row 3 15  14  13  12  11  10
    #   row 2 16  17  18   9   8   7
    #   row 1  1   2   3   4   5   6
    track = "a1 b1 c1 d1 e1 f1 f2 e2 d2 f3 e3 d3 c3 b3 a3 a2 b2 c2".split()
    assert walk(THREE_ROWS, "track") == track
    assert names(THREE_ROWS, THREE_ROWS.tracks["track"]) == track


def test_gen_9_there_is_one_track_in_one_direction_for_both_players():
    assert list(THREE_ROWS.tracks) == ["track"]
    assert list(THREE_ROWS.successors) == ["track"]


def test_gen_9_the_hole_after_d2_is_f3_and_the_hole_after_c2_is_a1():
    after = THREE_ROWS.successors["track"]
    assert THREE_ROWS.name_of(after[THREE_ROWS.hole("d2")]) == "f3"
    assert THREE_ROWS.name_of(after[THREE_ROWS.hole("c2")]) == "a1"


def test_gen_9_a_one_seed_lap_from_d2_ends_in_f3_and_from_c2_in_a1():
    # An empty board; one seed sown from d2, then one from c2.
    holes, track = [0] * 18, THREE_ROWS.successors["track"]
    last, _ = lap(holes, track, THREE_ROWS.hole("d2"), 1)
    assert THREE_ROWS.name_of(last) == "f3"
    last, _ = lap(holes, track, THREE_ROWS.hole("c2"), 1)
    assert THREE_ROWS.name_of(last) == "a1"
    assert holes == [1 if name in ("f3", "a1") else 0 for name in THREE_ROWS.holes]


# -- GEN-10 The 2x6 cycles -------------------------------------------------------------------


def test_gen_10_the_2x6_board_has_two_cycles_ccw_and_cw():
    assert sorted(TWO_ROWS.tracks) == ["ccw", "cw"]


def test_gen_10_anticlockwise_runs_a1_to_f1_then_f2_to_a2():
    # The place of each hole on the CCW cycle, from a1:
    #          a   b   c   d   e   f
    #   row 2 12  11  10   9   8   7
    #   row 1  1   2   3   4   5   6
    ccw = "a1 b1 c1 d1 e1 f1 f2 e2 d2 c2 b2 a2".split()
    assert walk(TWO_ROWS, "ccw") == ccw
    assert names(TWO_ROWS, TWO_ROWS.tracks["ccw"]) == ccw


def test_gen_10_clockwise_runs_a1_a2_to_f2_then_f1_to_b1():
    # The place of each hole on the CW cycle, from a1:
    #          a   b   c   d   e   f
    #   row 2  2   3   4   5   6   7
    #   row 1  1  12  11  10   9   8
    cw = "a1 a2 b2 c2 d2 e2 f2 f1 e1 d1 c1 b1".split()
    assert walk(TWO_ROWS, "cw") == cw
    assert names(TWO_ROWS, TWO_ROWS.tracks["cw"]) == cw


def test_gen_10_clockwise_is_the_reverse_of_anticlockwise():
    ccw, cw = TWO_ROWS.successors["ccw"], TWO_ROWS.successors["cw"]
    for hole in range(TWO_ROWS.size):
        assert cw[ccw[hole]] == hole and ccw[cw[hole]] == hole
    # a1 b1 ... a2 read backwards from a1 is a1 a2 b2 ... b1.
    assert walk(TWO_ROWS, "cw") == ["a1", *reversed(walk(TWO_ROWS, "ccw")[1:])]
