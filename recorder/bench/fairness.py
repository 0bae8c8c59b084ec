"""Fairness: appends to other games while four clients read one expensive game.

One client's expensive reads must not starve recording. Against gunicorn in the
documented configuration, four reader threads request ``GET /moves`` (once the
slowest endpoint) and ``/verify`` of the adversarial game (``cost.py``) back to back,
while two arbiters record Qelat games (``loadgen.record_games``); the figure is the
appends' p99 latency. Loopback only, bounded by a deadline and a request count.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from .loadgen import Budget, Connection, Tally, record_games, run_clients, timed_call

READERS = 4
RECORDERS = 2
EXPENSIVE = ("/moves", "/verify")


@dataclass(frozen=True)
class FairnessFigures:
    appends: Tally
    reads: Tally

    @property
    def p99_ms(self) -> float:
        return self.appends.percentile(99) * 1000


def measure(port: int, game_id: str, *, seconds: float, max_appends: int = 100_000) -> FairnessFigures:
    reads = Tally()
    stop = threading.Event()

    def reader(index: int) -> None:
        connection = Connection(port, timeout=120)
        turn = index
        while not stop.is_set():
            path = f"/api/games/{game_id}{EXPENSIVE[turn % len(EXPENSIVE)]}"
            timed_call(connection, reads, "GET", path)
            turn += 1
        connection.close()

    threads = [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(READERS)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the expensive reads are under way before the first append is timed
    try:
        appends = run_clients(RECORDERS, record_games(port), Budget(seconds, max_appends))
    finally:
        stop.set()
        for thread in threads:
            thread.join(120)
    return FairnessFigures(appends, reads)
