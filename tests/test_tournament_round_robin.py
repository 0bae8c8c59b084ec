"""Acceptance: a six-player round robin, created, paired, played through the API, finished.

Gabata with default options; every game goes through POST /api/games/{id}/commands
with an arbiter token: south wins on the board by replaying fixtures/games/
gabata-default.json (GAB rules, a complete game south wins), the other results are
GEN-28 ``result`` commands. The standings are worked out by hand below.
"""

import pytest
from tournament_support import Organiser, fixture_commands, make_app, seats, table

PLAYERS = ["Abeba", "Berhane", "Chaltu", "Dawit", "Eleni", "Fikru"]  # numbers 1..6

# FIDE Berger table for six players (south first):
#   R1: 1-6 2-5 3-4   R2: 6-4 5-3 1-2   R3: 2-6 3-1 4-5   R4: 6-5 1-4 2-3   R5: 3-6 4-2 5-1
BERGER = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]

SOUTH_ON_BOARD = "board"  # replay the Gabata fixture: south wins on the board
RESULTS = {  # (round, board) -> how the game ends
    (1, 1): ("resignation", "north"),  # 6 beats 1
    (1, 2): SOUTH_ON_BOARD,  # 2 beats 5
    (1, 3): ("agreement", None),  # 3 = 4
    (2, 1): ("resignation", "north"),  # 4 beats 6
    (2, 2): ("agreement", None),  # 5 = 3
    (2, 3): SOUTH_ON_BOARD,  # 1 beats 2
    (3, 1): SOUTH_ON_BOARD,  # 2 beats 6
    (3, 2): ("resignation", "north"),  # 1 beats 3
    (3, 3): ("agreement", None),  # 4 = 5
    (4, 1): ("adjudication", "north"),  # 5 beats 6
    (4, 2): SOUTH_ON_BOARD,  # 1 beats 4
    (4, 3): ("resignation", "south"),  # 2 beats 3
    (5, 1): ("agreement", None),  # 3 = 6
    (5, 2): ("agreement", None),  # 4 = 2
    (5, 3): ("agreement", None),  # 5 = 1
}


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def play_round(arbiter: Organiser, tournament_id: str, round_number: int):
    for board in (1, 2, 3):
        game = arbiter.start(tournament_id, round_number, board)
        how = RESULTS[(round_number, board)]
        if how == SOUTH_ON_BOARD:
            arbiter.play(game["id"], fixture_commands("gabata-default"))
        else:
            arbiter.command(game["id"], type="result", kind=how[0], winner=how[1])


def test_six_player_round_robin_standings_and_tiebreaks_by_hand(client):
    admin = Organiser(client)
    t = admin.create(
        name="Mekelle Round Robin",
        variant="gabata",
        format="round_robin",
        site="Mekelle",
        start_date="2026-12-01",
        end_date="2026-12-03",
        tiebreaks=["direct_encounter", "sonneborn_berger", "wins"],  # the older names, worked by hand below
    )
    assert t["tiebreaks"] == ["direct_encounter", "sonneborn_berger", "wins"]
    arbiter = Organiser(client, admin.issue_token(t["id"], "Arbiter Hagos")["token"])
    assert arbiter.add_players(t["id"], *PLAYERS) == [1, 2, 3, 4, 5, 6]

    for round_number in range(1, 6):
        paired = arbiter.pair(t["id"])
        assert paired["method"] == "berger" and seats(paired) == BERGER[round_number - 1]
        arbiter.pair(t["id"], expect=422)  # the round must finish before the next is paired
        play_round(arbiter, t["id"], round_number)
    admin.pair(t["id"], expect=422)  # all five rounds are paired
    arbiter.pair(t["id"], expect=403)  # and the tournament is finished: its arbiter's rights ended with it

    standings = admin.standings(t["id"])
    assert standings["status"] == "finished" and standings["rounds_played"] == 5
    # Results (row's points against column):
    #        1   2   3   4   5   6  | total
    #   1    x   1   1   1   ½   0  | 3.5
    #   2    0   x   1   ½   1   1  | 3.5
    #   3    0   0   x   ½   ½   ½  | 1.5
    #   4    0   ½   ½   x   ½   1  | 2.5
    #   5    ½   0   ½   ½   x   1  | 2.5
    #   6    1   0   ½   0   0   x  | 1.5
    # Ties on points: {1, 2}, {4, 5}, {3, 6}.
    # Direct encounter (points among the tied): 1 beat 2 -> 1:1, 2:0; 4=5 -> ½ each; 3=6 -> ½ each.
    # Sonneborn-Berger (opponent's score x points taken from him):
    #   1: 3.5x1 + 1.5x1 + 2.5x1 + 2.5x½ + 1.5x0 = 8.75
    #   2: 3.5x0 + 1.5x1 + 2.5x½ + 2.5x1 + 1.5x1 = 6.75
    #   3: 3.5x0 + 3.5x0 + 2.5x½ + 2.5x½ + 1.5x½ = 3.25
    #   4: 3.5x0 + 3.5x½ + 1.5x½ + 2.5x½ + 1.5x1 = 5.25
    #   5: 3.5x½ + 3.5x0 + 1.5x½ + 2.5x½ + 1.5x1 = 5.25
    #   6: 3.5x1 + 3.5x0 + 1.5x½ + 2.5x0 + 2.5x0 = 4.25
    # Wins: 1: 3, 2: 3, 3: 0, 4: 1, 5: 1, 6: 1.
    # So 1 before 2 (direct encounter); 4 and 5 tied on everything (shared 3rd, by number);
    # 6 before 3 (Sonneborn-Berger, their encounter was drawn).
    assert table(standings, "direct_encounter", "sonneborn_berger", "wins") == [
        (1, 1, 3.5, 1, 8.75, 3),
        (2, 2, 3.5, 0, 6.75, 3),
        (3, 4, 2.5, 0.5, 5.25, 1),
        (3, 5, 2.5, 0.5, 5.25, 1),
        (5, 6, 1.5, 0.5, 4.25, 1),
        (6, 3, 1.5, 0.5, 3.25, 0),
    ]

    crosstable = admin.crosstable(t["id"])
    marks = {row["number"]: {c["opponent"]: c["mark"] for c in row["cells"]} for row in crosstable["rows"]}
    assert marks[1] == {2: "1", 3: "1", 4: "1", 5: "½", 6: "0"}
    assert marks[6] == {1: "1", 2: "0", 3: "½", 4: "0", 5: "0"}
    assert [row["place"] for row in crosstable["rows"]] == [1, 2, 3, 4, 5, 6]


def test_round_robin_games_carry_tournament_round_board_and_writer(client):
    admin = Organiser(client)
    t = admin.create(name="Axum Cup", variant="gabata", format="round_robin", start_date="2026-12-01")
    arbiter = Organiser(client, admin.issue_token(t["id"], "Arbiter Hagos")["token"])
    arbiter.add_players(t["id"], *PLAYERS[:4])
    arbiter.pair(t["id"])
    game = arbiter.start(t["id"], 1, 2)
    # Board 2 of round 1 (4 players): 2 (south) against 3 (north).
    assert (game["south"], game["north"]) == ("Berhane", "Chaltu")
    assert game["metadata"] == {
        "event": "Axum Cup",
        "date": "2026-12-01",
        "round": 1,
        "board": 2,
        "tournament_id": t["id"],
    }
    arbiter.start(t["id"], 1, 2, expect=409)  # one game per board
    arbiter.command(game["id"], type="result", kind="resignation", winner="south")
    events = client.get(f"/api/games/{game['id']}/events").get_json()["events"]
    assert [e["recorded_by"] for e in events] == ["Arbiter Hagos", "Arbiter Hagos"]
    listed = client.get(f"/api/games?tournament={t['id']}").get_json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
