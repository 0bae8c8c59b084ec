"""A team round robin through the API, from its creation to its final standings: six
registry teams of four boards and a reserve, the Berger table over the teams, each match's
boards by board order with the first-named team South on the odd boards, every board an
ordinary game, and the standings by match points then game points."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from tournament_support import ADMIN_TOKEN, Organiser, make_app

from recorder.cli.main import main

TEAMS = 6
VERIFY = (["verify", "--jobs", "1"], ["verify", "--projections"])  # the events replayed, the projections held
BOARDS = 4


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def admin(client):
    return Organiser(client, ADMIN_TOKEN)


def registry_team(admin, number: int, players: int = BOARDS + 1) -> str:
    ids = []
    for board in range(1, players + 1):
        body = {"name": f"Team {number} board {board}", "federation": "ERI"}
        ids.append(admin._call("POST", "/api/players", 201, body)["id"])
    names = {"name": f"Team {number}", "name_geez": f"ጋንታ {number}", "federation": "Maekel"}
    return admin._call("POST", "/api/teams", 201, {**names, "players": ids[:BOARDS], "reserves": ids[BOARDS:]})["id"]


def team_event(admin) -> str:
    return admin.create(name="League", variant="qelat", format="team_round_robin", team_boards=BOARDS)["id"]


def enter(admin, t: str, team_id: str, expect: int = 201) -> dict:
    return admin._call("POST", f"/api/tournaments/{t}/teams", expect, {"team_id": team_id})


def team_of(event: dict) -> dict[int, int]:
    return {number: team["number"] for team in event["teams"] for number in team["players"] + team["reserves"]}


def play_round(admin, t: str, paired: dict, teams: dict[int, int]) -> None:
    """Every match 3-1: the lower-numbered team wins boards 1 to 3, the other board 4."""
    for board in paired["boards"]:
        game = admin.start(t, paired["round"], board["board"])
        south, north = board["south"]["number"], board["north"]["number"]
        lower = south if teams[south] < teams[north] else north
        winner = lower if (board["board"] - 1) % BOARDS + 1 < BOARDS else ({south, north} - {lower}).pop()
        admin.command(game["id"], type="result", kind="resignation", winner="south" if winner == south else "north")


def test_six_teams_of_four_boards_play_a_team_round_robin_through_the_api_to_the_final_standings(
    tmp_path, client, admin
):
    t = team_event(admin)
    for number in range(1, TEAMS + 1):
        enter(admin, t, registry_team(admin, number))
    event = admin.get(f"/api/tournaments/{t}")
    assert [team["number"] for team in event["teams"]] == list(range(1, TEAMS + 1))
    assert len(event["players"]) == TEAMS * (BOARDS + 1)  # board players and reserves, each a registry link
    teams = team_of(event)
    first = admin.pair(t)
    assert len(first["boards"]) == TEAMS // 2 * BOARDS
    one, six = event["teams"][0]["players"], event["teams"][5]["players"]  # C.05 Annex 1: 1-6 2-5 3-4
    seats = [(b["south"]["number"], b["north"]["number"]) for b in first["boards"][:BOARDS]]
    assert seats == [(one[0], six[0]), (six[1], one[1]), (one[2], six[2]), (six[3], one[3])]
    play_round(admin, t, first, teams)
    for _ in range(2, TEAMS):
        play_round(admin, t, admin.pair(t), teams)
    assert "all 5 rounds are paired" in admin.pair(t, expect=422)["detail"]
    table = admin.get(f"/api/tournaments/{t}/team-standings")
    assert table["status"] == "finished" and table["primary"] == "match_points"
    rows = [
        (s["rank"], s["team"]["number"], s["match_points"], s["game_points"], s["played"]) for s in table["standings"]
    ]
    assert rows == [(k, k, 2 * (TEAMS - k), 3 * (TEAMS - k) + (k - 1), TEAMS - 1) for k in range(1, TEAMS + 1)]
    assert table["standings"][0]["team"]["name_geez"] == "ጋንታ 1"
    verified = [CliRunner().invoke(main, [*check, "--db", str(tmp_path / "tournament.sqlite3")]) for check in VERIFY]
    assert [result.exit_code for result in verified] == [0, 0], [result.output for result in verified]


def test_a_team_enters_once_with_enough_players_and_only_before_round_one(client, admin):
    t = team_event(admin)
    first, second = registry_team(admin, 1), registry_team(admin, 2)
    enter(admin, t, first)
    before = admin.get(f"/api/tournaments/{t}")["version"]
    enter(admin, t, first, expect=409)
    short = registry_team(admin, 3, players=BOARDS - 1)
    assert "3 players for 4 boards" in enter(admin, t, short, expect=422)["detail"]
    enter(admin, t, "tm-00ff", expect=404)
    admin._call("POST", f"/api/tournaments/{t}/players", 422, {"name": "Alone"})  # a player enters with a team
    assert admin.get(f"/api/tournaments/{t}")["version"] == before  # nothing stored
    enter(admin, t, second)
    admin.pair(t)
    assert "fixed once round 1" in enter(admin, t, registry_team(admin, 4), expect=422)["detail"]


def test_a_team_events_settings_are_its_own_and_its_arbiter_alone_enters_teams(client, admin):
    admin.create(expect=422, name="L", variant="qelat", format="team_round_robin")  # no boards
    admin.create(expect=422, name="L", variant="qelat", format="team_round_robin", team_boards=0)
    admin.create(expect=422, name="S", variant="qelat", format="swiss", rounds=3, team_boards=4)
    t, other = team_event(admin), team_event(admin)
    stranger = Organiser(client, admin.issue_token(other, "Arbiter of another")["token"])
    stranger._call("POST", f"/api/tournaments/{t}/teams", 403, {"team_id": registry_team(admin, 1)})
    swiss = admin.create(name="S", variant="qelat", format="swiss", rounds=3)["id"]
    assert "only a team event" in enter(admin, swiss, registry_team(admin, 2), expect=422)["detail"]


def test_every_read_of_a_team_event_answers(client, admin):
    t = team_event(admin)
    for number in (1, 2, 3):
        enter(admin, t, registry_team(admin, number))
    paired = admin.pair(t)
    assert len(paired["boards"]) == BOARDS  # three teams: one match, a team with the round off
    paths = ("", "/standings", "/crosstable", "/check", "/trf", "/prizes", "/rounds/1", "/team-standings", "/events")
    for path in paths:
        response = client.get(f"/api/tournaments/{t}{path}")
        assert response.status_code == 200, (path, response.get_data(as_text=True)[:500])


def test_the_pairing_checker_holds_a_team_events_rounds_against_the_berger_table_over_its_teams(client, admin):
    t = team_event(admin)
    for number in range(1, 5):
        enter(admin, t, registry_team(admin, number))
    teams = team_of(admin.get(f"/api/tournaments/{t}"))
    for _ in range(3):
        play_round(admin, t, admin.pair(t), teams)
    report = admin.get(f"/api/tournaments/{t}/check")
    assert [r["status"] for r in report["rounds"]] == ["same"] * 3 and report["differing_rounds"] == []


def test_a_player_plays_for_one_team_of_an_event(client, admin):
    t = team_event(admin)
    first = registry_team(admin, 1)
    shared = admin.get(f"/api/teams/{first}")["players"][0]["id"]
    others = [
        admin._call("POST", "/api/players", 201, {"name": f"Other {i}", "federation": "ERI"})["id"] for i in range(3)
    ]
    names = {"name": "Team 2", "name_geez": "ጋንታ 2", "federation": "Debub"}
    second = admin._call("POST", "/api/teams", 201, {**names, "players": [*others, shared]})["id"]
    enter(admin, t, first)
    before = admin.get(f"/api/tournaments/{t}")["version"]
    assert "entered with another team" in enter(admin, t, second, expect=409)["detail"]
    assert admin.get(f"/api/tournaments/{t}")["version"] == before
