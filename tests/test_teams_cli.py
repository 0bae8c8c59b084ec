"""The command line's teams: registered, entered in a team event, paired by the Berger table
over the teams, and its standings printed, the same events as the API writes."""

from __future__ import annotations

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
