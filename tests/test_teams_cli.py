"""The command line's teams: registered, entered in a team event, paired by the Berger table
over the teams, and its standings printed, the same events as the API writes."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import make_app as conftest_app
from tournament_support import ADMIN_TOKEN, Organiser, make_app

from recorder.cli.main import main


def run(db, *args, ok=True) -> str:
    result = CliRunner().invoke(main, [*args, "--db", str(db)])
    assert (result.exit_code == 0) is ok, result.output
    return result.output.strip()


def test_the_command_line_registers_teams_enters_them_and_prints_the_team_standings(tmp_path):
    db = tmp_path / "tournament.sqlite3"
    admin = Organiser(make_app(tmp_path).test_client(), ADMIN_TOKEN)
    ids = [admin._call("POST", "/api/players", 201, {"name": f"P{i}", "federation": "ERI"})["id"] for i in range(8)]
    teams = []
    for number in range(4):
        players = [arg for player in ids[2 * number : 2 * number + 2] for arg in ("--player", player)]
        names = ["--name", f"Team {number + 1}", "--name-geez", f"ጋንታ {number + 1}", "--federation", "Maekel"]
        teams.append(run(db, "team", "register", *names, *players))
    assert run(db, "team", "show", teams[0]).splitlines() == [
        "Team 1 (ጋንታ 1), Maekel", f"  board 1: {ids[0]}", f"  board 2: {ids[1]}",
    ]  # fmt: skip
    run(
        db, "team", "register", "--name", "X", "--name-geez", "ኤክስ", "--federation", "M", "--player", "p-00ff", ok=False
    )
    create = ["--name", "League", "--variant", "qelat", "--format", "team_round_robin", "--team-boards", "2"]
    t = run(db, "tournament", "create", *create)
    for team_id in teams:
        run(db, "tournament", "enter-team", t, team_id)
    run(db, "tournament", "enter-team", t, teams[0], ok=False)  # entered once
    for round_number in ("1", "2", "3"):
        run(db, "tournament", "pair", t)
        for board in ("1", "2", "3", "4"):  # South wins every board: each match 1-1
            run(db, "tournament", "forfeit", t, round_number, board, "south_wins")
    lines = run(db, "tournament", "team-standings", t).splitlines()
    assert [line.strip() for line in lines] == [f"1. Team {n}  3 MP  3 GP" for n in range(1, 5)]  # 3 drawn matches


def test_the_command_line_creates_a_team_event_with_its_order_of_team_tiebreaks(tmp_path):
    db = tmp_path / "tournament.sqlite3"
    create = ["--name", "League", "--variant", "qelat", "--format", "team_round_robin", "--team-boards", "2"]
    t = run(db, "tournament", "create", *create, "--team-tiebreak", "GPTS", "--team-tiebreak", "SB:GP")
    refused = run(db, "tournament", "create", *create, "--team-tiebreak", "SB", ok=False)
    assert "team_tiebreaks" in refused or "MPTS or GPTS" in refused
    client = conftest_app(db).test_client()
    assert client.get(f"/api/tournaments/{t}").get_json()["team_tiebreaks"] == ["GPTS", "SB:GP"]
    assert len(client.get("/api/tournaments").get_json()["tournaments"]) == 1  # the refused one stored nothing


def test_the_command_line_hands_in_line_ups_and_prints_them_and_the_board_prizes(tmp_path):
    db = tmp_path / "tournament.sqlite3"
    admin = Organiser(make_app(tmp_path).test_client(), ADMIN_TOKEN)
    ids = [admin._call("POST", "/api/players", 201, {"name": f"P{i}", "federation": "ERI"})["id"] for i in range(6)]
    create = ["--name", "League", "--variant", "qelat", "--format", "team_round_robin", "--team-boards", "2"]
    t = run(db, "tournament", "create", *create)
    for number in range(2):  # team k: players 3k-2, 3k-1, reserve 3k
        first, second, reserve = ids[3 * number : 3 * number + 3]
        names = ["--name", f"Team {number + 1}", "--name-geez", f"ጋንታ {number + 1}", "--federation", "Maekel"]
        team_id = run(db, "team", "register", *names, "--player", first, "--player", second, "--reserve", reserve)
        run(db, "tournament", "enter-team", t, team_id)
    assert "keeps the team's fixed board order" in run(db, "tournament", "lineup", t, "1", "1", "3", "1", ok=False)
    run(db, "tournament", "lineup", t, "1", "1", "1", "3")  # the reserve plays board 2
    run(db, "tournament", "lineup", t, "1", "2", "4", "-")  # team 2 leaves board 2 empty
    assert run(db, "tournament", "lineups", t, "1").splitlines() == [
        "team 1 (Team 1): 1, 3", "team 2 (Team 2): 4, -",
    ]  # fmt: skip
    issued = run(db, "tournament", "captain-signin", t, "2").split()
    assert issued[:2] == ["team", "2:"] and issued[2].startswith("cpt-t2-")
    captain = Organiser(admin.client, issued[3])
    captain._call("POST", f"/api/tournaments/{t}/rounds/1/lineups", 201, {"team": 2, "players": [4, None]})
    captain._call("POST", f"/api/tournaments/{t}/rounds/1/lineups", 403, {"team": 1, "players": [1, 2]})
    assert "no team 3" in run(db, "tournament", "captain-signin", t, "3", ok=False)
    run(db, "tournament", "pair", t)
    run(db, "tournament", "result", t, "1", "1", "draw", "--played")
    prizes = json.loads(run(db, "tournament", "board-prizes", t, "--json"))
    assert [[(p["number"], p["games"], p["points"]) for p in board["players"]] for board in prizes] == [
        [(1, 1, 0.5), (4, 1, 0.5)],
        [],  # board 2 left empty: no game on it
    ]
    lines = run(db, "tournament", "board-prizes", t).splitlines()
    assert lines[0] == "board 1" and lines[-1] == "board 2"
    assert lines[1].split() == ["1.", "P0", "(Team", "1)", "0.5/1", "50.0%"]
