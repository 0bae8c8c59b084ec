"""Duplicates in the registry: a merge of two entrants of one tournament, names spelt
nearly alike, a player known by his Ge'ez name only, and his games found by that name."""

import sqlite3

import pytest
from conftest import make_app
from test_players_api import register

SELAM = {"name": "Selam Tesfaye", "name_geez": "ሰላም ተስፋየ", "federation": "ERI"}


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path / "players.sqlite3").test_client()


def stored(client) -> tuple:
    path = client.application.config["DATABASE"]
    with sqlite3.connect(path) as db:
        return tuple(
            db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
            for table in ("events", "players", "player_keys", "player_sounds", "player_entries")
        )


def tournament_with(client, *player_ids) -> str:
    body = {"name": "Qelat Swiss", "variant": "qelat", "format": "swiss", "rounds": 5}
    tid = client.post("/api/tournaments", json=body).get_json()["id"]
    for player_id in player_ids:
        entered = client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id})
        assert entered.status_code == 201, entered.get_json()
    return tid


def test_a_merge_of_two_entrants_of_one_tournament_is_refused_naming_the_tournament(client):
    survivor = register(client, **SELAM)["id"]
    duplicate = register(client, name="Selam Tesfay", federation="ERI", force=True)["id"]
    tid = tournament_with(client, survivor, duplicate)
    before = stored(client)
    refused = client.post(f"/api/players/{duplicate}/merge", json={"into": survivor})
    assert refused.status_code == 409, refused.get_json()
    problem = refused.get_json()
    assert problem["field"] == "into" and problem["tournaments"] == [tid]
    assert stored(client) == before
    merged = client.post(f"/api/players/{duplicate}/merge", json={"into": survivor, "entered_twice": True})
    assert merged.status_code == 201, merged.get_json()
    page = client.get(f"/api/players/{survivor}").get_json()
    assert [t["id"] for t in page["tournaments"]] == [tid]
    assert page["tournaments"][0]["numbers"] == [1, 2]


def test_a_merge_counts_the_records_already_merged_into_either_side(client):
    survivor = register(client, **SELAM)["id"]
    duplicate = register(client, name="Selam Tesfay", federation="ERI", force=True)["id"]
    third = register(client, name="S. Tesfaye", federation="ERI", force=True)["id"]
    tid = tournament_with(client, survivor, third)
    confirmed = {"into": duplicate, "entered_twice": True}
    assert client.post(f"/api/players/{third}/merge", json=confirmed).status_code == 201
    refused = client.post(f"/api/players/{duplicate}/merge", json={"into": survivor})
    assert refused.status_code == 409 and refused.get_json()["tournaments"] == [tid]


def test_a_merge_of_players_of_different_tournaments_needs_no_confirmation(client):
    survivor = register(client, **SELAM)["id"]
    duplicate = register(client, name="Selam Tesfay", federation="ERI", force=True)["id"]
    tournament_with(client, survivor)
    tournament_with(client, duplicate)
    assert client.post(f"/api/players/{duplicate}/merge", json={"into": survivor}).status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Selam Tesfay", "federation": "ERI"},
        {"name": "Selam Tesfaie", "federation": "ERI"},
        {"name": "Salam Tesfaye", "federation": "ETH"},
        {"name": "Selam Tesffaye", "federation": "ERI"},
        {"name": "S. Tesfaye", "name_geez": "ሰላም ተስፋይ", "federation": "ERI"},
        {"name_geez": "ሰላም ተስፋይ", "federation": "ERI"},
    ],
)
def test_a_name_spelt_nearly_like_a_registered_one_asks_for_confirmation(client, body):
    first = register(client, **SELAM)
    before = stored(client)
    problem = register(client, 409, **body)
    assert problem["field"] == "name" and [c["id"] for c in problem["candidates"]] == [first["id"]]
    assert stored(client) == before
    assert register(client, **body, force=True)["id"] != first["id"]


@pytest.mark.parametrize("name", ["Selam Haile", "Tesfaye Selam", "Semere Tesfaye", "Selam", "Samuel Tesfaye"])
def test_other_names_are_registered_without_a_question(client, name):
    register(client, **SELAM)
    register(client, name=name, federation="ERI")


def test_a_player_with_only_a_geez_name_is_registered_under_its_transliteration(client):
    player = register(client, name_geez="ሰላም ተስፋይ", federation="ERI")
    assert (player["name"], player["name_geez"]) == ("Selam Tesfay", "ሰላም ተስፋይ")
    found = client.get("/api/players?q=ሰላም").get_json()["players"]
    assert [p["id"] for p in found] == [player["id"]]
    assert register(client, name_geez="ኣበበ ጎይትኦም", federation="ERI")["name"] == "Abebe Goyt'om"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"federation": "ERI"}, "name"),
        ({"name_geez": "   ", "federation": "ERI"}, "name_geez"),
        ({"name_geez": "፡፡", "federation": "ERI"}, "name_geez"),
    ],
)
def test_a_player_needs_one_name_or_the_other(client, body, field):
    before = stored(client)
    response = client.post("/api/players", json=body)
    assert response.status_code == 422, response.get_json()
    problem = response.get_json()
    assert problem.get("field") == field or field in problem.get("errors", {}), problem
    assert stored(client) == before


def test_a_federation_typed_in_small_letters_is_read_in_capitals(client):
    player = register(client, name="Selam Haile", federation=" eri ")
    assert player["federation"] == "ERI"
    moved = client.post(f"/api/players/{player['id']}/affiliation", json={"federation": "eth"})
    assert moved.status_code == 201 and moved.get_json()["federation"] == "ETH"
    assert client.post("/api/players", json={"name": "Meron", "federation": "e1h"}).status_code == 422


def test_the_sound_keys_are_rebuilt_and_checked(client):
    register(client, **SELAM)
    path = client.application.config["DATABASE"]
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM player_sounds")
    players = client.application.extensions["players"]
    assert any("sound" in line for line in players.check())
    players.rebuild()
    assert players.check() == []


def test_the_games_list_gives_the_geez_names_of_the_registry_players_it_names(client):
    selam = register(client, name="Selam Tesfay", name_geez="ሰላም ተስፋይ", federation="ERI")["id"]
    other = register(client, name="Meron Haile", federation="ERI")["id"]
    body = {"variant": "qelat", "south": "Selam", "north": "Meron", "first_player": "south"}
    named = client.post("/api/games", json={**body, "south_player": selam, "north_player": other}).get_json()["id"]
    guest = client.post("/api/games", json={**body, "north": "Guest"}).get_json()["id"]
    games = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert (games[named]["south_geez"], games[named]["north_geez"]) == ("ሰላም ተስፋይ", None)
    assert (games[guest]["south_geez"], games[guest]["north_geez"]) == (None, None)
    renamed = client.post(f"/api/players/{selam}/name", json={"name_geez": "ሰላም ተስፋየ"})
    assert renamed.status_code == 201, renamed.get_json()
    games = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert games[named]["south_geez"] == "ሰላም ተስፋየ"  # read with the page: a rename shows at once


def test_the_games_list_gives_a_merged_players_geez_name_as_his_survivors(client):
    survivor = register(client, name="Selam Tesfay", name_geez="ሰላም ተስፋይ", federation="ERI")["id"]
    duplicate = register(client, name="S. Tesfay", federation="ERI", force=True)["id"]
    body = {"variant": "qelat", "south": "S. Tesfay", "north": "Guest", "first_player": "south"}
    game = client.post("/api/games", json={**body, "south_player": duplicate}).get_json()["id"]
    assert client.post(f"/api/players/{duplicate}/merge", json={"into": survivor}).status_code == 201
    (listed,) = [g for g in client.get("/api/games").get_json()["games"] if g["id"] == game]
    assert listed["south_geez"] == "ሰላም ተስፋይ"


def test_a_tournament_entry_registers_a_player_by_his_geez_name_and_a_federation_in_small_letters(client):
    body = {"name": "Qelat Open", "variant": "qelat", "format": "round_robin"}
    tid = client.post("/api/tournaments", json=body).get_json()["id"]
    entry = {"name_geez": "ሰላም ተስፋይ", "federation": "eri", "register": True}
    entered = client.post(f"/api/tournaments/{tid}/players", json=entry)
    assert entered.status_code == 201, entered.get_json()
    entrant = entered.get_json()
    assert (entrant["name"], entrant["federation"]) == ("Selam Tesfay", "ERI")
    player = client.get(f"/api/players/{entrant['player_id']}").get_json()
    assert (player["name"], player["name_geez"], player["federation"]) == ("Selam Tesfay", "ሰላም ተስፋይ", "ERI")
    before = stored(client)
    refused = client.post(f"/api/tournaments/{tid}/players", json={**entry, "name_geez": "፡"})
    assert refused.status_code == 422 and refused.get_json()["field"] == "name_geez"
    assert stored(client) == before


def test_a_registry_from_before_the_sound_keys_gets_them_when_the_service_starts(tmp_path):
    path = tmp_path / "older.sqlite3"
    first = register(make_app(path).test_client(), **SELAM)["id"]
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM player_sounds")  # as a file of the release before holds it
    client = make_app(path).test_client()
    assert client.application.extensions["players"].check() == []
    problem = register(client, 409, name="Selam Tesfay", federation="ERI")
    assert [c["id"] for c in problem["candidates"]] == [first]
