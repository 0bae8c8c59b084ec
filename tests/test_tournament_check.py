"""The pairing checker (recorder/tournaments/check.py): every stored round paired again by
the tournament's own rules from the history before it; manual rounds and forfeits named."""

import pytest
from click.testing import CliRunner
from tournament_support import Organiser, make_app

from recorder.cli.main import main
from recorder.cli.tournaments import check_lines

PLAYERS = [("Abeba", 2000), ("Berhane", 1950), ("Chaltu", 1900), ("Dawit", 1850), ("Eleni", 1800), ("Fikre", 1750)]


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def finish_round(admin: Organiser, tid: str, round_number: int, first: str = "south_wins"):
    """Board 1 by a game (north resigns), the others forfeits; ``first`` on board 1 is by forfeit too."""
    boards = admin.get(f"/api/tournaments/{tid}/rounds/{round_number}")["boards"]
    for board in boards:
        if board["board"] == 1 and first == "game":
            game = admin.start(tid, round_number, 1)
            admin.command(game["id"], type="result", kind="resignation", winner="north")
        else:
            admin.forfeit(tid, round_number, board["board"], first if board["board"] == 1 else "north_wins")


def swiss(admin: Organiser, **extra) -> str:
    t = admin.create(name="Mekelle Swiss", variant="qelat", format="swiss", rounds=4, **extra)
    admin.add_players(t["id"], *PLAYERS)
    return t["id"]


def test_rounds_paired_by_the_rules_check_as_the_rules_give(client):
    admin = Organiser(client)
    tid = swiss(admin)
    for r in (1, 2, 3):
        admin.pair(tid)
        finish_round(admin, tid, r, first="game")
    report = admin.get(f"/api/tournaments/{tid}/check")
    assert report["pairing_rules"] == "dutch-2026" and report["differing_rounds"] == []
    assert [r["status"] for r in report["rounds"]] == ["same", "same", "same"]
    first = report["rounds"][0]
    assert first["stored"] == first["expected"] and first["manual"] is False
    assert first["forfeits"] == [{"board": 2, "result": "north_wins"}, {"board": 3, "result": "north_wins"}]


def test_a_tournament_keeps_its_own_rules_in_the_check(client):
    admin = Organiser(client)
    tid = swiss(admin, pairing_rules="dutch-2017")
    for r in (1, 2):
        admin.pair(tid)
        finish_round(admin, tid, r)
    report = admin.get(f"/api/tournaments/{tid}/check")
    assert report["pairing_rules"] == "dutch-2017" and report["differing_rounds"] == []


def test_a_manual_round_that_differs_is_named_with_how(client):
    admin = Organiser(client)
    tid = swiss(admin)
    admin.pair(tid)
    finish_round(admin, tid, 1)
    expected = admin.get(f"/api/tournaments/{tid}/check")["rounds"][0]["expected"]
    assert expected  # round 1 is the rules' own
    # Round 2 by hand: 1-2, 3-4, 5-6 in the seats given, whatever the rules say.
    admin.pair(tid, boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}, {"south": 5, "north": 6}])
    report = admin.get(f"/api/tournaments/{tid}/check")
    second = report["rounds"][1]
    assert second["manual"] is True and second["status"] == "differs" and report["differing_rounds"] == [2]
    assert second["expected"] and second["expected"] != second["stored"]
    assert "pairs not in the rules' pairing" in second["detail"] or "seats swapped" in second["detail"]


def test_cli_check_prints_each_round_and_exits_1_when_one_differs(tmp_path):
    db = tmp_path / "check.sqlite3"

    def run(*args, ok=True):
        result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
        assert (result.exit_code == 0) is ok, result.output
        return result.output

    tid = run("create", "--name", "Axum", "--variant", "qelat", "--format", "swiss", "--rounds", "3").strip()
    for name, _ in PLAYERS[:4]:
        run("add-player", tid, name)
    run("pair", tid)
    for board in (1, 2):
        run("forfeit", tid, "1", str(board), "south_wins")
    output = run("check", tid)
    assert "round 1 (paired swiss): as the rules give" in output
    assert "board 1: forfeit, south_wins (no game: not counted for colours)" in output
    assert output.strip().endswith("0 round(s) differ")
    run("pair", tid, "--board", "1-2", "--board", "3-4")  # by hand, not what the rules give
    output = run("check", tid, ok=False)
    assert "round 2 (paired by hand): DIFFERS" in output and "1 round(s) differ: 2" in output


def test_an_anonymous_reader_repeating_the_check_pairs_nothing_again(client, monkeypatch):
    # Anyone may ask for the check, and a made-up history can make its pairings cost seconds
    # (networkx's matching): a repeated read of the same tournament and results is the stored
    # answer, so looping on it costs the service one check per change, not one per request.
    from recorder.tournaments import service

    admin = Organiser(client)
    tid = swiss(admin)
    admin.pair(tid)
    finish_round(admin, tid, 1)
    admin.pair(tid)
    runs = []
    checked = service.check_tournament
    monkeypatch.setattr(service, "check_tournament", lambda *args: runs.append(1) or checked(*args))
    anonymous = client.application.test_client()
    first = anonymous.get(f"/api/tournaments/{tid}/check", headers={"Authorization": ""}).get_json()
    for _ in range(5):
        assert anonymous.get(f"/api/tournaments/{tid}/check", headers={"Authorization": ""}).get_json() == first
    assert len(runs) == 1
    finish_round(admin, tid, 2)  # new results: the check is made again, once
    for _ in range(3):
        anonymous.get(f"/api/tournaments/{tid}/check", headers={"Authorization": ""})
    assert len(runs) == 2


def test_c05_annex_1_a_double_round_robin_checks_against_its_berger_table(client):
    admin = Organiser(client)
    t = admin.create(name="Adigrat Double", variant="qelat", format="double_round_robin")
    admin.add_players(t["id"], *PLAYERS[:4])
    for r in range(1, 7):
        admin.pair(t["id"])
        finish_round(admin, t["id"], r)
    report = admin.get(f"/api/tournaments/{t['id']}/check")
    assert report["berger_order"] == "c05-annex1" and report["pairing_rules"] is None
    assert [r["status"] for r in report["rounds"]] == ["same"] * 6 and report["differing_rounds"] == []
    # The first cycle's last two rounds reversed: round 2 is the table's round 3.
    assert report["rounds"][1]["expected"] == [{"south": 2, "north": 4}, {"south": 3, "north": 1}]
    assert check_lines(report)[0] == f"{t['id']}: paired by Berger tables, c05-annex1"
