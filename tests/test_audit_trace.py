"""Explaining events: every step of a trace, and the rule id it cites."""

import json
import re

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, RULES
from support.playouts import random_game

from recorder.audit.trace import trace_event
from recorder.cli.main import main
from recorder.core.commands import decide, decide_create
from recorder.core.game import apply_event, start_game
from recorder.rules import VARIANTS

RULE_ID = re.compile(r"\*\*([A-Z]+-[A-Z]?\d+)\*\*")
SUB_ITEM = re.compile(r"^\s+- ([a-z])\.", re.MULTILINE)


def spec_rule_ids() -> dict[str, set[str]]:
    """Every ``**XXX-n**`` id of the spec files, with the lettered sub-items (``- a.``) of its text."""
    ids: dict[str, set[str]] = {}
    for path in sorted(RULES.glob("*.md")):
        text = path.read_text()
        found = list(RULE_ID.finditer(text))
        for match, following in zip(found, found[1:] + [None]):
            body = text[match.end() : following.start() if following else len(text)]
            ids[match.group(1)] = set(SUB_ITEM.findall(body))
    return ids


SPEC_IDS = spec_rule_ids()


def rule_exists(rule: str) -> bool:
    """``SEL-7`` exists if the spec defines it; ``SEL-7b`` if SEL-7 has a sub-item ``b.``."""
    if rule in SPEC_IDS:
        return True
    lettered = re.fullmatch(r"([A-Z]+-\d+)([a-z])", rule)
    return lettered is not None and lettered.group(2) in SPEC_IDS.get(lettered.group(1), set())


def test_spec_rule_ids_are_parsed_with_their_sub_items():
    assert {f"GEN-{n}" for n in range(1, 43)} <= set(SPEC_IDS)
    assert SPEC_IDS["SEL-7"] == {"a", "b", "c", "d"}
    assert rule_exists("SEL-9c") and rule_exists("TUZ-8e") and rule_exists("GAB-5")
    assert not rule_exists("SEL-9d") and not rule_exists("GEN-43") and not rule_exists("SEL-20")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_trace_step_cites_a_rule_id_of_the_spec(variant):
    """Random playouts of every registered variant, decisions included: no step cites an unknown id."""
    unknown: dict[str, str] = {}
    for seed in range(30):
        for before, event, after in random_game(variant, seed, max_events=400, result_chance=0.002):
            for step in trace_event(before, event, after):
                assert set(step) >= {"step", "rule"}, step
                if not rule_exists(step["rule"]):
                    unknown.setdefault(step["rule"], f"{step['step']} in {event.type} (seed {seed})")
    assert not unknown, f"{variant} cites rule ids that are not in ../shared/rules: {unknown}"


@pytest.mark.parametrize("path", sorted((FIXTURES / "games").glob("*.json")), ids=lambda p: p.stem)
def test_every_step_of_a_complete_fixture_game_cites_a_spec_rule(path):
    """Whole recorded games reach their ends (SEL-16, LW-13, TUZ-13, GAB-8...): those traces too."""
    record = json.loads(path.read_text())
    game = start_game(path.stem, decide_create(record["setup"]))
    cited = set()
    for step in trace_event(None, game.setup, game):
        cited.add(step["rule"])
    for command in record["commands"]:
        for event in decide(game, command):
            after = apply_event(game, event, game.version + 1)
            cited |= {step["rule"] for step in trace_event(game, event, after)}
            game = after
    assert game.state.game_over
    assert {rule for rule in cited if not rule_exists(rule)} == set()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_gen_20_a_sowing_trace_says_who_moves_next(variant):
    """After a sowing the trace names the player to move (GEN-19, GEN-20), or says the round ended."""
    for before, event, after in random_game(variant, 99, max_events=120):
        if event.type != "sowed":
            continue
        steps = trace_event(before, event, after)
        state = after.state
        if state.to_move is not None and not state.awaiting:
            named = [s["player"] for s in steps if s["step"] in ("to_move", "sow_again")]
            assert named and named[-1] == state.to_move.json, (event, steps[-3:])
        else:
            assert state.round_over or state.game_over, steps[-3:]


def test_gen_11_qelat_sowing_trace_lists_each_seed(api, client):
    # QEL-5, QEL-6: South's f1 is one of his right three, sown CCW in one lap.
    # 4 seeds from f1 drop in f2, e2, d2 and c2 (4 -> 5 each). c2 held 4, not 3: no walda.
    game = api.create(variant="qelat", south="A", north="B", first_player="south")
    api.command(game["id"], type="sow", hole="f1")
    trace = client.get(f"/api/games/{game['id']}/events/2/trace").get_json()
    assert trace["type"] == "sowed" and trace["payload"] == {"hole": "f1", "player": "south"}
    assert trace["steps"] == [
        {"step": "lifted", "rule": "GEN-11", "hole": "f1", "seeds": 4, "player": "south"},
        {"step": "dropped", "rule": "GEN-12", "hole": "f2", "now": 5},
        {"step": "dropped", "rule": "GEN-12", "hole": "e2", "now": 5},
        {"step": "dropped", "rule": "GEN-12", "hole": "d2", "now": 5},
        {"step": "dropped", "rule": "GEN-12", "hole": "c2", "now": 5},
        {"step": "turn_ended", "rule": "QEL-10", "player": "south"},
        {"step": "to_move", "rule": "GEN-19", "player": "north"},
    ]
    assert trace["before"]["holes"]["f1"] == 4 and trace["after"]["holes"]["f1"] == 0


SEL_E3 = {
    "holes": {
        "a1": 2,
        "b1": 0,
        "c1": 0,
        "d1": 1,
        "e1": 4,
        "f1": 0,
        "a2": 0,
        "b2": 0,
        "c2": 0,
        "d2": 0,
        "e2": 0,
        "f2": 3,
        "a3": 0,
        "b3": 2,
        "c3": 0,
        "d3": 0,
        "e3": 0,
        "f3": 1,
    },
    "specials": {
        "a1": {"kind": "wegue", "owner": "north"},
        "e1": {"kind": "wegue", "owner": "south"},
        "f3": {"kind": "wegue", "owner": "north"},
    },
    "owners": {},
    "stores": {"south": 21, "north": 20},
    "to_move": "south",
    "first_turn_of_round": False,
}


def test_sel_9c_sel_10_trace_shows_capture_and_sow_again(api, client):
    # SEL-E3 step 1: South sows d1 (1 seed) into e1, his own wegue holding 4:
    # he captures the last seed plus one (SEL-9c) and must sow again (SEL-10, GEN-18).
    game = api.create(variant="selus", options={"match": "single"}, south="A", north="B", position=SEL_E3)
    api.command(game["id"], type="sow", hole="d1")
    steps = client.get(f"/api/games/{game['id']}/events/2/trace").get_json()["steps"]
    assert [(s["step"], s["rule"]) for s in steps] == [
        ("lifted", "GEN-11"),
        ("dropped", "GEN-12"),
        ("captured", "SEL-9c"),
        ("sow_again", "GEN-18"),
    ]
    assert steps[2] == {"step": "captured", "rule": "SEL-9c", "hole": "e1", "seeds": 2, "player": "south"}


def test_gen_23_gen_28_setup_and_result_traces(api, client):
    game = api.create(variant="qelat", south="A", north="B", first_player="north")
    api.command(game["id"], type="result", kind="resignation", winner="south", note="felt unwell")
    setup = client.get(f"/api/games/{game['id']}/events/1/trace").get_json()
    assert setup["before"] is None
    assert [(s["step"], s["rule"]) for s in setup["steps"]][0] == ("setup", "GEN-23")
    assert setup["steps"][-1] == {"step": "to_move", "rule": "GEN-23", "player": "north"}
    result = client.get(f"/api/games/{game['id']}/events/2/trace").get_json()["steps"]
    assert result == [
        {"step": "result", "rule": "GEN-28", "kind": "resignation", "winner": "south", "note": "felt unwell"},
        {"step": "game_ended", "rule": "GEN-32", "result": "south_wins", "why": "the board stays as it was"},
    ]


def test_gen_24_gab_2_race_trace_names_the_first_mover(api, client):
    game = api.create(variant="gabata", south="A", north="B")
    holes = {name: 3 for name in ("a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3".split())}
    api.command(game["id"], type="race", winner="north", holes=holes)
    steps = client.get(f"/api/games/{game['id']}/events/2/trace").get_json()["steps"]
    assert [(s["step"], s["rule"]) for s in steps] == [("race", "GEN-24"), ("board_set", "GAB-2"), ("to_move", "GAB-2")]
    assert steps[-1]["player"] == "north"


def test_trace_of_an_unknown_event_is_404(api, client):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")
    response = client.get(f"/api/games/{game['id']}/events/2/trace")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert client.get("/api/games/nope/events/1/trace").status_code == 404


def test_trace_of_a_withdrawn_sowing_says_which_retraction_withdrew_it(api, client):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")
    api.command(game["id"], type="sow", hole="f1")
    api.command(game["id"], type="retract", count=1, reason="the arbiter misheard")
    withdrawn = client.get(f"/api/games/{game['id']}/events/2/trace").get_json()
    assert withdrawn["retracted_by_seq"] == 3 and withdrawn["steps"][0]["step"] == "lifted"
    retraction = client.get(f"/api/games/{game['id']}/events/3/trace").get_json()
    assert retraction["retracts"] == [2] and retraction["steps"] == []
    assert retraction["after"]["holes"]["f1"] == 4


def test_cli_trace_prints_each_step_with_its_rule(app, api):
    game = api.create(variant="qelat", south="A", north="B", first_player="south")
    api.command(game["id"], type="sow", hole="f1")
    result = CliRunner().invoke(main, ["trace", game["id"], "2", "--db", app.config["DATABASE"]])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"event 2 of {game['id']}: sowed")
    assert "lifted" in lines[1] and "GEN-11" in lines[1] and "hole=f1" in lines[1]
    assert "to_move" in lines[-1] and "GEN-19" in lines[-1] and "player=north" in lines[-1]
    missing = CliRunner().invoke(main, ["trace", game["id"], "9", "--db", app.config["DATABASE"]])
    assert missing.exit_code == 1 and "9" in missing.output
