"""A small load generator: threads, each with one keep-alive HTTP/1.1 connection.

Every run is bounded twice, by a deadline and by a request count, and talks to
loopback only (the server this package started). ``record_games`` is the load the
bench measures: each client is an arbiter recording one game at a time, sowing a
random legal hole with ``If-Match`` set to the version it saw, as a tablet would.
"""

from __future__ import annotations

import http.client
import json
import math
import random
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .server import BENCH_TOKEN, HOST

JSON_HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json",
    "Authorization": f"Bearer {BENCH_TOKEN}",  # the served app's admin token (server.py)
}


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any
    headers: dict


class Connection:
    """One HTTP/1.1 connection, reopened transparently when the server closes it."""

    def __init__(self, port: int, *, host: str = HOST, timeout: float = 10.0):
        self._connection = http.client.HTTPConnection(host, port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None, headers: dict | None = None) -> Reply:
        data = json.dumps(body).encode() if body is not None else None
        try:
            self._connection.request(method, path, body=data, headers={**JSON_HEADERS, **(headers or {})})
            response = self._connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self._connection.close()  # the next call opens a fresh connection
            raise
        parsed = json.loads(raw) if raw and "json" in (response.getheader("Content-Type") or "") else raw
        return Reply(response.status, parsed, dict(response.getheaders()))

    def close(self) -> None:
        self._connection.close()


class LeanConnection:
    """A minimal HTTP/1.1 keep-alive client for the measured load (Content-Length bodies only).

    Same calls and replies as ``Connection``; it exists because ``http.client`` parses
    every response's headers with ``email.parser``, which cost the load generator about
    0.25 ms of CPU per request, and on a 2-core machine that CPU is taken from the server
    being measured. Reopens the socket when the server answers ``Connection: close``;
    once a server has closed after every answer, later requests say ``Connection:
    close`` themselves and half-close the socket once sent, as a proxy in front would
    do, so the server's worker is not kept waiting for this thread to be scheduled
    just to see the connection end (gunicorn's sync workers wait for that).
    """

    def __init__(self, port: int, *, host: str = HOST, timeout: float = 10.0):
        self._address, self._timeout = (host, port), timeout
        self._socket: socket.socket | None = None
        self._buffer = b""
        self._server_closes = False  # learnt from the first "Connection: close" answer

    def call(self, method: str, path: str, body: Any = None, headers: dict | None = None) -> Reply:
        data = json.dumps(body).encode() if body is not None else b""
        host, port = self._address
        fields = {"Host": f"{host}:{port}", **JSON_HEADERS, "Content-Length": len(data), **(headers or {})}
        if self._server_closes:
            fields["Connection"] = "close"
        lines = [f"{method} {path} HTTP/1.1", *(f"{name}: {value}" for name, value in fields.items())]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data
        sock = self._socket if self._socket is not None else self._open()
        try:
            sock.sendall(request)
            if self._server_closes:
                sock.shutdown(socket.SHUT_WR)  # nothing more to send on this connection
            status, response_headers, raw = self._read_response()
        except OSError:
            self.close()
            raise
        if response_headers.get("connection", "").lower() == "close":
            self._server_closes = True
            self.close()
        parsed = json.loads(raw) if raw and "json" in response_headers.get("content-type", "") else raw
        return Reply(status, parsed, response_headers)

    def _open(self) -> socket.socket:
        self._socket = sock = socket.create_connection(self._address, timeout=self._timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""
        return sock

    def _receive(self) -> bytes:
        if self._socket is None:
            raise OSError("the connection is closed")
        chunk = self._socket.recv(65536)
        if not chunk:
            raise ConnectionResetError("the server closed the connection")
        return chunk

    def _read_response(self) -> tuple[int, dict, bytes]:
        buffer = self._buffer
        while b"\r\n\r\n" not in buffer:
            buffer += self._receive()
        head, _, rest = buffer.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(rest) < length:
            rest += self._receive()
        self._buffer = rest[length:]
        return int(status_line.split(" ", 2)[1]), headers, rest[:length]

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
        self._socket, self._buffer = None, b""


@dataclass
class Tally:
    """What a run saw: the latency of every measured request, and statuses."""

    latencies: list = field(default_factory=list)  # seconds, measured requests only
    statuses: dict = field(default_factory=dict)
    failures: int = 0  # connection errors and timeouts
    seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, status: int | None, latency: float) -> None:
        with self._lock:
            if status is None:
                self.failures += 1
                return
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.latencies.append(latency)

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """Nearest-rank percentile of the latencies, in seconds."""
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
        return ordered[rank - 1]


@dataclass
class Budget:
    """The two bounds of a run: a deadline and a number of requests for all clients together."""

    seconds: float
    requests: int
    _left: int = 0
    _deadline: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def start(self) -> None:
        self._left = self.requests
        self._deadline = time.perf_counter() + self.seconds

    def take(self) -> bool:
        """True while the run may send one more measured request."""
        if time.perf_counter() >= self._deadline:
            return False
        with self._lock:
            if self._left <= 0:
                return False
            self._left -= 1
            return True


def run_clients(count: int, client: Callable[[int, Budget, Tally], None], budget: Budget) -> Tally:
    """Run ``client(index, budget, tally)`` in ``count`` threads started together."""
    tally = Tally()
    barrier = threading.Barrier(count + 1)

    def body(index: int) -> None:
        barrier.wait()
        client(index, budget, tally)

    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    budget.start()
    started = time.perf_counter()
    barrier.wait()
    for thread in threads:
        thread.join(budget.seconds + 60)  # every request has its own timeout too
    tally.seconds = time.perf_counter() - started
    return tally


def timed_call(connection, tally: Tally, method: str, path: str, body=None, headers=None):
    """One measured request; None when the connection failed."""
    started = time.perf_counter()
    try:
        reply = connection.call(method, path, body, headers)
    except (OSError, ValueError, http.client.HTTPException):
        tally.add(None, time.perf_counter() - started)
        return None
    tally.add(reply.status, time.perf_counter() - started)
    return reply


def new_game(connection, variant: str, index: int, serial: int) -> tuple[str, int, list]:
    """Create a game (not measured); return its id, version and legal moves."""
    setup = {
        "variant": variant,
        "south": f"South {index}",
        "north": f"North {index}",
        "first_player": "south",
        "event": "load test",
        "round": str(serial),
    }
    reply = connection.call("POST", "/api/games", setup)
    if reply.status != 201:
        raise RuntimeError(f"creating a game failed: {reply.status} {reply.body}")
    return reply.body["id"], reply.body["version"], reply.body["state"]["legal_moves"]


def reading(number: int) -> dict[str, int]:
    """A clock reading for the ``number``th event: both clocks running down from 90 minutes."""
    return {"south": max(5_400_000 - 1_250 * number, 0), "north": max(5_400_000 - 977 * number, 0)}


def record_games(
    port: int, *, variant: str = "qelat", seed: int = 7, clocks: bool = False
) -> Callable[[int, Budget, Tally], None]:
    """An arbiter per client: sow random legal holes, one game after another; with
    ``clocks``, each sowing carries a clock reading (TIME-2), as a tablet with a clock sends it."""

    def client(index: int, budget: Budget, tally: Tally) -> None:
        rng = random.Random(seed * 1000 + index)
        connection = LeanConnection(port)
        serial = 0
        game_id, version, legal = new_game(connection, variant, index, serial)
        while budget.take():
            path = f"/api/games/{game_id}/commands"
            body: dict = {"type": "sow", "hole": rng.choice(legal)}
            if clocks:
                body["clock"] = reading(version)
            reply = timed_call(connection, tally, "POST", path, body, {"If-Match": f'"{version}"'})
            if reply is not None and reply.status == 201:
                version, legal = reply.body["version"], reply.body["state"]["legal_moves"]
            if reply is None or reply.status != 201 or not legal:
                serial += 1  # the game is over, or something went wrong: start afresh
                game_id, version, legal = new_game(connection, variant, index, serial)
        connection.close()

    return client
