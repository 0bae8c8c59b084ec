"""Corrections without erasure: retract, annotate, results with a note (GEN-28)."""

import random

import pytest
from support.playouts import random_game

from recorder.core.commands import decide
from recorder.core.events import MovesRetracted
from recorder.core.game import apply_event
from recorder.core.redecide import command_for
from recorder.errors import IllegalMove
from recorder.rules import VARIANTS

SEL_E6A = {
    "holes": {
        "a1": 0,
        "b1": 0,
        "c1": 0,
        "d1": 0,
        "e1": 9,
        "f1": 1,
        "a2": 0,
        "b2": 0,
        "c2": 5,
        "d2": 0,
        "e2": 0,
        "f2": 3,
        "a3": 0,
        "b3": 6,
        "c3": 0,
        "d3": 0,
        "e3": 0,
        "f3": 0,
    },
    "specials": {
        "e1": {"kind": "wegue", "owner": "south"},
        "c2": {"kind": "wegue", "owner": "north"},
        "f2": {"kind": "wegue", "owner": "north"},
        "b3": {"kind": "wegue", "owner": "south"},
    },
    "owners": {},
    "stores": {"south": 14, "north": 16},
    "to_move": "south",
    "first_turn_of_round": False,
}


def without_version(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "version"}


def test_retract_then_rerecord_equals_recording_correctly(api):
    right = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(right, type="sow", hole="f1")
    api.command(right, type="sow", hole="a2")
    wrong = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(wrong, type="sow", hole="e1")  # the arbiter typed e1 for f1
    api.command(wrong, type="retract", count=1, reason="mistyped: South sowed f1")
    api.command(wrong, type="sow", hole="f1")
    api.command(wrong, type="sow", hole="a2")
    assert without_version(api.state(wrong)) == without_version(api.state(right))
    assert api.state(wrong)["version"] == 5 and api.state(right)["version"] == 3


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_mistyped_move_retracted_and_rerecorded_gives_the_same_game(variant):
    """Random games: slip a wrong legal sowing in, retract it, re-record the rest: same position."""
    rng = random.Random(7)
    played = list(random_game(variant, 11, max_events=120))
    final = played[-1][2]
    for _ in range(5):
        index = rng.randrange(1, len(played))
        before, event, _after = played[index]
        if before.state.awaiting or event.type != "sowed":
            continue
        others = [before.rules.board.holes[i] for i in before.rules.legal_moves(before.state)]
        game = _record(before, decide(before, {"type": "sow", "hole": rng.choice(others)}))
        game = _record(game, decide(game, {"type": "retract", "count": 1, "reason": "slip"}))
        for _, stored, _ in played[index:]:
            game = _record(game, decide(game, command_for(stored)))
        assert game.state == final.state


def _record(game, events):
    for event in events:
        game = apply_event(game, event, game.version + 1)
    return game


@pytest.mark.parametrize("count", [3, 99])
def test_retracting_more_than_the_effective_moves_is_refused_and_stores_nothing(api, count):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    api.command(game, type="sow", hole="a2")
    problem = api.command(game, expect=422, type="retract", count=count, reason="too many")
    assert problem["title"] == "Illegal move" and problem["moves"] == 2
    assert len(api.events(game)) == 3


def test_retracting_zero_moves_or_without_reason_is_an_invalid_body(api):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    assert "count" in api.command(game, expect=422, type="retract", count=0, reason="none")["errors"]
    assert "reason" in api.command(game, expect=422, type="retract", count=1)["errors"]
    assert api.command(game, expect=422, type="retract", count=1, reason="   ")["title"] == "Invalid record"
    assert len(api.events(game)) == 2


def test_a_retracted_move_cannot_be_retracted_twice(api):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    api.command(game, type="retract", count=1, reason="wrong hole")
    api.command(game, expect=422, type="retract", count=1, reason="again")  # no effective move is left


def test_gen_27_retracting_across_a_round_boundary(api):
    # SEL-E6a: South's f1 ends the round (takings 31/23, counts 10/8); next_round, then a North sowing.
    game = api.create(variant="selus", south="A", north="B", position=SEL_E6A)["id"]
    api.command(game, type="sow", hole="f1")
    api.command(game, type="next_round", first_player="north")
    api.command(game, type="sow", hole="c2")
    round_over = api.state(game, at=2)
    api.command(game, type="retract", count=2, reason="the next round was opened too early")
    assert without_version(api.state(game)) == without_version(round_over)
    assert api.state(game)["awaiting"] == "next_round" and api.state(game)["round"] == 1
    api.command(game, type="retract", count=1, reason="f1 was not played either")
    assert without_version(api.state(game)) == without_version(api.state(game, at=1))
    api.command(game, type="sow", hole="f1")
    api.command(game, type="next_round", first_player="north")
    assert without_version(api.state(game)) == without_version(api.state(game, at=3))


def test_event_list_shows_what_each_retraction_withdrew_and_why(api):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    for hole in ("f1", "a2", "e1"):
        api.command(game, type="sow", hole=hole)
    api.command(game, type="retract", count=2, reason="a2 and e1 were recorded on the wrong board")
    api.command(game, type="retract", count=1, reason="f1 too")
    events = {e["seq"]: e for e in api.events(game)}
    assert [events[s].get("retracted_by_seq") for s in (1, 2, 3, 4)] == [None, 6, 5, 5]
    assert events[5]["retracts"] == [3, 4] and events[6]["retracts"] == [2]
    assert events[5]["payload"]["reason"] == "a2 and e1 were recorded on the wrong board"
    assert "recorded_by" in events[5]
    assert "retracts" not in events[2] and "retracted_by_seq" not in events[5]


def test_gen_28_a_result_with_a_note_and_its_retraction_reopen_the_game(api):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    api.command(game, type="result", kind="adjudication", winner=None, note="hall closed at 22:00")
    assert api.events(game)[-1]["payload"]["note"] == "hall closed at 22:00"
    assert api.state(game)["game_over"] is True
    api.command(game, type="retract", count=1, reason="the adjudication was recorded for the wrong table")
    state = api.state(game)
    assert "game_over" not in state and state["to_move"] == "north"


def test_annotate_comments_on_the_position_without_changing_it(api):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")["id"]
    api.command(game, type="sow", hole="f1")
    before = without_version(api.state(game))
    api.command(game, type="annotate", text="North claims a1 held 5")
    assert without_version(api.state(game)) == before
    assert api.events(game)[-1]["type"] == "annotated"
    assert api.events(game)[-1]["payload"] == {"text": "North claims a1 held 5"}


def test_the_fold_never_stores_what_a_retraction_withdrew():
    """The stored retraction holds only its count and reason; the marks are derived."""
    assert set(MovesRetracted(count=1, reason="x").payload()) == {"count", "reason"}


def test_retract_is_refused_at_the_fold_level_beyond_the_moves():
    _, _, game = next(iter(random_game("qelat", 1, max_events=1)))
    with pytest.raises(IllegalMove):
        decide(game, {"type": "retract", "count": 1, "reason": "nothing to retract"})


def test_gen_24_retracting_the_race_awaits_it_again(api):
    game = api.create(variant="gabata", south="A", north="B")["id"]
    holes = {name: 3 for name in "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3".split()}
    api.command(game, type="race", winner="south", holes=holes)
    api.command(game, type="retract", count=1, reason="the race was won by North")
    assert without_version(api.state(game)) == without_version(api.state(game, at=1))
    assert api.state(game)["awaiting"] == "race"
