"""The player registry over HTTP: registration, duplicates, search, merges, and who may write."""

import sqlite3

import pytest
from conftest import make_app

ABEBA = {"name": "Abeba Tesfaye", "name_geez": "ኣበባ ተስፋይ", "federation": "ERI", "club": "Asmara MC"}


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path / "players.sqlite3").test_client()


def register(client, expect=201, **body):
    response = client.post("/api/players", json=body)
    assert response.status_code == expect, response.get_json()
    return response.get_json()


def all_rows(client) -> tuple:
    """Everything stored: the events and every registry table."""
    path = client.application.config["DATABASE"]
    with sqlite3.connect(path) as db:
        return tuple(
            db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
            for table in ("events", "players", "player_keys", "player_entries")
        )


def test_a_registered_player_has_a_stable_id_and_his_fields(client):
    player = register(client, **ABEBA, birth_year=1990, external_id="ERI-0042")
    assert player["id"].startswith("p-") and player["version"] == 1
    fetched = client.get(f"/api/players/{player['id']}").get_json()
    assert {k: fetched[k] for k in player} == player
    assert (fetched["tournaments"], fetched["games"], fetched["ratings"]) == ([], [], {})
    assert fetched["name_geez"] == "ኣበባ ተስፋይ" and fetched["federation"] == "ERI"
    events = client.get(f"/api/players/{player['id']}/events").get_json()["events"]
    assert [e["type"] for e in events] == ["player_registered"] and events[0]["recorded_by"] == "admin"


def test_inner_spacing_of_a_name_is_stored_as_one_space(client):
    assert register(client, name="  Selam   Haile ", federation="ETH")["name"] == "Selam Haile"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "   ", "federation": "ETH"}, "name"),
        ({"name": "", "federation": "ETH"}, "name"),
        ({"name": "Selam", "federation": "et"}, "federation"),
        ({"name": "Selam", "federation": "ETHI"}, "federation"),
        ({"name": "Selam", "federation": "E1H"}, "federation"),
        ({"name": "Selam", "federation": "ETH", "birth_year": 2999}, "birth_year"),
        ({"name": "ሰላም", "federation": "ETH"}, "name"),
        ({"name": "Selam", "name_geez": "Selam", "federation": "ETH"}, "name_geez"),
        ({"name": "Selam", "federation": "ETH", "birth_year": "1990"}, "birth_year"),
    ],
)
def test_bad_registrations_name_the_field_and_store_nothing(client, body, field):
    before = all_rows(client)
    response = client.post("/api/players", json=body)
    assert response.status_code == 422, response.get_json()
    problem = response.get_json()
    assert problem.get("field") == field or field in problem.get("errors", {}), problem
    assert all_rows(client) == before


def test_a_birth_year_this_year_is_taken(client):
    year = client.application.extensions["players"].year()
    assert register(client, name="Newborn Player", federation="ETH", birth_year=year)["birth_year"] == year


def test_a_name_like_a_registered_one_asks_for_confirmation_with_the_candidates(client):
    first = register(client, **ABEBA)
    before = all_rows(client)
    for name in ("Abeba  Tesfaye", "abeba tesfaye", "Abéba Tesfaye", "Abeba-Tesfaye"):
        problem = register(client, 409, name=name, federation="ETH")
        assert problem["field"] == "name"
        assert [c["id"] for c in problem["candidates"]] == [first["id"]]
        assert problem["candidates"][0]["federation"] == "ERI" and problem["candidates"][0]["club"] == "Asmara MC"
    geez = register(client, 409, name="Abeba T.", name_geez="ኣበባ  ተስፋይ", federation="ERI")
    assert [c["id"] for c in geez["candidates"]] == [first["id"]]
    assert all_rows(client) == before
    second = register(client, name="Abeba Tesfaye", federation="ETH", force=True)
    assert second["id"] != first["id"]


@pytest.mark.parametrize("query", ["abeba", "ABEBA TESFAYE", "abebatesfaye", "Tesfaye", "tésf", "ኣበባ", "ተስፋይ", "ኣበባተ"])
def test_search_ignores_case_spacing_and_diacritics_in_either_script(client, query):
    abeba = register(client, **ABEBA)
    register(client, name="Selam Haile", federation="ETH")
    found = client.get("/api/players", query_string={"q": query}).get_json()["players"]
    assert [(p["id"], p["federation"], p["club"]) for p in found] == [(abeba["id"], "ERI", "Asmara MC")]


def test_a_search_finds_nothing_for_an_empty_query_or_an_unknown_name(client):
    register(client, **ABEBA)
    assert client.get("/api/players?q=").get_json()["players"] == []
    assert client.get("/api/players?q=zzz").get_json()["players"] == []


def test_renaming_and_a_new_club_are_events_and_the_search_follows(client):
    player = register(client, name="Abeba Tesfay", federation="ERI")
    renamed = client.post(f"/api/players/{player['id']}/name", json={"name": "Abeba Tesfaye"})
    assert renamed.status_code == 201 and renamed.get_json()["name"] == "Abeba Tesfaye"
    moved = client.post(f"/api/players/{player['id']}/affiliation", json={"federation": "ETH", "club": "Mekelle"})
    assert moved.get_json()["federation"] == "ETH" and moved.get_json()["version"] == 3
    assert [p["id"] for p in client.get("/api/players?q=tesfaye").get_json()["players"]] == [player["id"]]
    bad = client.post(f"/api/players/{player['id']}/affiliation", json={"federation": "Ethiopia"})
    assert bad.status_code == 422 and bad.get_json()["field"] == "federation"


def test_a_merged_id_answers_with_the_survivor_and_a_withdrawal_restores_it(client):
    survivor = register(client, **ABEBA)
    duplicate = register(client, name="Abeba Tesfay", federation="ERI", force=True)  # a near spelling: confirmed
    merged = client.post(f"/api/players/{duplicate['id']}/merge", json={"into": survivor["id"]})
    assert merged.status_code == 201, merged.get_json()
    answer = client.get(f"/api/players/{duplicate['id']}").get_json()
    assert answer["merged_into"] == survivor["id"] and answer["survivor"]["name"] == "Abeba Tesfaye"
    assert [p["id"] for p in client.get("/api/players?q=abeba").get_json()["players"]] == [survivor["id"]]
    withdrawn = client.post(f"/api/players/{duplicate['id']}/merge/withdrawal", json={})
    assert withdrawn.status_code == 201 and withdrawn.get_json()["merged_into"] is None
    assert len(client.get("/api/players?q=abeba").get_json()["players"]) == 2


def test_bad_merges_name_the_field_and_store_nothing(client):
    a = register(client, **ABEBA)["id"]
    b = register(client, name="Berhane Kidane", federation="ERI")["id"]
    c = register(client, name="Chaltu Bekele", federation="ETH")["id"]
    assert client.post(f"/api/players/{b}/merge", json={"into": c}).status_code == 201
    before = all_rows(client)
    for duplicate, into, field in (
        (a, a, "into"),
        (a, b, "into"),
        (a, "p-00", "into"),
        (a, "nobody", "into"),
        (b, a, "player_id"),
    ):
        response = client.post(f"/api/players/{duplicate}/merge", json={"into": into})
        assert response.status_code == 422 and response.get_json()["field"] == field, (
            duplicate,
            into,
            response.get_json(),
        )
    refused = client.post(f"/api/players/{a}/merge/withdrawal", json={})
    assert refused.status_code == 422 and refused.get_json()["field"] == "player_id"
    assert all_rows(client) == before


def test_an_unknown_player_is_404(client):
    assert client.get("/api/players/p-0123456789ab").status_code == 404
    assert client.get("/api/players/t-abc").status_code == 404


def test_reads_are_public_and_writes_need_a_token(client):
    anonymous = {"Authorization": ""}
    player = register(client, **ABEBA)
    assert client.get(f"/api/players/{player['id']}", headers=anonymous).status_code == 200
    assert client.get("/api/players?q=abeba", headers=anonymous).status_code == 200
    before = all_rows(client)
    assert client.post("/api/players", json={"name": "X Y", "federation": "ETH"}, headers=anonymous).status_code == 401
    assert client.post(f"/api/players/{player['id']}/name", json={"name": "Z"}, headers=anonymous).status_code == 401
    assert all_rows(client) == before


def arbiter(client) -> tuple[str, dict]:
    tournament = client.post("/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "round_robin"})
    tid = tournament.get_json()["id"]
    token = client.post(f"/api/tournaments/{tid}/tokens", json={"holder": "Arbiter A"}).get_json()["token"]
    return tid, {"Authorization": f"Bearer {token}"}


def test_an_arbiter_registers_players_but_renames_only_his_tournaments_and_never_merges(client):
    _, headers = arbiter(client)
    mine = client.post("/api/players", json={"name": "Dawit Alemu", "federation": "ETH"}, headers=headers)
    assert mine.status_code == 201
    events = client.get(f"/api/players/{mine.get_json()['id']}/events").get_json()["events"]
    assert events[0]["recorded_by"] == "Arbiter A"
    other = register(client, **ABEBA)
    before = all_rows(client)
    assert client.post(f"/api/players/{other['id']}/name", json={"name": "Q"}, headers=headers).status_code == 403
    merge = client.post(f"/api/players/{mine.get_json()['id']}/merge", json={"into": other["id"]}, headers=headers)
    assert merge.status_code == 403
    assert all_rows(client) == before


def test_the_registry_is_rebuilt_from_the_events_and_checked(client):
    from recorder.projections import check, rebuild

    recorder = client.application.extensions["recorder"]
    a = register(client, **ABEBA)["id"]
    b = register(client, name="Abeba Tesfay", federation="ERI", force=True)["id"]
    client.post(f"/api/players/{b}/merge", json={"into": a})
    before = all_rows(client)
    assert list(check(recorder)) == []
    path = client.application.config["DATABASE"]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE players SET name = 'Wrong' WHERE player_id = ?", (a,))
        db.execute("DELETE FROM player_keys WHERE player_id = ?", (b,))
        db.execute(
            "INSERT INTO players SELECT 'p-ffff', name, name_geez, federation, club, birth_year,"
            " external_id, merged_into, version, name_key, geez_key, created_at, updated_at FROM players LIMIT 1"
        )
    problems = list(check(recorder))
    assert any(a in p for p in problems) and any(b in p for p in problems) and any("p-ffff" in p for p in problems)
    rebuild(recorder)
    assert list(check(recorder)) == [] and all_rows(client) == before


def test_recorder_verify_walks_player_streams(client, tmp_path):
    from click.testing import CliRunner

    from recorder.cli.main import main

    register(client, **ABEBA)
    result = CliRunner().invoke(main, ["verify", "--db", client.application.config["DATABASE"]])
    assert result.exit_code == 0, result.output


def test_a_tournament_entry_picks_a_registry_player_or_registers_one(client):
    abeba = register(client, **ABEBA)
    tid = client.post("/api/tournaments", json={"name": "Open", "variant": "qelat", "format": "round_robin"})
    tid = tid.get_json()["id"]
    picked = client.post(f"/api/tournaments/{tid}/players", json={"player_id": abeba["id"]}).get_json()
    assert (picked["name"], picked["federation"], picked["player_id"]) == ("Abeba Tesfaye", "ERI", abeba["id"])
    again = client.post(f"/api/tournaments/{tid}/players", json={"player_id": abeba["id"]})
    assert again.status_code == 409 and again.get_json()["field"] == "player_id"
    new = client.post(
        f"/api/tournaments/{tid}/players", json={"name": "Selam Haile", "federation": "ETH", "register": True}
    )
    assert new.status_code == 201 and new.get_json()["player_id"].startswith("p-")
    assert client.get(f"/api/players/{new.get_json()['player_id']}").get_json()["name"] == "Selam Haile"
    unknown = client.post(f"/api/tournaments/{tid}/players", json={"player_id": "p-0123"})
    assert unknown.status_code == 422 and unknown.get_json()["field"] == "player_id"
    before = all_rows(client)
    refused = client.post(
        f"/api/tournaments/{tid}/players",
        json={"name": "Selam Haile", "federation": "ETH", "register": True, "force": True},
    )
    assert refused.status_code == 409 and all_rows(client) == before  # already entered: nobody registered
    client.post(f"/api/tournaments/{tid}/rounds", json={})
    game = client.post(f"/api/tournaments/{tid}/rounds/1/boards/1/game", json={}).get_json()
    assert {game["metadata"]["south_player"], game["metadata"]["north_player"]} == {
        abeba["id"],
        new.get_json()["player_id"],
    }


def test_a_game_outside_tournaments_may_name_registry_players(client):
    a = register(client, **ABEBA)["id"]
    body = {"variant": "qelat", "south": "Abeba", "north": "Guest", "first_player": "south", "south_player": a}
    game = client.post("/api/games", json=body)
    assert game.status_code == 201 and game.get_json()["metadata"]["south_player"] == a
    notation = client.get(f"/api/games/{game.get_json()['id']}/notation").get_data(as_text=True)
    assert f'[SouthPlayer "{a}"]' in notation
    bad = client.post("/api/games", json={**body, "north_player": "p-0000"})
    assert bad.status_code == 422 and bad.get_json()["field"] == "north_player"


def test_an_arbiter_renames_the_players_his_tournament_registered_not_those_it_entered(client):
    tid, headers = arbiter(client)
    abeba = register(client, **ABEBA)
    assert client.post(f"/api/players/{abeba['id']}/name", json={"name": "A T"}, headers=headers).status_code == 403
    client.post(f"/api/tournaments/{tid}/players", json={"player_id": abeba["id"]}, headers=headers)
    entered = client.post(f"/api/players/{abeba['id']}/name", json={"name": "Abeba T. Tesfaye"}, headers=headers)
    assert entered.status_code == 403  # entering a player grants nothing over his record
    body = {"name": "Selam Haile", "federation": "ETH", "register": True}
    selam = client.post(f"/api/tournaments/{tid}/players", json=body, headers=headers).get_json()["player_id"]
    renamed = client.post(f"/api/players/{selam}/name", json={"name": "Selam G. Haile"}, headers=headers)
    assert renamed.status_code == 201


def test_the_registry_works_alike_on_both_backends(database):
    client = make_app(database).test_client()
    a = register(client, **ABEBA)["id"]
    b = register(client, name="Abéba Tesfay", federation="ERI", force=True)["id"]
    found = client.get("/api/players?q=ABEBA").get_json()["players"]
    assert [p["id"] for p in found] == [b, a]  # by name: "abebatesfay" before "abebatesfaye"
    assert register(client, 409, name="abeba tesfaye", federation="ETH")["candidates"][0]["id"] == a
    assert client.post(f"/api/players/{b}/merge", json={"into": a}).status_code == 201
    tid = client.post("/api/tournaments", json={"name": "O", "variant": "qelat", "format": "round_robin"}).get_json()[
        "id"
    ]
    assert client.post(f"/api/tournaments/{tid}/players", json={"player_id": b}).get_json()["player_id"] == a
    from recorder.projections import check_registry, rebuild_registry

    recorder = client.application.extensions["recorder"]
    rebuild_registry(recorder)
    assert list(check_registry(recorder)) == []


def test_a_game_linked_after_the_fact_shows_on_the_players_page(client):
    a = register(client, **ABEBA)["id"]
    body = {"variant": "qelat", "south": "Abeba", "north": "Guest", "first_player": "south"}
    game = client.post("/api/games", json=body).get_json()["id"]
    players = client.application.extensions["players"]
    players.link_game(a, game, "south", recorded_by="admin")
    (shown,) = client.get(f"/api/players/{a}").get_json()["games"]
    assert (shown["game_id"], shown["side"], shown["opponent"], shown["status"]) == (
        game,
        "south",
        "Guest",
        "in_progress",
    )
    events = client.get(f"/api/players/{a}/events").get_json()["events"]
    assert events[-1]["type"] == "game_linked" and events[-1]["payload"] == {"game_id": game, "side": "south"}
