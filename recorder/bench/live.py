"""Live boards at a national final's scale: thousands of spectators, and what they cost recording.

Served as docs/deployment.md says: the recording server (gthread workers,
recorder/gunicorn_conf.py) and beside it the live process (one gevent worker,
recorder/live/gunicorn_conf.py), on the same SQLite file. ``GAMES`` games of a round each
receive a move every ``MOVE_EVERY`` seconds or so from their own recording client (an
arbiter's tablet: a random legal sowing with ``If-Match``, an annotation once the game is
over); first for ``seconds`` with nobody watching, then for as long again with
``spectators`` streams open on the live process, spread over the games, from an asyncio
load generator in a process of its own (recorder/bench/spectators.py; like the live
process, it runs in the idle scheduling class). On a machine of two cores or more, the
live process and the spectators keep to cores of their own and the recording server
and its clients to the rest (``split_cores``), as docs/deployment.md advises. The
database is in memory where the system has a tmpfs (``database_folder``). Reported: every
(spectator, move) pair's delay from the append's request to the spectator's receipt, the
pairs never received (lost), the streams refused, the appends' latency in both runs,
and the live process's memory per open stream (its resident size with the streams open
less before, divided by the streams).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .loadgen import LeanConnection, Tally, new_game, timed_call
from .plan import SERVED
from .server import GunicornConfig, Server, _children, served

LIVE = GunicornConfig(workers=1, worker_class="gevent", config="python:recorder.live.gunicorn_conf")
GAMES = 20
MOVE_EVERY = 3.0  # seconds between two moves of a game, give or take a quarter
RAMP_RATE = 400.0  # new streams a second while the spectators arrive
SETTLE_SECONDS = 2.0  # after the last append: its delivery is still counted
SEED = 41
IN_MEMORY = "/dev/shm"  # Linux's tmpfs
LIVE_SHARE = 4  # the live side's cores: a quarter of the machine's, at least one


def database_folder() -> str | None:
    """Where the section's database lives: in memory where the system has a tmpfs, else
    the temporary folder. Every append waits for its fsync (docs/deployment.md); a disk's
    rare slow fsync, in either run alike, would alone set the p99 of a few hundred appends,
    and the ratio is there to tell what the spectators cost (docs/decisions.md)."""
    return IN_MEMORY if os.path.isdir(IN_MEMORY) and os.access(IN_MEMORY, os.W_OK) else None


@dataclass(frozen=True)
class Cores:
    """Which cores the recording side (its server, its clients) and the live side (the
    live process, the spectators) keep to."""

    recording: frozenset[int]
    live: frozenset[int]

    def describe(self) -> str:
        return f"recording on {_cores(self.recording)}, live process and spectators on {_cores(self.live)}"


def _cores(cores: frozenset[int]) -> str:
    return ("core " if len(cores) == 1 else "cores ") + ", ".join(str(core) for core in sorted(cores))


def split_cores() -> Cores | None:
    """The live side's cores apart from the recording side's, where the system lets a
    process choose and there are two cores or more; else None (all share every core).
    A spectator's move sent on a core where an append's thread wakes delays that append
    whatever the live worker's class (docs/decisions.md, *Thousands of spectators*)."""
    getter = getattr(os, "sched_getaffinity", None)
    available = sorted(getter(0)) if getter is not None else []
    if len(available) < 2:
        return None
    live = max(1, len(available) // LIVE_SHARE)
    return Cores(frozenset(available[:-live]), frozenset(available[-live:]))


@dataclass(frozen=True)
class LiveFigures:
    spectators: int
    admitted: int
    refused: int
    failed: int  # connections that got no answer at all
    delivery: list[float]  # seconds from each append's request to each admitted spectator's receipt, sorted
    lost: int  # (admitted spectator, move) pairs never received
    alone: Tally  # the appends with nobody watching
    watched: Tally  # the same appends with the spectators' streams open
    rss_before: int  # bytes, the live process before the spectators came
    rss_open: int  # bytes, with every admitted stream open
    ramp_seconds: float
    live_cpu: float  # CPU seconds the live process used while the spectators watched the moves
    seconds: float  # the length of each run of moves
    servers: str
    cores: str  # how the recording side and the live side share the machine's cores
    database: str  # where the database was: "in memory (/dev/shm)" or "on disk"

    @property
    def bytes_per_stream(self) -> float:
        return (self.rss_open - self.rss_before) / self.admitted if self.admitted else float("nan")

    def delivery_at(self, q: float) -> float:
        """Nearest-rank percentile of the delivery delay, in seconds."""
        if not self.delivery:
            return float("nan")
        return self.delivery[max(0, min(len(self.delivery) - 1, int(q / 100 * len(self.delivery) + 0.5) - 1))]


def measure(*, spectators: int, seconds: float, games: int = GAMES, move_every: float = MOVE_EVERY) -> LiveFigures:
    with tempfile.TemporaryDirectory(prefix="recorder-bench-live-", dir=database_folder()) as folder:
        db = os.path.join(folder, "live.sqlite3")
        with served(db, SERVED) as recording, served(db, LIVE) as live:
            return run(recording, live, folder, spectators, seconds, games, move_every)


def run(recording: Server, live: Server, folder: str, count: int, seconds: float, games: int, every: float):
    cores = split_cores()
    recording_cores, live_cores = (cores.recording, cores.live) if cores is not None else (None, None)
    if cores is not None:
        recording.confine(cores.recording)
        live.confine(cores.live)
    setup = LeanConnection(recording.port)
    game_ids = [new_game(setup, "qelat", index, 1)[0] for index in range(games)]
    setup.close()
    alone, _ = record_moves(recording.port, game_ids, seconds, every, recording_cores)
    rss_before = resident_bytes(live)
    out = os.path.join(folder, "arrivals.json")
    started = time.monotonic()
    deadline = seconds + count / RAMP_RATE + 120
    with spectating(live.port, game_ids, count, out, deadline=deadline, cores=live_cores) as tally:
        ramp_seconds = time.monotonic() - started
        rss_open = resident_bytes(live)
        cpu_before = live.cpu_seconds() or 0.0
        watched, sent = record_moves(recording.port, game_ids, seconds, every, recording_cores)
        time.sleep(SETTLE_SECONDS)
        live_cpu = (live.cpu_seconds() or 0.0) - cpu_before
    with open(out, encoding="utf-8") as handle:
        arrivals = json.load(handle)
    delivery, lost = delays(arrivals, sent)
    return LiveFigures(
        count,
        tally["admitted"],
        tally["refused"],
        tally["failed"],
        delivery,
        lost,
        alone,
        watched,
        rss_before,
        rss_open,
        ramp_seconds,
        live_cpu,
        seconds,
        f"recording: {SERVED.describe()}; live: {LIVE.describe()}, {scheduling_class(live)}",
        cores.describe() if cores is not None else "recording and live sharing every core",
        f"in memory ({IN_MEMORY})" if folder.startswith(IN_MEMORY + os.sep) else "on disk",
    )


@contextlib.contextmanager
def spectating(port: int, game_ids: list[str], count: int, out: str, *, deadline: float, cores: frozenset[int] | None):
    """The spectators' process, from the moment every one of them has its answer (the
    tally it prints) until it has written their arrivals."""
    command = [sys.executable, "-m", "recorder.bench.spectators", "--port", str(port), "--games", ",".join(game_ids)]
    command += ["--count", str(count), "--rate", str(RAMP_RATE), "--deadline", str(deadline), "--out", out]
    command += ["--cores", ",".join(str(core) for core in sorted(cores or ()))]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"the spectators' process ended early ({process.wait()})")
            yield json.loads(line)
            process.stdin.write("stop\n")
            process.stdin.close()
            process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()


def record_moves(
    port: int, game_ids: list[str], seconds: float, every: float, cores: frozenset[int] | None = None
) -> tuple[Tally, dict]:
    """A recording client per game, each a move every ``every`` seconds (give or take a
    quarter, the games' moves spread evenly), for ``seconds``, on ``cores`` when given.
    Returns the appends' tally and, per game, the time each recorded version's request
    was sent."""
    tally = Tally()
    sent: dict[str, dict[int, float]] = {game_id: {} for game_id in game_ids}
    start = time.monotonic() + 0.2
    threads = [
        threading.Thread(
            target=on_cores(cores, arbiter),
            args=(port, game_id, start + index * every / len(game_ids), start + seconds, every, tally, sent[game_id]),
            daemon=True,
        )
        for index, game_id in enumerate(game_ids)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    tally.seconds = seconds
    return tally, sent


def on_cores(cores: frozenset[int] | None, work: Callable[..., None]) -> Callable[..., None]:
    """``work``, run by a thread that keeps to ``cores`` when given (the thread alone)."""

    def confined(*args) -> None:
        if cores is not None:
            os.sched_setaffinity(0, cores)
        work(*args)

    return confined


def arbiter(port: int, game_id: str, first: float, end: float, every: float, tally: Tally, sent: dict) -> None:
    """One game's recording client. Each move on a connection of its own: a server closes
    a keep-alive connection idle for seconds (gunicorn after 2), as a tablet's would be."""
    rng = random.Random(f"{SEED}-{game_id}")
    with contextlib.closing(LeanConnection(port)) as reading:
        game = reading.call("GET", f"/api/games/{game_id}").body
    version, legal = game["version"], game["state"]["legal_moves"]
    moment = first
    while moment < end:
        time.sleep(max(0.0, moment - time.monotonic()))
        body = {"type": "sow", "hole": rng.choice(legal)} if legal else {"type": "annotate", "text": "after the end"}
        connection, path, match = LeanConnection(port), f"/api/games/{game_id}/commands", {"If-Match": f'"{version}"'}
        at = time.monotonic()
        reply = timed_call(connection, tally, "POST", path, body, match)
        connection.close()
        if reply is not None and reply.status == 201:
            version = reply.body["version"]
            legal = reply.body["state"]["legal_moves"] if body["type"] == "sow" else legal
            sent[version] = at
        moment += every * rng.uniform(0.75, 1.25)


def delays(arrivals: list, sent: dict[str, dict[int, float]]) -> tuple[list[float], int]:
    """Every admitted spectator's delay for each move of its game, sorted; and the moves it never received."""
    delivery, lost = [], 0
    for game_id, status, arrived in arrivals:
        if status != 200:
            continue
        for version, at in sent[game_id].items():
            received = arrived.get(str(version))
            if received is None:
                lost += 1
            else:
                delivery.append(received - at)
    return sorted(delivery), lost


CLASSES = {getattr(os, "SCHED_IDLE", -1): "in the idle class", getattr(os, "SCHED_OTHER", -1): "in the normal class"}


def scheduling_class(server: Server) -> str:
    """The scheduling class the server's workers run in, as the system reports it."""
    getter = getattr(os, "sched_getscheduler", None)
    if getter is None:
        return "scheduling class unknown"
    with contextlib.suppress(OSError):
        policies = {getter(pid) for pid in _children(server.process.pid)}
        if policies:
            return " and ".join(sorted(CLASSES.get(policy, f"in scheduling class {policy}") for policy in policies))
    return "scheduling class unknown"


def resident_bytes(server: Server) -> int:
    """The resident memory of the server's workers (its master forks them and serves nothing)."""
    total = 0
    for pid in _children(server.process.pid):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total
