"""Finishing a tournament explicitly: ``POST …/finish`` (its arbiter or the admin) stores a
``tournament_finished`` event once every paired round has its results; from then on its
arbiters' rights have ended exactly as for a tournament that played all its rounds."""

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def post(client, url: str, body: dict | None = None, token: str | None = ADMIN_TOKEN):
    return client.post(url, json=body if body is not None else {}, headers=bearer(token) if token else {})


def swiss_played(client, rounds_played: int) -> tuple[str, str]:
    """A five-round Swiss of four, ``rounds_played`` rounds entered on paper by its arbiter."""
    admin = Organiser(client)
    tid = admin.create(name="Weekend Open", variant="gabata", format="swiss", rounds=5)["id"]
    admin.add_players(tid, *[(f"Player {n}", 2000 - n) for n in range(1, 5)])
    token = admin.issue_token(tid, "Chief arbiter")["token"]
    for number in range(1, rounds_played + 1):
        assert post(client, f"/api/tournaments/{tid}/rounds", token=token).status_code == 201
        for board in (1, 2):
            url = f"/api/tournaments/{tid}/rounds/{number}/boards/{board}/result"
            assert post(client, url, {"result": "south_wins", "kind": "played"}, token).status_code == 201
    return tid, token


def status(client, tid: str) -> str:
    return client.get(f"/api/tournaments/{tid}").get_json()["status"]


def test_a_swiss_finished_after_two_of_five_rounds_is_finished_and_its_arbiters_rights_end(client):
    tid, token = swiss_played(client, 2)
    assert status(client, tid) == "in_progress"
    response = post(client, f"/api/tournaments/{tid}/finish", {"note": "the hall closed early"}, token)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["status"] == "finished"
    events = client.get(f"/api/tournaments/{tid}/events").get_json()["events"]
    assert events[-1]["type"] == "tournament_finished" and events[-1]["recorded_by"] == "Chief arbiter"
    refused = [
        post(client, f"/api/tournaments/{tid}/rounds", token=token),
        post(client, f"/api/tournaments/{tid}/players", {"name": "Late"}, token),
        post(client, f"/api/tournaments/{tid}/rounds/2/boards/1/result", {"result": "draw", "kind": "played"}, token),
        post(client, f"/api/tournaments/{tid}/finish", token=token),
    ]
    assert [r.status_code for r in refused] == [403] * 4
    assert "its arbiter's rights ended" in refused[0].get_json()["detail"]
    # the admin's change to a board is a correction, as after the last round; no round is paired after it
    body = {"result": "draw", "kind": "played", "corrects": True}
    assert post(client, f"/api/tournaments/{tid}/rounds/2/boards/1/result", body).status_code == 409
    paired = post(client, f"/api/tournaments/{tid}/rounds")
    assert paired.status_code == 422 and "finished" in paired.get_json()["detail"]
    assert post(client, f"/api/tournaments/{tid}/finish").status_code == 409


def test_a_tournament_is_not_finished_while_a_paired_board_has_no_result(client):
    tid, token = swiss_played(client, 1)
    assert post(client, f"/api/tournaments/{tid}/rounds", token=token).status_code == 201
    url = f"/api/tournaments/{tid}/rounds/2/boards/1/result"
    assert post(client, url, {"result": "draw", "kind": "played"}, token).status_code == 201
    before = client.get(f"/api/tournaments/{tid}").headers["ETag"]
    refused = post(client, f"/api/tournaments/{tid}/finish", token=token)
    assert refused.status_code == 422 and "round 2 board 2" in refused.get_json()["detail"]
    assert client.get(f"/api/tournaments/{tid}").headers["ETag"] == before
    assert status(client, tid) == "in_progress"


def test_a_tournament_without_a_round_is_not_finished(client):
    tid = Organiser(client).create(name="Empty", variant="gabata", format="swiss", rounds=3)["id"]
    refused = post(client, f"/api/tournaments/{tid}/finish")
    assert refused.status_code == 422 and refused.get_json()["field"] == "round"


def test_finishing_is_for_the_tournaments_own_arbiter_or_the_admin(client):
    tid, _ = swiss_played(client, 1)
    other = Organiser(client).create(name="Other", variant="gabata", format="swiss", rounds=3)["id"]
    stranger = Organiser(client).issue_token(other, "Another arbiter")["token"]
    assert post(client, f"/api/tournaments/{tid}/finish", token=None).status_code == 401
    assert post(client, f"/api/tournaments/{tid}/finish", token=stranger).status_code == 403
    assert status(client, tid) == "in_progress"


def test_a_finish_note_is_bounded(client):
    tid, token = swiss_played(client, 1)
    refused = post(client, f"/api/tournaments/{tid}/finish", {"note": "x" * 2001}, token)
    assert refused.status_code == 422 and refused.get_json()["field"] == "note"


def test_the_command_line_finishes_a_tournament_as_the_api_does(tmp_path):
    from click.testing import CliRunner

    from recorder.cli.main import main

    db = str(tmp_path / "cli.sqlite3")

    def cli(*args, code=0) -> str:
        result = CliRunner().invoke(main, ["tournament", *args, "--db", db])
        assert result.exit_code == code, result.output
        return result.output.strip()

    tid = cli("create", "--name", "Club", "--variant", "gabata", "--format", "manual", "--rounds", "3")
    cli("add-player", tid, "Abeba")
    cli("add-player", tid, "Berhane")
    cli("pair", tid, "--board", "1-2")
    assert "round 1 board 1 has no result" in cli("finish", tid, code=1)
    cli("result", tid, "1", "1", "draw", "--played")
    assert cli("finish", tid, "--note", "one round only") == f"{tid}: finished"
    assert "already finished" in cli("finish", tid, code=1)
