"""Long exports finish under the documented gunicorn configuration.

gunicorn's ``--timeout`` watches a worker's heartbeat. A sync worker does not beat
while it serves a request, so an export that takes longer than the timeout used to be
killed mid-body (the client saw 200 and an archive cut short). The documented
configuration (``recorder/gunicorn_conf.py``: gthread workers) beats from the worker's
main loop. Here the timeout is cut to 2 s and a slow client takes several times that
to read a large NDJSON export: every line arrives. Loopback only.
"""

from __future__ import annotations

import dataclasses
import http.client
import time

import pytest

from recorder.bench import cost
from recorder.bench.plan import SERVED
from recorder.bench.server import HOST, start
from recorder.store import SQLiteEventStore

pytestmark = pytest.mark.timeout(240)

TIMEOUT = 2  # seconds: the worker timeout for this test
GAMES = 3


@pytest.fixture(scope="module")
def served_archive(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("streaming") / "streaming.sqlite3")
    store = SQLiteEventStore(path)
    events = 0
    for index in range(GAMES):
        game = cost.build(store, f"long-{index}", cost.setup_body(f"Long {index}"), cost.adversarial(150, 2_000))
        events += game.version
    store.close()
    server = start(path, dataclasses.replace(SERVED, timeout=TIMEOUT))
    yield server, events
    server.stop()


def test_an_export_slower_than_the_worker_timeout_arrives_whole(served_archive):
    server, events = served_archive
    connection = http.client.HTTPConnection(HOST, server.port, timeout=60)
    connection.request("GET", "/api/export", headers={"Accept": "application/x-ndjson"})
    response = connection.getresponse()
    assert response.status == 200
    started, body = time.monotonic(), bytearray()
    while chunk := response.read(64 * 1024):
        body += chunk
        time.sleep(0.1)  # a slow client: the export takes longer than the worker timeout
    elapsed = time.monotonic() - started
    connection.close()
    assert elapsed > 2 * TIMEOUT, f"the read took {elapsed:.1f} s: not slower than the timeout"
    lines = [line for line in body.decode().splitlines() if '"seq"' in line]
    assert len(lines) == events
    assert "WORKER TIMEOUT" not in server.log()
