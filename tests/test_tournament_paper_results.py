"""Games played on the board but recorded on paper: ``POST …/boards/{b}/result`` with
``"kind": "played"`` counts as a game everywhere (the Swiss pairing's meetings, colours
and floats, the tie-breaks, the TRF's ``1 = 0``, the rating lists); ``"forfeit"`` (the
default, the meaning every result had before) says it is none, and cannot be a draw."""

import random

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app, seats

from recorder.projections import check, rebuild
from recorder.ratings.service import this_month

RESULTS = ("south_wins", "north_wins", "draw")


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def result_url(tid: str, round_number: int, board: int) -> str:
    return f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board}/result"


def post_result(client, tid: str, round_number: int, board: int, body: dict, token: str = ADMIN_TOKEN):
    return client.post(result_url(tid, round_number, board), json=body, headers=bearer(token))


def swiss(arbiter: Organiser, players: int = 14, rounds: int = 9) -> str:
    tid = arbiter.create(name="Paper Open", variant="gabata", format="swiss", rounds=rounds)["id"]
    arbiter.add_players(tid, *[(f"Player {n:02d}", 2200 - 10 * n) for n in range(1, players + 1)])
    return tid


def play_on_paper(client, tid: str, rounds: int, *, seed: int, body: dict) -> list[list[tuple[int, int]]]:
    """Pair ``rounds`` rounds, every board's result entered with ``body`` (a fixed seed)."""
    arbiter, rng, paired = Organiser(client), random.Random(seed), []
    for number in range(1, rounds + 1):
        boards = seats(arbiter.pair(tid))
        paired.append(boards)
        for board in range(1, len(boards) + 1):
            result = rng.choice(RESULTS if body.get("kind") == "played" else RESULTS[:2])
            assert post_result(client, tid, number, board, {**body, "result": result}).status_code == 201
    return paired


def meetings(paired: list) -> list[frozenset]:
    return [frozenset(board) for boards in paired for board in boards]


def colour_runs(paired: list) -> dict[int, str]:
    """Each player's seats round by round: S, N, or - (not on a board)."""
    runs: dict[int, str] = {}
    for boards in paired:
        seated = {s: "S" for s, _ in boards} | {n: "N" for _, n in boards}
        for player in range(1, 15):
            runs[player] = runs.get(player, "") + seated.get(player, "-")
    return runs


def test_results_entered_without_a_kind_stay_forfeits_no_game_for_the_pairing(client):
    """What the old clients store (and stored): forfeits, so the pairing meets the same
    players again and colours do not alternate: 6-13 three times in five rounds, and
    player 1 south five times in a row (2026 text: a forfeited game was never played)."""
    paired = play_on_paper(client, swiss(Organiser(client)), 5, seed=3, body={})
    assert meetings(paired).count(frozenset((6, 13))) == 3
    assert colour_runs(paired)[1] == "SSSSS"


def test_games_played_on_paper_never_meet_twice_and_seats_alternate_as_for_recorded_games(client):
    paired = play_on_paper(client, swiss(Organiser(client)), 6, seed=3, body={"kind": "played"})
    met = meetings(paired)
    assert len(set(met)) == len(met)
    for player, run in colour_runs(paired).items():
        assert "SSS" not in run and "NNN" not in run, (player, run)
        assert abs(run.count("S") - run.count("N")) <= 2, (player, run)


@pytest.mark.parametrize(
    "body",
    [
        {"result": "draw"},
        {"result": "draw", "kind": "forfeit"},
        {"result": "double_forfeit", "kind": "played"},
    ],
)
def test_a_forfeit_draw_and_a_played_double_forfeit_are_refused_naming_result(client, body):
    arbiter = Organiser(client)
    tid = arbiter.create(name="Club", variant="gabata", format="manual", rounds=1)["id"]
    arbiter.add_players(tid, "Abeba", "Berhane")
    arbiter.pair(tid, boards=[{"south": 1, "north": 2}])
    version = client.get(f"/api/tournaments/{tid}").headers["ETag"]
    response = post_result(client, tid, 1, 1, body)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == "result"
    assert client.get(f"/api/tournaments/{tid}").headers["ETag"] == version  # nothing stored


def test_an_unknown_kind_is_refused(client):
    arbiter = Organiser(client)
    tid = arbiter.create(name="Club", variant="gabata", format="manual", rounds=1)["id"]
    arbiter.add_players(tid, "Abeba", "Berhane")
    arbiter.pair(tid, boards=[{"south": 1, "north": 2}])
    response = post_result(client, tid, 1, 1, {"result": "draw", "kind": "adjourned"})
    assert response.status_code == 422 and response.get_json()["field"] == "kind"


def test_a_game_played_on_paper_is_written_to_the_trf_as_1_0_or_equals_and_counts_for_tiebreaks(client):
    arbiter = Organiser(client)
    tid = arbiter.create(name="Club", variant="gabata", format="manual", rounds=1, tiebreaks=["buchholz"])["id"]
    arbiter.add_players(tid, "Abeba", "Berhane", "Chaltu", "Dawit")
    arbiter.pair(tid, boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}])
    assert post_result(client, tid, 1, 1, {"result": "draw", "kind": "played"}).status_code == 201
    assert post_result(client, tid, 1, 2, {"result": "south_wins", "kind": "forfeit"}).status_code == 201
    boards = client.get(f"/api/tournaments/{tid}/rounds/1").get_json()["boards"]
    assert [(b["decided_by"], b["entered_as"]) for b in boards] == [("game", "played"), ("forfeit", "forfeit")]
    trf = client.get(f"/api/tournaments/{tid}/trf").get_data(as_text=True)
    cells = {line[4:8].strip(): line[91:].strip() for line in trf.splitlines() if line.startswith("001")}
    assert cells == {"1": "2 w =", "2": "1 b =", "3": "4 w +", "4": "3 b -"}
    marks = {row["number"]: row["cells"][0] for row in arbiter.crosstable(tid)["rows"]}
    assert (marks[1]["kind"], marks[1]["mark"], marks[3]["kind"], marks[3]["mark"]) == ("played", "½", "forfeit", "+")
    buchholz = {s["number"]: s["tiebreaks"]["buchholz"] for s in arbiter.standings(tid)["standings"]}
    assert buchholz[1] == 0.5  # the opponent's score, a game; a forfeit's dummy is his own
    assert buchholz[3] == 1


# -- The rating lists -------------------------------------------------------------------------


def rated_round_robin(client, kind: str | None) -> tuple[str, list[str]]:
    """Four registry players in a rated round robin; round 1's results entered on paper."""
    names = ("Abeba Tesfaye", "Berhane Kidane", "Chaltu Bekele", "Dawit Alemu")
    register = [{"name": name, "federation": "ETH"} for name in names]
    ids = [client.post("/api/players", json=body, headers=bearer(ADMIN_TOKEN)).get_json()["id"] for body in register]
    arbiter = Organiser(client)
    tid = arbiter.create(name="Rated", variant="gabata", format="round_robin", rated=True)["id"]
    for player_id in ids:
        arbiter._call("POST", f"/api/tournaments/{tid}/players", 201, {"player_id": player_id})
    boards = arbiter.pair(tid)["boards"]
    for board in boards:
        body = {"result": "south_wins"} | ({"kind": kind} if kind else {})
        assert post_result(client, tid, 1, board["board"], body).status_code == 201
    return tid, ids


def listed_games(client) -> dict[str, int]:
    rows = client.get("/api/ratings/gabata").get_json()["players"]
    return {row["id"]: row["games"] for row in rows}


def test_a_rated_tournaments_games_played_on_paper_count_in_the_rating_list_of_their_month(app, client):
    _, ids = rated_round_robin(client, "played")
    listing = client.get("/api/ratings/gabata").get_json()
    assert listing["period"] == this_month()
    assert listed_games(client) == {player_id: 1 for player_id in ids}
    rebuild(app.extensions["recorder"])
    assert [line for line in check(app.extensions["recorder"]) if line.startswith("rating lists")] == []


def test_a_rated_tournaments_forfeits_count_for_no_rating(client):
    rated_round_robin(client, None)
    assert listed_games(client) == {}


# -- Corrections --------------------------------------------------------------------------------


def test_a_paper_result_is_corrected_by_a_new_event_never_an_overwrite(client):
    arbiter = Organiser(client)
    tid = arbiter.create(name="Club", variant="gabata", format="manual", rounds=2)["id"]
    arbiter.add_players(tid, "Abeba", "Berhane")
    arbiter.pair(tid, boards=[{"south": 1, "north": 2}])
    assert post_result(client, tid, 1, 1, {"result": "south_wins", "kind": "played"}).status_code == 201
    again = post_result(client, tid, 1, 1, {"result": "north_wins", "kind": "played"})
    assert again.status_code == 409  # a second post is no correction unless it says so
    body = {"result": "north_wins", "kind": "played", "corrects": True, "note": "scoresheet misread"}
    assert post_result(client, tid, 1, 1, body).status_code == 201
    events = client.get(f"/api/tournaments/{tid}/events").get_json()["events"]
    recorded = [e["payload"]["result"] for e in events if e["type"] == "board_result_recorded"]
    assert recorded == ["south_wins", "north_wins"]
    assert {s["number"]: s["points"] for s in arbiter.standings(tid)["standings"]} == {1: 0, 2: 1}


def test_corrects_needs_a_result_to_correct(client):
    arbiter = Organiser(client)
    tid = arbiter.create(name="Club", variant="gabata", format="manual", rounds=2)["id"]
    arbiter.add_players(tid, "Abeba", "Berhane")
    arbiter.pair(tid, boards=[{"south": 1, "north": 2}])
    response = post_result(client, tid, 1, 1, {"result": "draw", "kind": "played", "corrects": True})
    assert response.status_code == 422 and response.get_json()["field"] == "corrects"


def test_a_finished_tournaments_paper_result_is_the_admins_correction(client):
    arbiter = Organiser(client)
    tid = arbiter.create(name="Club", variant="gabata", format="manual", rounds=1)["id"]
    arbiter.add_players(tid, "Abeba", "Berhane")
    arbiter.pair(tid, boards=[{"south": 1, "north": 2}])
    token = arbiter.issue_token(tid, "Chief arbiter")["token"]
    assert post_result(client, tid, 1, 1, {"result": "draw", "kind": "played"}, token).status_code == 201
    body = {"result": "south_wins", "kind": "played", "corrects": True}
    assert post_result(client, tid, 1, 1, body, token).status_code == 403  # finished: his rights ended
    assert post_result(client, tid, 1, 1, body).status_code == 409  # the admin: a correction first
    url = f"/api/tournaments/{tid}/rounds/1/boards/1/correction"
    assert client.post(url, json={"reason": "scoresheet"}, headers=bearer(ADMIN_TOKEN)).status_code == 201
    assert post_result(client, tid, 1, 1, body).status_code == 201
    assert {s["number"]: s["points"] for s in arbiter.standings(tid)["standings"]} == {1: 1, 2: 0}


# -- The command line ---------------------------------------------------------------------------


def cli(db, *args, ok=True) -> str:
    from click.testing import CliRunner

    from recorder.cli.main import main

    result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
    assert (result.exit_code == 0) is ok, result.output
    return result.output.strip()


def test_the_command_line_enters_a_game_played_on_paper_as_the_api_takes_it(tmp_path):
    db = tmp_path / "cli.sqlite3"
    tid = cli(db, "create", "--name", "Club", "--variant", "gabata", "--format", "manual", "--rounds", "1")
    for name in ("Abeba", "Berhane", "Chaltu", "Dawit"):
        cli(db, "add-player", tid, name)
    cli(db, "pair", tid, "--board", "1-2", "--board", "3-4")
    assert cli(db, "result", tid, "1", "1", "draw", "--played") == "round 1 board 1: draw (played)"
    assert "a forfeit is won, lost" in cli(db, "result", tid, "1", "2", "draw", ok=False)
    cli(db, "result", tid, "1", "2", "south_wins")
    cli(db, "result", tid, "1", "1", "north_wins", "--played", ok=False)  # no correction said
    cli(db, "result", tid, "1", "1", "north_wins", "--played", "--corrects")
    trf = cli(db, "trf", tid)
    assert [line[91:].strip() for line in trf.splitlines() if line.startswith("001")] == [
        "2 w 0",
        "1 b 1",
        "4 w +",
        "3 b -",
    ]


def test_a_game_on_paper_in_a_rated_tournament_makes_its_players_rated_for_the_registry_rights(client):
    """An arbiter renames only a player without a rated game: a game on paper is one."""
    admin = Organiser(client)
    tid = admin.create(name="Rated", variant="gabata", format="manual", rounds=2, rated=True)["id"]
    token = admin.issue_token(tid, "Chief arbiter")["token"]
    register = {"name": "Selam Haile", "federation": "ETH"}
    player = client.post("/api/players", json=register, headers=bearer(token)).get_json()["id"]
    other = client.post("/api/players", json={"name": "Tsega Mehari", "federation": "ETH"}, headers=bearer(token))
    for player_id in (player, other.get_json()["id"]):
        url = f"/api/tournaments/{tid}/players"
        assert client.post(url, json={"player_id": player_id}, headers=bearer(token)).status_code == 201
    client.post(f"/api/tournaments/{tid}/rounds", json={"boards": [{"south": 1, "north": 2}]}, headers=bearer(token))
    rename = f"/api/players/{player}/name"
    assert client.post(rename, json={"name": "Selam Hailu"}, headers=bearer(token)).status_code == 201
    assert post_result(client, tid, 1, 1, {"result": "draw", "kind": "played"}, token).status_code == 201
    refused = client.post(rename, json={"name": "Selam Haylu"}, headers=bearer(token))
    assert refused.status_code == 403 and "rated games" in refused.get_json()["detail"]


def test_a_paper_result_corrected_after_the_next_round_was_paired_leaves_that_round_as_paired(client):
    tid = swiss(Organiser(client), players=4, rounds=3)
    play_on_paper(client, tid, 1, seed=5, body={"kind": "played"})
    second = seats(Organiser(client).pair(tid))
    body = {"result": "draw", "kind": "played", "corrects": True, "note": "the scoresheets say a draw"}
    assert post_result(client, tid, 1, 1, body).status_code == 201
    assert seats(client.get(f"/api/tournaments/{tid}/rounds/2").get_json()) == second
    board = client.get(f"/api/tournaments/{tid}/rounds/1").get_json()["boards"][0]
    assert (board["result"], board["entered_as"]) == ("draw", "played")
