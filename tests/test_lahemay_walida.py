"""Lahemay Walida (rules/lahemay-walida.md): one test per rule, the worked examples,
the recorded matches in fixtures/games/lahemay_walida-*.json, and random playouts.

Boards in comments show row 2 on top, columns a..f from left to right, as in the spec.
The fixtures are whole matches played by ``random_match`` from a fixed seed; to write
them again run ``PYTHONPATH=. python tests/test_lahemay_walida.py`` from the repository.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from recorder.errors import EndlessSowing, InvalidRecord
from recorder.rules.base import Rules
from recorder.rules.board import PLAYERS, Player
from recorder.rules.lahemay_walida import LahemayWalida
from recorder.rules.positions import position_from_json
from recorder.rules.state import State, state_to_json

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT.parent / "shared" / "rules" / "examples.json"
FIXTURES = ROOT / "fixtures" / "games"
S, N = Player.SOUTH, Player.NORTH
DEFAULT = LahemayWalida()
THREES = LahemayWalida({"group_size": 3})
END_TURN = LahemayWalida({"after_final_capture": "end_turn"})

# -- Helpers ------------------------------------------------------------------------


def position(rules: Rules, top: str, bottom: str, stores=(0, 0), to_move="south", **fields) -> State:
    """A §8 position from two rows of counts, row 2 (``top``) and row 1, each a..f."""
    counts = [int(n) for n in bottom.split()] + [int(n) for n in top.split()]
    data = {
        "holes": dict(zip(rules.board.holes, counts)),
        "stores": {"south": stores[0], "north": stores[1]},
        "to_move": to_move,
        "first_turn_of_round": fields.pop("first_turn_of_round", False),
        **fields,
    }
    return position_from_json(rules, data)


def rows(state: State) -> tuple[str, str]:
    """The board as (row 2, row 1), each a..f."""
    return " ".join(map(str, state.holes[6:])), " ".join(map(str, state.holes[:6]))


def legal(rules: Rules, state: State) -> list[str]:
    return sorted(rules.board.holes[i] for i in rules.legal_moves(state))


def owners_from(rules: Rules, allocation: dict) -> tuple[Player, ...]:
    owners: list[Player] = list(rules.board.default_owners)
    for player in PLAYERS:
        for name in allocation[player.json]:
            owners[rules.board.hole(name)] = player
    return tuple(owners)


def apply(rules: Rules, state: State, event) -> State:
    """One event in the examples.json form: a hole name is a sowing, a dict a decision."""
    if isinstance(event, str):
        hole = rules.board.hole(event)
        assert hole in rules.legal_moves(state), f"{event} is not legal here"
        return rules.play(state, hole)
    kind = event["decision"]
    assert kind == "result" or state.awaiting == kind, f"{kind} is not awaited"
    if kind == "lot":
        return rules.draw_lot(state, Player.parse(event["winner"]))
    if kind == "next_round":
        allocation = event.get("allocation")
        owners = owners_from(rules, allocation) if allocation else None
        return rules.start_next_round(state, Player.parse(event["first_player"]), owners)
    winner = event["winner"]
    return rules.record_result(state, event["kind"], Player.parse(winner) if winner else None)


def replay(rules: Rules, state: State, events) -> State:
    for event in events:
        state = apply(rules, state, event)
        assert state.seeds == rules.total_seeds
    return state


def spec_view(rules: Rules, state: State) -> dict:
    """state_to_json less the fields examples.json does not carry."""
    out = state_to_json(rules, state)
    for extra in ("variant", "options", "round", "rounds", "result_reason"):
        out.pop(extra, None)
    if not out["legal_moves"]:
        out.pop("legal_moves")
    return out


# -- The generator of the recorded matches -------------------------------------------


def random_event(rules: Rules, state: State, rng: random.Random):
    """A uniformly random decision or sowing; sowings the lap cap rejects are skipped (GEN-35)."""
    if state.awaiting == "lot":
        return {"decision": "lot", "winner": rng.choice(PLAYERS).json}
    if state.awaiting == "next_round":
        return {"decision": "next_round", "first_player": rng.choice(PLAYERS).json}
    candidates = list(rules.legal_moves(state))
    while candidates:
        hole = rng.choice(candidates)
        try:
            rules.play(state, hole)
        except EndlessSowing:
            candidates.remove(hole)
            continue
        return rules.board.holes[hole]
    raise EndlessSowing("every legal sowing is capped: this seed cannot finish a match")


def random_match(options: dict, seed: int, max_events: int = 20_000):
    """A whole match by random choices: (first player, events, final state)."""
    rules, rng = LahemayWalida(options), random.Random(seed)
    first = rng.choice(PLAYERS)
    state, events = rules.start(first), list[Any]()
    while not state.game_over:
        assert len(events) < max_events, "the match is too long"
        event = random_event(rules, state, rng)
        state = apply(rules, state, event)
        events.append(event)
    return first, events, state


def fixture_record(name: str, description: str, options: dict, seed: int) -> dict:
    """A generated match in the fixtures' common shape: setup, commands, expect."""
    rules = LahemayWalida(options)
    first, events, state = random_match(options, seed)
    after = state_to_json(rules, state)
    return {
        "title": description,
        "generator": {"seed": seed, "policy": "random_match in tests/test_lahemay_walida.py"},
        "setup": {
            "variant": rules.name,
            "options": dict(rules.options),
            "south": "Selam",
            "north": "Mulu",
            "first_player": first.json,
        },
        "commands": [as_command(event) for event in events],
        "expect": {
            "result": after["result"],
            "rounds": after["round"],
            "final_stores": after["stores"],
            "state": after,
        },
    }


def as_command(event) -> dict:
    if isinstance(event, str):
        return {"type": "sow", "hole": event}
    return {"type": event["decision"], **{k: v for k, v in event.items() if k != "decision"}}


def as_event(command: dict):
    if command["type"] == "sow":
        return command["hole"]
    return {"decision": command["type"], **{k: v for k, v in command.items() if k != "type"}}


# name -> (description, options, seed). Each seed gives the shortest qualifying match
# (at least three rounds, holes changing hands, ended by LW-13) among seeds 0..299.
FIXTURE_GAMES: dict[str, tuple[str, dict[str, Any], int]] = {
    "threes-lot": (
        "group_size 3: three rounds, two lots (30/18 and 42/6), holes change hands, LW-13 ends it (48/0)",
        {"group_size": 3},
        251,
    ),
    "default": (
        "default options: three rounds (40/8, 44/4, 48/0), holes change hands, LW-13 ends it",
        {},
        89,
    ),
    "end-turn": (
        "after_final_capture end_turn: three rounds (36/12, 40/8, 48/0), LW-13 ends it",
        {"after_final_capture": "end_turn"},
        173,
    ),
}


def load_fixtures() -> list[dict]:
    """Each fixture with the vector-style view the tests below use (id, options, play, after)."""
    records = []
    for path in sorted(FIXTURES.glob("lahemay_walida-*.json")):
        raw = json.loads(path.read_text())
        records.append(
            {
                "id": path.stem,
                "raw": raw,
                "options": raw["setup"]["options"],
                "first_player": raw["setup"]["first_player"],
                "play": [as_event(command) for command in raw["commands"]],
                "after": raw["expect"]["state"],
            }
        )
    return records


# -- LW-1 .. LW-3: equipment and start -------------------------------------------------


def test_lw_1_board_seeds_and_empty_stores():
    state = DEFAULT.start(S)
    assert DEFAULT.board.name == "2x6"
    assert state.holes == (4,) * 12 and state.seeds == DEFAULT.total_seeds == 48
    assert state.stores == (0, 0)
    assert set(state.specials) == {None} and DEFAULT.special_kind is None


def test_lw_2_round_1_south_owns_row_1_north_row_2():
    state = DEFAULT.start(S)
    assert state.owners == (S,) * 6 + (N,) * 6
    assert state.round == 1 and state.rounds[0].holes == (6, 6)


def test_lw_3_first_player_recorded_at_setup_and_next_round():
    assert DEFAULT.start(N).to_move is N
    assert DEFAULT.start(N).rounds[0].first_player is N
    state = DEFAULT.start(S)._replace(awaiting="next_round", round_over=True, takings=(24, 24), hole_counts=(6, 6))
    assert DEFAULT.start_next_round(state, N).to_move is N
    assert DEFAULT.start_next_round(state, S).rounds[-1].first_player is S


def test_lw_options_defaults_and_invalid_values():
    assert DEFAULT.options == {"group_size": 4, "after_final_capture": "bonus_sowing"}
    for bad in ({"group_size": 5}, {"group_size": "4"}, {"group_size": 4.0}, {"after_final_capture": None}, {"x": 1}):
        with pytest.raises(InvalidRecord):
            LahemayWalida(bad)
    described = DEFAULT.describe()
    assert described["decisions"] == ["lot", "next_round", "result"]
    assert described["options"]["group_size"]["choices"] == [4, 3]


# -- LW-4, LW-5: legal sowings, direction and relays -----------------------------------


def test_lw_4_any_owned_non_empty_hole_including_ceded_ones():
    # Round 2: South owns e2 and f2 as well. f2 and a1 are empty.
    #   2:  1 1 1 1 1 0
    #   1:  0 2 2 2 2 2
    state = position(DEFAULT, "1 1 1 1 1 0", "0 2 2 2 2 2", (18, 15), round=2, owners={"f2": "south", "e2": "south"})
    assert legal(DEFAULT, state) == ["b1", "c1", "d1", "e1", "e2", "f1"]
    north = state._replace(to_move=N)
    assert legal(DEFAULT, north) == ["a2", "b2", "c2", "d2"]


def test_lw_5_first_move_sows_ccw_with_relays_lw_e1():
    # LW-E1: laps end in e1 (relay 5), c2 (5), c1 (6), d2 (6) and then the empty c1.
    trace: list = []
    state = DEFAULT.play(DEFAULT.start(S), DEFAULT.board.hole("a1"), trace)
    assert rows(state) == ("6 6 1 0 6 6", "2 7 1 6 1 6")
    assert state.stores == (0, 0) and state.to_move is N
    relays = [(step["hole"], step["seeds"]) for step in trace if step["step"] == "relayed"]
    assert relays == [("e1", 5), ("c2", 5), ("c1", 6), ("d2", 6)]
    assert trace[1]["hole"] == "b1"  # CCW from a1
    assert not any(step["step"] == "captured" for step in trace)


# -- LW-6 .. LW-8: groups made during a lap and at its end ------------------------------


def test_lw_6_group_made_mid_lap_goes_to_the_hole_owner_lw_e2():
    # LW-E2: South sows e1 (3): f1, then f2 3 -> 4 (North's, seed in hand), then e2 3 -> 4 last.
    #   2:  0 0 0 1 3 3      2:  0 0 0 1 0 0
    #   1:  2 0 0 0 3 0  ->  1:  2 0 0 0 0 1   S18 N18 -> S22 N22
    before = position(DEFAULT, "0 0 0 1 3 3", "2 0 0 0 3 0", (18, 18))
    trace: list = []
    state = DEFAULT.play(before, DEFAULT.board.hole("e1"), trace)
    captures = [(step["rule"], step["hole"], step["player"]) for step in trace if step["step"] == "captured"]
    assert captures == [("LW-6", "f2", "north"), ("LW-7", "e2", "south")]
    assert rows(state) == ("0 0 0 1 0 0", "2 0 0 0 0 1")
    assert state.stores == (22, 22)


def test_lw_6_credit_follows_the_current_owner():
    # Round 2, South owns f2. South sows e1 (3): f1, f2 3 -> 4 (South's now), e2 empty: turn ends.
    #   2:  2 2 2 2 0 3
    #   1:  2 2 2 2 3 0
    before = position(DEFAULT, "2 2 2 2 0 3", "2 2 2 2 3 0", (13, 13), round=2, owners={"f2": "south"})
    state = DEFAULT.play(before, DEFAULT.board.hole("e1"))
    assert state.stores == (17, 13)
    assert rows(state) == ("2 2 2 2 1 0", "2 2 2 2 0 1")
    default_owned = before._replace(owners=DEFAULT.board.default_owners, round=1)
    assert DEFAULT.play(default_owned, DEFAULT.board.hole("e1")).stores == (13, 17)


def test_lw_6_removal_counts_for_the_last_hole_gen_14():
    # South sows a1 (13). The first seed makes b1 4: South's group leaves b1 empty. The lap
    # goes round (a1 itself gets its 12th seed) and its 13th falls into b1, which now held 0.
    #   2:  0 0 0 0 0 0      2:  1 1 1 1 1 1
    #   1: 13 3 0 0 0 0  ->  1:  1 1 1 1 1 1   S16 N16 -> S20 N16
    before = position(DEFAULT, "0 0 0 0 0 0", "13 3 0 0 0 0", (16, 16))
    trace: list = []
    state = DEFAULT.play(before, DEFAULT.board.hole("a1"), trace)
    assert rows(state) == ("1 1 1 1 1 1", "1 1 1 1 1 1")
    assert state.stores == (20, 16) and state.to_move is N
    assert not any(step["step"] == "relayed" for step in trace)


def test_lw_6_group_size_3_lw_e2c():
    #   2:  0 0 0 1 2 2      2:  0 0 0 1 0 0
    #   1:  2 0 0 0 3 0  ->  1:  2 0 0 0 0 1   S19 N19 -> S22 N22
    before = position(THREES, "0 0 0 1 2 2", "2 0 0 0 3 0", (19, 19))
    state = THREES.play(before, THREES.board.hole("e1"))
    assert rows(state) == ("0 0 0 1 0 0", "2 0 0 0 0 1")
    assert state.stores == (22, 22) and state.to_move is S
    assert legal(THREES, state) == ["a1", "f1"]


def test_lw_7a_final_group_is_the_movers_and_a_bonus_follows_lw_e3():
    # LW-E3: North sows b2 into a2 and a1, where the last seed makes 4 in South's hole.
    #   2:  1 2 0 0 0 0      2:  2 0 0 0 0 0
    #   1:  3 3 2 0 0 0  ->  1:  0 3 2 0 0 0   S17 N20 -> S17 N24
    before = position(DEFAULT, "1 2 0 0 0 0", "3 3 2 0 0 0", (17, 20), to_move="north")
    trace: list = []
    state = DEFAULT.play(before, DEFAULT.board.hole("b2"), trace)
    assert rows(state) == ("2 0 0 0 0 0", "0 3 2 0 0 0")
    assert state.stores == (17, 24)
    assert state.to_move is N and legal(DEFAULT, state) == ["a2"]
    assert [step["step"] for step in trace[-2:]] == ["captured", "sow_again"]


def test_lw_7a_end_turn_option_lw_e2b():
    before = position(END_TURN, "0 0 0 1 3 3", "2 0 0 0 3 0", (18, 18))
    state = END_TURN.play(before, END_TURN.board.hole("e1"))
    assert state.stores == (22, 22)
    assert state.to_move is N and legal(END_TURN, state) == ["d2"]
    assert state.first_turn_of_round is False


def test_lw_7a_bonus_keeps_the_turn_lw_e2a():
    before = position(DEFAULT, "0 0 0 1 3 3", "2 0 0 0 3 0", (18, 18), first_turn_of_round=True)
    state = DEFAULT.play(before, DEFAULT.board.hole("e1"))
    assert state.to_move is S and legal(DEFAULT, state) == ["a1", "f1"]
    assert state.first_turn_of_round is True  # GEN-34: the turn has not ended


def test_lw_7b_last_seed_into_an_empty_hole_ends_the_turn():
    # South sows b1 (2): c1 0 -> 1, d1 0 -> 1 last, which held 0.
    before = position(DEFAULT, "4 4 4 4 4 4", "4 2 0 0 4 4", (10, 0))
    state = DEFAULT.play(before, DEFAULT.board.hole("b1"))
    assert rows(state) == ("4 4 4 4 4 4", "4 0 1 1 4 4")
    assert state.to_move is N and state.stores == (10, 0)


def test_lw_7c_relay_from_the_last_hole_whoever_owns_it():
    # South sows f1 (1) into f2 (1 -> 2): relay 2 from North's f2 into e2 and d2 (empty).
    before = position(DEFAULT, "4 4 4 0 0 1", "4 4 4 4 4 1", (14, 0))
    trace: list = []
    state = DEFAULT.play(before, DEFAULT.board.hole("f1"), trace)
    assert rows(state) == ("4 4 4 1 1 0", "4 4 4 4 4 0")
    assert [(step["hole"], step["seeds"]) for step in trace if step["step"] == "relayed"] == [("f2", 2)]


def test_lw_8_a_hole_already_holding_g_or_more_is_not_captured():
    # With threes, b1 (2) drops into c1 (3 -> 4) and d1 (4 -> 5): nothing is taken, and
    # the lap relays 5 from d1 into e1 f1 f2 e2 d2, ending in the empty d2.
    before = position(THREES, "0 0 0 0 0 0", "0 2 3 4 0 0", (20, 19))
    state = THREES.play(before, THREES.board.hole("b1"))
    assert rows(state) == ("0 0 0 1 1 1", "0 0 4 0 1 1")
    assert state.stores == (20, 19)
    # With fours, a 4 that gets a seed makes 5 (the first move of a round, LW-E1).
    first = DEFAULT.play(DEFAULT.start(S), DEFAULT.board.hole("a1"))
    assert first.stores == (0, 0)


# -- LW-9 .. LW-11: turns and the end of a round ---------------------------------------


def test_lw_9_the_opponent_moves_after_a_turn():
    state = DEFAULT.play(DEFAULT.start(S), DEFAULT.board.hole("a1"))
    assert state.to_move is N and not state.round_over


def test_lw_9_no_pass_the_round_ends_when_the_opponent_has_no_seeds_lw_e4():
    # LW-E4: f1 into f2 makes 4 (South's), bonus a1 into the empty b1; North owns nothing.
    #   2:  0 0 0 0 0 3      2:  0 0 0 0 0 0
    #   1:  1 0 0 0 0 1  ->  1:  0 1 0 0 0 0   S24 N19 -> S28 N19; takings 29 / 19
    before = position(DEFAULT, "0 0 0 0 0 3", "1 0 0 0 0 1", (24, 19))
    state = replay(DEFAULT, before, ["f1", "a1"])
    assert rows(state) == ("0 0 0 0 0 0", "0 1 0 0 0 0") and state.stores == (28, 19)
    assert state.round_over and state.to_move is None and state.awaiting == "next_round"
    assert state.takings == (29, 19) and state.hole_counts == (7, 5)
    assert not state.game_over


def test_lw_10_bonus_with_nothing_to_sow_lapses_and_the_opponent_moves():
    # South sows f1 (1) into f2, making 4: a bonus is due but South owns no seeds.
    before = position(DEFAULT, "5 0 0 0 0 3", "0 0 0 0 0 1", (20, 19))
    trace: list = []
    state = DEFAULT.play(before, DEFAULT.board.hole("f1"), trace)
    assert state.stores == (24, 19) and state.to_move is N
    assert legal(DEFAULT, state) == ["a2"]
    assert {"step": "bonus_lost", "rule": "LW-10", "player": "south"} in trace
    assert state.first_turn_of_round is False


def test_lw_10_lapsed_bonus_can_end_the_round_lw_a4():
    # Board empty after the capture: South's bonus lapses, North owns nothing, round over.
    before = position(DEFAULT, "0 0 0 0 0 3", "0 0 0 0 0 1", (20, 24))
    state = DEFAULT.play(before, DEFAULT.board.hole("f1"))
    assert state.round_over and state.takings == (24, 24) and state.hole_counts == (6, 6)


def test_lw_11_board_goes_to_the_last_mover_gen_39():
    # South sows a1 into the empty b1 and North owns no seeds: the 6 seeds go to South.
    before = position(DEFAULT, "0 0 0 0 0 0", "1 0 2 3 0 0", (20, 22))
    state = DEFAULT.play(before, DEFAULT.board.hole("a1"))
    assert rows(state) == ("0 0 0 0 0 0", "0 1 2 3 0 0")  # LW-E4: holes stay as sown
    assert state.stores == (20, 22)
    assert state.takings == (26, 22) and sum(state.takings) == 48
    # North sows e2 into the empty d2 and c2; South owns nothing: the 3 seeds are North's.
    before = position(DEFAULT, "0 0 0 0 2 1", "0 0 0 0 0 0", (20, 25), to_move="north")
    state = DEFAULT.play(before, DEFAULT.board.hole("e2"))
    assert rows(state) == ("0 0 1 1 0 1", "0 0 0 0 0 0")
    assert state.round_over and state.takings == (20, 28) and state.hole_counts == (5, 7)


def test_lw_11_takings_to_the_player_not_to_move():
    state = DEFAULT.start(S)._replace(holes=(0,) * 6 + (1, 2, 0, 0, 0, 0), stores=(25, 20))
    assert DEFAULT.takings(state, N) == (25, 23)
    assert DEFAULT.takings(state, S) == (28, 20)


# -- LW-12 .. LW-16: hole counts, lots, next rounds and the match -----------------------


def round_over(rules: Rules, takings: tuple[int, int]) -> State:
    state = rules.start(S)._replace(holes=(0,) * 12, stores=takings, first_turn_of_round=False)
    return rules.end_round(state, S)


@pytest.mark.parametrize(
    "takings, counts",
    [((24, 24), (6, 6)), ((29, 19), (7, 5)), ((19, 29), (5, 7)), ((31, 17), (8, 4)), ((40, 8), (10, 2))],
)
def test_lw_12_hole_counts_from_takings(takings, counts):
    state = round_over(DEFAULT, takings)
    assert state.hole_counts == counts and sum(counts) == 12
    assert state.awaiting == "next_round"


def test_lw_12_two_and_two_needs_a_lot_lw_e5b():
    state = round_over(DEFAULT, (30, 18))
    assert state.awaiting == "lot" and state.hole_counts is None and state.to_move is None
    assert DEFAULT.legal_moves(state) == ()
    after = DEFAULT.draw_lot(state, S)
    assert after.hole_counts == (8, 4) and after.awaiting == "next_round"
    assert after.rounds[-1].lot_winner is S
    assert DEFAULT.draw_lot(state, N).hole_counts == (7, 5)


@pytest.mark.parametrize("takings", [(48, 0), (47, 1)])
def test_lw_13_a_player_with_no_hole_loses_the_match(takings):
    state = round_over(DEFAULT, takings)
    assert state.game_over and state.outcome.winner is S and state.outcome.reason == "holes"
    out = state_to_json(DEFAULT, state)
    assert out["hole_counts"] == {"south": 12, "north": 0} and out["result"] == "south_wins"
    assert "awaiting" not in out and "score" not in out  # GEN-33


def test_lw_13_two_seeds_and_a_lost_lot_lose_the_match():
    state = round_over(DEFAULT, (2, 46))
    assert state.awaiting == "lot"
    lost = DEFAULT.draw_lot(state, N)
    assert lost.game_over and lost.outcome.winner is N and lost.hole_counts == (0, 12)
    won = DEFAULT.draw_lot(state, S)
    assert not won.game_over and won.hole_counts == (1, 11)


def test_lw_13_match_ends_on_the_board_by_a_sowing():
    # South's f1 makes 4 in f2 (S 48); the bonus lapses and North owns nothing: 48 / 0.
    before = position(DEFAULT, "0 0 0 0 0 3", "0 0 0 0 0 1", (44, 0))
    trace: list = []
    state = DEFAULT.play(before, DEFAULT.board.hole("f1"), trace)
    assert state.game_over and state.outcome.winner is S
    assert trace[-1] == {"step": "match_ended", "rule": "LW-13", "winner": "south"}
    assert trace[-2]["rule"] == "LW-9" and trace[-2]["step"] == "round_ended"


def test_lw_14_default_allocation_the_poorer_keeps_his_rightmost_holes_lw_e5a():
    # LW-E5a: North has 5 holes, keeps a2..e2; f2 (his leftmost) goes to South.
    before = round_over(DEFAULT, (29, 19))
    state = DEFAULT.start_next_round(before, N)
    assert state_to_json(DEFAULT, state)["owners"] == {"f2": "south"}
    assert legal(DEFAULT, state) == ["a2", "b2", "c2", "d2", "e2"]
    # South with 4 holes keeps c1..f1; a1 and b1 go to North.
    state = DEFAULT.start_next_round(round_over(DEFAULT, (16, 32)), S)
    assert state_to_json(DEFAULT, state)["owners"] == {"a1": "north", "b1": "north"}
    assert legal(DEFAULT, state) == ["c1", "d1", "e1", "f1"]


def test_lw_14_default_allocation_is_counted_from_the_default_ownership_gen_38():
    second = DEFAULT.start_next_round(round_over(DEFAULT, (16, 32)), S)
    ended = DEFAULT.end_round(second._replace(holes=(0,) * 12, stores=(28, 20)), S)
    third = DEFAULT.start_next_round(ended, N)
    assert state_to_json(DEFAULT, third)["owners"] == {"f2": "south"}
    assert third.rounds[-1].holes == (7, 5) and third.round == 3


def test_lw_14_recorded_allocation_lw_e5b():
    before = DEFAULT.draw_lot(round_over(DEFAULT, (30, 18)), S)
    allocation = {"south": ["a1", "b1", "c1", "d1", "e1", "f1", "a2", "f2"], "north": ["b2", "c2", "d2", "e2"]}
    state = DEFAULT.start_next_round(before, N, owners_from(DEFAULT, allocation))
    assert state_to_json(DEFAULT, state)["owners"] == {"a2": "south", "f2": "south"}
    assert state.to_move is N and legal(DEFAULT, state) == ["b2", "c2", "d2", "e2"]


def test_lw_15_new_round_refills_four_a_hole_and_empties_the_stores():
    before = position(
        DEFAULT,
        "0 0 0 0 0 0",
        "0 1 0 0 0 0",
        (28, 19),
        to_move=None,
        awaiting="next_round",
        round_over=True,
        takings={"south": 29, "north": 19},
    )
    for rules in (DEFAULT, THREES):
        state = rules.start_next_round(before, S)
        assert state.holes == (4,) * 12 and state.stores == (0, 0)
        assert state.round == 2 and state.first_turn_of_round and not state.round_over
        assert state.takings is None and state.hole_counts is None and state.awaiting is None
        assert state.rounds[-1].number == 2 and state.rounds[-1].holes == (7, 5)


def test_lw_16_match_goes_on_until_lw_13_or_a_result():
    state = round_over(DEFAULT, (44, 4))
    assert not state.game_over and state.awaiting == "next_round"
    ended = DEFAULT.record_result(state, "resignation", N)
    out = state_to_json(DEFAULT, ended)
    assert out["game_over"] and out["result"] == "north_wins" and out["result_reason"] == "resignation"
    assert out["takings"] == {"south": 44, "north": 4} and "awaiting" not in out  # GEN-32
    mid = DEFAULT.play(DEFAULT.start(S), DEFAULT.board.hole("a1"))
    drawn = DEFAULT.record_result(mid, "agreement", None)
    assert drawn.game_over and drawn.outcome.winner is None and drawn.holes == mid.holes


# -- GEN-16, GEN-35: relays that never end --------------------------------------------


def test_lw_5_endless_relay_hits_the_lap_cap_gen_16_gen_35():
    # f1 (2) starts a wave of relays that circles for ever; the hole is still legal.
    #   2:  2 0 1 0 1 0
    #   1:  1 0 1 0 1 2
    before = position(DEFAULT, "2 0 1 0 1 0", "1 0 1 0 1 2", (39, 0))
    assert "f1" in legal(DEFAULT, before)
    with pytest.raises(EndlessSowing):
        DEFAULT.play(before, DEFAULT.board.hole("f1"))
    with pytest.raises(EndlessSowing):
        DEFAULT.play(before, DEFAULT.board.hole("f1"), [])
    assert DEFAULT.play(before, DEFAULT.board.hole("a1")).to_move is N


# -- The worked examples, as machine-readable vectors ---------------------------------


def lw_vectors() -> list[dict]:
    if not EXAMPLES.exists():
        return []
    return [e for e in json.loads(EXAMPLES.read_text()) if e["variant"] == "lahemay_walida"]


@pytest.mark.skipif(not EXAMPLES.exists(), reason="shared/rules/examples.json is not beside the repository")
@pytest.mark.parametrize("vector", lw_vectors(), ids=lambda v: v["id"])
def test_lw_examples_json_vectors(vector):
    rules = LahemayWalida(vector["options"])
    state = replay(rules, position_from_json(rules, vector["before"]), vector["play"])
    assert spec_view(rules, state) == vector["after"]


def test_lw_examples_cover_every_worked_example():
    if not EXAMPLES.exists():
        pytest.skip("shared/rules/examples.json is not beside the repository")
    ids = {"LW-E1", "LW-E2a", "LW-E2b", "LW-E2c", "LW-E3", "LW-E4", "LW-E5a", "LW-E5b"}
    assert {v["id"] for v in lw_vectors()} == ids


# -- Recorded matches (fixtures/games) ------------------------------------------------


def test_lw_fixtures_exist_for_every_generated_match():
    assert {f["id"] for f in load_fixtures()} == {f"lahemay_walida-{name}" for name in FIXTURE_GAMES}


@pytest.mark.parametrize("record", load_fixtures(), ids=lambda r: r["id"])
def test_lw_fixture_replays_to_its_recorded_end(record):
    rules = LahemayWalida(record["options"])
    state = replay(rules, rules.start(Player.parse(record["first_player"])), record["play"])
    assert state.game_over
    assert state_to_json(rules, state) == record["after"]


@pytest.mark.parametrize("record", load_fixtures(), ids=lambda r: r["id"])
def test_lw_fixture_is_what_its_seed_generates(record):
    description, options, seed = FIXTURE_GAMES[record["id"].removeprefix("lahemay_walida-")]
    assert record["raw"] == fixture_record(record["id"].removeprefix("lahemay_walida-"), description, options, seed)


def test_lw_fixture_match_has_rounds_ownership_changes_a_lot_and_ends_by_lw_13():
    record = next(f for f in load_fixtures() if f["id"] == "lahemay_walida-threes-lot")
    after = record["after"]
    assert after["round"] >= 3 and after["result_reason"] == "holes" and 0 in after["hole_counts"].values()
    assert any(r["holes"] != {"south": 6, "north": 6} for r in after["rounds"])
    lots = [r for r in after["rounds"] if r["lot_winner"] is not None]
    assert lots and all(t % 4 == 2 for r in lots for t in r["takings"].values())
    assert any(e == {"decision": "lot", "winner": lots[0]["lot_winner"]} for e in record["play"])


# -- Random playouts -------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"group_size": 3}, {"after_final_capture": "end_turn"}])
@pytest.mark.parametrize("seed", range(5))
def test_lw_random_matches_conserve_seeds_and_replay_the_same(options, seed):
    rules = LahemayWalida(options)
    first, events, final = random_match(options, seed)
    state = rules.start(first)
    for event in events:
        state = apply(rules, state, event)
        assert state.seeds == 48 and all(n >= 0 for n in state.holes)
        assert state.to_move is None or rules.legal_moves(state)  # LW-9: nobody passes
        if state.takings is not None:
            assert sum(state.takings) == 48  # LW-11
    assert state == final and state.outcome.reason == "holes"


@pytest.mark.parametrize("seed", range(5))
def test_lw_12_with_fours_from_the_start_remainders_are_always_zero(seed):
    # Every capture is 4 seeds, so each store and both takings are multiples of 4: no lot.
    _, events, final = random_match({}, seed)
    assert all(r.takings[0] % 4 == 0 for r in final.rounds)
    assert not any(isinstance(e, dict) and e["decision"] == "lot" for e in events)


def test_lw_trace_is_the_same_play_as_the_untraced_one():
    rules, rng = THREES, random.Random(7)
    state = rules.start(S)
    for _ in range(200):
        if state.to_move is None:
            break
        hole = rng.choice(rules.legal_moves(state))
        trace: list = []
        traced = rules.play(state, hole, trace)
        assert traced == rules.play(state, hole)
        state = traced


if __name__ == "__main__":
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name, (description, options, seed) in FIXTURE_GAMES.items():
        path = FIXTURES / f"lahemay_walida-{name}.json"
        path.write_text(json.dumps(fixture_record(name, description, options, seed), indent=1) + "\n")
        print("wrote", path)
