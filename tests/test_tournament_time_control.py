"""A tournament's time control: checked at creation, shown with the tournament, given to
every game on its boards, and carried in TRF's record 122 (allotted times)."""

import pytest
from test_tournament_trf import SMALL, imported, post_trf, written
from tournament_support import ADMIN_TOKEN, Organiser, make_app

from recorder.tournaments import trf

CONTROL = {"stages": [{"moves": 40, "base_ms": 5_400_000, "increment_ms": 30_000}, {"base_ms": 1_800_000}]}
PLAYERS = ["Abeba", "Berhane", "Chaltu", "Dawit"]


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def admin(client):
    return Organiser(client, ADMIN_TOKEN)


def test_a_tournaments_time_control_is_shown_and_given_to_every_game_on_its_boards(client, admin):
    t = admin.create(name="X", variant="qelat", format="round_robin", time_control=CONTROL)
    assert t["time_control"] == CONTROL
    admin.add_players(t["id"], *PLAYERS)
    admin.pair(t["id"])
    game = admin.start(t["id"], 1, 1)
    assert game["metadata"]["time_control"] == CONTROL
    assert "122 40/5400+30:1800" in client.get(f"/api/tournaments/{t['id']}/trf").get_data(as_text=True)


@pytest.mark.parametrize(
    "control",
    [
        {"stages": [{"base_ms": 0}]},
        {"stages": [{"moves": 0, "base_ms": 1}, {"base_ms": 1}]},
        {"stages": [{"base_ms": -1}]},
    ],
    ids=["zero-base-no-increment", "a-stage-of-zero-moves", "negative"],
)
def test_a_tournament_time_control_that_cannot_exist_is_a_422_and_stores_nothing(client, admin, control):
    problem = admin.create(expect=422, name="X", variant="qelat", format="round_robin", time_control=control)
    assert "time_control" in str(problem)
    assert client.get("/api/tournaments").get_json()["tournaments"] == []


def test_trf_record_122_carries_the_time_control_both_ways():
    text = SMALL.replace("142 3\n", "122 40/5400+30:1800+30\n142 3\n")
    t, _ = imported(text)
    assert t.time_control == {
        "stages": [
            {"moves": 40, "base_ms": 5_400_000, "increment_ms": 30_000},
            {"base_ms": 1_800_000, "increment_ms": 30_000},
        ]
    }
    for layout in ("2026", "16"):
        assert "122 40/5400+30:1800+30" in written(text, layout).split("\r\n")


@pytest.mark.parametrize("free_text", ["90 min + 30 sec", "0", "40/5400:1800/0"])
def test_trf_record_122_that_is_no_time_control_is_free_text_kept_out(free_text):
    t, _ = imported(SMALL.replace("142 3\n", f"122 {free_text}\n142 3\n"))
    assert t.time_control is None
    assert trf.allotted_times(free_text) is None


def test_a_trf_import_over_the_api_keeps_the_time_control(client):
    response = post_trf(client, SMALL.replace("142 3\n", "122 300d5\n142 3\n"))
    assert response.status_code == 201, response.get_json()
    tournament = client.get(f"/api/tournaments/{response.get_json()['id']}").get_json()
    assert tournament["time_control"] == {"stages": [{"base_ms": 300_000, "delay_ms": 5_000}]}
