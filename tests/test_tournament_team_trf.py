"""A team event's TRF: its players' records, one team record (013) a team, and this
service's own records for what 013 cannot say; the file imported back makes the same team
round robin, whose export is the same file. Records not read are refused naming line and
column, and a refused file stores nothing."""

from __future__ import annotations

import random

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

TEAMS = 6
BOARDS = 4
RESULTS = ("south_wins", "north_wins", "draw")


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


def played_team_event(admin, seed: int, rounds: int = TEAMS - 1) -> str:
    """Six teams of four boards and a reserve, ``rounds`` rounds each board's result entered
    as a game played on paper, drawn from ``random.Random(seed)``."""
    draw = random.Random(seed)
    t = admin.create(name="League", variant="qelat", format="team_round_robin", team_boards=BOARDS)["id"]
    for number in range(1, TEAMS + 1):
        admin._call("POST", f"/api/tournaments/{t}/teams", 201, {"team_id": registry_team(admin, number)})
    for _ in range(rounds):
        paired = admin.pair(t)
        for board in paired["boards"]:
            url = f"/api/tournaments/{t}/rounds/{paired['round']}/boards/{board['board']}/result"
            admin._call("POST", url, 201, {"result": draw.choice(RESULTS), "kind": "played"})
    return t


def exported(client, t: str, layout: str = "2026") -> str:
    response = client.get(f"/api/tournaments/{t}/trf?layout={layout}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post_trf(client, text: str, query: str = "?variant=qelat"):
    headers = {"Content-Type": "text/plain", **bearer(ADMIN_TOKEN)}
    return client.post(f"/api/tournaments/trf{query}", data=text.encode(), headers=headers)


def test_a_team_events_trf_holds_one_013_record_a_team_its_players_in_board_order_then_its_reserve(client, admin):
    t = played_team_event(admin, seed=1, rounds=1)
    event = admin.get(f"/api/tournaments/{t}")
    lines = exported(client, t).split("\r\n")
    teams = [line for line in lines if line.startswith("013 ")]
    assert len(teams) == TEAMS and "082 6" in lines and "352 WBWB" in lines
    first = event["teams"][0]
    assert teams[0][4:36] == "Team 1".ljust(32)  # the name in columns 5-36
    members = [int(teams[0][c - 1 : c + 3]) for c in range(37, len(teams[0]) + 1, 5)]  # 37-40, 42-45, ...
    assert members == first["players"] + first["reserves"]
    assert any(line.startswith("XMR 0000 TEAM      {") and "ጋንታ 1" in line for line in lines)
    assert "XMR 0000 BOARDS    4" in lines
    assert sum(1 for line in exported(client, t, "16").split("\r\n") if line.startswith("013 ")) == TEAMS


def test_a_six_team_round_robins_trf_imports_back_into_a_team_event_whose_export_is_the_same_file(client, admin):
    t = played_team_event(admin, seed=7)
    text = exported(client, t)
    response = post_trf(client, text)
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()["id"]
    assert imported != t
    again = admin.get(f"/api/tournaments/{imported}")
    assert again["format"] == "team_round_robin" and again["team_boards"] == BOARDS
    assert [team["name_geez"] for team in again["teams"]] == [f"ጋንታ {n}" for n in range(1, TEAMS + 1)]
    assert exported(client, imported) == text
    assert exported(client, imported, "16") == exported(client, t, "16")
    standings = admin.get(f"/api/tournaments/{t}/team-standings")["standings"]
    assert admin.get(f"/api/tournaments/{imported}/team-standings")["standings"] == standings


def refused(client, text: str, query: str = "?variant=qelat") -> str:
    before = client.get("/api/tournaments").get_json()
    response = post_trf(client, text, query)
    assert response.status_code == 422, response.get_json()
    assert client.get("/api/tournaments").get_json() == before  # nothing stored
    return response.get_json()["detail"]


def test_a_team_trf_refuses_the_team_records_it_does_not_read_naming_line_and_column(client, admin):
    text = exported(client, played_team_event(admin, seed=3, rounds=2))
    lines = text.split("\r\n")
    at = lines.index(next(line for line in lines if line.startswith("013 "))) + 1
    with_310 = "\r\n".join([*lines[: at - 1], "310   1 Team 1", *lines[at - 1 :]])
    assert refused(client, with_310).startswith(f"line {at}, column 1: team record 310 is not read here")
    no_team = "\r\n".join(line for line in lines if not line.startswith("XMR 0000 TEAM"))
    assert "its XMR 0000 TEAM record" in refused(client, no_team)
    assert "imported as a team_round_robin" in refused(client, text, "?variant=qelat&format=swiss")


def test_a_team_trf_whose_pairings_are_not_the_berger_table_over_its_teams_is_refused(client, admin):
    text = exported(client, played_team_event(admin, seed=4, rounds=1))
    lines = text.split("\r\n")
    at, line = next((i, line) for i, line in enumerate(lines, start=1) if line.startswith("013 "))
    swapped = line[:36] + line[41:46] + line[36:41] + line[46:]  # boards 1 and 2 of team 1 exchanged
    changed = "\r\n".join([*lines[: at - 1], swapped, *lines[at:]])
    assert "the Berger table over the teams" in refused(client, changed)
    twice = line[:41] + line[36:40] + line[45:]  # its first player named on board 2 too
    assert refused(client, "\r\n".join([*lines[: at - 1], twice, *lines[at:]])).startswith(f"line {at}, column 42:")


def test_a_team_trfs_names_and_registry_team_are_taken_as_every_name_and_id_is(client, admin):
    text = exported(client, played_team_event(admin, seed=5, rounds=1))
    lines = text.split("\r\n")
    at, told = next((i, line) for i, line in enumerate(lines, start=1) if line.startswith("XMR 0000 TEAM"))

    def told_instead(old: str, new: str) -> str:
        return "\r\n".join([*lines[: at - 1], told.replace(old, new), *lines[at:]])

    hidden = refused(client, told_instead("ጋንታ 1", "ጋንታ\u202e1"))
    assert hidden.startswith(f"line {at}, column 20: the team's name_geez:")
    assert (
        refused(client, told_instead('"tm-', '"xx-'))
        == f"line {at}, column 20: a registry team's id is tm- and hex digits"
    )
    first = next(i for i, line in enumerate(lines, start=1) if line.startswith("013 "))
    bidi = lines[first - 1].replace("Team 1", "Team\u202e1")
    with_bidi = "\r\n".join([*lines[: first - 1], bidi, *lines[first:]])
    assert refused(client, with_bidi).startswith(f"line {first}, column 5: the team's name:")


def test_a_team_trf_with_a_round_past_the_berger_cycle_over_its_teams_is_refused(client, admin):
    lines = exported(client, played_team_event(admin, seed=6)).split("\r\n")
    lines = [line for line in lines if not line.startswith("142 ")]  # no planned rounds to hold them to

    def with_sixth_round(line: str, opponent: int, colour: str) -> str:
        points = float(line[80:84]) + 0.5
        return f"{line[:80]}{points:4.1f}{line[84:]}  {opponent:4d} {colour} ="

    at = next(i for i, line in enumerate(lines) if line.startswith("001    1 "))
    lines[at] = with_sixth_round(lines[at], 2, "w")
    lines[at + 1] = with_sixth_round(lines[at + 1], 1, "b")
    column = 92 + 5 * 10  # round 6's opponent
    assert (
        refused(client, "\r\n".join(lines))
        == f"line {at + 1}, column {column}: 6 teams play 5 rounds, one Berger cycle"
    )
