"""The state at the end of a game, field by field, in every variant.

GEN-32 says what a recorded ``result`` changes: ``to_move`` becomes null, ``awaiting``
and ``no_return`` disappear, ``game_over`` and ``result`` appear, there is no ``score``;
everything else (the board, the stores, ``round_over``/``takings``/``hole_counts``,
``first_turn_pending``, ``first_turn_of_round`` by GEN-34) stays as it was. GEN-33 says
what a match decided on the board shows. The single-round games (Selus ``single``,
Gabata, Qelat) end on the board with ``score`` (SEL-14, GAB-8, QEL-13).
"""

from __future__ import annotations

import pytest
from support.boards import lot_awaited
from support.playouts import random_record

from recorder.core.commands import decide, decide_create
from recorder.core.game import FoldedGame, apply_event, start_game
from recorder.rules import VARIANTS
from recorder.rules.state import state_to_json

RESIGN = {"type": "result", "kind": "resignation", "winner": "north"}
BOARD = ("holes", "specials", "owners", "stores")


def _apply(game: FoldedGame, command: dict) -> FoldedGame:
    for event in decide(game, command):
        game = apply_event(game, event, game.version + 1)
    return game


def _game(variant: str, commands=(), *, options=None, position=None, first="south") -> FoldedGame:
    body = {"variant": variant, "south": "Abeba", "north": "Berhane", "options": options or {}}
    if position is not None:
        body["position"] = position
    elif variant != "gabata":
        body["first_player"] = first
    game = start_game("g", decide_create(body))
    for command in commands:
        game = _apply(game, command)
    return game


def _view(game: FoldedGame) -> dict:
    return state_to_json(game.rules, game.state)


def _before_and_after_result(game: FoldedGame) -> tuple[dict, dict]:
    return _view(game), _view(_apply(game, RESIGN))


def _mid_game(variant: str, seed: int) -> FoldedGame:
    """A game some way in, no decision awaited (seeded random legal play)."""
    for attempt in range(50):
        record = random_record(variant, seed * 100 + attempt, max_events=12)
        state = record.game.state
        if not state.game_over and state.awaiting is None:
            return record.game
    raise AssertionError(f"no mid-game {variant} position")


def _holes(board: str = "2x6", **seeds: int) -> dict:
    names = [f"{c}{r}" for r in range(1, 4 if board == "3x6" else 3) for c in "abcdef"]
    return {name: seeds.get(name, 0) for name in names}


# -- GEN-32: after a result -----------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seed", range(3))
def test_gen_32_board_and_stores_stay_after_a_result(variant, seed):
    before, after = _before_and_after_result(_mid_game(variant, seed))
    assert {k: after[k] for k in BOARD} == {k: before[k] for k in BOARD}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_gen_32_to_move_becomes_null_after_a_result(variant):
    before, after = _before_and_after_result(_mid_game(variant, 0))
    assert before["to_move"] is not None and after["to_move"] is None and after["legal_moves"] == []


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_gen_32_game_over_and_result_are_set_and_there_is_no_score(variant):
    before, after = _before_and_after_result(_mid_game(variant, 1))
    assert "game_over" not in before and "result" not in before
    assert after["game_over"] is True and after["result"] == "north_wins" and after["result_reason"] == "resignation"
    assert "score" not in after


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_gen_34_first_turn_of_round_survives_a_result(variant):
    race = {"type": "race", "winner": "south", "holes": {n: 3 for n in _holes("3x6")}}
    game = _game(variant, [race] if variant == "gabata" else [])
    before, after = _before_and_after_result(game)
    assert before["first_turn_of_round"] is True and after["first_turn_of_round"] is True
    later_before, later_after = _before_and_after_result(_mid_game(variant, 2))
    assert later_after["first_turn_of_round"] == later_before["first_turn_of_round"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_gen_32_round_and_round_table_survive_a_result(variant):
    before, after = _before_and_after_result(_mid_game(variant, 0))
    assert after["round"] == before["round"] and after["rounds"] == before["rounds"]


@pytest.mark.parametrize(
    ("variant", "awaiting"), [("gabata", "race"), ("tuz", "opening"), ("lahemay_walida", "lot"), ("tuz", "lot")]
)
def test_gen_32_awaiting_disappears_after_a_result(variant, awaiting):
    if awaiting == "lot":  # takings 26 and 22: remainders 2 and 2 (LW-12, TUZ-12)
        position = lot_awaited(26, 22)
        game = _game(variant, position=position)
    else:
        game = _game(variant)
    before, after = _before_and_after_result(game)
    assert before["awaiting"] == awaiting and "awaiting" not in after and after["to_move"] is None


def test_gen_32_no_return_disappears_after_a_result():
    # QEL-11: North sowed a2 (1) into a1, the empty hole opposite: a1 is banned for South.
    position = {
        "holes": _holes(a1=1, b1=5, a2=0, c2=5, d2=37),
        "specials": {},
        "stores": {"south": 0, "north": 0},
        "to_move": "south",
        "first_turn_of_round": False,
        "no_return": "a1",
    }
    before, after = _before_and_after_result(_game("qelat", position=position))
    assert before["no_return"] == "a1" and "no_return" not in after


def test_gen_32_first_turn_pending_survives_a_result():
    # The reported case: South sows b1 in his first turn; North resigns before his own.
    game = _game("selus", [{"type": "sow", "hole": "b1"}], options={"wegue_block": "first_turn_each_player"})
    before, after = _before_and_after_result(game)
    assert before["first_turn_pending"] == ["north"] and after["first_turn_pending"] == ["north"]


def test_gen_32_first_turn_pending_survives_a_result_before_any_turn():
    before, after = _before_and_after_result(_game("selus", options={"wegue_block": "first_turn_each_player"}))
    assert after["first_turn_pending"] == ["south", "north"] == before["first_turn_pending"]


@pytest.mark.parametrize("awaiting", ["lot", "next_round"])
@pytest.mark.parametrize("variant", ["lahemay_walida", "tuz"])
def test_gen_32_round_over_takings_and_hole_counts_survive_a_result(variant, awaiting):
    takings = {"south": 26, "north": 22} if awaiting == "lot" else {"south": 29, "north": 19}
    position = {
        "holes": _holes(),
        "stores": takings,
        "to_move": None,
        "first_turn_of_round": False,
        "awaiting": awaiting,
        "round_over": True,
        "takings": takings,
    }
    before, after = _before_and_after_result(_game(variant, position=position))
    for field in ("round_over", "takings", "hole_counts"):
        assert after.get(field) == before.get(field)
    assert ("hole_counts" in after) == (awaiting == "next_round")  # unknown until the lot
    assert "score" not in after


def test_gen_32_selus_round_over_fields_survive_a_result():
    # SEL-E6a: the round has ended, next_round is awaited.
    game = _game("selus", [{"type": "sow", "hole": "f1"}], position=SEL_E6A)
    before, after = _before_and_after_result(game)
    assert before["awaiting"] == "next_round" and "awaiting" not in after
    for field in ("round_over", "takings", "hole_counts"):
        assert after[field] == before[field]


SEL_E6A = {
    "holes": {**_holes("3x6"), "e1": 9, "f1": 1, "c2": 5, "f2": 3, "b3": 6},
    "specials": {
        "e1": {"kind": "wegue", "owner": "south"},
        "c2": {"kind": "wegue", "owner": "north"},
        "f2": {"kind": "wegue", "owner": "north"},
        "b3": {"kind": "wegue", "owner": "south"},
    },
    "stores": {"south": 14, "north": 16},
    "to_move": "south",
    "first_turn_of_round": False,
}

# -- GEN-33 and the games' own end rules: the end decided on the board ----------------


def _selus_last_sowing(match: str) -> dict:
    """South's f1 lands in North's empty wegue f2 (SEL-9c: he takes the seed); then every
    non-wegue hole is empty, so the round ends (SEL-12). North has not sown yet."""
    return {
        "holes": {**_holes("3x6"), "f1": 1},
        "specials": {"f2": {"kind": "wegue", "owner": "north"}},
        "stores": {"south": 52, "north": 1} if match == "rounds" else {"south": 26, "north": 27},
        "to_move": "south",
        "first_turn_of_round": True,
        "first_turn_pending": ["south", "north"],
    }


def test_gen_33_first_turn_pending_survives_a_single_selus_game_ended_on_the_board():
    options = {"match": "single", "wegue_block": "first_turn_each_player"}
    game = _game("selus", [{"type": "sow", "hole": "f1"}], options=options, position=_selus_last_sowing("single"))
    after = _view(game)
    # SEL-14: 27 and 27, a draw; North's first turn never came.
    assert after["game_over"] is True and after["result"] == "draw" and after["score"] == {"south": 27, "north": 27}
    assert after["first_turn_pending"] == ["north"]
    assert not {"round_over", "takings", "hole_counts", "awaiting"} & set(after)


def test_gen_33_selus_match_ended_on_the_board():
    options = {"wegue_block": "first_turn_each_player"}
    game = _game("selus", [{"type": "sow", "hole": "f1"}], options=options, position=_selus_last_sowing("rounds"))
    after = _view(game)
    # SEL-15, SEL-16: takings 53 and 1 give 18 holes and 0: South wins the match.
    assert after["round_over"] is True and after["takings"] == {"south": 53, "north": 1}
    assert after["hole_counts"] == {"south": 18, "north": 0}
    assert after["game_over"] is True and after["result"] == "south_wins"
    assert "awaiting" not in after and "score" not in after and after["to_move"] is None
    assert after["first_turn_pending"] == ["north"]


def test_gen_33_lahemay_walida_match_ended_on_the_board():
    # South sows a1 into the empty b1; North owns no seeds, so the round ends (LW-9) and
    # the seed left goes to South (LW-11): takings 47 and 1, holes 12 and 0 (LW-13).
    position = {
        "holes": _holes(a1=1),
        "stores": {"south": 46, "north": 1},
        "to_move": "south",
        "first_turn_of_round": False,
    }
    after = _view(_game("lahemay_walida", [{"type": "sow", "hole": "a1"}], position=position))
    assert after["round_over"] is True and after["takings"] == {"south": 47, "north": 1}
    assert after["hole_counts"] == {"south": 12, "north": 0}
    assert after["game_over"] is True and after["result"] == "south_wins"
    assert "awaiting" not in after and "score" not in after and "first_turn_pending" not in after


def test_gen_33_tuz_match_ended_on_the_board():
    # TUZ-E6: South sows f1 into his tuz f2; takings 47 and 1.
    position = {
        "holes": _holes(f1=1, f2=46),
        "specials": {"f2": {"kind": "tuz", "owner": "south"}},
        "stores": {"south": 0, "north": 1},
        "to_move": "south",
        "first_turn_of_round": False,
    }
    after = _view(_game("tuz", [{"type": "sow", "hole": "f1"}], position=position))
    assert after["round_over"] is True and after["takings"] == {"south": 47, "north": 1}
    assert after["hole_counts"] == {"south": 12, "north": 0}
    assert after["game_over"] is True and after["result"] == "south_wins"
    assert "awaiting" not in after and "score" not in after


@pytest.mark.parametrize("variant", ["lahemay_walida", "tuz"])
def test_gen_33_match_ended_by_a_lot(variant):
    # LW-13: T = 2 and the lot lost: takings 46 and 2, the lot to South: 12 holes and 0.
    position = lot_awaited(46, 2)
    after = _view(_game(variant, [{"type": "lot", "winner": "south"}], position=position))
    assert after["round_over"] is True and after["takings"] == {"south": 46, "north": 2}
    assert after["hole_counts"] == {"south": 12, "north": 0}
    assert after["game_over"] is True and after["result"] == "south_wins"
    assert "awaiting" not in after and "score" not in after


@pytest.mark.parametrize("variant", ["gabata", "qelat"])
def test_single_round_games_end_on_the_board_with_a_score_and_no_round_fields(variant):
    for seed in range(40):
        game = random_record(variant, seed, max_events=400).game
        if game.state.game_over and game.state.outcome.reason == "score":
            after = _view(game)
            assert after["to_move"] is None and isinstance(after["score"], dict)
            assert not {"round_over", "takings", "hole_counts", "awaiting", "no_return"} & set(after)
            return
    raise AssertionError(f"no {variant} game ended on the board")
