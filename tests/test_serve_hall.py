"""``recorder serve`` holds a hall (docs/deployment.md, *recorder serve*; docs/decisions.md).

The command the README starts in a hall must survive what a hall does to it: more
spectators than its open files allow (the excess told 503 with Retry-After, recording
untouched), clients that open a connection and send its head slowly or never (closed
after a header timeout, the server still answering), and anonymous clients looping on
the costliest reads of a long game (appends stay quick: those reads run in a process of
their own at idle priority, never in the greenlet loop that relays the appends).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from browser import fixture_game
from test_live_server import ADMIN, TOKEN, call, head_of, stream_socket

from recorder.bench import server as gunicorn
from recorder.bench.cost import adversarial, build, setup_body
from recorder.store import SQLiteEventStore

pytestmark = pytest.mark.timeout(300)


@contextlib.contextmanager
def recorder_serve(folder: Path, *, files: int | None = None, **env: str):
    """``recorder serve`` as the README starts it, its open-files limit (soft and hard) set to ``files``."""
    with serving(folder, files=files, **env) as (port, _process):
        yield port


@contextlib.contextmanager
def serving(folder: Path, *, files: int | None = None, **env: str):
    """The same, yielding its port and its process."""
    port = gunicorn.free_port()
    command = [sys.executable, "-m", "recorder", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--db", str(folder / "served.sqlite3")]
    environment = {**os.environ, "RECORDER_ADMIN_TOKEN": TOKEN, "RECORDER_ENGINE": "python", **env}

    def limit_files() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    with open(folder / "serve.log", "w") as log:
        output = {"stdout": log, "stderr": subprocess.STDOUT}
        process = subprocess.Popen(command, env=environment, preexec_fn=limit_files, **output)  # type: ignore[call-overload]
    try:
        deadline = time.monotonic() + 90
        while not gunicorn.answers(port):
            assert process.poll() is None and time.monotonic() < deadline, (folder / "serve.log").read_text()
            time.sleep(0.1)
        yield port, process
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        if process.poll() is None:
            process.kill()
            process.wait()


def created_game(port: int) -> str:
    status, created = call(port, "POST", "/api/games", fixture_game("qelat-default.json")["setup"])
    assert status == 201, created
    return created["id"]


def record_one(port: int, game_id: str, version: int) -> float:
    """Record the fixture's move at ``version``; the seconds its append took."""
    command = fixture_game("qelat-default.json")["commands"][version - 1]
    started = time.monotonic()
    status, body = call(port, "POST", f"/api/games/{game_id}/commands", command, {**ADMIN, "If-Match": f'"{version}"'})
    assert status == 201, body
    return time.monotonic() - started


# -- Open files ------------------------------------------------------------------------------


def test_serve_admits_the_streams_its_open_files_allow_and_tells_the_rest_503(tmp_path):
    """With 256 open files (a desktop's limit is 1,024, some 256), 300 spectators: the
    server admits what its files allow, answers each of the others 503 with Retry-After
    (never an accept that fails with EMFILE and no answer), and a move still records and
    reaches an admitted spectator."""
    with recorder_serve(tmp_path, files=256) as port:
        game_id = created_game(port)
        streams = [stream_socket(port, game_id) for _ in range(300)]
        try:
            heads = [head_of(sock) for sock in streams]
            admitted = [sock for sock, head in zip(streams, heads) if head.startswith(b"HTTP/1.1 200")]
            refused = [head for head in heads if head.startswith(b"HTTP/1.1 503")]
            assert len(admitted) + len(refused) == 300
            assert 100 <= len(admitted) < 256 and all(b"Retry-After: 5\r\n" in head for head in refused)
            assert record_one(port, game_id, 1) < 5.0
            heard, deadline = b"", time.monotonic() + 10
            while b"id: 2\n" not in heard and time.monotonic() < deadline:
                heard += admitted[0].recv(65536)
            assert b"id: 2\n" in heard
        finally:
            for sock in streams:
                sock.close()
    assert "Too many open files" not in (tmp_path / "serve.log").read_text()


# -- Slow heads ------------------------------------------------------------------------------


def half_request(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # a head that never ends
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    try:
        while chunk := sock.recv(65536):
            del chunk  # a 400 or a 408 may come first: what matters is the end
        return True
    except TimeoutError:
        return False
    except OSError:  # reset: closed as well
        return True


def test_serve_closes_half_requests_after_its_header_timeout_and_still_answers(tmp_path):
    """250 half-requests (slowloris) on a server of 256 open files: each is closed within
    the header timeout (2 s here, ``RECORDER_HEADER_TIMEOUT``), and the server answers
    and records meanwhile and after."""
    with recorder_serve(tmp_path, files=256, RECORDER_HEADER_TIMEOUT="2") as port:
        game_id = created_game(port)
        slow = [half_request(port) for _ in range(250)]
        try:
            assert record_one(port, game_id, 1) < 5.0  # while they hang on
            for sock in slow:
                sock.settimeout(8)  # the timeout, and room for a shared machine
            assert all(closed_by_server(sock) for sock in slow)
            status, variants = call(port, "GET", "/api/variants")
            assert status == 200 and variants["variants"]
            assert record_one(port, game_id, 2) < 5.0
        finally:
            for sock in slow:
                sock.close()


# -- Heavy reads -----------------------------------------------------------------------------

LONG_GAME_PAIRS = 4_000  # 150 moves, then 4,000 pairs of a sowing and its retraction: 8,151 events
HEAVY_READS = ("/verify", "/moves", "/events")


def test_appends_stay_quick_while_anonymous_clients_loop_on_heavy_reads_of_a_long_game(tmp_path):
    """Two clients loop on verify, moves and events of an 8,000-event game (each a second
    or more of CPU): every append to another game stays under a second. When the front
    computed them between its greenlet switches, each append waited for the read under
    way: seconds."""
    store = SQLiteEventStore(str(tmp_path / "served.sqlite3"))
    long_game = build(store, "long", setup_body("Long"), adversarial(pairs=LONG_GAME_PAIRS)).game_id
    store.close()
    with recorder_serve(tmp_path) as port:
        game_id = created_game(port)
        stop = threading.Event()
        reads: list[int] = []

        def loop_on_heavy_reads(turn: int) -> None:
            while not stop.is_set():
                path = f"/api/games/{long_game}{HEAVY_READS[turn % len(HEAVY_READS)]}"
                reads.append(call(port, "GET", path, headers={"Accept": "application/json"})[0])
                turn += 1

        readers = [threading.Thread(target=loop_on_heavy_reads, args=(i,)) for i in range(2)]
        for reader in readers:
            reader.start()
        try:
            time.sleep(1.0)  # the reads are under way before the first append
            appends = [record_one(port, game_id, version) for version in range(1, 21)]
        finally:
            stop.set()
            for reader in readers:
                reader.join(120)
        assert reads and set(reads) == {200}
        assert max(appends) < 1.0, sorted(appends)


def test_many_clients_on_heavy_reads_take_no_relay_that_recording_needs(tmp_path):
    """32 anonymous clients at once on the verify of an 8,151-event game (more than the front
    relays at once): the heavy reads queue for the heavy backend's relays alone, and every
    append still goes through under a second."""
    store = SQLiteEventStore(str(tmp_path / "served.sqlite3"))
    long_game = build(store, "long", setup_body("Long"), adversarial(pairs=LONG_GAME_PAIRS)).game_id
    store.close()
    with recorder_serve(tmp_path) as port:
        game_id = created_game(port)
        stop = threading.Event()
        reads: list[int] = []

        def loop_on_verify() -> None:
            while not stop.is_set():
                reads.append(
                    call(port, "GET", f"/api/games/{long_game}/verify", headers={"Accept": "application/json"})[0]
                )

        readers = [threading.Thread(target=loop_on_verify) for _ in range(32)]
        for reader in readers:
            reader.start()
        try:
            time.sleep(2.0)  # every reader's request is in before the first append
            appends = [record_one(port, game_id, version) for version in range(1, 11)]
        finally:
            stop.set()
            for reader in readers:
                reader.join(120)
        assert reads and set(reads) == {200}
        assert max(appends) < 1.0, sorted(appends)


# -- The front and its backends --------------------------------------------------------------


def backend_of(process: subprocess.Popen, kind: str) -> int | None:
    """The pid of the gunicorn serving ``kind``'s socket, a child of ``recorder serve`` (None while there is none)."""
    for pid in gunicorn._children(process.pid):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            if f"/{kind}.sock".encode() in cmdline.read():
                return pid
    return None


def test_serve_starts_a_backend_again_that_ended_and_stops_every_process_with_it(tmp_path):
    """The recording backend killed: serve starts it again, answers and records; the
    heavy one runs in the idle class; SIGTERM stops the front and both backends."""
    with serving(tmp_path) as (port, process):
        heavy = backend_of(process, "heavy")
        assert heavy is not None
        if hasattr(os, "SCHED_IDLE"):
            assert os.sched_getscheduler(heavy) == os.SCHED_IDLE
        killed = backend_of(process, "recording")
        assert killed is not None
        os.kill(killed, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while backend_of(process, "recording") in (None, killed) or not gunicorn.answers(port):
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
        assert record_one(port, created_game(port), 1) < 5.0
        backends = [pid for pid in (backend_of(process, "recording"), heavy) if pid is not None]
        assert len(backends) == 2
    gone = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() for pid in backends) and time.monotonic() < gone:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in backends)
    assert "starting it again" in (tmp_path / "serve.log").read_text()


def raw_request(port: int, request: bytes) -> bytes:
    """Send ``request`` as is; the whole answer (the connection is closed after it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def test_the_front_relays_requests_and_answers_as_the_app_does(tmp_path):
    """Through the relay: a chunked body creates a game, an encoded path reaches the app
    as sent, a HEAD gets no body, an export streams, and a body over 1 MiB is refused
    with 413 before any backend sees it."""
    with recorder_serve(tmp_path) as port:
        body = json.dumps(fixture_game("qelat-default.json")["setup"]).encode()
        head = f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        chunked = head + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        answer = raw_request(port, chunked.encode() + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
        assert answer.startswith(b"HTTP/1.1 201"), answer[:300]
        assert json.loads(answer.partition(b"\r\n\r\n")[2])["version"] == 1
        status, missing = call(port, "GET", "/api/games/caf%C3%A9")
        assert status == 404 and "café" in missing["detail"]
        answer = raw_request(
            port, f"HEAD /api/variants HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
        )
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"\r\n\r\n")
        answer = raw_request(
            port, f"GET /api/export HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
        )
        assert answer.startswith(b"HTTP/1.1 200") and b"end of archive: 1 game" in answer
        too_long = head + f"Content-Type: application/json\r\nContent-Length: {2**20 + 1}\r\n\r\n"
        answer = raw_request(port, too_long.encode() + b" " * (2**20 + 1))
        assert answer.startswith(b"HTTP/1.1 413") and b"application/problem+json" in answer


def test_an_event_driven_process_admits_the_streams_its_open_files_allow(monkeypatch):
    """A quarter of the files (at least 96) stays for the rest; the configured bound wins when lower."""
    from recorder.live import streams as live

    assert [live.streams_within(files) for files in (128, 256, 1_024, 20_000)] == [32, 160, 768, 15_000]
    monkeypatch.setattr(live, "event_driven", lambda: True)
    monkeypatch.setattr(live, "open_files_for_streams", lambda: 256)
    monkeypatch.delenv("RECORDER_LIVE_LISTENERS", raising=False)
    assert live.listener_limit() == 160
    monkeypatch.setenv("RECORDER_LIVE_LISTENERS", "50")
    assert live.listener_limit() == 50
    monkeypatch.setattr(live, "event_driven", lambda: False)
    assert live.listener_limit() == 50


def test_ctrl_c_stops_serve_with_a_line_not_a_traceback(tmp_path):
    # Ctrl-C on `recorder serve` once ended with a bare KeyboardInterrupt traceback.
    with serving(tmp_path) as (port, process):
        backends = [pid for pid in (backend_of(process, "recording"), backend_of(process, "heavy")) if pid]
        process.send_signal(signal.SIGINT)  # what the terminal sends on Ctrl-C
        assert process.wait(timeout=30) == 0
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log[-2000:]
    gone = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() for pid in backends) and time.monotonic() < gone:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in backends)


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/g1/verify",
        "/api/games/g1/events/7/trace",
        "/api/games/g1/dossier",  # up to 16 traces and 4 what-ifs: seconds on a long game
        "/games/g1/dossier",  # the printable dossier builds the same file
        "/games/g1/scoresheet",
    ],
)
def test_the_costly_per_game_reads_go_to_the_heavy_backend(path):
    from recorder.cli.relay import HEAVY

    assert HEAVY.match(path), path
