"""GET /api/tokens/self: what the presented token names and whether it may write a game or
a tournament, so that a page can say what it can do before anything is tapped.

The expected answers are those of docs/security.md's table, written out here.
"""

from __future__ import annotations

import pytest
from conftest import ADMIN_TOKEN, bearer, make_app

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}


def ok(response) -> dict:
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


@pytest.fixture
def world(tmp_path):
    app = make_app(tmp_path / "self.sqlite3")
    client = app.test_client()
    create = {"name": "Keren Cup", "variant": "qelat", "format": "round_robin"}
    t = ok(client.post("/api/tournaments", json=create))["id"]
    u = ok(client.post("/api/tournaments", json={**create, "name": "Asmara Open"}))["id"]
    for name in ("P1", "P2"):
        ok(client.post(f"/api/tournaments/{t}/players", json={"name": name}))
    ok(client.post(f"/api/tournaments/{t}/rounds", json={}))
    board_game = ok(client.post(f"/api/tournaments/{t}/rounds/1/boards/1/game", json={}))["id"]
    arbiter = ok(client.post(f"/api/tournaments/{t}/tokens", json={"holder": "Arbiter Tekle"}))
    recorder = ok(client.post("/api/tokens", json={"holder": "Recorder Selam"}))
    other = ok(client.post("/api/tokens", json={"holder": "Recorder Hagos"}))
    revoked = ok(client.post("/api/tokens", json={"holder": "Gone"}))
    ok(client.delete(f"/api/tokens/{revoked['id']}"))
    own_game = ok(client.post("/api/games", json=QELAT, headers=bearer(recorder["token"])))["id"]
    return {
        "client": client, "t": t, "u": u, "board_game": board_game, "own_game": own_game,
        "arbiter": arbiter, "recorder": recorder, "other": other, "revoked": revoked,
    }  # fmt: skip


def ask(world, token: str | None, query: str = ""):
    return world["client"].get(
        f"/api/tokens/self{query}", headers={"Authorization": f"Bearer {token}" if token else ""}
    )


def test_no_token_an_unknown_one_and_a_revoked_one_are_401_and_say_which(world):
    none, unknown, revoked = ask(world, None), ask(world, "rt_never-issued"), ask(world, world["revoked"]["token"])
    assert [r.status_code for r in (none, unknown, revoked)] == [401, 401, 401]
    assert none.get_json()["detail"] == "no bearer token was sent"
    assert unknown.get_json()["detail"] == revoked.get_json()["detail"] == "the bearer token is unknown or revoked"


def test_each_kind_of_token_names_its_holder_and_scope_never_its_secret(world):
    admin = ok(ask(world, ADMIN_TOKEN))
    assert admin == {"kind": "admin", "holder": "admin", "tournament_id": None, "id": None}
    arbiter = ok(ask(world, world["arbiter"]["token"]))
    assert arbiter == {
        "kind": "arbiter",
        "holder": "Arbiter Tekle",
        "tournament_id": world["t"],
        "id": world["arbiter"]["id"],
    }
    recorder = ok(ask(world, world["recorder"]["token"]))
    assert recorder == {
        "kind": "recorder",
        "holder": "Recorder Selam",
        "tournament_id": None,
        "id": world["recorder"]["id"],
    }
    response = ask(world, world["recorder"]["token"])
    assert world["recorder"]["token"] not in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"


def test_an_arbiter_may_write_his_tournaments_games_and_no_other(world):
    token = world["arbiter"]["token"]
    assert ok(ask(world, token, f"?game={world['board_game']}"))["may_write"] is True
    assert ok(ask(world, token, f"?tournament={world['t']}"))["may_write"] is True
    elsewhere = ok(ask(world, token, f"?tournament={world['u']}"))
    assert elsewhere["may_write"] is False
    assert elsewhere["refusal"] == f"this token does not reach tournament {world['u']}"
    assert ok(ask(world, token, f"?game={world['own_game']}"))["may_write"] is False  # outside tournaments


def test_a_recorder_may_write_the_games_it_created_and_no_other(world):
    assert ok(ask(world, world["recorder"]["token"], f"?game={world['own_game']}"))["may_write"] is True
    other = ok(ask(world, world["other"]["token"], f"?game={world['own_game']}"))
    assert other["may_write"] is False
    assert other["refusal"] == "Recorder Hagos did not create this game; only its recorder or the admin may write it"
    assert ok(ask(world, world["recorder"]["token"], f"?game={world['board_game']}"))["may_write"] is False


def test_the_admin_may_write_everything(world):
    assert ok(ask(world, ADMIN_TOKEN, f"?game={world['board_game']}"))["may_write"] is True
    assert ok(ask(world, ADMIN_TOKEN, f"?tournament={world['u']}"))["may_write"] is True


def test_a_question_about_an_unknown_game_is_404_and_an_unknown_parameter_422(world):
    assert ask(world, ADMIN_TOKEN, "?game=g-missing").status_code == 404
    assert ask(world, ADMIN_TOKEN, "?player=p-1").status_code == 422
    assert ask(world, None, "?game=g-missing").status_code == 401  # nothing said about games without a token


def test_open_mode_answers_no_token_with_the_anonymous_principal(tmp_path):
    client = make_app(tmp_path / "open.sqlite3", OPEN=True).test_client()
    game = ok(client.post("/api/games", json=QELAT))["id"]
    anonymous = ok(client.get(f"/api/tokens/self?game={game}", headers={"Authorization": ""}))
    assert anonymous["kind"] == "anonymous" and anonymous["may_write"] is True
    wrong = client.get("/api/tokens/self", headers={"Authorization": "Bearer rt_wrong"})
    assert wrong.status_code == 401  # a wrong token is never anonymous
