"""Rights end with the tournament (docs/security.md, docs/tournaments.md "Corrections").

Once a tournament is finished, its arbiter may no longer retract or change a result,
write any of its games, its entrants or settings, or rename its players: 403, nothing
stored. The admin still may, as a correction: first a correction event on the
tournament (the board, the admin, a reason), then the game's commands; the tournament's
answer lists each correction. A correction closes the tournament to its arbiter for good,
even while the game it reopened is unfinished.
"""

import sqlite3

import pytest
from click.testing import CliRunner
from conftest import bearer, make_app

from recorder.cli.main import main

RESIGN = {"type": "result", "kind": "resignation"}


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path / "finished.sqlite3").test_client()


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def everything(client) -> list:
    with sqlite3.connect(client.application.config["DATABASE"]) as db:
        return list(db.iterdump())


class Finished:
    """A rated round robin of two registry players, registered by its arbiter, whose one
    game south won: the tournament is finished."""

    def __init__(self, client):
        self.client = client
        body = {"name": "Final", "variant": "qelat", "format": "round_robin", "rated": True}
        self.t = ok(client.post("/api/tournaments", json=body))["id"]
        token = ok(client.post(f"/api/tournaments/{self.t}/tokens", json={"holder": "Arbiter F"}))["token"]
        self.arbiter = bearer(token)
        self.players = [
            ok(client.post(f"/api/tournaments/{self.t}/players", json=entry, headers=self.arbiter))["player_id"]
            for entry in (
                {"name": "Abeba Tesfaye", "federation": "ERI", "register": True},
                {"name": "Berhane Kidane", "federation": "ERI", "register": True},
            )
        ]
        ok(client.post(f"/api/tournaments/{self.t}/rounds", json={}, headers=self.arbiter))
        self.game = ok(client.post(f"/api/tournaments/{self.t}/rounds/1/boards/1/game", json={}, headers=self.arbiter))[
            "id"
        ]
        self.command({**RESIGN, "winner": "south"}, self.arbiter)
        assert self.tournament()["status"] == "finished"

    def version(self) -> int:
        return ok(self.client.get(f"/api/games/{self.game}"))["version"]

    def command(self, command: dict, headers: dict):
        body = {**command, "expected_version": self.version()}
        return self.client.post(f"/api/games/{self.game}/commands", json=body, headers=headers)

    def tournament(self) -> dict:
        return ok(self.client.get(f"/api/tournaments/{self.t}"))

    def correct(self, headers: dict, reason: str = "the scoresheet shows north won"):
        url = f"/api/tournaments/{self.t}/rounds/1/boards/1/correction"
        return self.client.post(url, json={"reason": reason}, headers=headers)


def test_a_finished_tournaments_arbiter_can_no_longer_retract_or_change_a_result(client):
    f = Finished(client)
    before = everything(client)
    for command in (
        {"type": "retract", "count": 1, "reason": "a slip"},
        {"type": "annotate", "text": "north actually won"},
    ):
        refused = f.command(command, f.arbiter)
        assert refused.status_code == 403, refused.get_json()
        assert f"tournament {f.t} is finished" in refused.get_json()["detail"]
        assert "admin's correction" in refused.get_json()["detail"]
    assert everything(client) == before
    assert f.tournament()["status"] == "finished"
    assert ok(client.get(f"/api/games/{f.game}"))["result"] == "south_wins"


def test_the_retry_of_the_result_that_finished_the_tournament_is_answered_not_refused(client):
    f = Finished.__new__(Finished)
    f.client = client
    body = {"name": "Final", "variant": "qelat", "format": "round_robin"}
    f.t = ok(client.post("/api/tournaments", json=body))["id"]
    f.arbiter = bearer(ok(client.post(f"/api/tournaments/{f.t}/tokens", json={"holder": "Arbiter R"}))["token"])
    for name in ("A", "B"):
        ok(client.post(f"/api/tournaments/{f.t}/players", json={"name": name}, headers=f.arbiter))
    ok(client.post(f"/api/tournaments/{f.t}/rounds", json={}, headers=f.arbiter))
    f.game = ok(client.post(f"/api/tournaments/{f.t}/rounds/1/boards/1/game", json={}, headers=f.arbiter))["id"]
    result = {**RESIGN, "winner": "south", "expected_version": 1}
    url = f"/api/games/{f.game}/commands"
    first = client.post(url, json=result, headers={**f.arbiter, "Idempotency-Key": "final-result"})
    assert first.status_code == 201 and f.tournament()["status"] == "finished"
    before = everything(client)
    again = client.post(url, json=result, headers={**f.arbiter, "Idempotency-Key": "final-result"})
    assert again.status_code == 201 and again.get_json()["events"] == first.get_json()["events"]
    other = client.post(
        url, json={**result, "winner": "north"}, headers={**f.arbiter, "Idempotency-Key": "final-result"}
    )
    assert other.status_code == 422  # the key was used for another request: refused as ever
    fresh = client.post(url, json=result, headers={**f.arbiter, "Idempotency-Key": "another-key"})
    assert fresh.status_code == 403
    assert everything(client) == before


def test_the_retry_of_the_admins_result_that_finished_the_tournament_is_answered_not_refused(client):
    t = ok(client.post("/api/tournaments", json={"name": "Final", "variant": "qelat", "format": "round_robin"}))["id"]
    for name in ("A", "B"):
        ok(client.post(f"/api/tournaments/{t}/players", json={"name": name}))
    ok(client.post(f"/api/tournaments/{t}/rounds", json={}))
    game = ok(client.post(f"/api/tournaments/{t}/rounds/1/boards/1/game", json={}))["id"]
    result = {**RESIGN, "winner": "south", "expected_version": 1}
    url, key = f"/api/games/{game}/commands", {"Idempotency-Key": "final-result"}
    first = client.post(url, json=result, headers=key)
    assert first.status_code == 201
    before = everything(client)
    again = client.post(url, json=result, headers=key)
    assert again.status_code == 201 and again.get_json()["events"] == first.get_json()["events"]
    fresh = client.post(url, json=result, headers={"Idempotency-Key": "another-key"})
    assert fresh.status_code == 409 and fresh.get_json()["title"] == "Correction needed"
    assert everything(client) == before


def test_a_finished_tournaments_arbiter_can_no_longer_write_its_entrants_settings_or_players(client):
    f = Finished(client)
    before = everything(client)
    writes = [
        ("POST", f"/api/tournaments/{f.t}/players", {"name": "Late Entry"}),
        ("POST", f"/api/tournaments/{f.t}/players/2/withdrawal", {}),
        ("PUT", f"/api/tournaments/{f.t}/broadcast", {"broadcast_delay": 60}),
        ("POST", f"/api/players/{f.players[0]}/name", {"name": "Renamed After"}),
        ("POST", f"/api/players/{f.players[1]}/affiliation", {"federation": "ETH"}),
        ("POST", f"/api/tournaments/{f.t}/rounds/1/boards/1/correction", {"reason": "mine"}),
    ]
    for method, url, body in writes:
        refused = client.open(url, method=method, json=body, headers=f.arbiter)
        assert refused.status_code == 403, (url, refused.get_json())
    assert everything(client) == before
    admin = client.post(f"/api/players/{f.players[0]}/name", json={"name": "Abeba T. Tesfaye"})
    assert admin.status_code == 201  # the admin's rights do not end


def test_the_admins_change_to_a_finished_tournament_is_a_correction_shown_as_such(client):
    f = Finished(client)
    before = everything(client)
    uncorrected = f.command({"type": "retract", "count": 1, "reason": "wrong winner"}, {})
    assert uncorrected.status_code == 409, uncorrected.get_json()
    assert "correction" in uncorrected.get_json()["detail"]
    assert everything(client) == before
    assert f.correct({}, reason="").status_code == 422  # a correction says why
    correction = ok(f.correct({}))
    assert correction["corrections"] == [
        {
            "round": 1,
            "board": 1,
            "game_id": f.game,
            "reason": "the scoresheet shows north won",
            "recorded_by": "admin",
            "principal": {"kind": "admin"},
            "seq": correction["corrections"][0]["seq"],
            "recorded_at": correction["corrections"][0]["recorded_at"],
        }
    ]
    ok(f.command({"type": "retract", "count": 1, "reason": "wrong winner"}, {}))
    assert f.command({**RESIGN, "winner": "north"}, f.arbiter).status_code == 403  # reopened, still not his
    ok(f.command({**RESIGN, "winner": "north"}, {}))
    answer = f.tournament()
    assert answer["status"] == "finished" and answer["corrected"] is True
    assert [c["reason"] for c in answer["corrections"]] == ["the scoresheet shows north won"]
    events = ok(client.get(f"/api/tournaments/{f.t}/events"))["events"]
    assert events[-1]["type"] == "correction_recorded" and events[-1]["recorded_by"] == "admin"
    assert ok(client.get(f"/api/games/{f.game}"))["result"] == "north_wins"
    game = ok(client.get(f"/api/games/{f.game}"))["metadata"]
    ratings = {e["id"]: e["rating"] for e in ok(client.get("/api/ratings/qelat"))["players"]}
    assert ratings[game["north_player"]] > ratings[game["south_player"]]  # the lists take the corrected result
    verified = CliRunner().invoke(main, ["verify", "--projections", "--db", client.application.config["DATABASE"]])
    assert verified.exit_code == 0, verified.output  # the correction folds, and every projection agrees


def test_a_correction_is_the_admins_and_only_of_a_finished_tournament(client):
    body = {"name": "Open", "variant": "qelat", "format": "round_robin"}
    t = ok(client.post("/api/tournaments", json=body))["id"]
    for name in ("A", "B"):
        ok(client.post(f"/api/tournaments/{t}/players", json={"name": name}))
    ok(client.post(f"/api/tournaments/{t}/rounds", json={}))
    before = everything(client)
    early = client.post(f"/api/tournaments/{t}/rounds/1/boards/1/correction", json={"reason": "early"})
    assert early.status_code == 422 and "not finished" in early.get_json()["detail"]
    assert everything(client) == before


def test_an_unfinished_tournaments_arbiter_still_corrects_its_games(client):
    body = {"name": "Open", "variant": "qelat", "format": "round_robin"}
    t = ok(client.post("/api/tournaments", json=body))["id"]
    arbiter = bearer(ok(client.post(f"/api/tournaments/{t}/tokens", json={"holder": "Arbiter O"}))["token"])
    for name in ("A", "B", "C", "D"):
        ok(client.post(f"/api/tournaments/{t}/players", json={"name": name}, headers=arbiter))
    ok(client.post(f"/api/tournaments/{t}/rounds", json={}, headers=arbiter))
    game = ok(client.post(f"/api/tournaments/{t}/rounds/1/boards/1/game", json={}, headers=arbiter))["id"]
    url = f"/api/games/{game}/commands"
    ok(client.post(url, json={**RESIGN, "winner": "south", "expected_version": 1}, headers=arbiter))
    retract = {"type": "retract", "count": 1, "reason": "wrong winner", "expected_version": 2}
    ok(client.post(url, json=retract, headers=arbiter))
    ok(client.post(url, json={**RESIGN, "winner": "north", "expected_version": 3}, headers=arbiter))


def test_a_correction_with_a_malformed_or_hostile_body_or_board_is_refused_and_stores_nothing(client):
    f = Finished(client)
    before = everything(client)
    url = f"/api/tournaments/{f.t}/rounds/1/boards/1/correction"
    for body in ([], "why", {}, {"reason": 5}, {"reason": None}, {"reason": "x" * 2001}, {"reason": "ok", "board": 2}):
        refused = client.post(url, json=body)
        assert refused.status_code in (400, 422), (body, refused.get_json())
    not_json = client.post(url, data="reason=x", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert not_json.status_code == 415
    for elsewhere in ("rounds/1/boards/9", "rounds/9/boards/1", "rounds/0/boards/1"):
        missing = client.post(f"/api/tournaments/{f.t}/{elsewhere}/correction", json={"reason": "why"})
        assert 400 <= missing.status_code < 500, (elsewhere, missing.get_json())
    assert everything(client) == before
