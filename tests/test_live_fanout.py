"""Live fan-out (recorder/live/watchers.py): the streams of one game in a process share one
watcher, so the store is looked at per game, not per watcher; each stream still hears
every move, and a watcher ends with its last stream."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
import types
from collections import Counter

import pytest
from browser import fixture_game, record
from conftest import make_app
from flask.testing import FlaskClient
from test_live_api import messages

from recorder.live import gunicorn_conf as gunicorn_live_conf
from recorder.live.watchers import Watchers

pytestmark = pytest.mark.timeout(60)

POLL = 0.05
WINDOW = 1.0  # seconds over which the looks at the store are counted


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path / "fanout.sqlite3", LIVE_POLL_SECONDS=POLL, LIVE_MAX_SECONDS=6.0, LIVE_LISTENERS=16)
    app.readers = []
    yield app
    for reader in app.readers:
        reader.join(timeout=10)
    gone_by = time.monotonic() + 5  # each watcher ends a look after its last stream, before the store closes
    while app.extensions["live_watchers"].count() and time.monotonic() < gone_by:
        time.sleep(0.02)


def counting(app, game_id: str) -> Counter:
    """Count the store's looks at this game's version and its reads of events after a
    version (``read_new``: what a stream or a watcher reads; a write's checks read the setup)."""
    store, counts = app.extensions["recorder"].store, Counter[str]()
    for name in ("version", "read"):
        original = getattr(store, name)

        def counted(stream_id, *args, _original=original, _name=name, **kwargs):
            if stream_id == game_id:
                counts[_name] += 1
                counts["read_new"] += _name == "read" and kwargs.get("after", 0) > 0
            return _original(stream_id, *args, **kwargs)

        setattr(store, name, counted)
    return counts


def open_stream(app, game_id: str) -> queue.Queue:
    response = FlaskClient(app, app.response_class).get(f"/api/games/{game_id}/live", buffered=False)
    assert response.status_code == 200
    heard = heard_in_the_background(app, response)
    assert heard.get(timeout=5)[0] == "version"
    return heard


def heard_in_the_background(app, response) -> queue.Queue:
    """The stream's messages, read by a thread of their own as they come."""
    heard: queue.Queue = queue.Queue()

    def read():
        for item in messages(response.response):
            heard.put(item)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    app.readers.append(reader)
    return heard


def looks_over_a_window(counts: Counter) -> int:
    before = counts["version"]
    time.sleep(WINDOW)
    return counts["version"] - before


def test_many_streams_of_one_game_cost_one_look_at_the_store_not_one_each(app):
    client = app.test_client()
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:2])
    counts = counting(app, game_id)
    streams = [open_stream(app, game_id)]
    alone = looks_over_a_window(counts)
    streams += [open_stream(app, game_id) for _ in range(7)]
    assert app.extensions["live_watchers"].count() == 1
    together = looks_over_a_window(counts)
    assert alone > 0 and together < 2 * alone  # eight streams: one watcher's looks, not eight
    reads = counts["read_new"]
    assert (
        client.post(f"/api/games/{game_id}/commands", json=game["commands"][2], headers={"If-Match": '"3"'}).status_code
        == 201
    )
    for heard in streams:
        kind, event_id, data = heard.get(timeout=2)
        assert (kind, event_id, data["payload"]["hole"]) == ("recorded", "4", game["commands"][2]["hole"])
    assert counts["read_new"] - reads == 1  # the new event read once, handed to all eight


def test_a_watcher_ends_with_its_last_stream(app):
    client = app.test_client()
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:1])
    app.config["LIVE_MAX_SECONDS"] = 0.5
    open_stream(app, game_id)
    assert app.extensions["live_watchers"].count() == 1
    deadline = time.monotonic() + 5
    while app.extensions["live_watchers"].count() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert app.extensions["live_watchers"].count() == 0


def test_many_streams_of_one_tournament_cost_one_look_at_its_boards(app):
    client = app.test_client()
    body = {"name": "Axum Open", "variant": "qelat", "options": {"mazagebh_no_return": True}, "format": "round_robin"}
    tournament_id = client.post("/api/tournaments", json=body).get_json()["id"]
    for name in ("Abeba", "Berhane"):
        client.post(f"/api/tournaments/{tournament_id}/players", json={"name": name})
    client.post(f"/api/tournaments/{tournament_id}/rounds", json={})
    board = client.post(f"/api/tournaments/{tournament_id}/rounds/1/boards/1/game", json={"first_player": "north"})
    game_id = board.get_json()["id"]
    counts = counting(app, tournament_id)
    streams = [open_tournament_stream(app, tournament_id)]
    alone = looks_over_a_window(counts)
    streams += [open_tournament_stream(app, tournament_id) for _ in range(7)]
    assert app.extensions["live_watchers"].count() == 1
    together = looks_over_a_window(counts)
    assert alone > 0 and together < 2 * alone
    first = fixture_game("qelat-default.json")["commands"][0]
    assert client.post(f"/api/games/{game_id}/commands", json=first, headers={"If-Match": '"1"'}).status_code == 201
    for heard in streams:
        kind, _, board = heard.get(timeout=2)
        assert (kind, board["game_id"], board["version"]) == ("board", game_id, 2)


def open_tournament_stream(app, tournament_id: str) -> queue.Queue:
    response = FlaskClient(app, app.response_class).get(f"/api/tournaments/{tournament_id}/live", buffered=False)
    heard = heard_in_the_background(app, response)
    assert heard.get(timeout=5)[0] == "snapshot"
    return heard


# -- The watcher keeps its streams' time ---------------------------------------------------


def quiet_look(poll: float = 0.02):
    """A look that finds nothing, as a game without moves: one poll interval, no batch."""

    def look():
        time.sleep(poll)
        return ()

    return look


def test_a_quiet_watcher_hands_its_streams_a_heartbeat():
    watchers = Watchers()
    stream = watchers.join(("game", "quiet", False), quiet_look, 0.2, 10.0)
    started = time.monotonic()
    assert stream.get(timeout=5) == ()  # an empty batch: the stream sends its comment
    assert time.monotonic() - started >= 0.2
    watchers.leave(("game", "quiet", False), stream)


def test_a_watcher_ends_each_stream_at_its_own_lifetime():
    watchers, key = Watchers(), ("game", "short", False)
    brief = watchers.join(key, quiet_look, 60.0, 0.2)
    longer = watchers.join(key, quiet_look, 60.0, 1.0)
    assert brief.get(timeout=5) is None  # the stream's lifetime is up: it ends
    assert longer.empty()
    assert longer.get(timeout=5) is None
    assert wait_until(lambda: watchers.count() == 0)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the watcher's end is the point
def test_a_failing_watcher_ends_its_streams_rather_than_leave_them_waiting():
    def broken():
        def look():
            raise SystemExit  # not an error the watcher waits out: its thread ends

        return look

    stream = Watchers().join(("game", "broken", False), broken, 60.0, 60.0)
    assert stream.get(timeout=5) is None
    for thread in threading.enumerate():
        if thread.name == "live-broken":
            thread.join(5)  # its end is reported within this test


def test_a_stream_ends_after_its_lifetime_although_no_heartbeat_is_due(app):
    client = app.test_client()
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:1])
    app.config.update(LIVE_MAX_SECONDS=0.5, LIVE_HEARTBEAT_SECONDS=60.0)
    response = FlaskClient(app, app.response_class).get(f"/api/games/{game_id}/live", buffered=False)
    started = time.monotonic()
    body = b"".join(response.response)
    assert time.monotonic() - started < 5
    assert b"event: version" in body and b"still here" not in body


def wait_until(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


# -- Recording comes first: the live worker's scheduling class -----------------------------


def policy_after(priority: str | None) -> int:
    """The scheduling policy of a fresh process that ran the live worker's start-up with
    ``RECORDER_LIVE_PRIORITY=priority`` (a process of its own: the class cannot be set
    back, and under gevent every thread of this one is the same system thread)."""
    env = {name: value for name, value in os.environ.items() if name != "RECORDER_LIVE_PRIORITY"}
    if priority is not None:
        env["RECORDER_LIVE_PRIORITY"] = priority
    start_up = "import os; from recorder.live.gunicorn_conf import yield_to_recording as start; start(); "
    start_up += "print(os.sched_getscheduler(0))"
    done = subprocess.run([sys.executable, "-c", start_up], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_the_live_worker_runs_in_the_idle_class_by_default():
    assert policy_after(None) == os.SCHED_IDLE
    assert policy_after("idle") == os.SCHED_IDLE


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_the_live_worker_keeps_the_normal_class_when_told():
    assert policy_after("normal") == os.SCHED_OTHER


def test_an_unknown_live_priority_stops_the_worker_naming_the_allowed_values(monkeypatch):
    monkeypatch.setenv("RECORDER_LIVE_PRIORITY", "low")
    with pytest.raises(ValueError, match="idle, normal"):
        gunicorn_live_conf.yield_to_recording()


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_a_system_that_forbids_the_idle_class_gets_a_live_worker_in_the_normal_class_and_a_warning(monkeypatch):
    def forbidden(*_args):
        raise PermissionError(1, "Operation not permitted")

    warnings: list[str] = []
    worker = types.SimpleNamespace(log=types.SimpleNamespace(warning=lambda text, *args: warnings.append(text % args)))
    monkeypatch.delenv("RECORDER_LIVE_PRIORITY", raising=False)
    monkeypatch.setattr(gunicorn_live_conf.os, "sched_setscheduler", forbidden, raising=False)
    monkeypatch.setattr(gunicorn_live_conf.gc, "freeze", lambda: None)  # not this test process's objects
    gunicorn_live_conf.post_worker_init(worker)
    assert warnings == ["the live worker stays in the normal scheduling class: [Errno 1] Operation not permitted"]
