"""Requests raced against live servers: one thread per request, released together."""

from __future__ import annotations

import threading

from recorder.bench.loadgen import Connection


def race(ports: list[int], call) -> list:
    """``call(index, connection)`` in one thread per port (a port may repeat), released
    together by a barrier; the replies in order. Fails if a racer did not finish."""
    connections = [Connection(port, timeout=20) for port in ports]
    barrier, replies = threading.Barrier(len(ports)), [None] * len(ports)

    def racer(index: int) -> None:
        barrier.wait(timeout=20)
        replies[index] = call(index, connections[index])

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(len(ports))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for connection in connections:
        connection.close()
    assert all(reply is not None for reply in replies), "a racer did not finish"
    return replies
