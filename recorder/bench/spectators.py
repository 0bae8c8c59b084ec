"""Spectators for the live bench: an asyncio load generator holding live streams open.

Run as a process of its own (``python -m recorder.bench.spectators``), so that reading
thousands of streams never takes the interpreter of the bench's recording clients, whose
append latency is measured, and in Linux's idle scheduling class: the spectators stand
for browsers on other machines, whose reading costs this machine nothing. It talks to
loopback only, and is bounded in time: it stops at ``--deadline`` seconds whatever
happens.

Each spectator is one connection holding ``GET /api/games/{id}/live`` open (spread over
the games in turn, opened at ``--rate`` a second) that notes when each message's ``id:``
arrives, on ``time.monotonic`` (the system's monotonic clock, the same in every process
of the machine, so the bench compares it with the time each append was sent). Once every
spectator has its answer it prints one JSON line (admitted, refused, failed); on a line
``stop`` on its standard input (or at the deadline) it writes every arrival to ``--out``
as JSON and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import resource
import sys
import threading
import time
from dataclasses import dataclass, field

HOST = "127.0.0.1"
HEAD_LIMIT = 65_536  # bytes: an answer's head longer than this is no stream of ours


@dataclass
class Spectator:
    game_id: str
    status: int | None = None  # the HTTP status; 0 when the connection failed
    arrivals: dict[int, float] = field(default_factory=dict)  # seq -> time.monotonic() at arrival


def raise_open_files(needed: int) -> None:
    """A stream is a socket: lift the soft limit of open files as far as needed (and allowed)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def stand_aside() -> None:
    """The idle scheduling class, where Linux has it: the spectators stand in for browsers
    on other machines, so their own reading should take only CPU nothing else here wants."""
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


async def spectate(port: int, spectator: Spectator, answered: asyncio.Queue) -> None:
    request = f"GET /api/games/{spectator.game_id}/live HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode()
    loop = asyncio.get_running_loop()
    try:
        transport, watching = await loop.create_connection(lambda: Watching(spectator, request, answered), HOST, port)
    except OSError:
        spectator.status = 0
        answered.put_nowait(spectator)
        return
    try:
        await watching.closed
    finally:
        transport.close()


class Watching(asyncio.Protocol):
    """One spectator's connection: its answer's status, then when each message's ``id:``
    arrives. A protocol rather than a stream reader, so a message costs one call and no
    task's wake-up: the load generator should cost as little as it can."""

    def __init__(self, spectator: Spectator, request: bytes, answered: asyncio.Queue):
        self.spectator, self.request, self.answered = spectator, request, answered
        self.transport: asyncio.Transport | None = None
        self.head = b""  # the answer's status line and headers, until they are whole
        self.rest = b""  # the start of a line not yet ended
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if self.spectator.status is None:
            body = self.read_head(data)
            if body is None:
                return
            data = body
        *lines, self.rest = (self.rest + data).split(b"\n")
        for line in lines:
            if line.startswith(b"id: "):
                self.spectator.arrivals.setdefault(int(line[4:]), now)

    def read_head(self, data: bytes) -> bytes | None:
        """What follows the answer's head once it is whole (None before, or when the answer is not a stream)."""
        self.head += data
        end = self.head.find(b"\r\n\r\n")
        if end < 0:
            if len(self.head) > HEAD_LIMIT:
                self.answer(0)
            return None
        parts = self.head.split(b" ", 2)
        self.answer(int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0)
        return self.head[end + 4 :] if self.spectator.status == 200 else None

    def answer(self, status: int) -> None:
        self.spectator.status = status
        self.answered.put_nowait(self.spectator)
        if status != 200 and self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.spectator.status is None:
            self.answer(0)
        if not self.closed.done():
            self.closed.set_result(None)


def stop_on_input() -> asyncio.Event:
    """Set when standard input says ``stop`` or closes; read by a daemon thread, which never
    holds the process up at its end (an executor's thread would)."""
    loop, stop = asyncio.get_running_loop(), asyncio.Event()

    def read() -> None:
        while (line := sys.stdin.readline()) and line.strip() != "stop":
            pass
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=read, daemon=True).start()
    return stop


async def watch(port: int, games: list[str], count: int, rate: float, deadline: float) -> list[Spectator]:
    spectators = [Spectator(games[index % len(games)]) for index in range(count)]
    answered: asyncio.Queue = asyncio.Queue()
    tasks = []
    for index, spectator in enumerate(spectators):
        tasks.append(asyncio.create_task(spectate(port, spectator, answered)))
        if (index + 1) % 50 == 0:
            await asyncio.sleep(50 / rate)
    stop = stop_on_input()
    try:
        async with asyncio.timeout(deadline):
            for _ in spectators:
                await answered.get()
            statuses = [spectator.status for spectator in spectators]
            tally = {"admitted": statuses.count(200), "refused": statuses.count(503), "failed": statuses.count(0)}
            print(json.dumps(tally), flush=True)
            await stop.wait()
    except TimeoutError:
        pass
    for task in tasks:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*tasks, return_exceptions=True)
    return spectators


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--games", required=True, help="comma-separated game ids")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--rate", type=float, default=400.0, help="new connections a second")
    parser.add_argument("--deadline", type=float, default=240.0, help="seconds before it stops by itself")
    parser.add_argument("--out", required=True)
    parser.add_argument("--cores", default="", help="comma-separated cores to run on (all when empty)")
    arguments = parser.parse_args()
    raise_open_files(arguments.count + 256)
    stand_aside()
    if arguments.cores:
        os.sched_setaffinity(0, {int(core) for core in arguments.cores.split(",")})
    gc.disable()  # arrivals make no cycles; a collection over thousands of streams would delay what it notes
    run = watch(arguments.port, arguments.games.split(","), arguments.count, arguments.rate, arguments.deadline)
    spectators = asyncio.run(run)
    with open(arguments.out, "w", encoding="utf-8") as out:
        json.dump([[s.game_id, s.status, s.arrivals] for s in spectators], out)


if __name__ == "__main__":
    main()
