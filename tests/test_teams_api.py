"""Teams in the registry through the API: a name in both scripts, a federation or region,
a club, and a roster of registry players in board order with reserves."""

from __future__ import annotations

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, make_app

NAMES = [("Abeba", "ኣበባ"), ("Berhane", "ብርሃነ"), ("Chaltu", "ጫልቱ"), ("Dawit", "ዳዊት"), ("Eyerus", "እየሩስ")]


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def admin(client):
    return Organiser(client, ADMIN_TOKEN)


def register_players(admin, names=NAMES) -> list[str]:
    body = [{"name": name, "name_geez": geez, "federation": "ERI"} for name, geez in names]
    return [admin._call("POST", "/api/players", 201, player)["id"] for player in body]


def team_body(ids: list[str], **changes) -> dict:
    body = {"name": "Asmara", "name_geez": "ኣስመራ", "federation": "Maekel", "club": "Asmara Club"}
    return {**body, "players": ids[:4], "reserves": ids[4:], **changes}


def test_a_team_is_registered_with_its_roster_in_board_order_and_reserves(client, admin):
    ids = register_players(admin)
    made = admin._call("POST", "/api/teams", 201, team_body(ids))
    assert made["id"].startswith("tm-") and made["version"] == 1
    assert (made["name"], made["name_geez"], made["federation"], made["club"]) == (
        "Asmara",
        "ኣስመራ",
        "Maekel",
        "Asmara Club",
    )
    assert [(p["board"], p["id"], p["name_geez"]) for p in made["players"]] == [
        (1, ids[0], "ኣበባ"), (2, ids[1], "ብርሃነ"), (3, ids[2], "ጫልቱ"), (4, ids[3], "ዳዊት"),
    ]  # fmt: skip
    assert [p["id"] for p in made["reserves"]] == [ids[4]]
    assert admin.get(f"/api/teams/{made['id']}") == made


@pytest.mark.parametrize(
    "change, field",
    [
        ({"name_geez": None}, "name_geez"),  # a name in both scripts
        ({"name": ""}, "name"),
        ({"players": []}, "players"),
        ({"players": ["p-00ff"]}, "players"),  # nobody registered
        ({"players": ["someone"]}, "players"),
        ("twice", "players"),  # one player, two places
    ],
)
def test_a_team_without_both_names_or_with_a_roster_of_strangers_is_a_422_and_stores_nothing(
    client, admin, change, field
):
    ids = register_players(admin)
    body = team_body(ids, reserves=[ids[0]]) if change == "twice" else team_body(ids, **change)
    problem = admin._call("POST", "/api/teams", 422, body)
    assert field in (problem.get("field"), *problem.get("errors", {}))
    assert client.get("/api/teams/tm-0").status_code == 404


def test_an_arbiter_registers_a_team_but_only_the_admin_changes_its_roster(client, admin):
    ids = register_players(admin)
    t = admin.create(name="League", variant="qelat", format="round_robin")["id"]
    arbiter = Organiser(client, admin.issue_token(t, "Arbiter")["token"])
    team = arbiter._call("POST", "/api/teams", 201, team_body(ids))
    url = f"/api/teams/{team['id']}/roster"
    arbiter._call("PUT", url, 403, {"players": ids[1:5]})
    assert client.put(url, json={"players": ids[1:5]}).status_code == 401
    changed = admin._call("PUT", url, 200, {"players": [ids[4], *ids[:3]], "reserves": [ids[3]]})
    assert [p["id"] for p in changed["players"]] == [ids[4], *ids[:3]] and changed["version"] == 2
    assert admin._call("PUT", url, 200, {"players": [ids[4], *ids[:3]], "reserves": [ids[3]]})["version"] == 2
    admin._call("PUT", "/api/teams/tm-00ff/roster", 404, {"players": ids[:4]})


def test_a_team_stream_verifies_with_the_rest_of_the_record(tmp_path, client, admin):
    from click.testing import CliRunner

    from recorder.cli.main import main

    ids = register_players(admin)
    team = admin._call("POST", "/api/teams", 201, team_body(ids))
    admin._call("PUT", f"/api/teams/{team['id']}/roster", 200, {"players": ids[1:5]})
    result = CliRunner().invoke(main, ["verify", "--jobs", "1", "--db", str(tmp_path / "tournament.sqlite3")])
    assert result.exit_code == 0, result.output
    assert team["id"] in result.output
