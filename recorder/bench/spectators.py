"""Spectators for the live bench: an asyncio load generator holding live streams open.

Run as a process of its own (``python -m recorder.bench.spectators``), so that reading
thousands of streams never takes the interpreter of the bench's recording clients, whose
append latency is measured. It talks to loopback only, and is bounded in time: it stops
at ``--deadline`` seconds whatever happens.

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
    writer = None
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        spectator.status = int(head.split(b" ", 2)[1])
        answered.put_nowait(spectator)
        if spectator.status == 200:
            await note_arrivals(reader, spectator.arrivals)
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError):
        if spectator.status is None:
            spectator.status = 0
            answered.put_nowait(spectator)
    finally:
        if writer is not None:
            writer.close()


async def note_arrivals(reader: asyncio.StreamReader, arrivals: dict[int, float]) -> None:
    rest = b""
    while chunk := await reader.read(65536):
        now = time.monotonic()
        *lines, rest = (rest + chunk).split(b"\n")
        for line in lines:
            if line.startswith(b"id: "):
                arrivals.setdefault(int(line[4:]), now)


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
    arguments = parser.parse_args()
    raise_open_files(arguments.count + 256)
    stand_aside()
    gc.disable()  # arrivals make no cycles; a collection over thousands of streams would delay what it notes
    run = watch(arguments.port, arguments.games.split(","), arguments.count, arguments.rate, arguments.deadline)
    spectators = asyncio.run(run)
    with open(arguments.out, "w", encoding="utf-8") as out:
        json.dump([[s.game_id, s.status, s.arrivals] for s in spectators], out)


if __name__ == "__main__":
    main()
