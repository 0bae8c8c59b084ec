"""The JSON API contract: creation, commands, versions, idempotency, errors, OpenAPI."""

import base64
import json

import pytest
from conftest import Api, make_app
from flask.testing import FlaskClient

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
AT_1 = {"If-Match": '"1"'}  # a command on a new game: the version its recorder saw


def count_events(client, game_id):
    return len(client.get(f"/api/games/{game_id}/events").get_json()["events"])


def test_variants_lists_geometry_and_options(client):
    variants = {v["name"]: v for v in client.get("/api/variants").get_json()["variants"]}
    qelat = variants["qelat"]
    assert qelat["board"]["holes"][:3] == ["a1", "b1", "c1"]
    assert qelat["options"]["mazagebh_no_return"]["default"] is True
    assert qelat["tracks"]["ccw"][:7] == ["a1", "b1", "c1", "d1", "e1", "f1", "f2"]


def test_create_game_returns_location_etag_and_state(client):
    response = client.post("/api/games", json={**QELAT, "event": "Asmara Open", "date": "2026-11-22"})
    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["Location"] == f"/api/games/{game['id']}"
    assert response.headers["ETag"] == '"1"'
    assert game["state"]["to_move"] == "south"
    assert game["state"]["holes"]["a1"] == 4
    assert game["metadata"] == {"event": "Asmara Open", "date": "2026-11-22"}


def test_record_a_sowing_returns_event_state_and_etag(api, client):
    game = api.create(**QELAT)
    body = api.command(game["id"], type="sow", hole="f1", player="south")
    assert body["event"]["seq"] == 2 and body["event"]["type"] == "sowed"
    assert body["event"]["payload"] == {"hole": "f1", "player": "south"}
    assert body["state"]["holes"]["f2"] == 5 and body["state"]["to_move"] == "north"
    assert body["etag"] == '"2"' and body["version"] == 2


def test_gen_21_illegal_move_is_422_naming_player_and_legal_moves(api, client):
    game = api.create(**QELAT)
    response = client.post(
        f"/api/games/{game['id']}/commands", json={"type": "sow", "hole": "a2"}, headers={"If-Match": '"1"'}
    )
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["to_move"] == "south"
    assert problem["legal_moves"] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert count_events(client, game["id"]) == 1


def test_gen_21_named_player_must_be_the_player_to_move(api, client):
    game = api.create(**QELAT)
    response = client.post(
        f"/api/games/{game['id']}/commands",
        json={"type": "sow", "hole": "a1", "player": "north"},
        headers={"If-Match": '"1"'},
    )
    assert response.status_code == 422
    assert count_events(client, game["id"]) == 1


def test_gen_5_unknown_hole_is_refused(api, client):
    game = api.create(**QELAT)
    for hole in ("a3", "g1", "a0", "A1"):
        response = client.post(
            f"/api/games/{game['id']}/commands", json={"type": "sow", "hole": hole}, headers={"If-Match": '"1"'}
        )
        assert response.status_code == 422, hole
    assert count_events(client, game["id"]) == 1


def test_stale_if_match_is_a_409_conflict_and_stores_nothing(api, client):
    game = api.create(**QELAT)
    api.command(game["id"], headers={"If-Match": '"1"'}, type="sow", hole="f1")
    response = client.post(
        f"/api/games/{game['id']}/commands", json={"type": "sow", "hole": "b2"}, headers={"If-Match": '"1"'}
    )
    assert response.status_code == 409
    assert response.get_json()["actual"] == 2
    assert count_events(client, game["id"]) == 2


def test_expected_version_in_the_body(api, client):
    game = api.create(**QELAT)
    api.command(game["id"], type="sow", hole="f1", expected_version=1)
    response = client.post(
        f"/api/games/{game['id']}/commands", json={"type": "sow", "hole": "b2", "expected_version": 1}
    )
    assert response.status_code == 409


def test_idempotent_retry_returns_the_original_and_stores_nothing(api, client):
    game = api.create(**QELAT)
    url, headers = f"/api/games/{game['id']}/commands", {"Idempotency-Key": "k-1", "If-Match": '"1"'}
    first = client.post(url, json={"type": "sow", "hole": "f1"}, headers=headers)
    again = client.post(url, json={"type": "sow", "hole": "f1"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert count_events(client, game["id"]) == 2
    other = client.post(url, json={"type": "sow", "hole": "e1"}, headers=headers)
    assert other.status_code == 422
    assert count_events(client, game["id"]) == 2


def test_idempotent_game_creation(client):
    headers = {"Idempotency-Key": "create-1"}
    first = client.post("/api/games", json=QELAT, headers=headers).get_json()
    again = client.post("/api/games", json=QELAT, headers=headers).get_json()
    assert first["id"] == again["id"]
    assert len(client.get("/api/games").get_json()["games"]) == 1


def test_malformed_json_is_400_problem(api, client):
    game = api.create(**QELAT)
    response = client.post(f"/api/games/{game['id']}/commands", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"


def test_unknown_game_is_404_problem(client):
    for url in ("/api/games/nope", "/api/games/nope/events", "/api/games/nope/state"):
        response = client.get(url)
        assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert client.post("/api/games/nope/commands", json={"type": "sow", "hole": "a1"}).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {**QELAT, "colour": "red"},
        {**QELAT, "variant": "oware"},
        {k: v for k, v in QELAT.items() if k != "south"},
        {**QELAT, "first_player": "east"},
        {**QELAT, "options": {"mazagebh_no_return": 1}},
        {**QELAT, "options": {"mazagebh_no_return": None}},
        {**QELAT, "options": {"mazagebh_no_return": "true"}},
        {**QELAT, "options": {"no_such_option": True}},
        {k: v for k, v in QELAT.items() if k != "first_player"},
    ],
)
def test_gen_31_invalid_setups_are_422_and_store_nothing(client, body):
    response = client.post("/api/games", json=body)
    assert response.status_code == 422, response.get_json()
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize(
    "command",
    [
        {"type": "sow", "hole": "f1", "extra": 1},
        {"type": "sow"},
        {"type": "sow", "hole": 3},
        {"type": "teleport"},
        {"type": "result", "kind": "resignation"},
        {"type": "result", "kind": "resignation", "winner": None},
        {"type": "result", "kind": "walkover", "winner": "south"},
        {"type": "lot", "winner": "south"},
        {"type": "race", "winner": "south", "holes": {}},
    ],
)
def test_gen_31_invalid_commands_are_422_and_store_nothing(api, client, command):
    game = api.create(**QELAT)
    response = client.post(f"/api/games/{game['id']}/commands", json=command, headers=AT_1)
    assert response.status_code == 422, response.get_json()
    assert count_events(client, game["id"]) == 1


def test_gen_28_result_ends_the_game_and_gen_32_leaves_the_board(api, client):
    game = api.create(**QELAT)
    api.command(game["id"], type="sow", hole="f1")
    body = api.command(game["id"], type="result", kind="resignation", winner="south", note="North resigned")
    state = body["state"]
    assert state["game_over"] is True and state["result"] == "south_wins"
    assert state["to_move"] is None and "score" not in state and state["legal_moves"] == []
    assert state["holes"]["f2"] == 5
    response = client.post(
        f"/api/games/{game['id']}/commands", json={"type": "sow", "hole": "b2"}, headers={"If-Match": '"3"'}
    )
    assert response.status_code == 422
    assert count_events(client, game["id"]) == 3


def test_gen_28_draw_by_agreement(api):
    game = api.create(**QELAT)
    state = api.command(game["id"], type="result", kind="agreement", winner=None)["state"]
    assert state["result"] == "draw"
    assert state["first_turn_of_round"] is True  # GEN-34: no turn has ended


def test_state_at_any_event_and_the_event_log(api, client):
    game = api.create(**QELAT)
    api.command(game["id"], type="sow", hole="f1")
    api.command(game["id"], type="sow", hole="b2")
    assert api.state(game["id"], at=1)["holes"]["f1"] == 4
    assert api.state(game["id"], at=2)["holes"]["f1"] == 0
    assert api.state(game["id"], at=3)["version"] == 3
    assert client.get(f"/api/games/{game['id']}/state?at=4").status_code == 404
    assert client.get(f"/api/games/{game['id']}/state?at=zero").status_code == 422
    events = api.events(game["id"])
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert events[0]["prev_hash"] == "0" * 64
    assert all(b["prev_hash"] == a["hash"] for a, b in zip(events, events[1:]))


def test_list_games_filters_by_variant_and_player(api, client):
    api.create(**QELAT)
    api.create(**{**QELAT, "south": "Dawit"})
    assert len(client.get("/api/games?variant=qelat").get_json()["games"]) == 2
    games = client.get("/api/games?player=Dawit").get_json()["games"]
    assert [g["south"] for g in games] == ["Dawit"]
    assert client.get("/api/games?variant=chess").status_code == 422


def test_list_games_pages_by_cursor_newest_first_filtered_by_player_and_event(database):
    app = make_app(database)
    client = app.test_client()
    api = Api(client)
    created = [api.create(**QELAT, event="Open 1" if n % 2 else "Open 2")["id"] for n in range(5)]
    newest_first, pages, url = created[::-1], [], "/api/games?player=Abeba&limit=2"
    while url:
        body = client.get(url).get_json()
        pages.append([game["id"] for game in body["games"]])
        url = f"/api/games?player=Abeba&limit=2&after={body['next']}" if body["next"] else None
    assert pages == [newest_first[0:2], newest_first[2:4], newest_first[4:]]
    assert client.get("/api/games?limit=5").get_json()["next"] is not None  # a full page may have a next one
    assert [g["id"] for g in client.get("/api/games?event=Open 1").get_json()["games"]] == [created[3], created[1]]
    app.extensions["recorder"].store.close()


@pytest.mark.parametrize("cursor", ["", "x", "%%%", "WzEsMl0", "bnVsbA", "W10", "a" * 600, "WyJhIiwiYiIsImMiXQ"])
def test_list_games_refuses_a_cursor_it_did_not_give_as_422(client, cursor):
    # WzEsMl0 = [1,2], bnVsbA = null, W10 = [], WyJhIiwiYiIsImMiXQ = ["a","b","c"]
    response = client.get(f"/api/games?after={cursor}")
    assert response.status_code == 422, response.get_data(as_text=True)
    assert "after" in response.get_json()["detail"]


def _cursor(*parts) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(parts)).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "parts",
    [("\u0000", "g"), ("2026-01-01", "g\u0000"), ("\ud800", "g"), ("\x1b[2J", "g")],
    ids=["NUL", "NUL in the id", "lone surrogate", "escape sequence"],
)
def test_list_games_refuses_a_hostile_cursor_on_every_backend_as_422(database, parts):
    # Well-formed base64 JSON, but text no row can hold (PostgreSQL refuses NUL outright).
    app = make_app(database)
    response = app.test_client().get(f"/api/games?after={_cursor(*parts)}")
    app.extensions["recorder"].store.close()
    assert response.status_code == 422, response.get_data(as_text=True)
    assert "after" in response.get_json()["detail"]


def test_list_games_by_cursor_is_public_and_the_same_for_every_token(app, client):
    api = Api(client)
    for _ in range(3):
        api.create(**QELAT)
    recorder = client.post("/api/tokens", json={"holder": "Selam"}).get_json()["token"]
    first = client.get("/api/games?limit=2").get_json()
    url = f"/api/games?limit=2&after={first['next']}"
    anonymous = FlaskClient(app, app.response_class).get(url)
    with_recorder = FlaskClient(app, app.response_class).get(url, headers={"Authorization": f"Bearer {recorder}"})
    assert anonymous.status_code == with_recorder.status_code == 200  # reads are public (docs/security.md)
    assert anonymous.get_json() == with_recorder.get_json() == client.get(url).get_json()


def test_list_games_a_deep_page_by_cursor_costs_what_the_first_page_costs(app, client):
    # 3,000 rows in the list projection; SQLite's virtual-machine steps count the work.
    store = app.extensions["recorder"].store
    db = store._db()
    db["games"].insert_all(
        {
            "game_id": f"g{n:05d}",
            "variant": "qelat",
            "south": "Abeba",
            "north": "Berhane",
            "south_key": "abeba",
            "north_key": "berhane",
            "status": "in_progress",
            "created_at": f"2026-01-01T00:00:{n // 1000:02d}.{n % 1000:03d}000Z",
            "updated_at": "2026-01-01T00:00:00Z",
        }
        for n in range(3000)
    )
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    def cost(url: str) -> tuple[int, dict]:
        steps[0] = 0
        db.conn.set_progress_handler(count, 100)
        body = client.get(url).get_json()
        db.conn.set_progress_handler(None, 100)
        return steps[0], body

    first_cost, page = cost("/api/games?player=Abeba&limit=50")
    for _ in range(50):  # 2,500 rows deep
        deep_cost, page = cost(f"/api/games?player=Abeba&limit=50&after={page['next']}")
    assert [game["id"] for game in page["games"]] == [f"g{n:05d}" for n in range(499, 449, -1)]
    offset_cost, _ = cost("/api/games?player=Abeba&limit=50&offset=2500")
    assert deep_cost <= 2 * first_cost + 10, (first_cost, deep_cost, offset_cost)
    assert offset_cost > deep_cost, (deep_cost, offset_cost)  # the contrast: OFFSET pays for what it skips


def test_openapi_document_covers_the_api(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    for path in ("/api/games", "/api/games/{game_id}/commands", "/api/games/{game_id}/state", "/api/variants"):
        assert path in spec["paths"]
    assert "SowCommand" in spec["components"]["schemas"]


def test_oversized_body_is_413_problem(api, client):
    game = api.create(**QELAT)
    response = client.post(
        f"/api/games/{game['id']}/commands", data="x" * (2 * 1024 * 1024), content_type="application/json"
    )
    assert response.status_code == 413
    assert response.mimetype == "application/problem+json"


@pytest.mark.parametrize(
    "change",
    [
        {"awaiting": {}},
        {"awaiting": []},
        {"to_move": ["south"]},
        {"round": "2"},
        {"no_return": {}},
        {"first_turn_of_round": 1},
        {"stores": [0, 0]},
        {"holes": []},
        {"specials": {"a1": "walda"}},
    ],
)
def test_gen_42_malformed_positions_are_422_never_500(client, change):
    holes = {f"{c}{r}": 4 for r in (1, 2) for c in "abcdef"}
    position = {
        "holes": holes,
        "specials": {},
        "owners": {},
        "stores": {"south": 0, "north": 0},
        "to_move": "south",
        "first_turn_of_round": True,
        **change,
    }
    response = client.post("/api/games", json={**QELAT, "first_player": None, "position": position})
    assert response.status_code == 422, response.get_json()
