"""The live paths served event-driven (issue 41; docs/deployment.md, *Live streams*).

``recorder serve`` runs under gevent and the live process is gunicorn's gevent worker
(recorder/live/gunicorn_conf.py): an open stream is a greenlet, so idle spectators and
slow clients hold nothing that recording needs; each process bounds its streams
(``RECORDER_LIVE_LISTENERS``) and answers 503 with Retry-After beyond the bound; the
store and live tests pass in a process gevent has patched (the recording path is as
correct there); and the live bench's machinery (an asyncio load generator, recording
clients, the live process) holds 200 spectators with every move delivered.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from browser import fixture_game

from recorder.bench import live as bench_live
from recorder.bench import server as gunicorn
from recorder.bench.report import live_lines

pytestmark = pytest.mark.timeout(300)

TOKEN = "rt_live-server-" + "0" * 24
ADMIN = {"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"}
TESTS = Path(__file__).parent


@contextlib.contextmanager
def recorder_serve(folder: Path, **env: str):
    """``recorder serve`` as the README starts it (``python -m recorder``: the console script's code)."""
    port = gunicorn.free_port()
    command = [sys.executable, "-m", "recorder", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--db", str(folder / "served.sqlite3")]
    environment = {**os.environ, "RECORDER_ADMIN_TOKEN": TOKEN, "RECORDER_ENGINE": "python", **env}
    with open(folder / "serve.log", "w") as log:
        process = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not gunicorn.answers(port):
            assert process.poll() is None and time.monotonic() < deadline, (folder / "serve.log").read_text()
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if process.poll() is None:
            process.kill()
            process.wait()


def call(port: int, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers or ADMIN)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def stream_socket(port: int, game_id: str, *, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:  # a spectator that never reads: the server's writes back up soon
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET /api/games/{game_id}/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def head_of(sock: socket.socket) -> bytes:
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    return head


def test_idle_and_slow_clients_hold_nothing_that_records_a_move(tmp_path):
    """300 spectators that never read, 60 clients stuck halfway through a request's head or
    body: every move is still recorded at once, and a spectator that reads hears each."""
    game = fixture_game("qelat-default.json")
    with recorder_serve(tmp_path) as port:
        status, created = call(port, "POST", "/api/games", game["setup"])
        assert status == 201
        game_id = created["id"]
        idle = [stream_socket(port, game_id, receive_buffer=4096) for _ in range(300)]
        stuck = []
        for index in range(60):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            if index % 2:  # a head that never ends
                sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            else:  # a body that never comes
                sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 500\r\n\r\n{")
            stuck.append(sock)
        reading = stream_socket(port, game_id)
        try:
            assert all(head_of(sock).startswith(b"HTTP/1.1 200") for sock in idle[:5])
            assert head_of(reading).startswith(b"HTTP/1.1 200")
            for version, command in enumerate(game["commands"][:20], start=1):
                started = time.monotonic()
                headers = {**ADMIN, "If-Match": f'"{version}"'}
                assert call(port, "POST", f"/api/games/{game_id}/commands", command, headers)[0] == 201
                assert time.monotonic() - started < 5.0  # generous: the machine is shared
            heard = b""
            deadline = time.monotonic() + 10
            while b"id: 21\n" not in heard and time.monotonic() < deadline:
                heard += reading.recv(65536)
            assert all(f"id: {seq}\n".encode() in heard for seq in range(2, 22))
        finally:
            for sock in [*idle, *stuck, reading]:
                sock.close()


def test_the_live_process_bounds_its_streams_and_answers_503_with_retry_after(tmp_path, monkeypatch):
    monkeypatch.setenv("RECORDER_LIVE_LISTENERS", "3")
    db = str(tmp_path / "bounded.sqlite3")
    with gunicorn.served(db, bench_live.SERVED) as recording, gunicorn.served(db, bench_live.LIVE) as live:
        bench_admin = {**ADMIN, "Authorization": f"Bearer {gunicorn.BENCH_TOKEN}"}  # the served app's token
        setup = fixture_game("qelat-default.json")["setup"]
        status, created = call(recording.port, "POST", "/api/games", setup, bench_admin)
        assert status == 201
        admitted = [stream_socket(live.port, created["id"]) for _ in range(3)]
        try:
            assert all(head_of(sock).startswith(b"HTTP/1.1 200") for sock in admitted)
            refused = stream_socket(live.port, created["id"])
            head = head_of(refused)
            refused.close()
            assert head.startswith(b"HTTP/1.1 503") and b"Retry-After: 5\r\n" in head
            reading = admitted[0]  # the admitted streams go on: a move recorded now reaches them
            path = f"/api/games/{created['id']}/commands"
            command = fixture_game("qelat-default.json")["commands"][0]
            assert call(recording.port, "POST", path, command, {**bench_admin, "If-Match": '"1"'})[0] == 201
            heard, deadline = b"", time.monotonic() + 10
            while b"id: 2\n" not in heard and time.monotonic() < deadline:
                heard += reading.recv(65536)
            assert b"id: 2\n" in heard
        finally:
            for sock in admitted:
                sock.close()


@pytest.mark.timeout(660)
@pytest.mark.parametrize("files", [("test_live_api.py", "test_store.py"), ("test_live_fanout.py",)])
def test_the_store_and_live_tests_pass_in_a_process_gevent_has_patched(tmp_path, files):
    """The recording path is exactly as correct under gevent: the store's tests (SQLite and
    PostgreSQL, appends racing, idempotency, waiting for an append) and the live tests, run
    in a pytest that gevent patched before anything else (the fan-out's in a process of its
    own: its teardown waits for the streams of its own watchers to end; the store's last,
    whose PostgreSQL server's teardown then has no test's own time bound)."""
    run = "from gevent import monkey; monkey.patch_all(); import sys, pytest; sys.exit(pytest.main(sys.argv[1:]))"
    paths = [str(TESTS / name) for name in files]
    result = subprocess.run(
        [sys.executable, "-c", run, "-x", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "t"), *paths],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=TESTS.parent,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and " failed" not in result.stdout


def test_the_live_bench_delivers_every_move_to_200_spectators():
    """The bench's machinery at a small scale: the asyncio spectators, the recording clients,
    the live process beside the recording server. Bounds are generous (a shared machine);
    the figures themselves are for ``recorder bench --only live``."""
    figures = bench_live.measure(spectators=200, seconds=4.0, games=4, move_every=1.0)
    assert (figures.admitted, figures.refused, figures.failed) == (200, 0, 0)
    moves = sum(figures.watched.statuses.values())
    assert moves >= 8 and figures.watched.statuses == {201: moves} and figures.alone.failures == 0
    assert figures.lost == 0 and len(figures.delivery) == 50 * moves  # 50 spectators a game
    assert 0 < figures.delivery_at(99) < 5.0
    assert figures.rss_open > figures.rss_before > 0
    if hasattr(os, "SCHED_IDLE"):  # the live configuration put its worker in the idle class
        assert figures.servers.endswith("1 gevent workers, in the idle class")
    if len(cores_here()) >= 2:  # the live side on cores of its own, the recording side on the rest
        assert figures.cores.startswith("recording on core") and "live process and spectators on core" in figures.cores
    lines = live_lines(figures)
    assert any("move to every spectator" in line for line in lines) and "MISSED" in lines[0]  # 200 < 5,000


QUARTERS = [
    ({0, 1}, {0}, {1}),
    ({0, 1, 2, 3}, {0, 1, 2}, {3}),
    (set(range(8)), set(range(6)), {6, 7}),
    ({2, 5, 7}, {2, 5}, {7}),
]


@pytest.mark.parametrize(("available", "recording", "live"), QUARTERS)
def test_the_live_bench_gives_the_live_side_a_quarter_of_the_cores(monkeypatch, available, recording, live):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: available, raising=False)
    assert bench_live.split_cores() == bench_live.Cores(frozenset(recording), frozenset(live))


def test_the_live_bench_on_one_core_shares_it(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert bench_live.split_cores() is None


def cores_here() -> set[int]:
    return set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else set()


# A master with a thread of its own and one child, as a gunicorn master and its worker.
MASTER_AND_WORKER = (
    "import os, threading, time; threading.Thread(target=time.sleep, args=(60,)).start(); os.fork(); time.sleep(60)"
)


@pytest.mark.skipif(len(cores_here()) < 2, reason="needs two cores to keep a server to one")
def test_a_confined_server_keeps_every_thread_and_child_to_its_cores():
    core = frozenset({min(cores_here())})
    with subprocess.Popen([sys.executable, "-c", MASTER_AND_WORKER], start_new_session=True) as process:
        server = gunicorn.Server(process, 0, "", "")
        try:
            deadline = time.monotonic() + 10
            while not gunicorn._children(process.pid) or len(os.listdir(f"/proc/{process.pid}/task")) < 2:
                assert time.monotonic() < deadline, "the master never started its thread and its child"
                time.sleep(0.05)
            server.confine(core)
            pids = [process.pid, *gunicorn._children(process.pid)]
            threads = [int(thread) for pid in pids for thread in os.listdir(f"/proc/{pid}/task")]
            assert len(threads) >= 3
            assert {frozenset(os.sched_getaffinity(thread)) for thread in threads} == {core}
        finally:
            server.kill()
