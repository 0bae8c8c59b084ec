"""Acceptance: a five-round Swiss for nine players (so someone has a bye every round),
created, paired, played through the API and finished, checked against a hand pairing.

Gabata, default options. Players 1..9 are rated 2000, 1950, ... 1600, so the initial
ranking is the starting number. A bye scores 1. South wins on the board by replaying
fixtures/games/gabata-default.json; the other results are GEN-28 ``result`` commands;
one board is a forfeit recorded in the tournament (no game). The pairing rules used by
hand are those of docs/tournaments.md (recorder/tournaments/pairing.py).
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
#     1-2; group 1 pt: S1 = 4 5, S2 = 7 8 9 -> 4-7, 5-8, 9 floats to 3 -> 9-3.
#     Boards: 1-2 (4 halves), 4-7, 5-8 (sum 4), 9-3 (sum 3).
#     Seats: 1 (S,N) mild S, 2 (N,S) mild N -> 1-2. 4 and 7 both (N,S): both mildly want
#     N, no round where their seats differed -> the higher-ranked, 4, gets it: 7-4.
#     5 (N,S) mildly wants N, 8 (S) strongly wants N -> 5-8. 9 (N) strongly wants S,
#     3 (S,N) mildly -> 9-3.
#     Results: 1=2, 4 wins (north), 5 wins (south), 3 forfeits (9 wins, south).
# R4. Scores 2.5: 1 2; 2: 4 5 9; 1.5: 6; 1: 7 8; ½: 3. Bye: 3. 1 has met 2, 4 and 5 ->
#     1-9; 2 has met 1, 9, 6 -> 2-4; 5-6; 7-8.
#     Seats: 1 (+1) wants N, 9 (-1) wants S -> 9-1. 2 and 4 both -1, both want S,
#     identical histories -> the higher-ranked 2: 2-4. 5 has S,S: must be north -> 6-5.
#     7 has S,S: must be north -> 8-7.
#     Results: 1 wins (north), 2=4, 6 wins (south), 7 wins (north).
# R5. Scores 3.5: 1; 3: 2; 2.5: 4 6; 2: 5 7 9; 1.5: 3; 1: 8. Bye: among those without
#     one (1 2 4 5 7) the lowest score is 2 (5, 7): 7, the lower-ranked.
#     1 has met 2 4 5 9 -> 1-6; 2 has met 6 9 1 4 -> 2-5; 4-9; 3-8.
#     Seats: 1 (level, last N) mildly S, 6 (+1) wants N -> 1-6. 2 (level, last S) mildly N,
#     5 (level, last N) mildly S -> 5-2. 4 has N,N (and -2): must be south -> 4-9.
#     3 (level) mildly S, 8 (+1) wants N -> 3-8.
#     Results: 1=6, 2 wins (north), 9 wins (north), 3 wins (south).
ROUNDS = [
    (
        [(1, 5), (6, 2), (3, 7), (8, 4)],
        9,
        [BOARD, ("resignation", "north"), ("agreement", None), ("resignation", "north")],
    ),
    ([(4, 1), (2, 9), (5, 3), (7, 6)], 8, [("resignation", "north"), BOARD, BOARD, ("agreement", None)]),
    ([(1, 2), (7, 4), (5, 8), (9, 3)], 6, [("agreement", None), ("adjudication", "north"), BOARD, FORFEIT]),
    (
        [(9, 1), (2, 4), (6, 5), (8, 7)],
        3,
        [("resignation", "north"), ("agreement", None), BOARD, ("resignation", "north")],
    ),
    (
        [(1, 6), (5, 2), (4, 9), (3, 8)],
        7,
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
    t = admin.create(name="Asmara Swiss", variant="gabata", format="swiss", rounds=5, site="Asmara")
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
    # Final scores (byes 1; R3 9 beat 3 by forfeit):
    #   1: W5 W4 D2 W9 D6 = 4      2: W6 W9 D1 D4 W5 = 4      3: D7 L5 -9 bye W8 = 2.5
    #   4: W8 L1 W7 D2 L9 = 2.5    5: L1 W3 W8 L6 L2 = 2      6: L2 D7 bye W5 D1 = 3
    #   7: D3 D6 L4 W8 bye = 3     8: L4 bye L5 L7 L3 = 1      9: bye L2 +3 L1 W4 = 3
    # Direct encounter (ties on points): 1=2 drew -> ½ each; {6, 7, 9}: 9 never met 6 or 7,
    # {3, 4} never met -> 0.
    # Buchholz: opponents' scores; an unplayed round (bye, forfeit) counts the player's own:
    #   1: 2+2.5+4+3+3 = 14.5       2: 3+3+4+2.5+2 = 14.5      3: 3+2+2.5+2.5+1 = 11
    #   4: 1+4+3+4+3 = 15           5: 4+2.5+1+3+4 = 14.5      6: 4+3+3+2+4 = 16
    #   7: 2.5+3+2.5+1+3 = 12       8: 2.5+1+2+3+2.5 = 11      9: 3+4+3+4+2.5 = 16.5
    # Sonneborn-Berger: opponent's score x points (unplayed: own score x points):
    #   1: 2+2.5+2+3+1.5 = 11       2: 3+3+2+1.25+2 = 11.25    3: 1.5+0+0+2.5+1 = 5
    #   4: 1+0+3+2+0 = 6            5: 0+2.5+1+0+0 = 3.5       6: 0+1.5+3+2+2 = 8.5
    #   7: 1.25+1.5+0+1+3 = 6.75    8: 0+1+0+0+0 = 1           9: 3+0+3+0+2.5 = 8.5
    # Wins (on the board or by forfeit, not byes): 1:3 2:3 3:1 4:2 5:2 6:1 7:1 8:0 9:2.
    # Order: 4 points: 2 before 1 (DE equal, Buchholz equal, SB 11.25 > 11);
    # 3 points: 9 (16.5), 6 (16), 7 (12) by Buchholz; 2.5: 4 (15) before 3 (11); then 5, 8.
    assert table(standings, "direct_encounter", "buchholz", "sonneborn_berger", "wins") == [
        (1, 2, 4, 0.5, 14.5, 11.25, 3),
        (2, 1, 4, 0.5, 14.5, 11, 3),
        (3, 9, 3, 0, 16.5, 8.5, 2),
        (4, 6, 3, 0, 16, 8.5, 1),
        (5, 7, 3, 0, 12, 6.75, 1),
        (6, 4, 2.5, 0, 15, 6, 2),
        (7, 3, 2.5, 0, 11, 5, 1),
        (8, 5, 2, 0, 14.5, 3.5, 2),
        (9, 8, 1, 0, 11, 1, 0),
    ]

    rows = {row["number"]: row for row in admin.crosstable(t["id"])["rows"]}
    nine = [(c["kind"], c["opponent"], c["colour"], c["mark"]) for c in rows[9]["cells"]]
    assert nine == [
        ("bye", None, None, "+"),
        ("played", 2, "north", "0"),
        ("forfeit", 3, "south", "+"),
        ("played", 1, "south", "0"),
        ("played", 4, "north", "1"),
    ]
    assert [c["opponent_place"] for c in rows[1]["cells"]] == [8, 6, 1, 3, 4]


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
