"""Errors a new user meets say what is wrong in the user's own terms."""

from __future__ import annotations

import random

import pytest

from recorder import Game
from recorder.app import create_app
from recorder.errors import InvalidRecord, NotationError
from recorder.notation.grammar import parse

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


def test_gen_5_an_invalid_hole_lists_only_the_boards_holes(client):
    """A 2x6 game's refusal names the 2x6 board and its 12 holes, never a3-f3 (Gabata's)."""
    game = _game(client)
    response = client.post(f"/api/games/{game}/commands", json={"type": "sow", "hole": "z9"}, headers=SEEN)
    detail = response.get_json()["detail"]
    assert response.status_code == 422 and '"z9" is not a hole of the 2x6 board (GEN-5)' in detail
    assert detail.endswith("the holes are a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2") and "did you mean" not in detail
    assert "a3" not in detail and "rows 1-2" not in detail


def test_gen_5_an_invalid_hole_on_selus_lists_its_three_rows(client):
    game = _game(client, {**QELAT, "variant": "selus"})
    response = client.post(f"/api/games/{game}/commands", json={"type": "sow", "hole": "z9"}, headers=SEEN)
    assert response.get_json()["detail"].endswith("a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3")


def test_gen_5_a_long_hole_name_is_refused_without_echoing_it_whole(client):
    game = _game(client)
    response = client.post(f"/api/games/{game}/commands", json={"type": "sow", "hole": "x" * 5000}, headers=SEEN)
    detail = response.get_json()["detail"]
    assert response.status_code == 422 and len(detail) < 200
    assert detail.endswith('hole: "xxxxxxxx…" is not a hole (GEN-5): a hole is a letter and a row, such as c1')


def test_gen_21_sowing_the_opponents_hole_says_whose_hole_it_is(client):
    game = _game(client)
    response = client.post(f"/api/games/{game}/commands", json={"type": "sow", "hole": "a2"}, headers=SEEN)
    assert response.status_code == 422
    assert response.get_json()["detail"] == "south may not sow a2 now: a2 is North's hole"


def test_gen_38_an_allocation_naming_no_hole_of_the_board_lists_the_boards_holes():
    game = Game("selus", first_player="south", options={"match": "rounds"})
    rng = random.Random(7)  # a seeded random round of Selus, played to its count
    while game.awaiting != "next_round":
        game.sow(rng.choice(game.legal_moves()))
    with pytest.raises(InvalidRecord) as refused:
        game.play({"type": "next_round", "first_player": "south", "allocation": {"south": ["z9"], "north": []}})
    assert str(refused.value).startswith('"z9" is not a hole of the 3x6 board (GEN-5); the holes are a1 b1')


def test_notation_an_uppercase_hole_suggests_the_lowercase_name_as_the_api_does():
    text = '[South "A"]\n[North "B"]\n[Result "*"]\n[Variant "qelat"]\n[FirstPlayer "south"]\n\n1. S F2 *\n'
    (game,) = parse(text, "t.mn")
    assert isinstance(game.error, NotationError)
    assert "unexpected 'F2'; hole names are lowercase: did you mean \"f2\"?" in str(game.error)


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


def test_gen_28_a_winner_that_is_no_player_says_null_is_a_draw(client):
    game = _game(client)
    body = {"type": "result", "kind": "agreement", "winner": "none"}
    response = client.post(f"/api/games/{game}/commands", json=body, headers=SEEN)
    assert response.status_code == 422
    assert "Must be one of: south, north, or null for a draw." in response.get_json()["detail"]


def test_gen_24_a_race_board_that_is_no_object_shows_the_shape_it_takes(client):
    game = _game(client, {"variant": "gabata", "south": "Abeba", "north": "Berhane"})
    body = {"type": "race", "winner": "south", "holes": [4, 4, 4]}
    response = client.post(f"/api/games/{game}/commands", json=body, headers=SEEN)
    assert response.status_code == 422
    assert "naming every hole of the board (a1 ... f3)" in response.get_json()["detail"]
    assert '{"a1": 4, "b1": 4, ..., "f3": 3}' in response.get_json()["detail"]


def test_gen_24_the_openapi_document_shows_the_race_boards_shape(client):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    race = next(schema for name, schema in schemas.items() if name.startswith("RaceCommand"))
    example = race["properties"]["holes"]["example"]
    assert list(example)[-1] == "f3" and len(example) == 18 and sum(example.values()) == 54
