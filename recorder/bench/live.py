"""Live boards under gunicorn: how soon a recorded move reaches its listeners, and what
the open streams cost recording.

The app is served with gthread workers and a bound on listeners per worker (the
configuration docs/deployment.md recommends). ``LISTENERS`` clients hold
``GET /api/games/{id}/live`` open, each read by a thread that notes when each event
arrives; one recording client appends ``annotate`` events one after another, a little
apart, and the bench reports the append latency and the delay from each append's
request to each listener's receipt. Then a few more listeners than the bound admits are opened, to
count the refusals (503).
"""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
import threading
import time
from dataclasses import dataclass

from .loadgen import Connection, Tally, timed_call
from .server import HOST, GunicornConfig, served

CONFIG = GunicornConfig(workers=2, threads=12, worker_class="gthread")
PER_WORKER = 8  # RECORDER_LIVE_LISTENERS
LISTENERS = 8  # all admitted even if every connection lands on one worker
PAUSE_SECONDS = 0.05


@dataclass(frozen=True)
class LiveFigures:
    append: Tally
    delivery: list  # seconds from each append's request to each listener's receipt, sorted
    missed: int  # (listener, event) pairs never received
    refused: int  # extra listeners refused with 503
    extra: int
    server: str


class Listener(threading.Thread):
    """One open stream; notes the arrival time of each ``id:``."""

    def __init__(self, port: int, game_id: str):
        super().__init__(daemon=True)
        self.sock = socket.create_connection((HOST, port), timeout=10)
        self.sock.sendall(f"GET /api/games/{game_id}/live HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
        self.arrivals: dict[int, float] = {}
        self.status = self.sock.recv(64).split(b" ")[1]

    def run(self) -> None:
        buffer = b""
        with contextlib.suppress(OSError):
            while chunk := self.sock.recv(65536):
                now = time.perf_counter()
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"id: "):
                        self.arrivals.setdefault(int(line[4:]), now)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


@contextlib.contextmanager
def listener_bound(limit: int):
    before = os.environ.get("RECORDER_LIVE_LISTENERS")
    os.environ["RECORDER_LIVE_LISTENERS"] = str(limit)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("RECORDER_LIVE_LISTENERS")
        else:
            os.environ["RECORDER_LIVE_LISTENERS"] = before


def measure(*, appends: int) -> LiveFigures:
    with tempfile.TemporaryDirectory(prefix="recorder-bench-") as folder, listener_bound(PER_WORKER):
        with served(os.path.join(folder, "live.sqlite3"), CONFIG) as server:
            return run(server.port, appends)


def run(port: int, appends: int) -> LiveFigures:
    connection = Connection(port)
    setup = {"variant": "qelat", "south": "Live S", "north": "Live N", "first_player": "south"}
    game_id = connection.call("POST", "/api/games", setup).body["id"]
    listeners = [Listener(port, game_id) for _ in range(LISTENERS)]
    for listener in listeners:
        listener.start()
    time.sleep(0.5)  # every stream has sent its first message
    append, recorded = Tally(), {}
    for number in range(appends):
        sent = time.perf_counter()
        reply = timed_call(
            connection,
            append,
            "POST",
            f"/api/games/{game_id}/commands",
            {"type": "annotate", "text": f"n{number}", "expected_version": number + 1},
        )
        if reply is not None and reply.status == 201:
            recorded[reply.body["version"]] = sent
        time.sleep(PAUSE_SECONDS)
    time.sleep(1.0)  # the last event reaches everyone
    extra = [Listener(port, game_id) for _ in range(2 * PER_WORKER)]  # 8 free places are left across the 2 workers
    refused = sum(1 for listener in extra if listener.status == b"503")
    for listener in listeners + extra:
        listener.close()
    connection.close()
    admitted = [listener for listener in listeners if listener.status == b"200"]
    delivery = [
        listener.arrivals[seq] - at for listener in admitted for seq, at in recorded.items() if seq in listener.arrivals
    ]
    missed = len(listeners) * len(recorded) - len(delivery)  # a refused first listener misses every event
    return LiveFigures(append, sorted(delivery), missed, refused, len(extra), CONFIG.describe())
