"""Whole random matches of the three match games (Selus, Lahemay Walida, Tuz), fixed seeds.

Every event is recorded as the fold's events and replayed at the end: seeds are conserved
after every event, ownership is the round's allocation (recorded or default, SEL-17,
LW-14, TUZ-14) and never changes within a round (GEN-7), replay equals the live state,
and every match ends — on the board (SEL-16, LW-13, TUZ-13), or, when it is still going
after a bounded number of rounds or every legal sowing never ends (GEN-35), by a recorded
adjudication (GEN-28), which is how the service reports a match that needs one.
"""

import random

import pytest

from recorder.core.events import GameCreated, ResultRecorded, RoundStarted
from recorder.core.game import allocation_owners, apply_move, replay
from recorder.core.playout import random_move
from recorder.errors import EndlessSowing
from recorder.rules import rules_for
from recorder.rules.board import PLAYERS
from recorder.rules.rounds import default_allocation

# Random play balances the players, so matches run long (a Selus one often passes 300
# rounds); past these bounds the harness records an adjudication, as an arbiter would.
MAX_ROUNDS = 300
MAX_EVENTS = 20_000

MATCHES = [
    ("selus", {}),
    ("selus", {"weak_wegues": True, "wegue_block": "first_turn_each_player", "empty_wegue_landing": "leave_seed"}),
    ("lahemay_walida", {}),
    ("lahemay_walida", {"group_size": 3}),
    ("tuz", {}),
    ("tuz", {"after_tuz_capture": "end_turn"}),
]


def check_ownership(rules, before, after, event):
    if isinstance(event, RoundStarted):
        expected = allocation_owners(rules, event.allocation) or default_allocation(
            rules.board.default_owners, rules.CEDE_ORDER, before.hole_counts
        )
        assert after.owners == expected
    else:
        assert after.owners == before.owners  # GEN-7: never during a round


def play_match(variant, options, seed):
    rules, rng = rules_for(variant, options), random.Random(seed)
    first = rng.choice(PLAYERS)
    setup = GameCreated(variant, rules.options, "S", "N", first_player=first.json)
    state, events = rules.start(first), [setup]
    while not state.game_over:
        move = None
        if state.round <= MAX_ROUNDS and len(events) < MAX_EVENTS:
            move = random_move(rules, state, rng, allocations=0.3)
        if move is None:  # bounded, or every legal sowing never ends (GEN-35)
            adjudication = ResultRecorded("adjudication", None, "bounded random match")
            move = adjudication, apply_move(rules, state, adjudication)
        event, after = move
        assert after.seeds == rules.total_seeds
        check_ownership(rules, state, after, event)
        state = after
        events.append(event)
    return rules, events, state


@pytest.mark.parametrize("variant, options", MATCHES, ids=lambda v: str(v))
def test_gen_27_random_matches_end_conserve_seeds_keep_allocations_and_replay(variant, options):
    endings = {"holes": 0, "adjudication": 0}
    for seed in range(6):
        rules, events, state = play_match(variant, options, seed)
        assert state.game_over and state.outcome.reason in endings
        endings[state.outcome.reason] += 1
        assert replay("g", enumerate(events, start=1)).state == state
        if state.outcome.reason == "holes":
            assert 0 in state.hole_counts  # SEL-16, LW-13, TUZ-13
    assert endings["holes"] > 0, endings  # real match ends happen in every configuration
    print(f"{variant} {options}: {endings}")


def test_gen_35_a_position_where_every_sowing_never_ends_needs_adjudication(api):
    #   2:   2   4   1   3   0   2      The endless Tuz relay worked out by hand in
    #   1:   5   2   0   3   1   4      test_tuz.py: lifting a1, every lap relays 5 and the
    # board repeats five holes on. In this round 2, South owns only a1 and c1 (empty), so
    # a1 is his only legal sowing, and it never ends: the game needs a recorded result.
    ccw = "a1 b1 c1 d1 e1 f1 f2 e2 d2 c2 b2 a2".split()
    holes = dict(zip(ccw, [5, 2, 0, 3, 1, 4, 2, 0, 3, 1, 4, 2]))
    north_now = {hole: "north" for hole in ("b1", "d1", "e1", "f1")}
    position = {
        "holes": holes,
        "specials": {},
        "owners": north_now,
        "stores": {"south": 11, "north": 10},
        "to_move": "south",
        "first_turn_of_round": False,
        "round": 2,
    }
    game = api.create(variant="tuz", south="S", north="N", position=position)
    assert game["state"]["legal_moves"] == ["a1"]
    assert game["state"]["needs_adjudication"] is True
    sow = {"type": "sow", "hole": "a1", "expected_version": 1}
    refused = api.client.post(f"/api/games/{game['id']}/commands", json=sow)
    assert refused.status_code == 422 and refused.get_json()["title"] == "Sowing never ends"
    state = api.command(game["id"], type="result", kind="adjudication", winner=None)["state"]
    assert state["game_over"] and "needs_adjudication" not in state


def test_gen_35_one_endless_hole_among_others_needs_no_adjudication():
    # The same board in round 1: South may also sow b1, d1, e1 and f1, which end.
    rules = rules_for("tuz")
    from recorder.rules.positions import position_from_json

    ccw = "a1 b1 c1 d1 e1 f1 f2 e2 d2 c2 b2 a2".split()
    position = {
        "holes": dict(zip(ccw, [5, 2, 0, 3, 1, 4, 2, 0, 3, 1, 4, 2])),
        "specials": {},
        "owners": {},
        "stores": {"south": 11, "north": 10},
        "to_move": "south",
        "first_turn_of_round": False,
    }
    state = position_from_json(rules, position)
    with pytest.raises(EndlessSowing):
        rules.play(state, rules.board.hole("a1"))
    assert not rules.needs_adjudication(state)
