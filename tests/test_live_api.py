"""Live boards over Server-Sent Events (recorder/api/live.py), and the option labels of
/api/variants: resuming with Last-Event-ID, a move heard within a second, a tournament's
boards, the bounded number of listeners per worker, and that bound under gunicorn's
gthread workers (long-lived streams never starve recording)."""

from __future__ import annotations

import http.client
import json
import queue
import socket
import threading
import time

import pytest
from browser import fixture_game, record
from conftest import ADMIN_TOKEN as CONFTEST_ADMIN_TOKEN
from conftest import AdminClient

from recorder.api.variants import OPTION_LABELS
from recorder.app import create_app
from recorder.bench import server as gunicorn

pytestmark = pytest.mark.timeout(60)

ADMIN_TOKEN = CONFTEST_ADMIN_TOKEN  # the token AdminClient sends
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture
def live_app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "live.sqlite3"),
            "ADMIN_TOKEN": ADMIN_TOKEN,
            "LIVE_POLL_SECONDS": 0.05,
            "LIVE_MAX_SECONDS": 2.0,
            "LIVE_LISTENERS": 2,
        }
    )
    app.test_client_class = AdminClient  # every write the tests make is the admin's
    app.readers = []
    yield app
    for reader in app.readers:  # each stream ends by itself after LIVE_MAX_SECONDS
        reader.join(timeout=10)
    app.extensions["recorder"].store.close()


def messages(chunks):
    """Parse SSE chunks into (event, id, data) tuples; comments and retry lines are skipped."""
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        fields = dict(
            line.split(": ", 1) for line in text.strip().splitlines() if ": " in line and not line.startswith(":")
        )
        if "event" in fields:
            yield fields["event"], fields.get("id"), json.loads(fields["data"])


def listen(app, response) -> queue.Queue:
    """Read a streaming test-client response in a thread until the stream ends by itself;
    each message lands on the queue."""
    heard: queue.Queue = queue.Queue()

    def read():
        for item in messages(response.response):
            heard.put(item)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    app.readers.append(reader)
    return heard


def qelat_game(client, moves: int) -> tuple[str, list[dict]]:
    game = fixture_game("qelat-default.json")
    return record(client, game["setup"], game["commands"][:moves]), game["commands"]


# -- One game --------------------------------------------------------------------------


def test_game_stream_resumes_after_last_event_id(live_app):
    client = live_app.test_client()
    game_id, _ = qelat_game(client, 3)
    response = client.get(f"/api/games/{game_id}/live", headers={"Last-Event-ID": "1"}, buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    heard = listen(live_app, response)
    assert heard.get(timeout=5)[0] == "version"
    resumed = [heard.get(timeout=5) for _ in range(3)]
    assert [(kind, event_id, data["seq"]) for kind, event_id, data in resumed] == [
        ("recorded", "2", 2),
        ("recorded", "3", 3),
        ("recorded", "4", 4),
    ]
    assert [data["type"] for _, _, data in resumed] == ["sowed"] * 3


def test_a_move_recorded_elsewhere_is_heard_within_a_second(live_app):
    client = live_app.test_client()
    game_id, commands = qelat_game(client, 2)
    response = client.get(f"/api/games/{game_id}/live", buffered=False)
    heard = listen(live_app, response)
    assert heard.get(timeout=5) == ("version", None, {"game_id": game_id, "version": 3})
    start = time.monotonic()
    seen = {"If-Match": '"3"'}
    assert client.post(f"/api/games/{game_id}/commands", json=commands[2], headers=seen).status_code == 201
    kind, event_id, data = heard.get(timeout=1)
    assert time.monotonic() - start < 1.0
    assert (kind, event_id, data["seq"], data["payload"]["hole"]) == ("recorded", "4", 4, commands[2]["hole"])


def test_bad_last_event_id_and_unknown_game_are_4xx(live_app):
    client = live_app.test_client()
    game_id, _ = qelat_game(client, 0)
    assert client.get(f"/api/games/{game_id}/live", headers={"Last-Event-ID": "x1"}).status_code == 422
    assert client.get("/api/games/no-such-game/live").status_code == 404
    assert client.get("/api/tournaments/t-000000000000/live").status_code == 404


def test_listeners_beyond_the_bound_are_refused_with_503_and_retry_after(live_app):
    client = live_app.test_client()
    game_id, _ = qelat_game(client, 0)
    open_streams = [client.get(f"/api/games/{game_id}/live", buffered=False) for _ in range(2)]
    for response in open_streams:
        next(iter(response.response))  # the stream has started: the listener is counted
    refused = client.get(f"/api/games/{game_id}/live")
    assert refused.status_code == 503
    assert refused.mimetype == "application/problem+json" and refused.headers["Retry-After"] == "5"
    assert "2 live streams" in refused.get_json()["detail"]
    open_streams[0].close()
    admitted = client.get(f"/api/games/{game_id}/live", buffered=False)
    assert admitted.status_code == 200
    admitted.close()
    open_streams[1].close()


# -- A tournament's boards -----------------------------------------------------------------


def test_tournament_stream_sends_a_snapshot_then_each_board_change(live_app):
    client = live_app.test_client()
    created = client.post(
        "/api/tournaments", headers=ADMIN, json={"name": "Axum Open", "variant": "qelat", "format": "round_robin"}
    )
    tournament_id = created.get_json()["id"]
    for name in ("Abeba", "Berhane"):
        client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": name})
    client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={})
    board_url = f"/api/tournaments/{tournament_id}/rounds/1/boards/1/game"
    game_id = client.post(board_url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"]

    response = client.get(f"/api/tournaments/{tournament_id}/live", buffered=False)
    heard = listen(live_app, response)
    kind, snapshot_id, snapshot = heard.get(timeout=5)
    assert kind == "snapshot" and [b["game_id"] for b in snapshot["boards"]] == [game_id]
    assert snapshot["boards"][0]["version"] == 1
    hole = client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"][0]
    start = time.monotonic()
    client.post(
        f"/api/games/{game_id}/commands", headers={**ADMIN, "If-Match": '"1"'}, json={"type": "sow", "hole": hole}
    )
    kind, board_id, board = heard.get(timeout=1)
    assert time.monotonic() - start < 1.0
    assert (kind, board["game_id"], board["version"], board["board"]) == ("board", game_id, 2, 1)
    assert int(board_id) == int(snapshot_id) + 1

    # Resuming with the id last seen sends no snapshot; an older id does.
    live_app.readers[0].join(timeout=10)  # the first stream has ended: two listeners fit again
    resumed = listen(
        live_app,
        client.get(f"/api/tournaments/{tournament_id}/live", headers={"Last-Event-ID": board_id}, buffered=False),
    )
    stale = listen(
        live_app,
        client.get(f"/api/tournaments/{tournament_id}/live", headers={"Last-Event-ID": snapshot_id}, buffered=False),
    )
    assert stale.get(timeout=5)[0] == "snapshot"
    with pytest.raises(queue.Empty):
        resumed.get(timeout=0.5)


# -- Option labels -------------------------------------------------------------------------


def test_every_option_of_every_game_has_words_for_its_label_and_each_choice(client):
    for variant in client.get("/api/variants").get_json()["variants"]:
        words = OPTION_LABELS[variant["name"]]
        assert set(words) == set(variant["options"]), variant["name"]
        for name, option in variant["options"].items():
            assert option["label"] == words[name][0]
            assert option["choice_labels"] == [words[name][1][choice] for choice in option["choices"]]
    qelat = next(v for v in client.get("/api/variants").get_json()["variants"] if v["name"] == "qelat")
    assert qelat["options"]["mazagebh_no_return"]["choice_labels"] == [
        "may not come straight back",
        "may come straight back",
    ]


# -- Under gunicorn: gthread workers, bounded listeners, recording never starved ------------


def open_stream(port: int, path: str) -> tuple[socket.socket, bytes]:
    """A raw HTTP/1.1 request left open; returns the socket and the first bytes read."""
    sock = socket.create_connection((gunicorn.HOST, port), timeout=5)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {gunicorn.HOST}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    return sock, sock.recv(4096)


def test_gthread_workers_bound_listeners_and_keep_recording(tmp_path, monkeypatch):
    """One gthread worker with 4 threads and at most 2 listeners: the third listener is
    refused (503), and while two streams are open a move is still recorded at once."""
    monkeypatch.setenv("RECORDER_LIVE_LISTENERS", "2")
    config = gunicorn.GunicornConfig(workers=1, threads=4, worker_class="gthread")
    with gunicorn.served(str(tmp_path / "g.sqlite3"), config) as server:
        connection = http.client.HTTPConnection(gunicorn.HOST, server.port, timeout=10)
        setup = fixture_game("qelat-default.json")
        admin = {"Content-Type": "application/json", "Authorization": f"Bearer {gunicorn.BENCH_TOKEN}"}
        connection.request("POST", "/api/games", body=json.dumps(setup["setup"]), headers=admin)
        game_id = json.loads(connection.getresponse().read())["id"]
        streams = [open_stream(server.port, f"/api/games/{game_id}/live") for _ in range(2)]
        try:
            assert all(first.startswith(b"HTTP/1.1 200") for _, first in streams)
            refused_socket, refused = open_stream(server.port, f"/api/games/{game_id}/live")
            refused_socket.close()
            assert refused.startswith(b"HTTP/1.1 503") and b"Retry-After: 5" in refused
            start = time.monotonic()
            body = json.dumps(setup["commands"][0])
            connection.request(
                "POST", f"/api/games/{game_id}/commands", body=body, headers={**admin, "If-Match": '"1"'}
            )
            assert connection.getresponse().status == 201
            assert time.monotonic() - start < 2.0  # generous: the machine is shared
            heard = streams[0][0].recv(4096)
            while b"event: recorded" not in heard:
                heard += streams[0][0].recv(4096)
            assert b"id: 2" in heard
        finally:
            for sock, _ in streams:
                sock.close()
            connection.close()
