"""A registry player's Ge'ez name carried by every read that names him: a tournament's
players, boards and byes, its standings, crosstable, category standings and prize list,
and a game's read; read from the registry once per answer, whatever the number of rows."""

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

ABEBA = {"name": "Abeba Tesfay", "name_geez": "ኣበባ ተስፋይ", "federation": "ERI"}
SELAM = {"name": "Selam Haile", "federation": "ERI"}  # in the registry, without a Ge'ez name


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def registered(client, body: dict) -> str:
    response = client.post("/api/players", json=body, headers=bearer(ADMIN_TOKEN))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def enter(org: Organiser, tid: str, player_id: str) -> dict:
    return org._call("POST", f"/api/tournaments/{tid}/players", 201, {"player_id": player_id})


@pytest.fixture
def played(client):
    """Abeba (registered, with her Ge'ez name), Berhane (a name only) and Selam (registered,
    a Latin name only); a region category and a prize list; round 1 paired, its board's
    result entered."""
    org = Organiser(client)
    tid = org.create(name="Asmara Open", variant="qelat", format="round_robin")["id"]
    enter(org, tid, registered(client, ABEBA))
    org.add_players(tid, "Berhane")
    enter(org, tid, registered(client, SELAM))
    client.put(
        f"/api/tournaments/{tid}/categories",
        json={"categories": [{"code": "R1", "kind": "region", "federations": ["ERI"]}]},
        headers=bearer(ADMIN_TOKEN),
    )
    prizes = {"prizes": [{"place": 1, "amount": 100}, {"place": 2, "amount": 50}, {"place": 3, "amount": 10}]}
    assert client.put(f"/api/tournaments/{tid}/prizes", json=prizes, headers=bearer(ADMIN_TOKEN)).status_code == 200
    org.pair(tid)
    org.forfeit(tid, 1, 1, "south_wins")
    return tid


NAMES = {"Abeba Tesfay": "ኣበባ ተስፋይ", "Berhane": None, "Selam Haile": None}


def named(rows) -> dict:
    return {row["name"]: row["name_geez"] for row in rows}


def test_an_entry_answers_with_the_registry_geez_name(client):
    org = Organiser(client)
    tid = org.create(name="Keren Open", variant="qelat", format="round_robin")["id"]
    assert enter(org, tid, registered(client, ABEBA))["name_geez"] == "ኣበባ ተስፋይ"
    assert org.add_players(tid, "Berhane") == [2]
    assert client.get(f"/api/tournaments/{tid}").get_json()["players"][1]["name_geez"] is None


def test_tournament_players_boards_and_byes_carry_the_registry_geez_name(client, played):
    t = client.get(f"/api/tournaments/{played}").get_json()
    assert named(t["players"]) == NAMES
    (board,) = t["rounds"][0]["boards"]
    (bye,) = t["rounds"][0]["byes"]
    seated = [board["south"], board["north"], bye]
    assert {p["name"]: p["name_geez"] for p in seated} == NAMES
    rnd = client.get(f"/api/tournaments/{played}/rounds/1").get_json()
    assert named([rnd["boards"][0]["south"], rnd["boards"][0]["north"], rnd["byes"][0]]) == NAMES


def test_standings_and_crosstable_carry_the_registry_geez_name(client, played):
    assert named(client.get(f"/api/tournaments/{played}/standings").get_json()["standings"]) == NAMES
    assert named(client.get(f"/api/tournaments/{played}/crosstable").get_json()["rows"]) == NAMES


def test_category_standings_and_prizes_carry_the_registry_geez_name(client, played):
    category = client.get(f"/api/tournaments/{played}/categories/R1/standings").get_json()["standings"]
    assert named(category) == {"Abeba Tesfay": "ኣበባ ተስፋይ", "Selam Haile": None}  # Berhane's entry names no federation
    awards = client.get(f"/api/tournaments/{played}/prizes").get_json()["awards"]
    assert named(awards) == NAMES


def test_a_renamed_registry_player_is_read_with_his_new_geez_name(client, played):
    abeba = client.get(f"/api/tournaments/{played}").get_json()["players"][0]["player_id"]
    renamed = client.post(f"/api/players/{abeba}/name", json={"name_geez": "ኣበባ"}, headers=bearer(ADMIN_TOKEN))
    assert renamed.status_code == 201, renamed.get_json()
    assert named(client.get(f"/api/tournaments/{played}/standings").get_json()["standings"])["Abeba Tesfay"] == "ኣበባ"


def test_a_merged_entrant_is_read_with_his_survivors_geez_name(client):
    org = Organiser(client)
    tid = org.create(name="Massawa Open", variant="qelat", format="round_robin")["id"]
    duplicate = registered(client, {"name": "A. Tesfay", "federation": "ERI"})
    enter(org, tid, duplicate)
    survivor = registered(client, ABEBA)
    merged = client.post(f"/api/players/{duplicate}/merge", json={"into": survivor}, headers=bearer(ADMIN_TOKEN))
    assert merged.status_code == 201, merged.get_json()
    assert named(client.get(f"/api/tournaments/{tid}").get_json()["players"]) == {"A. Tesfay": "ኣበባ ተስፋይ"}


def test_a_games_read_carries_the_geez_names_of_its_registry_players(client):
    org = Organiser(client)
    tid = org.create(name="Mendefera Open", variant="qelat", format="round_robin")["id"]
    abeba = registered(client, ABEBA)
    enter(org, tid, abeba)
    org.add_players(tid, "Berhane")
    org.pair(tid)
    board_game = client.get(f"/api/games/{org.start(tid, 1, 1)['id']}").get_json()
    seats = {board_game["south"]: board_game["south_geez"], board_game["north"]: board_game["north_geez"]}
    assert seats == {"Abeba Tesfay": "ኣበባ ተስፋይ", "Berhane": None}
    body = {"variant": "qelat", "south": "Guest", "north": "Abeba", "first_player": "south", "north_player": abeba}
    outside = client.post("/api/games", json=body, headers=bearer(ADMIN_TOKEN)).get_json()["id"]
    read = client.get(f"/api/games/{outside}").get_json()
    assert (read["south_geez"], read["north_geez"]) == (None, "ኣበባ ተስፋይ")


@pytest.mark.parametrize(
    "path",
    ["", "/rounds/1", "/standings", "/crosstable", "/categories/R1/standings", "/prizes"],
)
def test_each_tournament_read_asks_the_registry_once_whatever_its_players(client, path, monkeypatch):
    org = Organiser(client)
    tid = org.create(name="Asmara Cup", variant="qelat", format="round_robin")["id"]
    for k in range(12):
        enter(
            org, tid, registered(client, {**ABEBA, "name": f"Abeba Tesfay {k}", "name_geez": f"ኣበባ {k}", "force": True})
        )
    client.put(
        f"/api/tournaments/{tid}/categories",
        json={"categories": [{"code": "R1", "kind": "region", "federations": ["ERI"]}]},
        headers=bearer(ADMIN_TOKEN),
    )
    org.pair(tid)
    tables = client.application.extensions["players"].tables
    asked = []
    rows = tables.rows
    monkeypatch.setattr(tables, "rows", lambda ids: asked.append(len(ids)) or rows(ids))
    answer = client.get(f"/api/tournaments/{tid}{path}")
    assert answer.status_code == 200, answer.get_json()
    assert asked == [12]
