"""API append throughput and latency, against the app served by gunicorn.

16 arbiters (threads of the load generator, one keep-alive connection each) record
16 different Qelat games at once; each sowing is one ``POST /api/games/{id}/commands``
with ``If-Match``. Only those appends are counted and timed; creating a game when the
previous one ended is not. The database is a fresh temporary file.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

from .loadgen import Budget, Tally, record_games, run_clients
from .server import GunicornConfig, served

CLIENTS = 16


@dataclass(frozen=True)
class AppendFigures:
    tally: Tally
    server: str
    clients: int
    server_cpu: float | None = None  # seconds the gunicorn processes used during the run
    client_cpu: float | None = None  # seconds this process (the load generator) used

    def cpu_per_append_us(self, seconds: float | None) -> float | None:
        return seconds / self.tally.requests * 1e6 if seconds is not None and self.tally.requests else None

    @property
    def per_second(self) -> float:
        return self.tally.per_second

    @property
    def p50_ms(self) -> float:
        return self.tally.percentile(50) * 1000

    @property
    def p99_ms(self) -> float:
        return self.tally.percentile(99) * 1000

    @property
    def refused(self) -> int:
        """Appends that did not answer 201 (there should be none: each game has one arbiter)."""
        return self.tally.requests - self.tally.statuses.get(201, 0) + self.tally.failures


def measure(
    *,
    seconds: float,
    max_requests: int,
    config: GunicornConfig = GunicornConfig(),
    clients: int = CLIENTS,
    warmup_seconds: float = 1.0,
    database: str | None = None,
    clocks: bool = False,
) -> AppendFigures:
    """A short unmeasured warm-up, then the measured run, on one fresh SQLite file (or on
    ``database``, a PostgreSQL URL: new games with new ids, so a scratch database will do)."""
    with tempfile.TemporaryDirectory(prefix="recorder-bench-") as folder:
        with served(database or os.path.join(folder, "bench.sqlite3"), config) as server:
            if warmup_seconds > 0:
                warmup = record_games(server.port, seed=1, clocks=clocks)
                run_clients(clients, warmup, Budget(warmup_seconds, max_requests))
            server_before, client_before = server.cpu_seconds(), process_cpu_seconds()
            tally = run_clients(
                clients, record_games(server.port, seed=2, clocks=clocks), Budget(seconds, max_requests)
            )
            server_after, client_after = server.cpu_seconds(), process_cpu_seconds()
    server_cpu = server_after - server_before if server_after is not None and server_before is not None else None
    return AppendFigures(tally, config.describe(), clients, server_cpu, client_after - client_before)


def process_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system
