"""Acceptance: a five-round Swiss for nine players (so someone has a bye every round),
created, paired, played through the API and finished, checked against a hand pairing.

Gabata, default options. Players 1..9 are rated 2000, 1950, ... 1600, so the initial
ranking is the starting number. A bye scores 1. South wins on the board by replaying
fixtures/games/gabata-default.json; the other results are GEN-28 ``result`` commands;
one board is a forfeit recorded in the tournament (no game). The pairing rules used by
hand are FIDE's Dutch system as docs/tournaments.md states it (C.04.3).
"""

import pytest
from tournament_support import Organiser, fixture_commands, make_app, seats, table

PLAYERS = [
    (name, 2000 - 50 * i)
    for i, name in enumerate(["Abeba", "Berhane", "Chaltu", "Dawit", "Eleni", "Fikru", "Genet", "Hailu", "Iyasu"])
]

BOARD = "board"  # south wins on the board (the Gabata fixture)
FORFEIT = "forfeit"  # south wins by forfeit, recorded in the tournament

# Round by round: the pairing worked by hand, then the results played.
#
# R1. Everyone 0; the bye goes to the lowest-ranked, 9. S1 = 1 2 3 4, S2 = 5 6 7 8:
#     1-5 2-6 3-7 4-8; no colour history, so board 1 gives the higher-ranked south,
#     board 2 north, board 3 south, board 4 north: 1-5, 6-2, 3-7, 8-4.
#     Results: 1 wins, 2 wins, 3=7, 4 wins.
# R2. Scores 1: 1 2 4 9 (bye); ½: 3 7; 0: 5 6 8. Bye: lowest score without one, lowest
#     ranked: 8. Group 1 pt: S1 = 1 2, S2 = 4 9 -> 1-4, 2-9. Group ½: 3 and 7 have met,
#     both float: 3-5, 7-6. Boards by score: 1-4, 2-9, 3-5, 7-6.
#     Seats: 1 (had S) wants N, 4 (had N) wants S -> 4-1; 2 wants S, 9 has none -> 2-9;
#     3 wants N, 5 wants S -> 5-3; 7 wants S, 6 wants N -> 7-6.
#     Results: 1 wins (north), 2 wins (south), 5 wins (south), 7=6.
# R3. Scores 2: 1 2; 1: 4 5 7 8 9; ½: 3 6. Bye: 6 (lowest score, lower-ranked than 3).
#     Prefs: 1 mild S, 2 mild N, 3 mild S, 4 5 7 mild N, 8 strong N (S, bye), 9 strong S.
#     1-2. Group 1 pt (5 players): one floats to 3 (C.5); 3 has met 5 and 7, so 4, 8 or 9.
#     Colour misses in the group (C.10): 9 down leaves 4 5 7 8, all wanting N: 2 misses;
#     4 down or 8 down: 1. No floats yet (A.4.b: byes and forfeits give none), so the
#     transpositions decide: S1 = 4 5, S2 = 7 8 9; S2 as 7 9 8 (4-7, 5-9, 8 down) is the
#     first with one miss. (The old first-found search paired 4-7, 5-8, 9-3: three misses.)
#     Seats: 1-2 both granted; 4 and 7 both mildly N, identical histories: the higher-ranked
#     4 gets it (E.4) -> 7-4; 9-5 both granted; 3 S, 8 N -> 3-8.
#     Boards: 1-2, then 7-4 and 9-5 (equal scores, 4 ranks before 5), 3-8.
#     Results: 1=2, 4 wins (north), 9 wins (south), 3 wins by forfeit.
# R4. Scores 2.5: 1 2; 2: 4 9; 1.5: 3 6; 1: 5 7 8. Had a bye or a forfeit win (C.2): 3 6 8 9.
#     1 and 2 have met: both float (C.5) to 4 9; 1-4 and 2-9 have met: 1-9, 2-4. Then 3-6.
#     5 7 8: 8 had a bye, so 5 or 7 sits out. Prefs: 5 strong S, 7 absolute N (S, S),
#     8 strong N: bye 5 leaves 7-8 (8's strong N missed); bye 7 leaves 5-8, both granted.
#     Seats: 1 strong N -> 9-1; 2 and 4 both strongly S, identical histories: the higher-
#     ranked 2 (E.4) -> 2-4; 3 and 6 both mildly S, identical: 3 -> 3-6; 5-8 both granted.
#     Results: 1 wins (north), 2=4, 3 wins (south), 8 wins (north).
# R5 (the last: topscorers are above 2 points, A.7: 1 2 3 4). Scores 3.5: 1; 3: 2;
#     2.5: 3 4; 2: 7 8 9; 1.5: 6; 1: 5. Eligible for the bye: 1 2 4 5 -> 5, the lowest.
#     1, 2 float (C.5); in the 2.5 bracket 1-4 and 2-4 have met, so two of 1 2 3 4 float
#     on: pair 1-3 (2 and 4 down), 2-3 (1 and 4) or 3-4 (1 and 2). C.6, largest score
#     differences first: 1-3, 2-7, 4-9, 8-6 gives 1, 1, 1 points and halves; the others
#     need a 1½-point pair (1 against a 2-pointer). 2 can meet 7 or 8, 4 only 9 (of 7 8 9),
#     and 6 has met 7: 2-7, 4-9, 8-6.
#     Seats: 1 mild S, 3 strong N -> 1-3; 7 absolute N -> 2-7; 4 absolute S, 9 absolute N
#     -> 4-9; 6 absolute S over 8's mild -> 6-8.
#     Results: 1=3, 7 wins (north), 9 wins (north), 6 wins (south).
ROUNDS = [
    (
        [(1, 5), (6, 2), (3, 7), (8, 4)],
        9,
        [BOARD, ("resignation", "north"), ("agreement", None), ("resignation", "north")],
    ),
    ([(4, 1), (2, 9), (5, 3), (7, 6)], 8, [("resignation", "north"), BOARD, BOARD, ("agreement", None)]),
    ([(1, 2), (7, 4), (9, 5), (3, 8)], 6, [("agreement", None), ("adjudication", "north"), BOARD, FORFEIT]),
    (
        [(9, 1), (2, 4), (3, 6), (5, 8)],
        7,
        [("resignation", "north"), ("agreement", None), BOARD, ("resignation", "north")],
    ),
    (
        [(1, 3), (2, 7), (4, 9), (6, 8)],
        5,
        [("agreement", None), ("resignation", "north"), ("resignation", "north"), BOARD],
    ),
]


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def play(arbiter: Organiser, tournament_id: str, round_number: int, results: list):
    for board, how in enumerate(results, start=1):
        if how == FORFEIT:
            arbiter.forfeit(tournament_id, round_number, board, "south_wins")
            continue
        game = arbiter.start(tournament_id, round_number, board)
        if how == BOARD:
            arbiter.play(game["id"], fixture_commands("gabata-default"))
        else:
            arbiter.command(game["id"], type="result", kind=how[0], winner=how[1])


def test_nine_player_five_round_swiss_pairings_standings_and_tiebreaks_by_hand(client):
    admin = Organiser(client)
    # Worked by hand from the 2017 text (no downfloat for the bye), which the tournament names.
    t = admin.create(
        name="Asmara Swiss", variant="gabata", format="swiss", rounds=5, site="Asmara", pairing_rules="dutch-2017"
    )
    arbiter = Organiser(client, admin.issue_token(t["id"], "Arbiter Tesfay")["token"])
    assert arbiter.add_players(t["id"], *PLAYERS) == list(range(1, 10))
    # The organiser's order, fixed before round 1.
    order = ["direct_encounter", "buchholz", "sonneborn_berger", "wins"]
    response = client.put(
        f"/api/tournaments/{t['id']}/tiebreaks",
        json={"tiebreaks": order},
        headers={"Authorization": f"Bearer {arbiter.token}"},
    )
    assert response.status_code == 200 and response.get_json()["tiebreaks"] == order

    for number, (boards, bye, results) in enumerate(ROUNDS, start=1):
        paired = arbiter.pair(t["id"])
        assert (paired["method"], seats(paired), [b["number"] for b in paired["byes"]]) == ("swiss", boards, [bye])
        assert paired["byes"][0]["points"] == 1
        play(arbiter, t["id"], number, results)
        if number == 1:  # too late to change the order now
            again = client.put(
                f"/api/tournaments/{t['id']}/tiebreaks",
                json={"tiebreaks": ["wins"]},
                headers={"Authorization": f"Bearer {arbiter.token}"},
            )
            assert again.status_code == 422

    standings = admin.standings(t["id"])
    assert standings["status"] == "finished"
    # Final scores (byes 1; R3 3 beat 8 by forfeit):
    #   1: W5 W4 D2 W9 D3 = 4      2: W6 W9 D1 D4 L7 = 3      3: D7 L5 +8 W6 D1 = 3
    #   4: W8 L1 W7 D2 L9 = 2.5    5: L1 W3 L9 L8 bye = 2     6: L2 D7 bye L3 W8 = 2.5
    #   7: D3 D6 L4 bye W2 = 3     8: L4 bye -3 W5 L6 = 2     9: bye L2 W5 L1 W4 = 3
    # Direct encounter (ties on points): {2, 3, 7, 9}: 2 and 3 never met; {4, 6} never met
    # -> 0; {5, 8}: 8 beat 5 -> 8: 1, 5: 0.
    # Buchholz: opponents' scores; an unplayed round (bye, forfeit) counts the player's own:
    #   1: 2+2.5+3+3+3 = 13.5       2: 2.5+3+4+2.5+3 = 15      3: 3+2+3+2.5+4 = 14.5
    #   4: 2+4+3+3+3 = 15           5: 4+3+3+2+2 = 14          6: 3+3+2.5+3+2 = 13.5
    #   7: 3+2.5+2.5+3+3 = 14       8: 2.5+2+2+2+2.5 = 11      9: 3+3+2+4+2.5 = 14.5
    # Sonneborn-Berger: opponent's score x points (unplayed: own score x points):
    #   1: 2+2.5+1.5+3+1.5 = 10.5   2: 2.5+3+2+1.25+0 = 8.75   3: 1.5+0+3+2.5+2 = 9
    #   4: 2+0+3+1.5+0 = 6.5        5: 0+3+0+0+2 = 5           6: 0+1.5+2.5+0+2 = 6
    #   7: 1.5+1.25+0+3+3 = 8.75    8: 0+2+0+2+0 = 4           9: 3+0+2+0+2.5 = 7.5
    # Wins (on the board or by forfeit, not byes): 1:3 2:2 3:2 4:2 5:1 6:1 7:1 8:1 9:2.
    # Order: 1 (4); 3 points: 2 (Buchholz 15), 3 and 9 (14.5; SB 9 > 7.5), 7 (14);
    # 2.5: 4 (15) before 6 (13.5); 2 points: 8 before 5 on direct encounter.
    assert table(standings, "direct_encounter", "buchholz", "sonneborn_berger", "wins") == [
        (1, 1, 4, 0, 13.5, 10.5, 3),
        (2, 2, 3, 0, 15, 8.75, 2),
        (3, 3, 3, 0, 14.5, 9, 2),
        (4, 9, 3, 0, 14.5, 7.5, 2),
        (5, 7, 3, 0, 14, 8.75, 1),
        (6, 4, 2.5, 0, 15, 6.5, 2),
        (7, 6, 2.5, 0, 13.5, 6, 1),
        (8, 8, 2, 1, 11, 4, 1),
        (9, 5, 2, 0, 14, 5, 1),
    ]

    rows = {row["number"]: row for row in admin.crosstable(t["id"])["rows"]}
    nine = [(c["kind"], c["opponent"], c["colour"], c["mark"]) for c in rows[9]["cells"]]
    assert nine == [
        ("bye", None, None, "+"),
        ("played", 2, "north", "0"),
        ("played", 5, "south", "1"),
        ("played", 1, "south", "0"),
        ("played", 4, "north", "1"),
    ]
    assert [c["opponent_place"] for c in rows[1]["cells"]] == [9, 6, 2, 4, 3]


def test_swiss_late_entry_joins_with_zero_and_a_withdrawal_leaves(client):
    admin = Organiser(client)
    t = admin.create(name="Adwa Rapid", variant="gabata", format="swiss", rounds=3)
    admin.add_players(t["id"], ("Abeba", 1900), ("Berhane", 1800), ("Chaltu", 1700), ("Dawit", 1600))
    first = admin.pair(t["id"])
    assert seats(first) == [(1, 3), (4, 2)]  # S1 = 1 2, S2 = 3 4; board 2 seats the higher north
    for board in first["boards"]:
        game = admin.start(t["id"], 1, board["board"])
        admin.command(game["id"], type="result", kind="resignation", winner="south")
    # After round 1: 1 and 4 have 1 point, 2 and 3 none. Eleni enters late (0 points);
    # Chaltu withdraws. Round 2 players: 1 4 (1 pt), 2 5 (0): 1-4 and 2-5.
    assert admin.add_players(t["id"], ("Eleni", 2100)) == [5]
    withdrawn = client.post(
        f"/api/tournaments/{t['id']}/players/3/withdrawal",
        json={"reason": "ill"},
        headers={"Authorization": "Bearer admin-token-for-tests"},
    )
    assert withdrawn.status_code == 201 and withdrawn.get_json()["withdrawn_after"] == 1
    second = admin.pair(t["id"])
    assert sorted(map(frozenset, seats(second))) == sorted(map(frozenset, [(1, 4), (2, 5)]))
    cells = {row["number"]: row["cells"] for row in admin.crosstable(t["id"])["rows"]}
    assert cells[5][0]["kind"] == "absent" and cells[5][0]["points"] == 0  # missed round 1
    assert cells[3][1]["kind"] == "absent"  # withdrawn from round 2
