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

PLAYERS = [(name, 2000 - 50 * i) for i, name in enumerate(
    ["Abeba", "Berhane", "Chaltu", "Dawit", "Eleni", "Fikru", "Genet", "Hailu", "Iyasu"])]  # fmt: skip

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
#     4 down (5-8, 7-9) or 8 down: 1. C.12: 8's last float was down (his R2 bye): 4 floats.
#     The rest S1 = 5 7, S2 = 8 9: 5-8 (one miss, the unavoidable one), 7-9.
#     Seats: 1-2 both granted; 8 strong N beats 5's mild N -> 5-8; 9-7 both granted;
#     3 S, 4 N -> 3-4. Boards: 1-2, then 5-8 and 9-7 (equal scores, 5 ranks before 7), 3-4.
#     (The old first-found search paired 4-7, 5-8, 9-3: three colour misses, not one.)
#     Results: 1=2, 8 wins (north), 9 wins (south), 3 wins by forfeit.
# R4. Scores 2.5: 1 2; 2: 8 9; 1.5: 3 6; 1: 4 5 7. Had a bye or a forfeit win (C.2): 3 6 8 9.
#     1 and 2 have met: both float (C.5) to 8 9, and 2-9 have met: 1-9, 2-8. Then 3-6.
#     4 5 7: one has the bye. Prefs: 4 mild N, 5 absolute N (S, S), 7 strong S: bye 7 leaves
#     4-5 (a miss); bye 4 (5-7) or bye 5 (4-7) none. C.12: 4's last float was down (his
#     forfeit: no game played): the bye goes to 5.
#     Seats: 1 strong N over 9's mild -> 9-1; 2 strong S over 8's mild -> 2-8; 3 and 6 both
#     mild S with identical histories -> the higher-ranked 3: 3-6; 7 S, 4 N -> 7-4.
#     Results: 1 wins (north), 2=8, 3 wins (south), 4 wins (north).
# R5 (the last: topscorers are above 2 points, A.7: 1 2 3 8). Scores 3.5: 1; 3: 2;
#     2.5: 3 8; 2: 4 5 9; 1.5: 6; 1: 7. Bye: 7, the lowest, who has not had one.
#     1-2 have met, 2-8 too: 1-8, 2-3. 4 5 9: 5 and 9 both absolutely want N (C.3): 4-5 with
#     9 down to 6, or 4-9 with 5 down to 6: C.12, 5's last float was down (the bye): 9-6.
#     Seats: 8 absolute S -> 8-1; 3 strong N -> 2-3; 4 strong S, 5 N -> 4-5; 6 S, 9 N -> 6-9.
#     Results: 1=8, 3 wins (north), 5 wins (north), 6 wins (south).
ROUNDS = [
    ([(1, 5), (6, 2), (3, 7), (8, 4)], 9, [BOARD, ("resignation", "north"), ("agreement", None), ("resignation", "north")]),
    ([(4, 1), (2, 9), (5, 3), (7, 6)], 8, [("resignation", "north"), BOARD, BOARD, ("agreement", None)]),
    ([(1, 2), (5, 8), (9, 7), (3, 4)], 6, [("agreement", None), ("adjudication", "north"), BOARD, FORFEIT]),
    ([(9, 1), (2, 8), (3, 6), (7, 4)], 5, [("resignation", "north"), ("agreement", None), BOARD, ("resignation", "north")]),
    ([(8, 1), (2, 3), (4, 5), (6, 9)], 7, [("agreement", None), ("resignation", "north"), ("resignation", "north"), BOARD]),
]  # fmt: skip


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
    t = admin.create(name="Asmara Swiss", variant="gabata", format="swiss", rounds=5, site="Asmara")
    arbiter = Organiser(client, admin.issue_token(t["id"], "Arbiter Tesfay")["token"])
    assert arbiter.add_players(t["id"], *PLAYERS) == list(range(1, 10))
    # The organiser's order, fixed before round 1.
    order = ["direct_encounter", "buchholz", "sonneborn_berger", "wins"]
    response = client.put(f"/api/tournaments/{t['id']}/tiebreaks", json={"tiebreaks": order},
                          headers={"Authorization": f"Bearer {arbiter.token}"})  # fmt: skip
    assert response.status_code == 200 and response.get_json()["tiebreaks"] == order

    for number, (boards, bye, results) in enumerate(ROUNDS, start=1):
        paired = arbiter.pair(t["id"])
        assert (paired["method"], seats(paired), [b["number"] for b in paired["byes"]]) == ("swiss", boards, [bye])
        assert paired["byes"][0]["points"] == 1
        play(arbiter, t["id"], number, results)
        if number == 1:  # too late to change the order now
            again = client.put(f"/api/tournaments/{t['id']}/tiebreaks", json={"tiebreaks": ["wins"]},
                               headers={"Authorization": f"Bearer {arbiter.token}"})  # fmt: skip
            assert again.status_code == 422

    standings = admin.standings(t["id"])
    assert standings["status"] == "finished"
    # Final scores (byes 1; R3 3 beat 4 by forfeit):
    #   1: W5 W4 D2 W9 D8 = 4      2: W6 W9 D1 D8 L3 = 3      3: D7 L5 +4 W6 W2 = 3.5
    #   4: W8 L1 -3 W7 L5 = 2      5: L1 W3 L8 bye W4 = 3     6: L2 D7 bye L3 W9 = 2.5
    #   7: D3 D6 L9 L4 bye = 2     8: L4 bye W5 D2 D1 = 3     9: bye L2 W7 L1 L6 = 2
    # Direct encounter (ties on points): {2, 5, 8}: 2 and 5 never met; {4, 7, 9}: 4 and 9
    # never met -> 0 for all.
    # Buchholz: opponents' scores; an unplayed round (bye, forfeit) counts the player's own:
    #   1: 3+2+3+2+3 = 13          2: 2.5+2+4+3+3.5 = 15      3: 2+3+3.5+2.5+3 = 14
    #   4: 3+4+2+2+3 = 14          5: 4+3.5+3+3+2 = 15.5      6: 3+2+2.5+3.5+2 = 13
    #   7: 3.5+2.5+2+2+2 = 12      8: 2+3+3+3+4 = 15          9: 2+3+2+4+2.5 = 13.5
    # Sonneborn-Berger: opponent's score x points (unplayed: own score x points):
    #   1: 3+2+1.5+2+1.5 = 10       2: 2.5+2+2+1.5+0 = 8       3: 1+0+3.5+2.5+3 = 10
    #   4: 3+0+0+2+0 = 5            5: 0+3.5+0+3+2 = 8.5       6: 0+1+2.5+0+2 = 5.5
    #   7: 1.75+1.25+0+0+2 = 5      8: 0+3+3+1.5+2 = 9.5       9: 2+0+2+0+0 = 4
    # Wins (on the board or by forfeit, not byes): 1:3 2:2 3:3 4:2 5:2 6:1 7:0 8:1 9:1.
    # Order: 1 (4), 3 (3.5); 3 points: 5 (Buchholz 15.5), then 8 before 2 (Buchholz 15 each,
    # SB 9.5 > 8); 6 (2.5); 2 points: 4 (14), 9 (13.5), 7 (12).
    assert table(standings, "direct_encounter", "buchholz", "sonneborn_berger", "wins") == [
        (1, 1, 4, 0, 13, 10, 3),
        (2, 3, 3.5, 0, 14, 10, 3),
        (3, 5, 3, 0, 15.5, 8.5, 2),
        (4, 8, 3, 0, 15, 9.5, 1),
        (5, 2, 3, 0, 15, 8, 2),
        (6, 6, 2.5, 0, 13, 5.5, 1),
        (7, 4, 2, 0, 14, 5, 2),
        (8, 9, 2, 0, 13.5, 4, 1),
        (9, 7, 2, 0, 12, 5, 0),
    ]

    rows = {row["number"]: row for row in admin.crosstable(t["id"])["rows"]}
    nine = [(c["kind"], c["opponent"], c["colour"], c["mark"]) for c in rows[9]["cells"]]
    assert nine == [("bye", None, None, "+"), ("played", 2, "north", "0"), ("played", 7, "south", "1"),
                    ("played", 1, "south", "0"), ("played", 6, "north", "0")]  # fmt: skip
    assert [c["opponent_place"] for c in rows[1]["cells"]] == [3, 7, 5, 8, 4]


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
    withdrawn = client.post(f"/api/tournaments/{t['id']}/players/3/withdrawal", json={"reason": "ill"},
                            headers={"Authorization": "Bearer admin-token-for-tests"})  # fmt: skip
    assert withdrawn.status_code == 201 and withdrawn.get_json()["withdrawn_after"] == 1
    second = admin.pair(t["id"])
    assert sorted(map(frozenset, seats(second))) == sorted(map(frozenset, [(1, 4), (2, 5)]))
    cells = {row["number"]: row["cells"] for row in admin.crosstable(t["id"])["rows"]}
    assert cells[5][0]["kind"] == "absent" and cells[5][0]["points"] == 0  # missed round 1
    assert cells[3][1]["kind"] == "absent"  # withdrawn from round 2
