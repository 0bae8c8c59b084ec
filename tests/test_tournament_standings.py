"""Standings: points, match results with round and hole differences, tiebreaks, ranks.

Pure tests build a tournament by folding decided events; the match test plays Lahemay
Walida games through the API (fixtures/games/lahemay_walida-default.json, whose round
table is in the fixture: holes 6-6, then 10-2, 11-1, and 12-0 when south wins, LW-13).
"""

from fractions import Fraction

import pytest
from tournament_support import Organiser, fixture_commands, make_app, table

from recorder.rules.board import Player
from recorder.rules.state import Outcome, RoundRecord, State
from recorder.tournaments.decide import decide_create, decide_pair, decide_register
from recorder.tournaments.fold import Forfeit, apply, start
from recorder.tournaments.results import PairingResult, result_of_forfeit, result_of_state
from recorder.tournaments.standings import standings


def tournament(format_: str, names: list[str], **extra):
    t = start("t-unit", decide_create({"name": "T", "variant": "qelat", "format": format_, **extra}))
    for name in names:
        (event,) = decide_register(t, {"name": name})
        t = apply(t, event, t.version + 1)
    return t


def pair(t, outcomes, **body):
    for event in decide_pair(t, outcomes, body):
        t = apply(t, event, t.version + 1)
    return t


def match_state(rounds, hole_counts, winner):
    return State(
        holes=(),
        owners=(),
        specials=(),
        stores=(0, 0),
        to_move=None,
        rounds=tuple(rounds),
        hole_counts=hole_counts,
        game_over=True,
        outcome=Outcome(winner, "holes"),
    )


def test_lw_13_match_rounds_won_and_holes_held():
    # LW default fixture: 6-6 -> 10-2 (south gains), 10-2 -> 11-1 (south), 11-1 -> 12-0 (south).
    state = match_state(
        [
            RoundRecord(1, Player.SOUTH, (6, 6), (40, 8)),
            RoundRecord(2, Player.NORTH, (10, 2), (44, 4)),
            RoundRecord(3, Player.NORTH, (11, 1), (48, 0)),
        ],
        (12, 0),
        Player.SOUTH,
    )
    assert result_of_state(state) == PairingResult("south_wins", True, rounds_won=(3, 0), holes=(12, 0))


def test_sel_16_round_lost_then_won_back_counts_both_ways():
    # selus-rounds-1372: 9-9 -> 11-7 (S) -> 13-5 (S) -> 4-14 (N) -> 0-18 (N): 2 rounds each.
    state = match_state(
        [
            RoundRecord(1, Player.SOUTH, (9, 9)),
            RoundRecord(2, Player.SOUTH, (11, 7)),
            RoundRecord(3, Player.NORTH, (13, 5)),
            RoundRecord(4, Player.SOUTH, (4, 14)),
        ],
        (0, 18),
        Player.NORTH,
    )
    assert result_of_state(state) == PairingResult("north_wins", True, rounds_won=(2, 2), holes=(0, 18))


def test_gen_28_result_in_a_round_not_counted_keeps_the_last_count():
    # Resigned during round 2: only round 1 (6-6 -> 8-4) is counted.
    state = match_state([RoundRecord(1, Player.SOUTH, (6, 6)), RoundRecord(2, Player.NORTH, (8, 4))], None, None)
    state = state._replace(outcome=Outcome(Player.NORTH, "resignation"))
    assert result_of_state(state) == PairingResult("north_wins", True, rounds_won=(1, 0), holes=(8, 4))
    assert result_of_state(state._replace(outcome=Outcome(Player.NORTH, "forfeit"))).played is False
    assert result_of_state(state._replace(game_over=False)) is None


def test_direct_encounter_only_when_every_tied_player_has_met():
    # Manual round 1: 1-2 (1 wins), 3-4 (3 wins). 1 and 3 tie on 1 point but never met.
    t = tournament("manual", ["A", "B", "C", "D"], rounds=1, tiebreaks=["direct_encounter"])
    t = pair(t, {}, boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}])
    outcomes = {(1, 1): PairingResult("south_wins", True), (1, 2): PairingResult("south_wins", True)}
    ranked = standings(t, outcomes)
    assert [(s.rank, s.number, s.tiebreaks["direct_encounter"]) for s in ranked] == [
        (1, 1, 0),
        (1, 3, 0),
        (3, 2, 0),
        (3, 4, 0),
    ]


def test_forfeit_and_bye_count_as_unplayed_rounds_in_buchholz():
    # Manual round: 1-2 decided by forfeit (1 wins), 3 has a bye of 1 point, 4 is absent.
    # Scores 1: 1, 2: 0, 3: 1, 4: 0. Unplayed rounds count the player's own score:
    # Buchholz 1: 1, 2: 0, 3: 1, 4: 0; SB 1: 1x1, 3: 1x1; wins: the forfeit counts, the bye not.
    t = tournament("manual", ["A", "B", "C", "D"], rounds=1, tiebreaks=["buchholz", "sonneborn_berger", "wins"])
    t = pair(t, {}, boards=[{"south": 1, "north": 2}], byes=[{"player": 3, "points": 1}])
    outcomes = {(1, 1): result_of_forfeit(Forfeit("south_wins", "forfeit"))}
    ranked = {s.number: (s.points, s.tiebreaks) for s in standings(t, outcomes)}
    assert ranked[1] == (1, {"buchholz": 1, "sonneborn_berger": 1, "wins": 1})
    assert ranked[3] == (1, {"buchholz": 1, "sonneborn_berger": 1, "wins": 0})
    assert ranked[4] == (0, {"buchholz": 0, "sonneborn_berger": 0, "wins": 0})


def test_double_forfeit_scores_nothing_and_pending_games_count_nothing_yet():
    t = tournament("manual", ["A", "B", "C", "D"], rounds=1)
    t = pair(t, {}, boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}])
    ranked = standings(t, {(1, 1): PairingResult("double_forfeit", False)})
    assert {s.number: s.points for s in ranked} == {1: 0, 2: 0, 3: 0, 4: 0}
    assert all(isinstance(s.points, Fraction) for s in ranked)


# --------------------------------------------------------------------------- API, matches


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def test_lw_match_results_count_with_round_and_hole_differences_as_tiebreaks(client):
    admin = Organiser(client)
    t = admin.create(name="Gondar Walida", variant="lahemay_walida", format="round_robin")
    assert t["tiebreaks"] == ["DE", "WIN", "SB", "KS", "round_difference", "hole_difference"]  # C.07's, then a match's
    older = ["direct_encounter", "sonneborn_berger", "wins", "round_difference", "hole_difference"]
    admin._call("PUT", f"/api/tournaments/{t['id']}/tiebreaks", 200, {"tiebreaks": older})  # the list worked by hand
    admin.add_players(t["id"], "Abeba", "Berhane", "Chaltu", "Dawit")
    lw = fixture_commands("lahemay_walida-default")
    # Berger (4): R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1.
    admin.pair(t["id"])
    game = admin.start(t["id"], 1, 1)
    admin.play(game["id"], lw)  # 1 (south) wins the match 3 rounds to 0, holes 12-0
    game = admin.start(t["id"], 1, 2)
    admin.play(game["id"], lw[:64])  # round 1 over: 2 (south) 10 holes, 3 (north) 2
    admin.command(game["id"], type="result", kind="resignation", winner="north")  # 3 wins the match
    for round_number in (2, 3):
        admin.pair(t["id"])
        for board in (1, 2):
            game = admin.start(t["id"], round_number, board)
            admin.command(game["id"], type="result", kind="agreement", winner=None)
    # Points: 1: 1+½+½ = 2, 3: 1+½+½ = 2, 2: 0+½+½ = 1, 4: 0+½+½ = 1.
    # {1, 3}: drew each other (DE ½), SB 1: 1x1 + 1x½ + 2x½ = 2.5, 3: 1x1 + 1x½ + 2x½ = 2.5,
    #   one win each; rounds 1: +3 (won 3-0), 3: -1 (lost the only counted round) -> 1 first.
    # {2, 4}: DE ½, SB 2: 0 + 2x½ + 1x½ = 1.5, 4: 0 + 2x½ + 1x½ = 1.5, no wins;
    #   rounds 2: +1, 4: -3 -> 2 first. Holes: 1 +12, 3 -8, 2 +8, 4 -12.
    fields = ("direct_encounter", "sonneborn_berger", "wins", "round_difference", "hole_difference")
    assert table(admin.standings(t["id"]), *fields) == [
        (1, 1, 2, 0.5, 2.5, 1, 3, 12),
        (2, 3, 2, 0.5, 2.5, 1, -1, -8),
        (3, 2, 1, 0.5, 1.5, 0, 1, 8),
        (4, 4, 1, 0.5, 1.5, 0, -3, -12),
    ]
