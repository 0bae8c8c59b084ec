"""Errors a new user meets say what is wrong in the user's own terms."""

from __future__ import annotations

import pytest

from recorder.app import create_app

SEEN = {"If-Match": '"1"'}  # the version a new game is at
QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}


def _game(client, body=None) -> str:
    response = client.post("/api/games", json=body or QELAT)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def test_malformed_json_says_where_the_body_stops_being_json(client):
    body = '{"variant": "qelat",\n  "south": "Abeba"\n  "north": "Berhane"}'
    response = client.post("/api/games", data=body, content_type="application/json")
    problem = response.get_json()
    assert response.status_code == 400 and response.mimetype == "application/problem+json"
    assert problem["detail"].startswith("the request body is not valid JSON")
    assert "line 3, column 3" in problem["detail"] and (problem["line"], problem["column"]) == (3, 3)
    assert "browser (or proxy)" not in problem["detail"]


def test_malformed_json_on_a_command_says_so_too(client):
    game = _game(client)
    response = client.post(f"/api/games/{game}/commands", data="{'type': 'sow'}", content_type="application/json")
    assert response.status_code == 400 and "not valid JSON" in response.get_json()["detail"]
    assert "line 1, column 2" in response.get_json()["detail"]


def test_a_bad_query_parameter_is_named_as_one(client):
    game = _game(client)
    response = client.get(f"/api/games/{game}/state?at=abc")
    problem = response.get_json()
    assert response.status_code == 422 and problem["title"] == "Invalid query"
    assert problem["detail"].startswith("query parameter 'at' is not valid")
    assert problem["parameters"] == ["at"] and "body" not in problem["detail"]


def test_a_bad_export_filter_is_named_as_a_query_parameter(client):
    response = client.get("/api/export?variant=chess")
    assert response.status_code == 422 and "query parameter 'variant'" in response.get_json()["detail"]


@pytest.mark.parametrize("query", ["fen=", "", "fen=4,4,4,4,4,4/4,4,4,4,4,4%20-%20-%200-0%20S%201&limit=0"])
def test_a_bad_position_search_is_named_as_a_query_not_a_body(client, query):
    """GET /api/positions has no body: its refusal names the parameter, as every query's does."""
    problem = client.get(f"/api/positions?{query}").get_json()
    assert problem["title"] == "Invalid query" and problem["detail"].startswith("query parameter '")
    assert "body" not in problem["detail"] and problem["parameters"] in (["fen"], ["limit"])


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"weak_wegues": "yes"}, 'option "weak_wegues" must be one of false, true, not "yes"'),
        ({"weak_wegues": 1}, 'option "weak_wegues" must be one of false, true, not 1'),
        ({"match": "best_of_3"}, 'option "match" must be one of "rounds", "single", not "best_of_3"'),
    ],
)
def test_gen_29_option_values_are_named_in_json_words(client, options, says):
    response = client.post("/api/games", json={**QELAT, "variant": "selus", "options": options})
    assert response.status_code == 422 and response.get_json()["detail"] == says
    assert "True" not in response.get_json()["detail"]


def test_gen_5_an_uppercase_hole_suggests_the_lowercase_name(client):
    game = _game(client)
    response = client.post(f"/api/games/{game}/commands", json={"type": "sow", "hole": "A1"}, headers=SEEN)
    detail = response.get_json()["detail"]
    assert response.status_code == 422
    assert '"A1" is not a hole' in detail and 'did you mean "a1"?' in detail


def test_gen_5_an_invalid_hole_lists_the_valid_names(client):
    game = _game(client)
    response = client.post(f"/api/games/{game}/commands", json={"type": "sow", "hole": "z9"}, headers=SEEN)
    detail = response.get_json()["detail"]
    assert response.status_code == 422 and '"z9" is not a hole' in detail
    assert "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3" in detail and "did you mean" not in detail


def test_gen_5_a_hole_of_the_other_board_lists_this_boards_names(client):
    game = _game(client)
    response = client.post(f"/api/games/{game}/commands", json={"type": "sow", "hole": "c3"}, headers=SEEN)
    detail = response.get_json()["detail"]
    assert response.status_code == 422 and '"c3" is not a hole of the 2x6 board (GEN-5)' in detail
    assert detail.endswith("the holes are a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2")


@pytest.fixture
def unconfigured(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"), "ADMIN_TOKEN": None})
    yield app.test_client()
    app.extensions["recorder"].store.close()


TOURNAMENT = {"name": "Asmara Open", "variant": "qelat", "format": "swiss", "rounds": 5}


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer some-guess"}])
def test_an_admin_write_without_an_admin_token_configured_says_how_to_set_one(unconfigured, headers):
    response = unconfigured.post("/api/tournaments", json=TOURNAMENT, headers=headers)
    detail = response.get_json()["detail"]
    assert response.status_code == 401 and "no admin token is configured" in detail
    assert "RECORDER_ADMIN_TOKEN" in detail and "unknown or revoked" not in detail


def test_a_wrong_token_where_an_admin_token_is_configured_is_unknown(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite3"), "ADMIN_TOKEN": "the-admin"})
    response = app.test_client().post("/api/tournaments", json=TOURNAMENT, headers={"Authorization": "Bearer x"})
    app.extensions["recorder"].store.close()
    assert response.status_code == 401 and response.get_json()["detail"] == "the bearer token is unknown or revoked"
