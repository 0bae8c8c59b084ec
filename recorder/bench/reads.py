"""Reading the latest state of a game with 10 events vs 1,000 events.

Both games are Qelat, built in-process on a fresh database before the server starts:
the short one is the setup and 9 random legal sowings; the long one is the setup, a
seeded random game played to its end, then ``annotate`` events up to 1,000 events
(annotations are real events the fold passes over). Then, against gunicorn, one client
sends ``GET /api/games/{id}/state`` to the two games in turn (after a warm-up: each
worker folds a game once, then keeps it in its state cache). The cold figure is the
same read in-process with the cache dropped, i.e. a full fold of every event.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from dataclasses import dataclass

from recorder.core.playout import random_move
from recorder.core.redecide import command_for
from recorder.games.service import Recorder
from recorder.store import SQLiteEventStore

from .loadgen import Connection, Tally, timed_call
from .server import GunicornConfig, served

SHORT, LONG = 10, 1_000


@dataclass(frozen=True)
class ReadFigures:
    warm_ms: dict  # events -> median latency of GET .../state through gunicorn
    cold_ms: dict  # events -> median in-process fold with the cache dropped
    requests: int
    server: str

    @property
    def warm_ratio(self) -> float:
        return self.warm_ms[LONG] / self.warm_ms[SHORT]

    @property
    def cold_ratio(self) -> float:
        return self.cold_ms[LONG] / self.cold_ms[SHORT]


def build_game(recorder: Recorder, events: int, seed: int) -> str:
    """A Qelat game of exactly ``events`` events: random legal sowings, then annotations."""
    setup = {"variant": "qelat", "south": "Reader S", "north": "Reader N", "first_player": "south"}
    game = recorder.create_game(setup, recorded_by="bench").game
    rng = random.Random(seed)
    while game.version < events:
        move = random_move(game.rules, game.state, rng)
        if move is not None:
            command = command_for(move[0])
        else:
            command = {"type": "annotate", "text": f"note {game.version}"}
        game = recorder.record(game.game_id, command, expected_version=game.version, recorded_by="bench").game
    return game.game_id


def cold_fold_ms(recorder: Recorder, game_id: str, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        recorder.drop_cache()
        started = time.perf_counter()
        recorder.game(game_id)
        samples.append(time.perf_counter() - started)
    return sorted(samples)[len(samples) // 2] * 1000


def measure(*, requests: int, config: GunicornConfig = GunicornConfig(), warmup: int = 20) -> ReadFigures:
    with tempfile.TemporaryDirectory(prefix="recorder-bench-") as folder:
        path = os.path.join(folder, "reads.sqlite3")
        recorder = Recorder(SQLiteEventStore(path))
        games = {SHORT: build_game(recorder, SHORT, 1), LONG: build_game(recorder, LONG, 2)}
        cold = {n: cold_fold_ms(recorder, game_id, 21) for n, game_id in games.items()}
        recorder.store.close()
        with served(path, config) as server:
            warm = read_latencies(server.port, games, requests, warmup)
    return ReadFigures(warm, cold, requests, config.describe())


def read_latencies(port: int, games: dict, requests: int, warmup: int) -> dict:
    """Median latency per game, the two games read alternately by one client."""
    connection = Connection(port)
    tallies = {n: Tally() for n in games}
    for _ in range(warmup):
        for game_id in games.values():
            connection.call("GET", f"/api/games/{game_id}/state")
    for _ in range(requests):
        for n, game_id in games.items():
            reply = timed_call(connection, tallies[n], "GET", f"/api/games/{game_id}/state")
            if reply is None or reply.status != 200 or reply.body["version"] != n:
                raise RuntimeError(f"reading the {n}-event game failed: {reply and reply.status}")
    connection.close()
    return {n: tally.percentile(50) * 1000 for n, tally in tallies.items()}
