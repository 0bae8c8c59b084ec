"""Absence for one round (recorder/tournaments/decide.py): a player says he will miss a
round not yet paired; the pairing leaves him out and gives him the tournament's absence
bye (a half point unless the tournament says 0), TRF-2026's ``H`` or ``Z`` in his round
and ``240`` while the round is to come. Refusals store nothing."""

from __future__ import annotations

import pytest
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

PLAYERS = (("Abeba", 1900), ("Berhane", 1800), ("Chaltu", 1700), ("Dawit", 1600), ("Eleni", 1500))


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def admin(client):
    return Organiser(client)


def swiss(admin: Organiser, **body) -> str:
    created = admin.create(name="Adwa Open", variant="qelat", format="swiss", rounds=3, **body)
    admin.add_players(created["id"], *PLAYERS)
    return created["id"]


def absent(client, tournament_id: str, player: int, round_number: int, token: str = ADMIN_TOKEN):
    body = {"player": player, "round": round_number}
    return client.post(f"/api/tournaments/{tournament_id}/absences", json=body, headers=bearer(token))


def take_back(client, tournament_id: str, player: int, round_number: int, token: str = ADMIN_TOKEN):
    url = f"/api/tournaments/{tournament_id}/absences/{round_number}/{player}"
    return client.delete(url, headers=bearer(token))


def placed(round_json: dict) -> set[int]:
    return {b[seat]["number"] for b in round_json["boards"] for seat in ("south", "north")}


def trf_text(client, tournament_id: str) -> str:
    return client.get(f"/api/tournaments/{tournament_id}/trf").get_data(as_text=True)


def player_round(text: str, number: int, round_number: int) -> str:
    record = next(line for line in text.split("\r\n") if line.startswith(f"001 {number:4d}"))
    start = 92 + 10 * (round_number - 1) - 1
    return record[start : start + 8]


def test_a_declared_absence_leaves_the_player_out_of_the_swiss_round_with_a_half_point_bye(client, admin):
    tid = swiss(admin)
    response = absent(client, tid, 2, 1)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["absences"] == [{"player": 2, "round": 1, "points": 0.5}]
    assert "240 H 001    2" in trf_text(client, tid).split("\r\n")
    paired = admin.pair(tid)
    assert 2 not in placed(paired) and len(paired["boards"]) == 2
    assert {"number": 2, "name": "Berhane", "name_geez": None, "points": 0.5} in paired["byes"]
    assert len(paired["byes"]) == 1  # four left: no pairing-allocated bye
    assert client.get(f"/api/tournaments/{tid}").get_json()["absences"] == []  # the round shows it now, as a bye
    text = trf_text(client, tid)
    assert player_round(text, 2, 1) == "0000 - H" and not any(line.startswith("240") for line in text.split("\r\n"))
    table = {s["number"]: s["points"] for s in admin.standings(tid)["standings"]}
    assert table[2] == 0.5


def test_a_tournament_whose_rule_is_zero_gives_an_absent_player_a_zero_point_bye(client, admin):
    tid = swiss(admin, absence_points=0)
    assert absent(client, tid, 5, 2).status_code == 201
    assert "240 Z 002    5" in trf_text(client, tid).split("\r\n")
    admin.pair(tid)
    for board in range(1, 3):
        admin.forfeit(tid, 1, board, "south_wins")
    second = admin.pair(tid)
    assert 5 not in placed(second) and {"number": 5, "name": "Eleni", "name_geez": None, "points": 0} in second["byes"]
    assert player_round(trf_text(client, tid), 5, 2) == "0000 - Z"


@pytest.mark.parametrize("points", [0.25, 1, -0.5, "0.5", True])
def test_an_absence_rule_other_than_zero_or_a_half_is_refused(admin, points):
    for kept in (0, 0.5):
        created = admin.create(name="Adwa Open", variant="qelat", format="swiss", rounds=3, absence_points=kept)
        assert created["absence_points"] == kept
    admin.create(expect=422, name="Adwa Open", variant="qelat", format="swiss", rounds=3, absence_points=points)


def test_an_absence_declared_twice_is_refused_and_stores_nothing(client, admin):
    tid = swiss(admin)
    assert absent(client, tid, 3, 2).status_code == 201
    version = client.get(f"/api/tournaments/{tid}").headers["ETag"]
    again = absent(client, tid, 3, 2)
    assert again.status_code == 409 and "already" in again.get_json()["detail"]
    assert client.get(f"/api/tournaments/{tid}").headers["ETag"] == version


def test_an_absence_from_a_round_already_paired_is_refused(client, admin):
    tid = swiss(admin)
    admin.pair(tid)
    refused = absent(client, tid, 1, 1)
    assert refused.status_code == 422 and "paired already" in refused.get_json()["detail"]


def test_a_withdrawn_player_cannot_declare_an_absence(client, admin):
    tid = swiss(admin)
    assert absent(client, tid, 4, 3).status_code == 201
    admin._call("POST", f"/api/tournaments/{tid}/players/4/withdrawal", 201, {})
    refused = absent(client, tid, 4, 2)
    assert refused.status_code == 422 and "withdrawn" in refused.get_json()["detail"]
    assert client.get(f"/api/tournaments/{tid}").get_json()["absences"] == []  # his declared one is moot
    assert not any(line.startswith("240 H") for line in trf_text(client, tid).split("\r\n"))


@pytest.mark.parametrize("player, round_number, status", [(1, 4, 422), (9, 2, 404), (0, 2, 422), (1, 0, 422)])
def test_an_absence_beyond_the_last_round_or_of_nobody_is_refused(client, admin, player, round_number, status):
    tid = swiss(admin)
    refused = absent(client, tid, player, round_number)
    assert refused.status_code == status, refused.get_json()
    assert client.get(f"/api/tournaments/{tid}").get_json()["absences"] == []


def test_an_arbiter_of_another_tournament_may_not_declare_an_absence(client, admin):
    tid = swiss(admin)
    other = admin.create(name="Other", variant="qelat", format="swiss", rounds=3)
    token = admin.issue_token(other["id"], "Arbiter Hagos")["token"]
    assert absent(client, tid, 2, 1, token).status_code == 403
    assert take_back(client, tid, 2, 1, token).status_code == 403
    assert absent(client, tid, 2, 1, "no-such-token").status_code == 401
    own = admin.issue_token(tid, "Arbiter Selam")["token"]
    assert absent(client, tid, 2, 1, own).status_code == 201
    assert take_back(client, tid, 2, 1, token).status_code == 403
    assert client.get(f"/api/tournaments/{tid}").get_json()["absences"] == [{"player": 2, "round": 1, "points": 0.5}]


def test_an_absence_taken_back_before_its_round_is_paired_pairs_the_player_again(client, admin):
    tid = swiss(admin)
    assert absent(client, tid, 2, 1).status_code == 201
    assert take_back(client, tid, 2, 1).status_code == 200
    assert take_back(client, tid, 2, 1).status_code == 404  # nothing left to take back
    assert 2 in placed(admin.pair(tid))


def test_an_absence_cannot_be_taken_back_once_its_round_is_paired(client, admin):
    tid = swiss(admin)
    assert absent(client, tid, 2, 1).status_code == 201
    admin.pair(tid)
    refused = take_back(client, tid, 2, 1)
    assert refused.status_code == 422 and "paired already" in refused.get_json()["detail"]


def test_a_manual_round_may_not_seat_a_player_who_declared_his_absence(client, admin):
    created = admin.create(name="Adwa Manual", variant="qelat", format="manual", rounds=2)
    tid = created["id"]
    admin.add_players(tid, *PLAYERS[:3])
    assert absent(client, tid, 3, 1).status_code == 201
    admin.pair(tid, expect=422, boards=[{"south": 1, "north": 3}])
    paired = admin.pair(tid, boards=[{"south": 1, "north": 2}])
    assert paired["byes"] == [{"number": 3, "name": "Chaltu", "name_geez": None, "points": 0.5}]


def test_a_round_robin_leaves_the_absent_player_out_and_his_opponent_scores_a_full_point_bye(client, admin):
    created = admin.create(name="Aksum Round Robin", variant="qelat", format="round_robin")
    tid = created["id"]
    admin.add_players(tid, *PLAYERS[:4])
    assert absent(client, tid, 1, 1).status_code == 201
    paired = admin.pair(tid)  # Berger (4), round 1: 1-4 2-3
    assert [(b["south"]["number"], b["north"]["number"]) for b in paired["boards"]] == [(2, 3)]
    assert sorted((b["number"], b["points"]) for b in paired["byes"]) == [(1, 0.5), (4, 1)]
    text = trf_text(client, tid)
    assert player_round(text, 1, 1) == "0000 - H" and player_round(text, 4, 1) == "0000 - F"
    check = admin.get(f"/api/tournaments/{tid}/check")
    assert [r["status"] for r in check["rounds"]] == ["same"]


def test_the_command_line_declares_and_takes_back_an_absence_as_the_api_does(tmp_path):
    from click.testing import CliRunner

    from recorder.cli.main import main

    db = str(tmp_path / "cli.sqlite3")

    def run(*args, ok=True):
        result = CliRunner().invoke(main, ["tournament", *args, "--db", db])
        assert (result.exit_code == 0) is ok, result.output
        return result.output.strip()

    tid = run("create", "--name", "Adwa Open", "--variant", "qelat", "--format", "swiss", "--rounds", "3")
    tid_zero = run(
        "create", "--name", "Zero", "--variant", "qelat", "--format", "swiss", "--rounds", "3", "--absence-points", "0"
    )
    for name, _ in PLAYERS:
        run("add-player", tid, name)
        run("add-player", tid_zero, name)
    assert run("absent", tid, "2", "--round", "1") == "player 2 misses round 1: a bye of 0.5"
    assert run("absent", tid_zero, "2", "--round", "1") == "player 2 misses round 1: a bye of 0"
    assert "already" in run("absent", tid, "2", "--round", "1", ok=False)
    assert "round: " in run("absent", tid, "2", "--round", "0", ok=False)
    assert run("absent", tid, "2", "--round", "1", "--take-back") == "player 2 is paired in round 1 again"
    run("absent", tid, "3", "--round", "1")
    assert run("pair", tid).splitlines()[1:] == [
        "  board 1: Abeba (south) - Dawit (north)",
        "  board 2: Eleni (south) - Berhane (north)",
        "  bye: Chaltu (0.5)",
    ]


def test_the_pairing_checker_pairs_again_a_swiss_round_with_absences_as_it_was_paired(client, admin):
    tid = swiss(admin)
    assert absent(client, tid, 2, 1).status_code == 201
    assert absent(client, tid, 5, 2).status_code == 201
    assert absent(client, tid, 1, 2).status_code == 201
    for round_number in (1, 2):
        paired = admin.pair(tid)
        for board in paired["boards"]:
            admin.forfeit(tid, round_number, board["board"], "north_wins")
    check = admin.get(f"/api/tournaments/{tid}/check")
    assert [r["status"] for r in check["rounds"]] == ["same", "same"] and check["differing_rounds"] == []
