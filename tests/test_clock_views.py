"""The clocks in the views that are not the recording page: a spectator's live streams carry
no more messages for a game with readings than for the same game without them (the device
ticks the clocks itself, from the game's clock face); each sowing's think time in the move
list (which the scoresheet prints); the reading in the position search's results."""

from __future__ import annotations

import pytest
from browser import fixture_game, record
from click.testing import CliRunner
from conftest import ADMIN_TOKEN, AdminClient, Api
from flask.testing import FlaskClient
from test_live_api import messages

from recorder import Game
from recorder.app import create_app
from recorder.cli.main import main
from recorder.notation.move_list import move_list

pytestmark = pytest.mark.timeout(60)

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
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


# -- Think times: the move list and the scoresheet read them --------------------------------

STAGES = {"stages": [{"moves": 2, "base_ms": 60_000, "increment_ms": 1_000}, {"base_ms": 30_000}]}


def think_times(control, plays) -> list:
    """The move list's think times of ``plays`` ((hole, reading or None), or a pause/resume)."""
    game = Game("qelat", first_player="south", time_control=control)
    for play in plays:
        if play[0] == "pause":
            game.pause_clocks(play[1])
        elif play[0] == "resume":
            game.resume_clocks(play[1])
        else:
            game.sow(play[0], clock=play[1])
    return [move.get("think_ms") for move in move_list("g", list(enumerate(game.events, start=1)))]


def test_a_sowings_think_time_is_its_players_clock_before_less_after_plus_what_it_added():
    # South's first sowing from the base (60 s, +1 s): 60 - 55 + 1. North's second ends
    # stage 1: the next stage's 30 s comes with his increment. d1 had no reading: South's
    # e1 is counted from the reading a2 carried (which holds both clocks).
    plays = [
        ("c1", {"south": 55_000, "north": 60_000}),
        ("b2", {"south": 55_000, "north": 58_000}),
        ("d1", None),
        ("a2", {"south": 40_000, "north": 87_000}),
        ("e1", {"south": 35_000, "north": 87_000}),
    ]
    assert think_times(STAGES, plays) == [6_000, 3_000, None, 2_000, 5_000]


def test_a_think_time_is_unknown_without_a_reading_before_or_when_a_clock_was_set_forward():
    plays = [("c1", None), ("b2", {"south": 50_000, "north": 59_000}), ("d1", {"south": 90_000, "north": 59_000})]
    # No time control: no reading comes before b2's, nor a base time. With one, d1 (South's
    # second sowing, the end of stage 1: +1 s and +30 s) sets his clock further forward
    # than those give: no time spent says that.
    assert think_times(None, plays) == [None, None, None]
    assert think_times(STAGES, plays) == [None, 2_000, None]


def test_a_resume_with_a_new_reading_counts_from_it():
    plays = [
        ("c1", {"south": 55_000, "north": 60_000}),
        ("pause", {"south": 55_000, "north": 57_000}),
        ("resume", {"south": 55_000, "north": 67_000}),  # ten seconds given to North
        ("b2", {"south": 55_000, "north": 65_500}),
    ]
    assert think_times(STAGES, plays) == [6_000, 2_500]


def test_the_move_list_names_each_sowings_player_and_think_time(client):
    api = Api(client)
    game = api.create(**QELAT, time_control=STAGES)["id"]
    api.command(game, type="sow", hole="c1", clock={"south": 55_000, "north": 60_000})
    api.command(game, type="sow", hole="b2")
    moves = client.get(f"/api/games/{game}/moves").get_json()["moves"]
    assert moves[0] == {
        "seq": 2,
        "type": "sowed",
        "notation": "1. S c1",
        "player": "south",
        "clock": {"south": 55_000, "north": 60_000},
        "think_ms": 6_000,
    }
    assert moves[1] == {"seq": 3, "type": "sowed", "notation": "2. N b2", "player": "north"}


# -- Position search: the reading where the position came about -------------------------------


def test_position_search_gives_the_reading_of_the_move_that_made_the_position(app, client):
    api = Api(client)
    timed = api.create(**QELAT, time_control=STAGES)["id"]
    plain = api.create(**QELAT)["id"]
    api.command(timed, type="sow", hole="c1", clock={"south": 55_250, "north": 60_000})
    api.command(plain, type="sow", hole="c1")
    position = api.state(timed)["position_text"]
    found = client.get("/api/positions", query_string={"fen": position}).get_json()["occurrences"]
    by_game = {hit["game_id"]: hit for hit in found}
    assert by_game[timed]["clock"] == {"south": 55_250, "north": 60_000} and "clock" not in by_game[plain]
    said = CliRunner().invoke(main, ["search", position, "--db", app.config["DATABASE"]])
    assert f"{timed}  after event 2  qelat  Abeba v Berhane  clock 0:00:55.250 0:01:00" in said.output
    assert f"{plain}  after event 2  qelat  Abeba v Berhane\n" in said.output
