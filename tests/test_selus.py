"""Selus (rules/selus.md): one test or more per rule id, the SEL-E vectors, the game records
in fixtures/games/selus-*.json, and random playouts that check invariants.

Boards are drawn as in selus.md, row 3 on top: ``4S`` is a South wegue holding 4.
The fixtures are made by ``random_playout`` below, in the shape tests/test_fixtures_api.py
replays (title, setup, commands, expect); to write them again:
``python -c "import tests.test_selus as t; t.write_fixtures()"`` from the repository root.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from recorder.core.events import ResultRecorded, RoundStarted, Sowed
from recorder.core.game import apply_move
from recorder.errors import EndlessSowing, InvalidRecord
from recorder.rules.board import PLAYERS, THREE_ROWS, Player
from recorder.rules.positions import position_from_json
from recorder.rules.selus import AYEMI, Selus
from recorder.rules.state import Outcome, state_to_json

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT.parent / "shared" / "rules" / "examples.json"
FIXTURES = ROOT / "fixtures" / "games"

S, N = Player.SOUTH, Player.NORTH
H = THREE_ROWS.index
DEFAULTS = {"match": "rounds", "empty_wegue_landing": "capture_seed", "weak_wegues": False, "wegue_block": "first_turn"}
ALL_OPTIONS = [
    dict(zip(DEFAULTS, values))
    for values in itertools.product(
        ("rounds", "single"), ("capture_seed", "leave_seed"), (False, True), ("first_turn", "first_turn_each_player")
    )
]


# -- Helpers ---------------------------------------------------------------------------


def diagram(text: str) -> tuple[dict, dict]:
    """Holes and specials from rows drawn as in selus.md (``3: 0 2 ...``, row 3 first)."""
    holes, specials = {}, {}
    for line in text.strip().splitlines():
        row, cells = line.split(":")
        for letter, cell in zip("abcdef", cells.split()):
            name = f"{letter}{row.strip()}"
            if cell[-1] in "SN":
                specials[name] = {"kind": "wegue", "owner": "south" if cell[-1] == "S" else "north"}
                cell = cell[:-1]
            holes[name] = int(cell)
    return holes, specials


def position(rules, text, stores, to_move, first_turn=False, **fields):
    holes, specials = diagram(text)
    data = {
        "holes": holes,
        "specials": specials,
        "stores": {"south": stores[0], "north": stores[1]},
        "to_move": to_move,
        "first_turn_of_round": first_turn,
        **fields,
    }
    return position_from_json(rules, data)


def holes_of(text: str) -> tuple[int, ...]:
    holes, _ = diagram(text)
    return tuple(holes[name] for name in THREE_ROWS.holes)


def specials_of(state) -> dict:
    return {THREE_ROWS.holes[i]: owner for i, owner in enumerate(state.specials) if owner is not None}


def apply(rules, state, item):
    """One event: a vector's hole name or decision, or a fixture command (GEN-21..GEN-28)."""
    command = as_command(item)
    kind = command["type"]
    if kind == "sow":
        assert rules.board.hole(command["hole"]) in rules.legal_moves(state), f"{command['hole']} is not legal"
        event = Sowed(hole=command["hole"], player=state.to_move.json)
    elif kind == "next_round":
        assert state.awaiting == "next_round"
        event = RoundStarted(first_player=command["first_player"], allocation=command.get("allocation"))
    else:
        assert kind == "result" and not state.game_over
        event = ResultRecorded(kind=command["kind"], winner=command["winner"])
    assert kind == "sow" or kind in rules.DECISIONS
    return apply_move(rules, state, event)


def as_command(item) -> dict:
    if isinstance(item, str):
        return {"type": "sow", "hole": item}
    if "decision" in item:
        return {"type": item["decision"], **{k: v for k, v in item.items() if k != "decision"}}
    return item


def replay(rules, state, events):
    for event in events:
        state = apply(rules, state, event)
    return state


def view(rules, state, keep_match=False) -> dict:
    """The §8 state of a vector's ``after``; ``keep_match`` keeps round, rounds and result_reason."""
    out = state_to_json(rules, state)
    del out["variant"], out["options"]
    if not keep_match:
        for key in ("round", "rounds", "result_reason"):
            out.pop(key, None)
    if state.to_move is None or state.awaiting:
        assert out.pop("legal_moves") == []
    return out


def sow(rules, state, *names):
    return replay(rules, state, names)


# -- The random playout generator (fixtures and invariants) ----------------------------


def random_playout(recipe: dict, max_events=2000) -> dict:
    """A game played by chance with ``random.Random(recipe["seed"])``, as a fixture record.

    Sowings are chosen uniformly among legal holes, skipping any the lap cap rejects
    (GEN-35). ``next_round`` names a random first player and, with ``allocate``, a random
    allocation (GEN-38). With ``resign_in_round`` the player with fewer holes resigns once
    that round's first turn is over (GEN-28).
    """
    rules, rng = Selus(recipe["options"]), random.Random(recipe["seed"])
    first = rng.choice(PLAYERS)
    state, commands = rules.start(first), list[dict[str, Any]]()
    while not state.game_over and len(commands) < max_events:
        command = next_command(rules, state, rng, recipe)
        if command is None:
            break
        state = apply(rules, state, command)
        commands.append(command)
    return {
        "title": recipe["title"],
        "setup": {
            "variant": "selus",
            "options": dict(rules.options),
            "south": recipe["south"],
            "north": recipe["north"],
            "first_player": first.json,
        },
        "generator": {key: recipe[key] for key in ("seed", "allocate", "resign_in_round")},
        "commands": commands,
        "expect": expectations(rules, state),
    }


def next_command(rules, state, rng, recipe):
    if state.awaiting == "next_round":
        command = {"type": "next_round", "first_player": rng.choice(PLAYERS).json}
        if recipe["allocate"]:
            holes = list(THREE_ROWS.holes)
            rng.shuffle(holes)
            south = state.hole_counts[S]
            command["allocation"] = {"south": sorted(holes[:south]), "north": sorted(holes[south:])}
        return command
    if state.round == recipe["resign_in_round"] and not state.first_turn_of_round:
        counts = state.rounds[-1].holes
        return {"type": "result", "kind": "resignation", "winner": (S if counts[S] >= counts[N] else N).json}
    moves = list(rules.legal_moves(state))
    rng.shuffle(moves)
    for hole in moves:
        try:
            rules.play(state, hole)
        except EndlessSowing:
            continue
        return {"type": "sow", "hole": rules.board.holes[hole]}
    return None


def expectations(rules, state) -> dict:
    out = view(rules, state, keep_match=True)
    expect = {key: out[key] for key in ("result", "result_reason") if key in out}
    expect["final_stores"] = out["stores"]
    if rules.is_match:
        expect["rounds"] = out["round"]
        expect["round_table"] = out["rounds"]
    if state.score is not None:
        expect["score"] = out["score"]
    expect["state"] = view(rules, state)
    return expect


FIXTURE_RECIPES = [
    {
        "name": "selus-rounds-1372",
        "title": "Selus: a seeded random match of four rounds (9-9, 11-7, 13-5, 4-14 holes); "
        "South takes nothing in round 4 and North wins by SEL-16.",
        "options": DEFAULTS,
        "seed": 1372,
        "allocate": False,
        "resign_in_round": None,
        "south": "Habtom",
        "north": "Senait",
    },
    {
        "name": "selus-single-7",
        "title": "Selus single game (seed 000): a seeded random game won by North on takings, 29 to 25.",
        "options": {**DEFAULTS, "match": "single"},
        "seed": 7,
        "allocate": False,
        "resign_in_round": None,
        "south": "Mehari",
        "north": "Luwam",
    },
    {
        "name": "selus-rounds-options-5",
        "title": "Selus with leave_seed, weak wegues and first_turn_each_player: recorded random "
        "allocations (1-17 holes in rounds 2 and 3), ended by South's resignation in round 3.",
        "options": {
            "match": "rounds",
            "empty_wegue_landing": "leave_seed",
            "weak_wegues": True,
            "wegue_block": "first_turn_each_player",
        },
        "seed": 5,
        "allocate": True,
        "resign_in_round": 3,
        "south": "Kidane",
        "north": "Saba",
    },
]


def write_fixtures() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for recipe in FIXTURE_RECIPES:
        path = FIXTURES / f"{recipe['name']}.json"
        path.write_text(json.dumps(random_playout(recipe), indent=1, ensure_ascii=False) + "\n")


# -- Options (GEN-29, GEN-31) ------------------------------------------------------------


def test_options_default_to_the_table():
    assert Selus().options == DEFAULTS


@pytest.mark.parametrize(
    "options",
    [{"weak_wegues": 1}, {"match": "best_of_3"}, {"wegue_block": None}, {"ayemi": "two"}, {"weak_wegues": "true"}],
)
def test_bad_options_are_invalid(options):
    with pytest.raises(InvalidRecord):
        Selus(options)


def test_sel_a4_match_option_sets_decisions():
    # SEL-15: remainders of three never tie except at 0, so a match awaits no lot.
    match, single = Selus(), Selus({"match": "single"})
    assert match.is_match and match.DECISIONS == ("next_round", "result")
    assert not single.is_match and single.DECISIONS == ("result",)
    assert single.describe()["decisions"] == ["result"]
    assert Selus({"wegue_block": "first_turn_each_player"}).tracks_first_turns_per_player
    assert not match.tracks_first_turns_per_player


# -- Equipment and start ------------------------------------------------------------------


def test_sel_1_board_seeds_and_stores():
    state = Selus().start(S)
    assert Selus.board.rows == 3 and len(state.holes) == 18
    assert state.holes == (3,) * 18 and state.seeds == 54 == Selus().total_seeds
    assert state.stores == (0, 0) and set(state.specials) == {None}


@pytest.mark.parametrize("match", ["rounds", "single"])
def test_sel_2_default_ownership_in_round_1(match):
    state = Selus({"match": match}).start(N)
    south = {THREE_ROWS.holes[i] for i, owner in enumerate(state.owners) if owner == S}
    assert south == {"a1", "b1", "c1", "d1", "e1", "f1", "d2", "e2", "f2"}


def test_sel_3_ayemi_are_a1_and_f3():
    assert AYEMI == {S: H["a1"], N: H["f3"]}


def test_sel_3_south_ayemi_stays_a1_when_north_owns_it():
    # Round 2, North owns a1. South's 10 seeds from d2 end in a1, a North wegue in
    # South's own ayemi: the seed stays (SEL-9a).
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0  0
        2:  0  0  0 10  0  0
        1: 2N  0  0  0  0  0
        """,
        (21, 21),
        "south",
        round=2,
        owners={"a1": "north"},
    )
    after = sow(rules, before, "d2")
    assert after.holes[H["a1"]] == 3 and after.stores == (21, 21)
    assert after.to_move == N


def test_sel_3_north_landing_in_a1_he_owns_captures_and_sows_again():
    # Round 2, North owns a1, which holds a South wegue. a1 is South's ayemi, so North's
    # capture there is in the opponent's ayemi: he sows again (SEL-10).
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  1  0  0  0  0
        2:  0  0  1  0  0  0
        1: 2S  0  0  0  1  0
        """,
        (25, 24),
        "north",
        round=2,
        owners={"a1": "north"},
    )
    after = sow(rules, before, "c2")
    assert after.holes[H["a1"]] == 1 and after.stores == (25, 26)
    assert after.to_move == N and rules.legal_moves(after) == (H["b3"],)


def test_sel_4_first_player_is_recorded():
    for player in PLAYERS:
        state = Selus().start(player)
        assert state.to_move == player and state.rounds[0].first_player == player
    assert Selus({"match": "single"}).start(N).rounds == ()


# -- Legal sowings ------------------------------------------------------------------------


def test_sel_5_legal_sowings_are_own_nonempty_non_wegue_holes():
    # e2 is South's own wegue and b1 a North wegue on South's side: neither may be sown.
    rules = Selus()
    state = position(
        rules,
        """
        3:  0  0  0  0  0  2
        2:  0  1  0  0 4S  0
        1:  0 5N  0  0  3  0
        """,
        (20, 19),
        "south",
    )
    assert rules.legal_moves(state) == (H["e1"],)
    assert rules.legal_for(state, N) == (H["b2"], H["f3"])


# -- Sowing (SEL-6, SEL-7) ----------------------------------------------------------------


def test_sel_6_relay_sowing_and_wegues_receive_seeds():
    # c1 (3) sows d1, e1 (a wegue: it keeps the seed) and f1, which held 1: relay 2 via
    # f2 into the empty e2 (kwah).
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0  1
        2:  0  0  0  0  0  0
        1:  0  0  3  0 2S  1
        """,
        (24, 23),
        "south",
    )
    after = sow(rules, before, "c1")
    assert after.holes == holes_of(
        """
        3:  0  0  0  0  0  1
        2:  0  0  0  0  1  1
        1:  0  0  0  1  3  0
        """
    )
    assert specials_of(after) == {"e1": S} and after.to_move == N


def test_sel_7a_a_wegue_holding_three_is_a_capture_not_a_creation():
    # e1 (1) ends in f1, a North wegue of 3: SEL-9 applies before SEL-7c.
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0  0
        2:  0  1  0  0  0  0
        1:  0  0  0  0  1 3N
        """,
        (25, 24),
        "south",
    )
    after = sow(rules, before, "e1")
    assert after.holes[H["f1"]] == 2 and after.stores == (27, 24)
    assert specials_of(after) == {"f1": N} and after.to_move == N


def test_sel_7b_kwah_ends_the_turn():
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0  1
        2:  0  0  0  0  0  0
        1:  0  2  0  0  0  0
        """,
        (26, 25),
        "south",
    )
    trace = []
    after = rules.play(before, H["b1"], trace)
    assert after.holes[H["c1"]] == 1 and after.holes[H["d1"]] == 1 and after.to_move == N
    assert {"step": "turn_ended", "rule": "SEL-7b", "hole": "d1", "why": "kwah"} in trace


def test_sel_7c_wegue_on_the_opponents_side_in_his_ayemi():
    # d2 (1) makes four in f3, North's ayemi: South's wegue, and the turn ends.
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0  3
        2:  0  0  1  1  0  0
        1:  0  0  0  0  0  0
        """,
        (25, 24),
        "south",
    )
    after = sow(rules, before, "d2")
    assert specials_of(after) == {"f3": S} and after.holes[H["f3"]] == 4
    assert after.to_move == N and rules.legal_moves(after) == (H["c2"],)


CREATE_IN_A1 = """
        3:  0  0  0  0  0  0
        2:  0  0  1  0  0  0
        1:  3  0  0  0  0  1
        """


def test_sel_7c_creation_in_own_ayemi_and_own_side():
    # North's c2 (1) makes four in a1 after the round's first turn: North's wegue.
    rules = Selus()
    after = sow(rules, position(rules, CREATE_IN_A1, (25, 24), "north"), "c2")
    assert specials_of(after) == {"a1": N} and after.holes[H["a1"]] == 4 and after.to_move == S


def test_sel_7d_other_counts_relay():
    # SEL-E1: every lap ends in a hole of 3 or 4 and relays, until d3 is empty.
    rules = Selus()
    trace = []
    after = rules.play(rules.start(S), H["a1"], trace)
    relays = [(t["hole"], t["seeds"]) for t in trace if t["step"] == "relayed"]
    assert relays == [("d1", 4), ("e2", 4), ("d3", 4), ("a2", 4), ("b1", 5), ("f2", 5)]
    assert after.holes[H["d3"]] == 1 and after.to_move == N


# -- SEL-8: the wegue block ---------------------------------------------------------------


def test_sel_8_first_turn_blocks_creation():
    # SEL-E1 from the set-up: four laps end on a hole of three, none becomes a wegue.
    rules = Selus()
    after = sow(rules, rules.start(S), "a1")
    assert specials_of(after) == {} and not after.first_turn_of_round


FIRST_TURN_PASS = """
        3:  0  0  0  0  0  0
        2:  0  0  0  3  1  0
        1:  1  3  0  0  0  0
        """


@pytest.mark.parametrize("block", ["first_turn", "first_turn_each_player"])
def test_sel_8_gen_40_new_turn_after_a_pass_may_create(block):
    # a1 (1) makes four in b1 in the first turn: relay 4 to c1..f1, kwah in f1. North
    # cannot sow and passes; South's new turn may make a wegue: e2 (1) into d2.
    rules = Selus({"wegue_block": block})
    before = position(rules, FIRST_TURN_PASS, (23, 23), "south", first_turn=True)
    first = sow(rules, before, "a1")
    assert specials_of(first) == {} and first.holes[H["f1"]] == 1
    assert first.to_move == S and not first.first_turn_of_round
    second = sow(rules, first, "e2")
    assert specials_of(second) == {"d2": S}
    if block == "first_turn_each_player":
        assert first.first_turn_pending == (N,) == second.first_turn_pending  # a pass is not a turn


def test_sel_8_each_player_blocks_the_second_players_first_turn():
    # The round's first turn is over, but North has not yet had his: a1 relays.
    rules = Selus({"wegue_block": "first_turn_each_player"})
    before = position(rules, CREATE_IN_A1, (25, 24), "north", first_turn_pending=["north"])
    after = sow(rules, before, "c2")
    assert specials_of(after) == {} and after.first_turn_pending == ()
    assert after.holes == holes_of(
        """
        3:  0  0  0  0  0  0
        2:  0  0  0  0  0  0
        1:  0  1  1  1  1  1
        """
    )


def test_sel_8_block_covers_sow_again_in_the_first_turn():
    # b1 (1) captures from South's own wegue c1 and sows again; e1 (1) then makes four
    # in f1, still in the first turn: relay 4 to f3 (kwah).
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0  0
        2:  0  0  0  0  0  0
        1:  0  1 2S  0  1  3
        """,
        (24, 23),
        "south",
        first_turn=True,
    )
    again = sow(rules, before, "b1")
    assert again.to_move == S and again.first_turn_of_round and again.stores == (26, 23)
    after = sow(rules, again, "e1")
    assert specials_of(after) == {"c1": S} and after.holes[H["f3"]] == 1
    assert after.to_move == N and not after.first_turn_of_round


# -- Landing in a wegue (SEL-9, SEL-10, SEL-11) --------------------------------------------


def test_sel_9a_own_ayemi_keeps_the_seed():
    # SEL-E4a: North's last seed in f3, his ayemi, holding a South wegue.
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0 2S
        2:  0  0 10  0  0  0
        1:  0 0S  0  0  0  0
        """,
        (22, 20),
        "north",
    )
    trace = []
    after = rules.play(before, H["c2"], trace)
    assert after.holes[H["f3"]] == 3 and after.stores == (22, 20) and after.to_move == S
    assert any(t["rule"] == "SEL-9a" for t in trace)


EMPTY_WEGUE = """
        3:  0  0  0 9N  0  0
        2:  0  0  3  0  0  0
        1:  0  0 0S  0 10S 0
        """

ONE_IN_WEGUE = """
        3:  0  0  0 9N  0  0
        2:  0  0  3  0  0  0
        1:  0  0 1S  0 9S  0
        """


@pytest.mark.parametrize("landing, c1, stores", [("capture_seed", 0, (17, 16)), ("leave_seed", 1, (17, 15))])
def test_sel_9b_empty_wegue(landing, c1, stores):
    # SEL-E4b, SEL-E4c: North's c2 (3) ends in c1, an empty South wegue.
    rules = Selus({"empty_wegue_landing": landing})
    after = sow(rules, position(rules, EMPTY_WEGUE, (17, 15), "north"), "c2")
    assert after.holes[H["c1"]] == c1 and after.stores == stores
    assert specials_of(after)["c1"] == S and after.to_move == S


@pytest.mark.parametrize("landing", ["capture_seed", "leave_seed"])
def test_sel_9c_capture_two_from_an_occupied_wegue(landing):
    # SEL-E4d: c1 held 1, so even with leave_seed North captures the seed and one more.
    rules = Selus({"empty_wegue_landing": landing})
    before = position(rules, ONE_IN_WEGUE, (17, 15), "north")
    after = sow(rules, before, "c2")
    assert after.holes[H["c1"]] == 0 and after.stores == (17, 17) and after.to_move == S


def test_sel_10_sow_again_after_own_wegue_and_opponents_ayemi():
    # SEL-E3: d1 captures from South's own e1; f2 from North's wegue in f3, North's ayemi.
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  2  0  0  0 1N
        2:  0  0  0  0  0  3
        1: 2N  0  0  1 4S  0
        """,
        (21, 20),
        "south",
    )
    first = sow(rules, before, "d1")
    assert first.to_move == S and first.stores == (23, 20)
    second = sow(rules, first, "f2")
    assert second.to_move == S and second.stores == (25, 20)
    third = sow(rules, second, "e2")
    assert third.to_move == N and third.stores == (25, 20) and third.holes[H["e3"]] == 1


def test_sel_10_own_wegue_in_opponents_ayemi_sows_again():
    # South's wegue in f3: both reasons hold; one sow-again.
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  1 2S
        2:  0  0  0  1  0  0
        1:  0  0  0  0  1  0
        """,
        (25, 24),
        "south",
    )
    after = sow(rules, before, "d2")
    assert after.holes[H["f3"]] == 1 and after.stores == (27, 24)
    assert after.to_move == S and rules.legal_moves(after) == (H["e1"],)


def test_sel_10_opponents_wegue_elsewhere_ends_the_turn():
    # d2 (3) sows f3, e3 and d3, North's wegue outside any ayemi: capture 2, turn over.
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0 2N  0  0
        2:  0  0  0  3  0  0
        1:  0  1  0  0  0  0
        """,
        (25, 23),
        "south",
    )
    after = sow(rules, before, "d2")
    assert after.stores == (27, 23) and after.holes[H["d3"]] == 1
    assert after.to_move == N


def test_sel_10_sel_a6_sow_again_with_no_legal_hole_ends_the_turn():
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0  1
        2:  0  0  0  0  0  0
        1:  0  0  0  0  1 2S
        """,
        (25, 25),
        "south",
    )
    trace = []
    after = rules.play(before, H["e1"], trace)
    assert after.stores == (27, 25) and after.holes[H["f1"]] == 1
    assert after.to_move == N and not any(t["step"] == "sow_again" for t in trace)


def test_sel_11_a_wegue_stays_when_emptied():
    rules = Selus()
    after = sow(rules, position(rules, EMPTY_WEGUE, (17, 15), "north"), "c2")
    assert specials_of(after) == {"c1": S, "e1": S, "d3": N} and after.holes[H["c1"]] == 0


def test_sel_11_weak_wegue_emptied_becomes_ordinary():
    # SEL-E4e: c1 held 1; North captures 2 and c1 is a plain South hole again.
    rules = Selus({"weak_wegues": True})
    before = position(rules, ONE_IN_WEGUE, (17, 15), "north")
    after = sow(rules, before, "c2")
    assert specials_of(after) == {"e1": S, "d3": N}
    assert H["c1"] not in rules.legal_moves(after)  # empty for now, but South's to sow later
    assert after.owners[H["c1"]] == S


def test_sel_11_weak_wegue_sel_10_uses_the_former_owner():
    # e1 (1) ends in South's wegue f1 (1): capture 2, f1 is ordinary, South sows again.
    rules = Selus({"weak_wegues": True})
    before = position(
        rules,
        """
        3:  0  0  0  0  0  1
        2:  0  0  0  0  0  0
        1:  0  0  0  1  1 1S
        """,
        (25, 25),
        "south",
    )
    after = sow(rules, before, "e1")
    assert specials_of(after) == {} and after.stores == (27, 25)
    assert after.to_move == S and rules.legal_moves(after) == (H["d1"],)


# -- End of round, scoring, rounds ----------------------------------------------------------


E5_BOARD = """
        3:  0  0  0  0 1S  1
        2:  0  0  1  2  1  0
        1:  1 0N  0  0  1  0
        """

E6_BOARD = """
        3:  0 6S  0  0  0  0
        2:  0  0 5N  0  0 3N
        1:  0  0  0  0 9S  1
        """


def test_sel_12_a_player_who_cannot_sow_passes():
    # SEL-E5: North passes while South sows on; the game ends when no hole has seeds.
    rules = Selus({"match": "single", "empty_wegue_landing": "leave_seed"})
    state = position(rules, E5_BOARD, (23, 23), "south")
    state = sow(rules, state, "e1", "f3", "f1", "c2", "f2", "f3")
    assert state.to_move == S and rules.legal_for(state, N) == ()
    state = sow(rules, state, "c1", "d1", "e1", "f1", "f2")
    assert state.to_move == S and not state.game_over
    trace = []
    state = rules.play(state, H["e2"], trace)
    assert state.game_over and any(t["rule"] == "SEL-12" for t in trace)


def test_sel_12_round_ends_when_every_non_wegue_hole_is_empty():
    # SEL-E6a.
    rules = Selus()
    after = sow(rules, position(rules, E6_BOARD, (14, 16), "south"), "f1")
    assert after.round_over and after.to_move is None and after.awaiting == "next_round"
    assert all(seeds == 0 for seeds, owner in zip(after.holes, after.specials) if owner is None)


def test_sel_13_takings_are_store_plus_own_wegues():
    rules = Selus()
    after = sow(rules, position(rules, E6_BOARD, (14, 16), "south"), "f1")
    assert after.takings == (16 + 9 + 6, 16 + 5 + 2) == rules.takings(after)
    assert after.rounds[-1].takings == (31, 23)


@pytest.mark.parametrize("landing, score, winner", [("leave_seed", (28, 26), S), ("capture_seed", (27, 27), None)])
def test_sel_14_single_game_ends_with_the_round(landing, score, winner):
    # SEL-E5a, SEL-E5b: the Zillions "Selus Problem".
    rules = Selus({"match": "single", "empty_wegue_landing": landing})
    state = position(rules, E5_BOARD, (23, 23), "south")
    state = sow(rules, state, "e1", "f3", "f1", "c2", "f2", "f3", "c1", "d1", "e1", "f1", "f2", "e2")
    assert state.game_over and state.score == score and state.outcome == Outcome(winner, "score")
    assert not state.round_over and state.takings is None and state.awaiting is None


def round_end(rules, south_takings):
    """North's c2 (1) ends in his wegue a1 (South's ayemi), which ends the round with
    South's takings as given (his store) and North's the rest."""
    wegue = 53 - south_takings
    before = position(
        rules,
        f"""
        3:  0  0  0  0  0  0
        2:  0  0  1  0  0  0
        1: {wegue}N 0 0  0  0  0
        """,
        (south_takings, 0),
        "north",
    )
    return sow(rules, before, "c2")


@pytest.mark.parametrize(
    "south, counts", [(27, (9, 9)), (31, (10, 8)), (23, (8, 10)), (26, (9, 9)), (2, (1, 17)), (52, (17, 1))]
)
def test_sel_15_hole_counts(south, counts):
    state = round_end(Selus(), south)
    assert state.takings == (south, 54 - south) and state.hole_counts == counts
    assert sum(counts) == 18 and state.awaiting == "next_round" and not state.game_over


@pytest.mark.parametrize("south", [1, 0])
def test_sel_16_no_hole_loses_the_match(south):
    rules = Selus()
    state = round_end(rules, south)
    assert state.hole_counts == (0, 18) and state.game_over
    assert state.outcome == Outcome(N, "holes") and state.awaiting is None
    out = view(rules, state, keep_match=True)  # GEN-33
    assert out["round_over"] and out["result"] == "north_wins" and out["result_reason"] == "holes"
    assert "awaiting" not in out and "score" not in out


def test_sel_16_north_with_no_hole_loses():
    # South's d2 (1) captures from his own wegue in f3, North's ayemi, and cannot sow
    # again: the round ends with North's takings 1.
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  0  0  0  0 52S
        2:  0  0  0  1  0  0
        1:  0  0  0  0  0  0
        """,
        (0, 1),
        "south",
    )
    state = sow(rules, before, "d2")
    assert state.takings == (53, 1) and state.hole_counts == (18, 0)
    assert state.game_over and state.outcome == Outcome(S, "holes")


@pytest.mark.parametrize(
    "takings, counts, ceded",
    [
        ((31, 23), (10, 8), {"f3": S}),
        ((22, 32), (7, 11), {"a1": N, "b1": N}),
        ((37, 17), (12, 6), {"f3": S, "e3": S, "d3": S}),
        ((5, 49), (2, 16), {h: N for h in ("a1", "b1", "c1", "d1", "e1", "f1", "f2")}),
        ((27, 27), (9, 9), {}),
    ],
)
def test_sel_17_default_allocation(takings, counts, ceded):
    rules = Selus()
    state = awaiting_next_round(rules, takings, counts)
    fresh = rules.start_next_round(state, S)
    changed = {THREE_ROWS.holes[i]: p for i, p in enumerate(fresh.owners) if p != THREE_ROWS.default_owners[i]}
    assert changed == ceded
    assert sum(1 for p in fresh.owners if p == S) == counts[S]
    assert fresh.rounds[-1].holes == counts


def awaiting_next_round(rules, takings, counts, **fields):
    return position(
        rules,
        """
        3:  0  0  0  0  0  0
        2:  0  0  0  0  0  0
        1:  0  0  0  0  0  0
        """,
        takings,
        None,
        awaiting="next_round",
        round_over=True,
        takings={"south": takings[0], "north": takings[1]},
        hole_counts={"south": counts[0], "north": counts[1]},
        **fields,
    )


def test_sel_17_gen_38_default_is_counted_from_default_ownership():
    # Round 2 was played with a1 and b1 North's; 27-27 gives round 3 the default owners.
    rules = Selus()
    state = awaiting_next_round(rules, (27, 27), (9, 9), round=2, owners={"a1": "north", "b1": "north"})
    fresh = rules.start_next_round(state, N)
    assert fresh.owners == THREE_ROWS.default_owners and fresh.round == 3


def test_sel_17_recorded_allocation_is_used():
    rules = Selus()
    state = awaiting_next_round(rules, (31, 23), (10, 8))
    given = {
        "south": ["a1", "b1", "c1", "d1", "e1", "f1", "d2", "e2", "f2", "a3"],
        "north": ["a2", "b2", "c2", "b3", "c3", "d3", "e3", "f3"],
    }
    fresh = apply(rules, state, {"decision": "next_round", "first_player": "south", "allocation": given})
    assert fresh.owners[H["a3"]] == S and fresh.owners[H["f3"]] == N
    assert H["a3"] in rules.legal_moves(fresh)


@pytest.mark.parametrize("block", ["first_turn", "first_turn_each_player"])
def test_sel_18_new_round_restarts_from_the_set_up(block):
    rules = Selus({"wegue_block": block})
    before = position(rules, E6_BOARD, (14, 16), "south")
    state = sow(rules, before, "f1")
    fresh = apply(rules, state, {"decision": "next_round", "first_player": "north"})
    assert fresh.holes == (3,) * 18 and fresh.stores == (0, 0) and set(fresh.specials) == {None}
    assert fresh.first_turn_of_round and fresh.to_move == N and fresh.round == 2
    assert fresh.first_turn_pending == ((S, N) if block == "first_turn_each_player" else ())
    assert not fresh.round_over and fresh.takings is None and fresh.hole_counts is None
    # SEL-8 applies again: North's first sowing makes no wegue.
    after = rules.play(fresh, rules.legal_moves(fresh)[0])
    assert set(after.specials) == {None}


def test_sel_19_a_match_ends_only_by_sel_16_or_a_result():
    rules = Selus()
    state = sow(rules, position(rules, E6_BOARD, (14, 16), "south"), "f1")
    assert not state.game_over and state.awaiting == "next_round"
    over = apply(rules, state, {"decision": "result", "kind": "resignation", "winner": "south"})
    assert over.game_over and over.outcome == Outcome(S, "resignation")
    assert over.round_over and over.takings == (31, 23) and over.score is None  # GEN-32


# -- Lap cap (GEN-16, GEN-35) --------------------------------------------------------------


def test_gen_16_endless_selus_sowing_is_rejected_but_stays_legal():
    # Found by a random playout: f3 relays round the board for ever, never meeting an
    # empty hole or a hole of three.
    rules = Selus()
    state = position(
        rules,
        """
        3:  4  0  1  5  1  5
        2:  1  0  4  1  2  3
        1:  6  2  4  6  8  1
        """,
        (0, 0),
        "south",
        round=5,
        owners={"e3": "south", "f3": "south"},
    )
    assert H["f3"] in rules.legal_moves(state)
    with pytest.raises(EndlessSowing):
        rules.play(state, H["f3"])


# -- The worked examples --------------------------------------------------------------------


def selus_vectors():
    return [v for v in json.loads(EXAMPLES.read_text()) if v["variant"] == "selus"]


@pytest.mark.parametrize("vector", selus_vectors(), ids=lambda v: v["id"])
def test_sel_examples(vector):
    rules = Selus(vector["options"])
    state = replay(rules, position_from_json(rules, vector["before"]), vector["play"])
    assert view(rules, state) == vector["after"]


def test_sel_e3_trace_names_the_rules():
    rules = Selus()
    before = position(
        rules,
        """
        3:  0  2  0  0  0 1N
        2:  0  0  0  0  0  3
        1: 2N  0  0  1 4S  0
        """,
        (21, 20),
        "south",
    )
    trace = []
    rules.play(before, H["d1"], trace)
    assert [t["step"] for t in trace] == ["lifted", "dropped", "captured", "sow_again"]
    assert trace[2] == {"step": "captured", "rule": "SEL-9c", "hole": "e1", "seeds": 2, "player": "south"}


# -- The game records -------------------------------------------------------------------------


def fixture_records():
    return [json.loads(path.read_text()) for path in sorted(FIXTURES.glob("selus-*.json"))]


@pytest.mark.parametrize("record", fixture_records(), ids=lambda r: r["title"][:40])
def test_fixture_replays_to_what_it_expects(record):
    setup = record["setup"]
    rules = Selus(setup["options"])
    state = replay(rules, rules.start(Player.parse(setup["first_player"])), record["commands"])
    assert expectations(rules, state) == record["expect"]


@pytest.mark.parametrize("recipe", FIXTURE_RECIPES, ids=lambda r: r["name"])
def test_fixture_is_what_the_generator_makes(recipe):
    path = FIXTURES / f"{recipe['name']}.json"
    assert json.loads(path.read_text()) == random_playout(recipe)


def test_fixtures_cover_a_match_and_a_single_game():
    records = fixture_records()
    decided = [r for r in records if r["expect"]["result_reason"] == "holes"]
    assert decided, "a match ended by SEL-16"
    for record in decided:
        assert record["setup"]["options"]["match"] == "rounds"
        table = record["expect"]["round_table"]
        assert len(table) >= 3
        assert any(row["holes"] != {"south": 9, "north": 9} for row in table)
        assert 0 in record["expect"]["state"]["hole_counts"].values()
    single = [r for r in records if r["setup"]["options"]["match"] == "single"]
    assert single and all(r["expect"]["result_reason"] == "score" for r in single)


# -- Random playouts: invariants ----------------------------------------------------------------


def blocked(rules, state) -> bool:
    if rules.tracks_first_turns_per_player:
        return state.to_move in state.first_turn_pending
    return state.first_turn_of_round


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: "-".join(str(v) for v in o.values()))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_keep_the_invariants(options, seed):
    recipe = {
        "title": "",
        "options": options,
        "seed": seed,
        "allocate": seed == 2,
        "resign_in_round": None,
        "south": "",
        "north": "",
    }
    record = random_playout(recipe, max_events=400)
    rules = Selus(options)
    state = rules.start(Player.parse(record["setup"]["first_player"]))
    for command in record["commands"]:
        before = state
        state = apply(rules, state, command)
        assert state.seeds == 54
        if command["type"] == "sow":
            check_sowing(rules, before, state, command["hole"])
        elif command["type"] == "next_round":
            assert state.holes == (3,) * 18 and state.first_turn_of_round
        if state.round_over:
            assert sum(state.hole_counts) == 18 and state.takings[0] + state.takings[1] == 54


def check_sowing(rules, before, after, hole):
    traced = rules.play(before, H[hole], [])
    assert traced == after  # tracing never changes the result
    new = {i for i, owner in enumerate(after.specials) if owner is not None and before.specials[i] is None}
    if blocked(rules, before):
        assert not new  # SEL-8
    assert len(new) <= 1  # SEL-7c ends the turn
    if rules.weak_wegues:
        assert all(after.holes[i] for i, owner in enumerate(after.specials) if owner is not None)  # SEL-11
    if after.to_move is not None:
        assert rules.legal_moves(after)  # GEN-20: passes are applied
