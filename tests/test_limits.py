"""Limits that say no early: a ceiling on events per game (422 naming it), and imports
counted against games, events per game and events in all before anything is stored."""

import time

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, make_app

from recorder.app import create_app
from recorder.cli.main import main
from recorder.limits import EVENTS_PER_GAME, IMPORT_EVENTS, IMPORT_GAMES

NOTATION = FIXTURES / "notation"
QELAT = (NOTATION / "qelat-default.mn").read_text()
GABATA = (NOTATION / "gabata-default.mn").read_text()
NOTATION_TYPE = "text/x-mancala-notation"
QELAT_SETUP = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}


def limit(app, **values):
    """Set limits on a running app, as its config (or $RECORDER_...) would at start."""
    app.config.update(values)
    if "MAX_EVENTS_PER_GAME" in values:
        app.extensions["recorder"].max_events_per_game = values["MAX_EVENTS_PER_GAME"]


def stored_games(app) -> dict:
    store = app.extensions["recorder"].store
    games = app.extensions["recorder"].games
    return {game_id: store.version(game_id) for game_id in games.iter_ids()}


def import_text(client, text, content_type=NOTATION_TYPE):
    return client.post("/api/import?source=upload.mn", data=text.encode(), content_type=content_type)


def notation_events(client, game_id) -> int:
    return len(client.get(f"/api/games/{game_id}/events").get_json()["events"])


def test_the_defaults_are_generous_and_documented(app):
    assert app.config["MAX_EVENTS_PER_GAME"] == EVENTS_PER_GAME == 20_000
    assert app.config["IMPORT_MAX_GAMES"] == IMPORT_GAMES
    assert app.config["IMPORT_MAX_EVENTS"] == IMPORT_EVENTS
    assert app.extensions["recorder"].max_events_per_game == 20_000


def test_the_limits_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("RECORDER_MAX_EVENTS_PER_GAME", "7")
    monkeypatch.setenv("RECORDER_IMPORT_MAX_GAMES", "3")
    monkeypatch.setenv("RECORDER_IMPORT_MAX_EVENTS", "99")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "env.sqlite3")})
    try:
        assert (app.config["MAX_EVENTS_PER_GAME"], app.config["IMPORT_MAX_GAMES"]) == (7, 3)
        assert app.config["IMPORT_MAX_EVENTS"] == 99
        assert app.extensions["recorder"].max_events_per_game == 7
    finally:
        app.extensions["recorder"].store.close()


def test_an_append_past_the_ceiling_is_422_naming_the_limit_and_stores_nothing(app, api):
    limit(app, MAX_EVENTS_PER_GAME=4)
    game = api.create(**QELAT_SETUP)
    api.command(game["id"], type="sow", hole=game["state"]["legal_moves"][0])
    for text in ("a note", "another"):
        api.command(game["id"], type="annotate", text=text)
    problem = api.command(game["id"], expect=422, type="annotate", text="one too many")
    assert problem["limit"] == "events_per_game" and problem["maximum"] == 4
    assert "MAX_EVENTS_PER_GAME" in problem["detail"] and "at most 4" in problem["detail"]
    assert api.state(game["id"])["version"] == 4


def test_an_import_of_too_many_games_is_refused_whole_naming_the_limit(app, client):
    limit(app, IMPORT_MAX_GAMES=1)
    response = import_text(client, QELAT + "\n" + GABATA)
    assert response.status_code == 422
    problem = response.get_json()
    assert (problem["limit"], problem["maximum"], problem["actual"]) == ("import_games", 1, 2)
    assert "recorder import" in problem["detail"]
    assert stored_games(app) == {}


def test_an_import_of_too_many_events_is_refused_before_anything_is_stored(app, client):
    one = import_text(client, QELAT).get_json()["games"][0]
    events = notation_events(client, one["game_id"])
    limit(app, IMPORT_MAX_EVENTS=2 * events - 1)
    before = stored_games(app)
    response = import_text(client, QELAT + "\n" + QELAT)
    assert response.status_code == 422
    problem = response.get_json()
    assert (problem["limit"], problem["maximum"], problem["actual"]) == ("import_events", 2 * events - 1, 2 * events)
    assert stored_games(app) == before


def test_an_import_holding_a_game_past_the_ceiling_stores_no_game(app, client):
    one = import_text(client, QELAT).get_json()["games"][0]
    events = notation_events(client, one["game_id"])
    limit(app, MAX_EVENTS_PER_GAME=events - 1)
    before = stored_games(app)
    response = import_text(client, GABATA + "\n" + QELAT)
    assert response.status_code == 422
    problem = response.get_json()
    assert (problem["limit"], problem["maximum"], problem["actual"]) == ("events_per_game", events - 1, events)
    assert problem["detail"].startswith("game 2 would hold")
    assert stored_games(app) == before


def test_an_ndjson_import_is_counted_the_same_way(app, client, tmp_path):
    one = import_text(client, QELAT).get_json()["games"][0]
    lines = client.get("/api/export", headers={"Accept": "application/x-ndjson"}).get_data(as_text=True)
    other = make_app(tmp_path / "other.sqlite3")
    try:
        limit(other, IMPORT_MAX_EVENTS=notation_events(client, one["game_id"]) - 1)
        response = import_text(other.test_client(), lines, "application/x-ndjson")
        assert response.status_code == 422 and response.get_json()["limit"] == "import_events"
        assert stored_games(other) == {}
    finally:
        other.extensions["recorder"].store.close()


def test_the_cli_import_refuses_only_the_game_past_the_ceiling(tmp_path, monkeypatch, client):
    one = import_text(client, QELAT).get_json()["games"][0]
    events = notation_events(client, one["game_id"])
    archive = tmp_path / "two.mn"
    archive.write_text(GABATA + "\n" + QELAT)
    monkeypatch.setenv("RECORDER_MAX_EVENTS_PER_GAME", str(events - 1))
    db = tmp_path / "cli.sqlite3"
    result = CliRunner().invoke(main, ["import", str(archive), "--db", str(db)])
    assert "MAX_EVENTS_PER_GAME" in result.output, result.output
    assert "imported 1 game, refused 1" in result.output, result.output


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_a_bad_limit_in_the_environment_is_refused_at_start(tmp_path, monkeypatch, value):
    monkeypatch.setenv("RECORDER_MAX_EVENTS_PER_GAME", value)
    with pytest.raises(ValueError, match="RECORDER_MAX_EVENTS_PER_GAME"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "bad.sqlite3")})


def test_a_mebibyte_of_retractions_is_refused_before_any_move_is_decided(app, client):
    """The adversary's file: one game, a sowing and {retract 1} over and over, ~1 MiB."""
    tags = '[South "Abeba"]\n[North "Berhane"]\n[Result "*"]\n[Variant "qelat"]\n[FirstPlayer "north"]\n\n'
    pair = '1. N d2 {retract 1 "again"}\n'
    text = tags + pair * ((1024 * 1024 - len(tags) - 2) // len(pair)) + "*\n"
    started = time.perf_counter()
    response = import_text(client, text)
    elapsed = time.perf_counter() - started
    problem = response.get_json()
    assert response.status_code == 422 and problem["limit"] == "events_per_game"  # one game, ~75,000 events
    assert stored_games(app) == {}
    assert elapsed < 5.0  # parsing only: no move decided, nothing stored (1.2 s at a load average of 8)
