"""A hall on ``recorder serve``: boards recorded, spectators watching, heavy reads looping.

The README starts ``recorder serve`` in a hall, so this section serves with it, as a
hall would: ``BOARDS`` games each receive a move every ``MOVE_EVERY`` seconds or so from
their own recording client (``live.record_moves``: an arbiter's tablet), ``spectators``
live streams stay open over the games (``live.spectating``: an asyncio load generator
in a process of its own, in the idle class), and the appends are timed twice in the same
run: first with nobody else, then with ``READERS`` anonymous clients looping on the
costliest public reads of a long game (verify, what-if, the trace of its last event,
its export with the full history). Targets: the appends' p99 with the heavy readers at
most ``HALL_APPEND_P99_MS`` and at most ``HALL_APPEND_RATIO`` times the p99 without
them; no request refused (a stream, an append or a read). The database is in memory
where the system has a tmpfs (``live.database_folder``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from recorder.store import SQLiteEventStore

from . import live
from .cost import adversarial, build, setup_body
from .loadgen import LeanConnection, Tally, new_game
from .server import BENCH_TOKEN, HOST, Server, free_port, wait_until_ready

BOARDS = 50
MOVE_EVERY = 3.0  # seconds between two moves of a board, give or take a quarter
READERS = 4
LONG_GAME = "hall-long"
SETUP_EVENTS = 1 + 150  # the long game's setup and its first moves, before the pairs of a sowing and its retraction


@dataclass(frozen=True)
class HallFigures:
    spectators: int
    admitted: int
    refused: int  # streams answered 503
    failed: int  # streams that got no answer
    quiet: Tally  # the appends with the spectators and nobody else
    loaded: Tally  # the same appends with the heavy readers looping too
    reads: Tally  # the heavy readers' requests
    events: int  # in the long game
    seconds: float  # the length of each run of moves
    database: str

    @property
    def refused_requests(self) -> int:
        """Every request the section made that was not answered as asked: streams refused
        or unanswered, appends that failed or were not recorded, reads not answered 200."""
        streams = self.refused + self.failed
        appends = sum(tally.failures + sum(n for s, n in tally.statuses.items() if s != 201) for tally in self.runs)
        reads = self.reads.failures + sum(n for status, n in self.reads.statuses.items() if status != 200)
        return streams + appends + reads

    @property
    def runs(self) -> tuple[Tally, Tally]:
        return self.quiet, self.loaded


def measure(*, spectators: int, seconds: float, pairs: int) -> HallFigures:
    with tempfile.TemporaryDirectory(prefix="recorder-bench-hall-", dir=live.database_folder()) as folder:
        db = os.path.join(folder, "hall.sqlite3")
        store = SQLiteEventStore(db)
        events = build(store, LONG_GAME, setup_body("Hall"), adversarial(pairs=pairs)).version
        store.close()
        with served_by_recorder_serve(db) as server:
            setup = LeanConnection(server.port)
            boards = [new_game(setup, "qelat", index, 1)[0] for index in range(BOARDS)]
            setup.close()
            out, deadline = os.path.join(folder, "arrivals.json"), 2 * seconds + spectators / live.RAMP_RATE + 120
            with live.spectating(server.port, boards, spectators, out, deadline=deadline, cores=None) as tally:
                quiet, _ = live.record_moves(server.port, boards, seconds, MOVE_EVERY)
                with heavy_readers(server.port, events) as reads:
                    loaded, _ = live.record_moves(server.port, boards, seconds, MOVE_EVERY)
    where = f"in memory ({live.IN_MEMORY})" if folder.startswith(live.IN_MEMORY + os.sep) else "on disk"
    admitted, refused, failed = tally["admitted"], tally["refused"], tally["failed"]
    return HallFigures(spectators, admitted, refused, failed, quiet, loaded, reads, events, seconds, where)


@contextlib.contextmanager
def served_by_recorder_serve(db_path: str) -> Iterator[Server]:
    """``recorder serve`` as the README starts it, on a free loopback port, in a session of
    its own; stopped (SIGTERM, as a service manager would) at the block's end."""
    port = free_port()
    log = tempfile.NamedTemporaryFile("w", prefix="recorder-serve-", suffix=".log", delete=False)
    command = [sys.executable, "-m", "recorder", "serve", "--host", HOST, "--port", str(port), "--db", db_path]
    env = {**os.environ, "RECORDER_ADMIN_TOKEN": BENCH_TOKEN}
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    server = Server(process, port, db_path, log.name)
    try:
        wait_until_ready(server, 120.0)
        yield server
    finally:
        if process.poll() is not None:
            print(f"recorder serve ended by itself with {process.returncode}:\n{server.log()}", file=sys.stderr)
        server.stop()  # SIGTERM, as a service manager stops it; SIGKILL should it linger


def heavy_reads(events: int) -> list[tuple[str, str, dict | None]]:
    """The costliest public reads of the long game: each reads it whole."""
    game = f"/api/games/{LONG_GAME}"
    return [
        ("GET", f"{game}/verify", None),
        ("POST", f"{game}/what-if", {"options": {"weak_wegues": True}}),
        ("GET", f"{game}/events/{events}/trace", None),
        ("GET", "/api/export?variant=selus&history=full", None),
    ]


@contextlib.contextmanager
def heavy_readers(port: int, events: int) -> Iterator[Tally]:
    """``READERS`` anonymous clients looping on the heavy reads until the block ends, in
    a process of their own in the idle class (they stand for other machines: reading
    their answers must not take the CPU, or the interpreter, of the timed arbiters);
    their tally, filled once they have stopped."""
    tally = Tally()
    command = [sys.executable, "-m", "recorder.bench.hall", "--port", str(port), "--events", str(events)]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            if process.stdout.readline().strip() != "reading":
                raise RuntimeError(f"the heavy readers' process ended early ({process.wait()})")
            time.sleep(0.5)  # the reads are under way before the first append is timed
            yield tally
            process.stdin.write("stop\n")
            process.stdin.close()
            seen = json.loads(process.stdout.readline())
            process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
    for status, latency in seen["reads"]:
        tally.add(status, latency)
    tally.seconds = seen["seconds"]


def read_until_stopped(port: int, events: int) -> None:
    """The heavy readers' process: says ``reading``, loops until its standard input says
    ``stop`` (or closes), then prints each read's status and seconds as one JSON line."""
    if hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    reads, stop, done = heavy_reads(events), threading.Event(), []
    lock = threading.Lock()

    def reader(turn: int) -> None:
        while not stop.is_set():
            method, path, body = reads[turn % len(reads)]
            started = time.perf_counter()
            status = anonymous_call(port, method, path, body)
            with lock:
                done.append((status, time.perf_counter() - started))
            turn += 1

    threads = [threading.Thread(target=reader, args=(index,), daemon=True) for index in range(READERS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    print("reading", flush=True)
    while (line := sys.stdin.readline()) and line.strip() != "stop":
        pass
    stop.set()
    for thread in threads:
        thread.join(300)
    print(json.dumps({"reads": done, "seconds": time.perf_counter() - started}), flush=True)


def anonymous_call(port: int, method: str, path: str, body: dict | None) -> int | None:
    """One request with no token, its answer read whole; its status, None when it failed."""
    connection = http.client.HTTPConnection(HOST, port, timeout=300)
    try:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Accept": "application/json", "Content-Type": "application/json"} if data else {}
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="The hall section's heavy readers (recorder/bench/hall.py).")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--events", type=int, required=True, help="the long game's events")
    arguments = parser.parse_args()
    read_until_stopped(arguments.port, arguments.events)


if __name__ == "__main__":
    main()
