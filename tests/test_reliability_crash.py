"""Crash: kill -9 the server mid-load, restart it, and find every acknowledged event.

gunicorn (2 workers) serves a fresh database; 8 arbiters record 8 games at once, each
sowing with If-Match and an Idempotency-Key. Once enough appends are acknowledged the
whole process group gets SIGKILL while requests are in flight. After a restart on the
same file: every acknowledged event is there, byte for byte; each game holds at most
the one unacknowledged command its arbiter had in flight, whole or not at all; every
hash chain verifies; the database passes SQLite's integrity check; and retrying the
in-flight command with its key stores it exactly once. The test runs on both backends:
on PostgreSQL the app servers die, the database server goes on.
"""

from __future__ import annotations

import http.client
import random
import sqlite3
import threading
import time
from typing import Any

import pytest

from recorder.bench.loadgen import Connection
from recorder.bench.server import GunicornConfig, start
from recorder.core import chain
from recorder.store.backends import is_postgres, open_store

pytestmark = pytest.mark.timeout(120)

ARBITERS = 8
ACKNOWLEDGED_BEFORE_KILL = 160
SETUP = {"variant": "qelat", "south": "Crash S", "north": "Crash N", "first_player": "south"}


class Arbiter:
    """Records one game until the server dies; remembers what was acknowledged."""

    def __init__(self, port: int, game: dict, seed: int):
        self.connection = Connection(port, timeout=10)
        self.game_id, self.version = game["id"], game["version"]
        self.legal = game["state"]["legal_moves"]
        self.rng = random.Random(seed)
        self.acknowledged: list[dict] = []  # the events of every 201 received
        self.in_flight: Any = None  # (body, headers) sent and not acknowledged
        self.refused: list = []

    def next_command(self) -> dict:
        if self.legal:
            return {"type": "sow", "hole": self.rng.choice(self.legal)}
        return {"type": "annotate", "text": f"after the end, event {self.version + 1}"}  # the game ended

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            body = self.next_command()
            headers = {"If-Match": f'"{self.version}"', "Idempotency-Key": f"{self.game_id}-{self.version}"}
            self.in_flight = (body, headers)
            reply = self.send_until_answered(body, headers, stop)
            if reply is None:
                return  # the server died with this request unacknowledged
            if reply.status != 201:
                self.refused.append((reply.status, reply.body))
                return
            self.in_flight = None
            self.acknowledged.extend(reply.body["events"])
            self.version, self.legal = reply.body["version"], reply.body["state"]["legal_moves"]

    def send_until_answered(self, body: dict, headers: dict, stop: threading.Event) -> Any:
        """Send until the server answers, as a careful client does: the same command with
        the same Idempotency-Key, so a request that timed out on a loaded machine (stored
        or not) is stored exactly once. None once the server has been killed."""
        while True:
            try:
                reply = self.connection.call("POST", f"/api/games/{self.game_id}/commands", body, headers)
            except (OSError, http.client.HTTPException):
                if stop.is_set():
                    return None
                time.sleep(0.05)
                continue
            if reply.status != 503 or stop.is_set():
                return reply
            time.sleep(0.05)  # busy: nothing was stored, so the same command is sent again


def drive_until_killed(server) -> list[Arbiter]:
    setup = Connection(server.port, timeout=10)
    games = [setup.call("POST", "/api/games", {**SETUP, "round": str(i)}).body for i in range(ARBITERS)]
    setup.close()
    arbiters = [Arbiter(server.port, game, seed) for seed, game in enumerate(games)]
    stop = threading.Event()
    threads = [threading.Thread(target=arbiter.run, args=(stop,)) for arbiter in arbiters]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while sum(len(a.acknowledged) for a in arbiters) < ACKNOWLEDGED_BEFORE_KILL and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # SIGKILL to the master and both workers at once, mid-load
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return arbiters


def test_kill_9_mid_load_keeps_every_acknowledged_event_and_half_writes_nothing(database):
    path = database
    first = start(path, GunicornConfig(workers=2))
    try:
        arbiters = drive_until_killed(first)
    finally:
        first.stop()
    assert sum(len(a.acknowledged) for a in arbiters) >= ACKNOWLEDGED_BEFORE_KILL
    assert all(not a.refused for a in arbiters), [a.refused for a in arbiters]

    if not is_postgres(path):
        assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    restarted = start(path, GunicornConfig(workers=2))
    try:
        connection = Connection(restarted.port, timeout=10)
        for arbiter in arbiters:
            check_game_after_the_crash(connection, path, arbiter)
        connection.close()
    finally:
        restarted.stop()


def check_game_after_the_crash(connection: Connection, path: str, arbiter: Arbiter) -> None:
    stored = connection.call("GET", f"/api/games/{arbiter.game_id}/events").body["events"]
    acknowledged = arbiter.acknowledged
    # Every acknowledged event is there, exactly as it was acknowledged.
    assert stored[1 : len(acknowledged) + 1] == acknowledged
    # At most the one command in flight was stored beyond them, and only whole.
    extra = stored[len(acknowledged) + 1 :]
    assert len(extra) <= (1 if arbiter.in_flight else 0)
    if extra:
        assert {k: v for k, v in extra[0]["payload"].items() if k != "player"} == {
            k: v for k, v in arbiter.in_flight[0].items() if k != "type"
        }
    with open_store(path) as store:
        assert chain.first_broken_link(store.read(arbiter.game_id)) is None
    # Retrying the in-flight command with its key stores it exactly once.
    if arbiter.in_flight:
        body, headers = arbiter.in_flight
        reply = connection.call("POST", f"/api/games/{arbiter.game_id}/commands", body, headers)
        assert reply.status == 201, reply.body
        assert reply.body["version"] == len(acknowledged) + 2
        if extra:
            assert reply.body["event"] == extra[0]
    state = connection.call("GET", f"/api/games/{arbiter.game_id}/state")
    assert state.status == 200 and state.body["version"] == len(acknowledged) + 1 + (1 if arbiter.in_flight else 0)
