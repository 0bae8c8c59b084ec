"""The console's paper results, end to end: a rated Swiss of ten registry players over five
rounds, half of each round's boards recorded here move by move (a GEN-28 result in the
board's game), half entered as games played on paper (``kind: played``). No two players
meet twice, seats alternate as for recorded games, the TRF writes every game ``1 = 0``,
the rating list counts every game, and FIDE's tie-break calculator (TEC-FIDE's
TieBreakServer) reads the same standings from that TRF (fixtures/tiebreaks/README.md)."""

import json
import random
from fractions import Fraction

import pytest
from conftest import FIXTURES
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app, seats

REFERENCE = FIXTURES / "tiebreaks" / "hand"
ROUNDS, PLAYERS = 5, 10
TIEBREAKS = ["BH/C1", "BH", "SB", "WIN", "DE"]
GAME_RESULTS = {
    "south_wins": ("resignation", "south"),
    "north_wins": ("resignation", "north"),
    "draw": ("agreement", None),
}


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def registry_players(client) -> list[str]:
    headers = bearer(ADMIN_TOKEN)
    bodies = [{"name": f"Player {n:02d}", "federation": "ETH"} for n in range(1, PLAYERS + 1)]
    return [client.post("/api/players", json=body, headers=headers).get_json()["id"] for body in bodies]


def enter(client, tid: str, round_number: int, board: int, result: str) -> None:
    """Odd boards recorded here (the board's game, a GEN-28 result), even ones on paper."""
    arbiter = Organiser(client)
    if board % 2:
        game = arbiter.start(tid, round_number, board)
        kind, winner = GAME_RESULTS[result]
        arbiter.command(game["id"], type="result", kind=kind, winner=winner)
        return
    url = f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board}/result"
    response = client.post(url, json={"result": result, "kind": "played"}, headers=bearer(ADMIN_TOKEN))
    assert response.status_code == 201, response.get_json()


def played_swiss(client) -> tuple[str, list, list[str]]:
    arbiter, rng = Organiser(client), random.Random(2026)
    ids = registry_players(client)
    body = {"name": "Paper Open", "variant": "gabata", "format": "swiss", "rounds": ROUNDS, "rated": True}
    tid = arbiter.create(**body, tiebreaks=TIEBREAKS, start_date="2026-12-05", end_date="2026-12-06")["id"]
    for n, player_id in enumerate(ids, start=1):
        entry = {"player_id": player_id, "rating": 2100 - 25 * n}
        arbiter._call("POST", f"/api/tournaments/{tid}/players", 201, entry)
    paired = []
    for number in range(1, ROUNDS + 1):
        boards = seats(arbiter.pair(tid))
        paired.append(boards)
        for board in range(1, len(boards) + 1):
            enter(client, tid, number, board, rng.choice(list(GAME_RESULTS)))
    return tid, paired, ids


def test_half_the_boards_on_paper_pair_rate_and_tiebreak_as_games(client):
    tid, paired, ids = played_swiss(client)
    met = [frozenset(board) for boards in paired for board in boards]
    assert len(set(met)) == len(met)  # C.1: nobody meets twice
    for player in range(1, PLAYERS + 1):
        run = "".join("S" if any(s == player for s, _ in boards) else "N" for boards in paired)
        assert "SSS" not in run[:-1] and "NNN" not in run[:-1], (player, run)  # the last round: A.7
        assert abs(run.count("S") - run.count("N")) <= 2, (player, run)
    trf = client.get(f"/api/tournaments/{tid}/trf").get_data(as_text=True)
    results = [line[91:].split()[2::3] for line in trf.splitlines() if line.startswith("001")]
    assert {code for row in results for code in row} <= {"1", "0", "="}  # every game a game, none a forfeit
    # the file the calculator read: this TRF but its registry links (each run registers anew)
    written = [line for line in trf.splitlines() if not (line.startswith("XMR") and " PLAYER " in line)]
    assert written == (REFERENCE / "paper-results.trf").read_text(encoding="utf-8").splitlines()
    listing = client.get("/api/ratings/gabata").get_json()["players"]
    assert {row["id"]: row["games"] for row in listing} == {player_id: ROUNDS for player_id in ids}
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    assert_same_as_fides_calculator(standings)


def assert_same_as_fides_calculator(standings: list[dict]) -> None:
    """The service's standings against the calculator's output on the TRF it wrote:
    points and every tie-break of every player."""
    expected = json.loads((REFERENCE / "paper-results.json").read_text())
    names = [(spec["name"], spec["low"]) for spec in expected["tiebreaks"]]
    assert names == [("PTS", 0), ("BH", 1), ("BH", 0), ("SB", 0), ("WIN", 0), ("DE", 0)]  # BH/C1: BH cut 1
    ours = {s["number"]: [s["points"], *(s["tiebreaks"][code] for code in TIEBREAKS)] for s in standings}
    for number, row in expected["players"].items():
        assert [Fraction(str(v)) for v in ours[int(number)]] == [Fraction(str(v)) for v in row], number
