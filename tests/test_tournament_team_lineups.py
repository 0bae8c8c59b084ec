"""A team event's line-ups: each round's team handed in before the round is paired (FIDE's
fixed board order kept, a reserve filling a board, the others moving up, an empty board
last), the pairing laying the boards out from them, an empty board lost by forfeit, and the
board prizes. Four teams of two boards and a reserve."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

from recorder.cli.main import main

TEAMS = 4
BOARDS = 2
VERIFY = (["verify", "--jobs", "1"], ["verify", "--projections"])


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def admin(client):
    return Organiser(client, ADMIN_TOKEN)


def registry_team(admin, number: int) -> str:
    ids = []
    for board in range(1, BOARDS + 2):
        body = {"name": f"Team {number} member {board}", "federation": "ERI"}
        ids.append(admin._call("POST", "/api/players", 201, body)["id"])
    names = {"name": f"Team {number}", "name_geez": f"ጋንታ {number}", "federation": "Maekel"}
    return admin._call("POST", "/api/teams", 201, {**names, "players": ids[:BOARDS], "reserves": ids[BOARDS:]})["id"]


def team_event(admin) -> str:
    """Teams 1 to 4: team k's players are entrants 3k-2, 3k-1 (boards 1, 2), its reserve 3k."""
    t = admin.create(name="League", variant="qelat", format="team_round_robin", team_boards=BOARDS)["id"]
    for number in range(1, TEAMS + 1):
        admin._call("POST", f"/api/tournaments/{t}/teams", 201, {"team_id": registry_team(admin, number)})
    return t


def line_up(admin, t: str, team: int, players: list, round_number: int = 1, expect: int = 201) -> dict:
    url = f"/api/tournaments/{t}/rounds/{round_number}/lineups"
    return admin._call("POST", url, expect, {"team": team, "players": players})


def seat(player: dict | None) -> int | None:
    return None if player is None else player["number"]


def version(admin, t: str) -> int:
    return admin.get(f"/api/tournaments/{t}")["version"]


def result(admin, t: str, round_number: int, board: int, outcome: str) -> None:
    url = f"/api/tournaments/{t}/rounds/{round_number}/boards/{board}/result"
    admin._call("POST", url, 201, {"result": outcome, "kind": "played"})


def test_a_line_up_out_of_board_order_or_with_another_teams_player_is_refused_naming_the_field(admin):
    t = team_event(admin)
    before = version(admin, t)
    refusals = {
        "out of board order": (1, [2, 1]),
        "a reserve before a board player": (1, [3, 2]),
        "another team's player": (1, [1, 4]),
        "no such player": (1, [1, 99]),
        "the same player twice": (1, [1, 1]),
        "an empty board before a player": (1, [None, 2]),
        "too few boards": (1, [1]),
        "too many boards": (1, [1, 2, 3]),
        "no such team": (5, [13, 14]),
    }
    for why, (team, players) in refusals.items():
        problem = line_up(admin, t, team, players, expect=422)
        assert problem.get("field") in ("players", "team"), (why, problem)
    assert line_up(admin, t, 1, [1, 2], round_number=2, expect=422)["field"] == "round"  # the next round only
    assert "3 rounds" in line_up(admin, t, 1, [1, 2], round_number=4, expect=422)["detail"]  # past the cycle
    admin._call("POST", f"/api/tournaments/{t}/rounds/1/lineups", 422, {"team": 1, "players": "1 2"})
    assert version(admin, t) == before  # nothing stored


def test_a_line_up_after_its_round_is_paired_is_refused_and_a_team_without_one_fields_its_first_boards(admin):
    t = team_event(admin)
    paired = admin.pair(t)
    first_match = [(b["south"]["number"], b["north"]["number"]) for b in paired["boards"][:BOARDS]]
    assert first_match == [(1, 10), (11, 2)]  # C.05 Annex 1: 1-4; no line-up: the first boards
    before = version(admin, t)
    assert "paired" in line_up(admin, t, 1, [1, 3], expect=422)["detail"]
    assert version(admin, t) == before


def test_only_the_arbiter_or_the_admin_hands_in_a_line_up(client, admin):
    t = team_event(admin)
    other = admin.create(name="Other", variant="qelat", format="team_round_robin", team_boards=BOARDS)["id"]
    strangers = {
        "none": {},
        "another event's arbiter": bearer(admin.issue_token(other, "Arb")["token"]),
        "a player's sign-in": bearer(
            admin._call("POST", f"/api/tournaments/{t}/players/signins", 201, {"players": [1]})["signins"][0]["token"]
        ),
    }
    before = version(admin, t)
    for who, headers in strangers.items():
        response = client.post(
            f"/api/tournaments/{t}/rounds/1/lineups", json={"team": 1, "players": [1, 3]}, headers=headers
        )
        assert response.status_code in (401, 403), who
    assert version(admin, t) == before
    for who, headers in strangers.items():
        assert client.get(f"/api/tournaments/{t}/rounds/1/lineups", headers=headers).status_code in (401, 403), who
    arbiter = Organiser(client, admin.issue_token(t, "Arbiter")["token"])
    assert line_up(arbiter, t, 1, [1, 3])["players"] == [1, 3]
    listed = arbiter._call("GET", f"/api/tournaments/{t}/rounds/1/lineups", 200)["lineups"]
    assert [(row["team"], row["players"], row["handed_in"]) for row in listed] == [
        (1, [1, 3], True),
        (2, [4, 5], False),
        (3, [7, 8], False),
        (4, [10, 11], False),
    ]
    arbiter._call("GET", f"/api/tournaments/{t}/rounds/2/lineups", 404)


def test_a_reserve_plays_board_two_and_his_result_counts_for_his_team(admin):
    t = team_event(admin)
    line_up(admin, t, 1, [2, 3])  # board 1 absent: board 2 moves up, the reserve plays board 2
    line_up(admin, t, 1, [1, 3])  # handed in again before the deadline: the last one counts
    rnd = admin.pair(t)
    assert [(b["south"]["number"], b["north"]["number"]) for b in rnd["boards"][:BOARDS]] == [(1, 10), (11, 3)]
    result(admin, t, 1, 1, "north_wins")  # team 4 wins board 1
    result(admin, t, 1, 2, "north_wins")  # the reserve wins board 2 for team 1
    for board in (3, 4):
        result(admin, t, 1, board, "draw")
    rows = {row["team"]["number"]: row for row in admin.get(f"/api/tournaments/{t}/team-standings")["standings"]}
    assert (rows[1]["game_points"], rows[1]["match_points"]) == (1, 1)
    assert (rows[4]["game_points"], rows[4]["match_points"]) == (1, 1)
    assert admin.get(f"/api/tournaments/{t}/check")["rounds"][0]["status"] == "same"


def test_an_empty_board_is_lost_by_forfeit_and_counted_in_the_team_standings(tmp_path, admin):
    t = team_event(admin)
    line_up(admin, t, 1, [1, None])  # team 1 leaves board 2 empty against team 4
    line_up(admin, t, 2, [None, None])  # team 2 does not come; team 3 fields one player
    line_up(admin, t, 3, [7, None])
    rnd = admin.pair(t)
    assert [b["board"] for b in rnd["boards"]] == [1]  # a game only where both sides sit
    empty = [(b["board"], seat(b["south"]), seat(b["north"])) for b in rnd["empty_boards"]]
    assert empty == [(2, 11, None), (3, None, 7), (4, None, None)]  # board 2: team 4 South, team 1's seat empty
    assert [b["result"] for b in rnd["empty_boards"]] == ["south_wins", "north_wins", "double_forfeit"]
    admin.start(t, 1, 2, expect=404)  # no game on an empty board
    result(admin, t, 1, 1, "south_wins")  # team 1 wins board 1: 1-1 against team 4
    rows = {row["team"]["number"]: row for row in admin.get(f"/api/tournaments/{t}/team-standings")["standings"]}
    assert [(rows[n]["match_points"], rows[n]["game_points"], rows[n]["played"]) for n in (1, 2, 3, 4)] == [
        (1, 1, 1),
        (0, 0, 1),
        (2, 1, 1),
        (1, 1, 1),
    ]
    assert admin.get(f"/api/tournaments/{t}/check")["rounds"][0]["status"] == "same"
    verified = [CliRunner().invoke(main, [*check, "--db", str(tmp_path / "tournament.sqlite3")]) for check in VERIFY]
    assert [r.exit_code for r in verified] == [0, 0], [r.output for r in verified]


def exported(client, t: str) -> str:
    response = client.get(f"/api/tournaments/{t}/trf")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post_trf(client, text: str):
    headers = {"Content-Type": "text/plain", **bearer(ADMIN_TOKEN)}
    return client.post("/api/tournaments/trf?variant=qelat", data=text.encode(), headers=headers)


def test_a_trf_with_reserves_and_empty_boards_imports_back_into_the_same_rounds_and_the_same_file(client, admin):
    t = team_event(admin)
    line_up(admin, t, 1, [1, 3])  # round 1: team 1's reserve plays board 2
    line_up(admin, t, 4, [10, None])  # team 4 leaves board 2 empty
    admin.pair(t)
    result(admin, t, 1, 1, "draw")
    for board in (3, 4):
        result(admin, t, 1, board, "south_wins")
    line_up(admin, t, 3, [None, None], round_number=2)  # round 2: team 3 does not come
    admin.pair(t)
    text = exported(client, t)
    response = post_trf(client, text)
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()["id"]
    assert exported(client, imported) == text
    for number in (1, 2):
        mine, theirs = (admin.get(f"/api/tournaments/{x}/rounds/{number}") for x in (t, imported))
        assert seated(theirs) == seated(mine)
    assert seated(admin.get(f"/api/tournaments/{imported}/rounds/1")) == (
        [(1, 10), (4, 7), (8, 5)],
        [(2, None, 3, "north_wins")],
    )
    standings = admin.get(f"/api/tournaments/{t}/team-standings")["standings"]
    assert admin.get(f"/api/tournaments/{imported}/team-standings")["standings"] == standings
    assert [r["status"] for r in admin.get(f"/api/tournaments/{imported}/check")["rounds"]] == ["same", "same"]
    lines = text.split("\r\n")
    at, told = next((i, line) for i, line in enumerate(lines, start=1) if line.startswith("XMR 0000 LINEUP"))
    swapped = "\r\n".join([*lines[: at - 1], told.replace("[1,3]", "[3,1]"), *lines[at:]])
    detail = post_trf(client, swapped).get_json()["detail"]
    assert detail.startswith(f"line {at}, column 20: team 1's line-up for round 1: a line-up keeps the team's fixed")


def seated(round_json: dict) -> tuple[list, list]:
    """A round's games as (south, north) and its empty boards as (board, south, north, result)."""
    games = [(b["south"]["number"], b["north"]["number"]) for b in round_json["boards"]]
    empty = [(b["board"], seat(b["south"]), seat(b["north"]), b["result"]) for b in round_json["empty_boards"]]
    return games, empty


def test_a_line_up_stays_hidden_from_the_public_until_its_round_is_paired(client, admin):
    t = team_event(admin)
    line_up(admin, t, 1, [1, 3])

    def told() -> list:
        events = client.get(f"/api/tournaments/{t}/events").get_json()["events"]
        return [e for e in events if e["type"] == "lineup_submitted"]

    assert told() == [] and "LINEUP" not in exported(client, t)  # the other captains learn it with the pairing
    admin.pair(t)
    assert [e["payload"]["players"] for e in told()] == [[1, 3]]
    assert 'XMR 0000 LINEUP    {"players":[1,3],"round":1,"team":1}' in exported(client, t).split("\r\n")


def test_board_prizes_rank_each_boards_players_by_percentage_then_games_counting_games_played_alone(admin):
    t = team_event(admin)
    line_up(admin, t, 1, [1, 3])  # round 1: team 1's reserve (3) plays board 2
    line_up(admin, t, 2, [4, None])  # and team 2 leaves board 2 empty: no game for anyone there
    outcomes = {1: "south_wins", 2: "draw", 3: "north_wins"}
    rounds = []
    for number in (1, 2, 3):
        rounds.append(admin.pair(t))
        for board in rounds[-1]["boards"]:
            forfeit = number == 2 and board["board"] == 3  # recorded as a forfeit: no game either
            url = f"/api/tournaments/{t}/rounds/{number}/boards/{board['board']}/result"
            body = (
                {"result": "north_wins", "kind": "forfeit"}
                if forfeit
                else {"result": outcomes[number], "kind": "played"}
            )
            admin._call("POST", url, 201, body)
    # By hand, from the stored results: board k of its match, the games played there.
    tally: dict[tuple[int, int], list] = {}
    for rnd in (admin.get(f"/api/tournaments/{t}/rounds/{n}") for n in (1, 2, 3)):
        for b in rnd["boards"]:
            if b["entered_as"] == "forfeit":
                continue
            south = {"south_wins": 1.0, "draw": 0.5, "north_wins": 0.0}[b["result"]]
            k = (b["board"] - 1) % BOARDS + 1
            for player, points in ((b["south"]["number"], south), (b["north"]["number"], 1 - south)):
                games, scored = tally.get((k, player), (0, 0.0))
                tally[(k, player)] = (games + 1, scored + points)
    prizes = admin.get(f"/api/tournaments/{t}/board-prizes")
    assert prizes["status"] == "finished" and [b["board"] for b in prizes["boards"]] == [1, 2]
    for board in prizes["boards"]:
        got = {p["number"]: (p["games"], p["points"]) for p in board["players"]}
        assert got == {player: tuple(v) for (k, player), v in tally.items() if k == board["board"]}
        for p in board["players"]:
            assert p["minimum"] == 2  # 70% of 3 rounds is 2.1, a reserve's 50% 1.5: both 2, half up
            assert p["qualified"] == (p["games"] >= 2) and p["percentage"] == round(100 * p["points"] / p["games"], 1)
        ranked = [p for p in board["players"] if p["qualified"]]
        keys = [(-p["percentage"], -p["games"]) for p in ranked]
        assert keys == sorted(keys) and all(p["rank"] is None for p in board["players"][len(ranked) :])
    board_two = {p["number"]: p for p in prizes["boards"][1]["players"]}
    assert (board_two[3]["games"], board_two[3]["qualified"], board_two[3]["rank"]) == (1, False, None)  # the reserve
    assert board_two[5]["games"] == 2  # team 2's board 2 sat out round 1, his board left empty


ARBITERS_READS = ("/lineups", "/signins", "/disputes", "/tokens")  # the reads kept to the arbiter


def captain_signin(admin, t: str, team: int, expect: int = 201) -> dict:
    return admin._call("POST", f"/api/tournaments/{t}/teams/{team}/captain-signin", expect, {})


def test_a_captains_signin_hands_in_his_own_teams_line_up_and_nothing_else(client, admin):
    t = team_event(admin)
    signin = captain_signin(admin, t, 1)
    assert (signin["team"], signin["holder"]) == (1, "Captain of team 1") and signin["token"]
    captain = Organiser(client, signin["token"])
    assert line_up(captain, t, 1, [1, 3])["players"] == [1, 3]
    before = version(admin, t)
    assert "team 1" in line_up(captain, t, 2, [4, 6], expect=403)["detail"]  # another team's: refused
    document = client.get("/api/openapi.json").get_json()
    game = admin._call(
        "POST", "/api/games", 201, {"variant": "qelat", "south": "A", "north": "B", "first_player": "south"}
    )["id"]
    values = {"tournament_id": t, "round_number": "1", "board": "1", "number": "1", "game_id": game}
    values |= {"player_id": "p-00ff", "team_id": "tm-00ff", "token_id": "tok-00ff"}
    refused = []
    for path, operations in document["paths"].items():
        for method in operations:
            if method == "get" and not path.endswith(ARBITERS_READS):
                continue
            if (method, path) in {("post", "/api/games/{game_id}/claims"), ("post", "/api/games/{game_id}/what-if")}:
                continue
            url = path.format(**{k: v for k, v in values.items() if "{" + k + "}" in path})
            response = client.open(
                url, method=method.upper(), json={"team": 1, "players": [1, 2]}, headers=bearer(signin["token"])
            )
            if (method, path) != ("post", "/api/tournaments/{tournament_id}/rounds/{round_number}/lineups"):
                refused.append((method, path, response.status_code))
    assert [r for r in refused if r[2] != 403] == []
    assert version(admin, t) == before + 1  # its own team's line-up, handed in again by the loop: nothing else
    again = captain_signin(admin, t, 1)  # a new one revokes the old (a card lost)
    assert line_up(captain, t, 1, [1, 2], expect=401)
    assert line_up(Organiser(client, again["token"]), t, 1, [1, 2])["players"] == [1, 2]
    player = admin._call("POST", f"/api/tournaments/{t}/players/signins", 201, {"players": [1]})["signins"][0]
    Organiser(client, player["token"])._call("POST", f"/api/tournaments/{t}/teams/1/captain-signin", 403, {})
    captain_signin(admin, t, 9, expect=404)
    swiss = admin.create(name="S", variant="qelat", format="swiss", rounds=3)["id"]
    captain_signin(admin, swiss, 1, expect=422)


def test_board_prizes_hold_back_a_game_the_broadcast_delay_keeps_from_the_public(client, admin):
    t = admin.create(
        name="League", variant="qelat", format="team_round_robin", team_boards=BOARDS, broadcast_delay=900
    )["id"]
    admin._call("PUT", f"/api/tournaments/{t}/broadcast", 200, {"broadcast_delay": 900, "finished_public": False})
    for number in (1, 2):
        admin._call("POST", f"/api/tournaments/{t}/teams", 201, {"team_id": registry_team(admin, number)})
    admin.pair(t)
    game = admin.start(t, 1, 1)["id"]
    admin.command(game, type="result", kind="resignation", winner="south")

    def players_on_board_one(headers: dict) -> list:
        prizes = client.get(f"/api/tournaments/{t}/board-prizes", headers=headers).get_json()
        return [(p["number"], p["points"]) for p in prizes["boards"][0]["players"]]

    assert players_on_board_one({}) == []  # the public waits for the delay
    assert players_on_board_one(bearer(ADMIN_TOKEN)) == [(1, 1.0), (4, 0.0)]


def test_a_finished_team_event_takes_no_line_up_even_from_the_admin(admin):
    t = team_event(admin)
    rnd = admin.pair(t)
    for board in rnd["boards"]:
        result(admin, t, 1, board["board"], "draw")
    admin._call("POST", f"/api/tournaments/{t}/finish", 201, {})
    before = version(admin, t)
    assert "finished" in line_up(admin, t, 1, [1, 2], round_number=2, expect=422)["detail"]
    assert version(admin, t) == before
