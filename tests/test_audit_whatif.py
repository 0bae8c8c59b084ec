"""What-if replays: the same events under other options (GEN-29)."""

import json

from click.testing import CliRunner
from conftest import RULES

from recorder.cli.main import main

SEL_E5 = next(e for e in json.loads((RULES / "examples.json").read_text()) if e["id"] == "SEL-E5a")


def selus_problem(api, landing: str) -> str:
    """SEL-E5, the Zillions "Selus Problem", recorded under ``empty_wegue_landing = landing``."""
    options = {**SEL_E5["options"], "empty_wegue_landing": landing}
    game = api.create(variant="selus", options=options, south="A", north="B", position=SEL_E5["before"])["id"]
    for hole in SEL_E5["play"]:
        api.command(game, type="sow", hole=hole)
    return game


def what_if(client, game, options, expect=200):
    response = client.post(f"/api/games/{game}/what-if", json={"options": options})
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def test_sel_9b_selus_problem_diverges_at_norths_second_f3(api, client):
    # SEL-E5: recorded with leave_seed (E5a), replayed with capture_seed (E5b). North's second
    # f3 (the 6th sowing, event 7) lands in e3, an empty South wegue: the seed stays (SEL-9b),
    # or North captures it (SEL-9c). Every later sowing is legal under both readings.
    game = selus_problem(api, "leave_seed")
    report = what_if(client, game, {"empty_wegue_landing": "capture_seed"})
    assert report["diverges"] is True and report["first_illegal"] is None
    first = report["first_difference"]
    assert first["seq"] == 7 and first["payload"] == {"hole": "f3", "player": "north"}
    assert first["recorded"]["holes"]["e3"] == 1 and first["what_if"]["holes"]["e3"] == 0
    assert first["what_if"]["stores"]["north"] == first["recorded"]["stores"]["north"] + 1
    assert ("seed_stayed", "SEL-9b") in [(s["step"], s["rule"]) for s in first["recorded_trace"]]
    assert ("captured", "SEL-9c") in [(s["step"], s["rule"]) for s in first["what_if_trace"]]
    # SEL-E5a: South 28, North 26, South wins; SEL-E5b: 27-27, a draw.
    assert report["recorded_final"]["result"] == "south_wins"
    assert report["recorded_final"]["score"] == {"south": 28, "north": 26}
    assert report["what_if_final"]["result"] == "draw"
    assert report["what_if_final"]["score"] == {"south": 27, "north": 27}
    assert report["replayed_to"] == report["events"] == 13


def test_sel_9b_the_other_way_round_gives_the_same_two_results(api, client):
    report = what_if(client, selus_problem(api, "capture_seed"), {"empty_wegue_landing": "leave_seed"})
    assert report["first_difference"]["seq"] == 7
    assert (report["recorded_final"]["result"], report["what_if_final"]["result"]) == ("draw", "south_wins")


def test_a_what_if_that_does_not_diverge(api, client):
    # SEL-8: the position is past the round's first turn, so neither block reading changes anything.
    game = selus_problem(api, "leave_seed")
    report = what_if(client, game, {"wegue_block": "first_turn_each_player"})
    assert report["diverges"] is False
    assert report["first_difference"] is None and report["first_illegal"] is None
    assert report["what_if_final"]["result"] == report["recorded_final"]["result"] == "south_wins"
    assert report["what_if_options"]["wegue_block"] == "first_turn_each_player"
    assert report["recorded_options"]["wegue_block"] == "first_turn"


QEL_11_POSITION = {
    "holes": {
        "a1": 0,
        "b1": 0,
        "c1": 0,
        "d1": 0,
        "e1": 0,
        "f1": 1,
        "a2": 0,
        "b2": 27,
        "c2": 20,
        "d2": 0,
        "e2": 0,
        "f2": 0,
    },
    "stores": {"south": 0, "north": 0},
    "to_move": "south",
    "first_turn_of_round": False,
}


def test_qel_11_a_sowing_that_becomes_illegal_is_named(api, client):
    # Recorded with mazagebh_no_return = false: South's lone seed goes f1 -> f2 (QEL-5: CCW from his
    # right three), then North sows it straight back from f2. With the ban (QEL-11) the position
    # differs at once (no_return: f2) and North's f2 is illegal.
    game = api.create(
        variant="qelat", options={"mazagebh_no_return": False}, south="A", north="B", position=QEL_11_POSITION
    )["id"]
    api.command(game, type="sow", hole="f1")
    api.command(game, type="sow", hole="f2")
    report = what_if(client, game, {"mazagebh_no_return": True})
    assert report["first_difference"]["seq"] == 2
    assert report["first_difference"]["what_if"]["no_return"] == "f2"
    assert "no_return" not in report["first_difference"]["recorded"]
    illegal = report["first_illegal"]
    assert illegal["seq"] == 3 and illegal["payload"] == {"hole": "f2", "player": "north"}
    assert illegal["title"] == "Illegal move" and "f2" in illegal["detail"]
    assert report["replayed_to"] == 2 and report["what_if_final"]["version"] == 2


def test_gen_29_unknown_options_are_refused(api, client):
    game = selus_problem(api, "leave_seed")
    assert what_if(client, game, {"empty_wegue_landing": "keep"}, expect=422)["title"] == "Invalid record"
    assert what_if(client, game, {"colour": "red"}, expect=422)["option"] == "colour"
    response = client.post(f"/api/games/{game}/what-if", json={})
    assert response.status_code == 422 and "options" in response.get_json()["errors"]


def _cli_what_if(app, game, *extra):
    arguments = ["what-if", game, "--option", "empty_wegue_landing=capture_seed", "--db", app.config["DATABASE"]]
    result = CliRunner().invoke(main, [*arguments, *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_what_if_json_prints_the_report(app, api):
    game = selus_problem(api, "leave_seed")
    assert json.loads(_cli_what_if(app, game, "--json"))["first_difference"]["seq"] == 7


def test_cli_what_if_prints_a_readable_comparison(app, api):
    # SEL-E5a recorded, SEL-E5b replayed: they part at event 7, North's second f3, where e3
    # keeps the seed (1S) or North takes it (0S); South wins 28-26, or 27-27 is a draw.
    output = _cli_what_if(app, selus_problem(api, "leave_seed"))
    lines = output.splitlines()
    assert lines[0].endswith('replayed under empty_wegue_landing "leave_seed" -> "capture_seed"')
    assert "first difference: after event 7, sow f3 (north)" in lines
    titles = next(line for line in lines if line.startswith("as recorded"))
    assert titles.split() == ["as", "recorded", "what", "if"]
    row_3 = next(line for line in lines if line.lstrip().startswith("3:"))
    assert row_3.split()[1:7] == ["0", "0", "0", "0", "1S", "0"] and row_3.split()[8:14][4] == "0S"
    assert "  as recorded: south_wins (score), score south 28 north 26" in lines
    assert "  what if:     draw (score), score south 27 north 27" in lines
    assert "{" not in output  # no JSON


def test_cli_what_if_says_when_nothing_differs(app, api):
    game = selus_problem(api, "capture_seed")
    arguments = ["what-if", game, "--option", "wegue_block=first_turn_each_player", "--db", app.config["DATABASE"]]
    output = CliRunner().invoke(main, arguments).output
    assert "no event gives a different position under these options" in output


def test_qel_11_cli_what_if_names_what_differs_when_the_boards_agree(app, api):
    # QEL-E4a recorded (the ban on), replayed as QEL-E4b (no_return off): after South's a1
    # both boards are the same,
    #   2:   1   0   3   2   2 20S
    #   1:   0   0   2   0   0 18N
    # and only the ban and North's legal holes differ. Two identical boards and nothing else
    # would tell the reader nothing: the lines under them name what differs.
    e4a = next(e for e in json.loads((RULES / "examples.json").read_text()) if e["id"] == "QEL-E4a")
    game = api.create(variant="qelat", options=e4a["options"], south="A", north="B", position=e4a["before"])["id"]
    api.command(game, type="sow", hole="a1")
    arguments = ["what-if", game, "--option", "mazagebh_no_return=false", "--db", app.config["DATABASE"]]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "first difference: after event 2, sow a1 (south)" in lines
    assert "the boards are drawn alike; what differs:" in lines
    assert "  no return: a2 | none" in lines
    assert "  legal moves: c2 d2 e2 | a2 c2 d2 e2" in lines
