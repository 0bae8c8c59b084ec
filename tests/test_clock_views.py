"""The clocks in the views that are not the recording page: a spectator's live streams carry
no more messages for a game with readings than for the same game without them (the device
ticks the clocks itself, from the game's clock face)."""

from __future__ import annotations

import pytest
from browser import fixture_game, record
from conftest import ADMIN_TOKEN, AdminClient
from flask.testing import FlaskClient
from test_live_api import messages

from recorder.app import create_app

pytestmark = pytest.mark.timeout(60)

CONTROL = {"stages": [{"base_ms": 600_000, "increment_ms": 5_000}]}
MOVES = 12


@pytest.fixture
def streaming_app(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "live.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN}
    app = create_app({**config, "LIVE_POLL_SECONDS": 0.05, "LIVE_MAX_SECONDS": 1.0})
    app.test_client_class = AdminClient
    yield app
    app.extensions["recorder"].store.close()


def timed_games(client) -> tuple[str, str, str]:
    """The same moves three times: without readings, with one on every move, and with
    them and a pause and a resume of the clocks."""
    game = fixture_game("qelat-default.json")
    commands = game["commands"][:MOVES]
    plain = record(client, game["setup"], commands)
    clocked, south, north = [], 600_000, 600_000
    for index, command in enumerate(commands):
        south, north = (south - 1_500, north) if index % 2 == 0 else (south, north - 2_250)
        clocked.append({**command, "clock": {"south": south, "north": north}})
    timed = record(client, {**game["setup"], "time_control": CONTROL}, clocked)
    clocked[4:4] = [{"type": "pause_clocks", "clock": clocked[3]["clock"]}, {"type": "resume_clocks"}]
    paused = record(client, {**game["setup"], "time_control": CONTROL}, clocked)
    return plain, timed, paused


def heard(app, path: str) -> list[str]:
    """Every message a spectator's stream sends from the game's start until it ends by itself."""
    spectator = FlaskClient(app, app.response_class)  # no token: the public's view
    response = spectator.get(path, headers={"Last-Event-ID": "1"})
    assert response.status_code == 200
    return [event for event, _id, _data in messages(response.response)]


def test_a_spectators_game_stream_carries_no_more_messages_for_a_game_with_readings(streaming_app):
    plain, timed, paused = (
        heard(streaming_app, f"/api/games/{game}/live") for game in timed_games(streaming_app.test_client())
    )
    assert plain.count("recorded") == MOVES and timed == plain
    # The arbiter's pause and resume are recorded events: one message each, nothing per second.
    assert len(paused) == len(plain) + 2 and [kind for kind in paused if kind != "recorded"] == ["version"]
