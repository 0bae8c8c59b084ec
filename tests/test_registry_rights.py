"""An arbiter's rights over registry players (docs/security.md, docs/players.md).

Entering a player in a tournament grants nothing over his record. An arbiter renames or
re-affiliates only a player his tournament's arbiters registered, entered in no other
tournament, with no rated game, while the tournament is not finished; everything else is
the admin's. Each registry event names the principal that made it, and the player's
record lists who changed what.
"""

import sqlite3

import pytest
from conftest import bearer, make_app
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.auth.policy import Resource, allowed
from recorder.auth.tokens import ADMIN_PRINCIPAL, Principal

STAR = {"name": "Selam Haile", "federation": "ETH", "club": "Addis Mancala Club"}


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path / "rights.sqlite3").test_client()


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def tournament(client, name: str, **options) -> tuple[str, dict]:
    """A round robin and its arbiter's Authorization header."""
    body = {"name": name, "variant": "qelat", "format": "round_robin", **options}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    token = ok(client.post(f"/api/tournaments/{tid}/tokens", json={"holder": f"Arbiter of {name}"}))["token"]
    return tid, bearer(token)


def registry(client) -> tuple:
    path = client.application.config["DATABASE"]
    with sqlite3.connect(path) as db:
        return tuple(
            db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall() for table in ("players", "player_keys")
        ) + (db.execute("SELECT * FROM events WHERE game_id LIKE 'p-%' ORDER BY 1, 2").fetchall(),)


def rename(client, player_id: str, headers: dict, name: str = "Someone Else"):
    return client.post(f"/api/players/{player_id}/name", json={"name": name}, headers=headers)


def reaffiliate(client, player_id: str, headers: dict):
    return client.post(f"/api/players/{player_id}/affiliation", json={"federation": "ERI"}, headers=headers)


def test_entering_a_star_gives_an_arbiter_no_rights_over_his_record(client):
    t2, _ = tournament(client, "Star Open")
    t1, arbiter = tournament(client, "Village Open")
    star = ok(client.post("/api/players", json=STAR))["id"]
    ok(client.post(f"/api/tournaments/{t2}/players", json={"player_id": star}))
    entry = ok(client.post(f"/api/tournaments/{t1}/players", json={"player_id": star}, headers=arbiter))
    before = registry(client)
    refused = rename(client, star, arbiter)
    assert refused.status_code == 403
    assert "not registered by this tournament's arbiter" in refused.get_json()["detail"]
    assert reaffiliate(client, star, arbiter).status_code == 403
    withdrawal = client.post(f"/api/tournaments/{t1}/players/{entry['number']}/withdrawal", json={}, headers=arbiter)
    assert withdrawal.status_code == 201  # his own tournament's entry is his to withdraw
    assert rename(client, star, arbiter).status_code == 403  # and still nothing over the record
    assert registry(client) == before
    assert ok(client.get(f"/api/players/{star}"))["name"] == "Selam Haile"


def test_entering_a_player_entered_nowhere_else_gives_no_rights_either(client):
    t1, arbiter = tournament(client, "Village Open")
    star = ok(client.post("/api/players", json=STAR))["id"]  # registered by the admin
    ok(client.post(f"/api/tournaments/{t1}/players", json={"player_id": star}, headers=arbiter))
    before = registry(client)
    assert rename(client, star, arbiter).status_code == 403
    assert reaffiliate(client, star, arbiter).status_code == 403
    assert registry(client) == before


def test_an_arbiter_fixes_a_player_his_tournament_registered_until_another_tournament_enters_him(client):
    t1, arbiter = tournament(client, "Village Open")
    t2, other = tournament(client, "Town Open")
    mine = ok(client.post("/api/players", json={"name": "Dawit Alemu", "federation": "ETH"}, headers=arbiter))["id"]
    entered = {"name": "Hagos Tekle", "federation": "ETH", "register": True}
    through_entry = ok(client.post(f"/api/tournaments/{t1}/players", json=entered, headers=arbiter))["player_id"]
    assert rename(client, mine, arbiter, "Dawit Alemu Bekele").status_code == 201
    assert reaffiliate(client, through_entry, arbiter).status_code == 201
    assert rename(client, mine, other).status_code == 403  # another tournament's arbiter
    ok(client.post(f"/api/tournaments/{t1}/players", json={"player_id": mine}, headers=arbiter))
    assert rename(client, mine, arbiter, "Dawit A. Bekele").status_code == 201  # entered in his tournament only
    ok(client.post(f"/api/tournaments/{t2}/players", json={"player_id": mine}, headers=other))
    before = registry(client)
    refused = rename(client, mine, arbiter, "Dawit Bekele")
    assert refused.status_code == 403 and "entered in another tournament" in refused.get_json()["detail"]
    assert rename(client, mine, other, "Dawit Bekele").status_code == 403  # entering gave T2 nothing
    assert registry(client) == before
    assert rename(client, mine, {}, "Dawit Bekele").status_code == 201  # the admin may always


def test_a_player_with_rated_games_is_renamed_by_the_admin_only(client):
    t1, arbiter = tournament(client, "Rated Open", rated=True)
    ids = []
    for name in ("Abeba Tesfaye", "Berhane Kidane", "Chaltu Bekele", "Dawit Alemu"):
        body = {"name": name, "federation": "ETH", "register": True}
        ids.append(ok(client.post(f"/api/tournaments/{t1}/players", json=body, headers=arbiter))["player_id"])
    boards = ok(client.post(f"/api/tournaments/{t1}/rounds", json={}, headers=arbiter))["boards"]
    game = ok(client.post(f"/api/tournaments/{t1}/rounds/1/boards/1/game", json={}, headers=arbiter))
    result = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
    ok(client.post(f"/api/games/{game['id']}/commands", json=result, headers=arbiter))
    rated = {game["metadata"]["south_player"], game["metadata"]["north_player"]}
    unrated = [p for p in ids if p not in rated]
    assert len(boards) == 2 and len(unrated) == 2
    before = registry(client)
    for player_id in rated:
        refused = rename(client, player_id, arbiter)
        assert refused.status_code == 403 and "rated" in refused.get_json()["detail"]
        assert reaffiliate(client, player_id, arbiter).status_code == 403
    assert registry(client) == before
    assert rename(client, unrated[0], arbiter).status_code == 201  # no rated game yet
    assert rename(client, sorted(rated)[0], {}).status_code == 201  # the admin's


def test_each_registry_event_names_the_principal_that_made_it_and_the_record_shows_who_changed_what(client):
    t1, arbiter = tournament(client, "Village Open")
    player = ok(client.post("/api/players", json={"name": "Dawit Alemu", "federation": "ETH"}, headers=arbiter))
    ok(rename(client, player["id"], arbiter, "Dawit Alemu Bekele"))
    ok(reaffiliate(client, player["id"], {}))
    events = ok(client.get(f"/api/players/{player['id']}/events"))["events"]
    arbiter_of_t1 = {"kind": "arbiter", "tournament_id": t1}
    assert [(e["type"], e["recorded_by"], e["payload"]["principal"]) for e in events] == [
        ("player_registered", "Arbiter of Village Open", arbiter_of_t1),
        ("player_renamed", "Arbiter of Village Open", arbiter_of_t1),
        ("affiliation_changed", "admin", {"kind": "admin"}),
    ]
    changes = ok(client.get(f"/api/players/{player['id']}"))["changes"]
    assert [(c["seq"], c["type"], c["recorded_by"], c["principal"]) for c in changes] == [
        (1, "player_registered", "Arbiter of Village Open", arbiter_of_t1),
        (2, "player_renamed", "Arbiter of Village Open", arbiter_of_t1),
        (3, "affiliation_changed", "admin", {"kind": "admin"}),
    ]
    assert all(c["recorded_at"] == e["recorded_at"] for c, e in zip(changes, events, strict=True))


TOURNAMENTS = st.sampled_from(["t-a1", "t-b2", "t-c3"])


@settings(max_examples=400, derandomize=True)
@given(
    mine=TOURNAMENTS,
    entered=st.frozensets(TOURNAMENTS),
    registered_in=st.one_of(st.none(), TOURNAMENTS),
    rated=st.booleans(),
    finished=st.booleans(),
)
def test_an_arbiters_rights_over_a_record_never_come_from_entering_it(mine, entered, registered_in, rated, finished):
    arbiter = Principal("arbiter", "Arbiter", tournament_id=mine, token_id="k")
    resource = Resource(tournaments=entered, registered_in=registered_in, rated=rated, finished=finished)
    may = allowed(arbiter, "write_player", resource)
    assert may == (registered_in == mine and entered <= {mine} and not rated and not finished)
    entering = Resource(tournaments=entered | {mine}, registered_in=registered_in, rated=rated, finished=finished)
    assert allowed(arbiter, "write_player", entering) == may  # entering him in his tournament changes nothing
    assert allowed(ADMIN_PRINCIPAL, "write_player", resource)
