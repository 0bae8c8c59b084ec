"""recorder verify over a whole archive in worker processes: the same report, line for line
and byte for byte, and the same exit status, as one process gives (docs/auditing.md)."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest
from click.testing import CliRunner

from recorder import workers
from recorder.audit import walk
from recorder.bench.exports import recorded_templates
from recorder.cli.main import main
from recorder.store import NewEvent
from recorder.store.backends import is_postgres, open_store

GAMES = 300  # copies of the fixture games: several ranges, so --jobs 2 starts two workers
TAMPERED = "g0150"  # a game in the middle of the archive, changed behind the service's back


def game_id(number: int) -> str:
    return f"g{number:04d}"


def tamper(target: str, sql: str, params: tuple) -> None:
    """Change the events table through a plain connection, its immutability triggers dropped;
    the store's next open creates them again, as the service's would (each verify then sees
    them in place: the report is the records')."""
    if is_postgres(target):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute("DROP TRIGGER events_no_change ON events")
            conn.execute(sql.replace("?", "%s"), params)
    else:
        with contextlib.closing(sqlite3.connect(target, isolation_level=None)) as conn:
            for trigger in ("events_no_update", "events_no_delete", "events_extend_chain"):
                conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            conn.execute(sql, params)
    with open_store(target) as store:
        assert store.protections_restored != () and store.missing_protections() == []


@pytest.fixture(scope="module")
def archive(module_database, tmp_path_factory):
    """``GAMES`` copies of the fixture games (recorded through the service once each) under
    game ids, one stream that is no game (its first event no setup, GEN-23), and one tampered game."""
    templates = recorded_templates(str(tmp_path_factory.mktemp("templates")))
    with open_store(module_database) as store, store.batch():
        for number in range(GAMES):
            events, _, _ = templates[number % len(templates)]
            store.append(game_id(number), 0, events, recorded_by="arbiter")
        store.append("Not-A-Game", 0, [NewEvent("annotated", {"text": "x"})], recorded_by="shell")
    tamper(module_database, "UPDATE events SET recorded_by = 'mallory' WHERE game_id = ? AND seq = 2", (TAMPERED,))
    return module_database


def verify(target: str, *args: str):
    return CliRunner().invoke(main, ["verify", "--db", target, *args])


def test_verify_with_two_jobs_prints_byte_for_byte_what_one_job_prints(archive):
    assert walk.processes_for(GAMES + 1, 2) == 2  # the archive is large enough to be split
    one, two = verify(archive, "--jobs", "1"), verify(archive, "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    assert two.stdout == one.stdout
    lines = one.stdout.splitlines()
    with open_store(archive) as store:
        events = sum(len(stored) for _, stored in store.read_streams())
    assert lines[-1] == f"verified {GAMES + 1} streams, {events} events: 2 failed"
    assert lines[-2] == "protective triggers: each in place"
    assert lines[-3] == f"streams table: {GAMES + 1} streams, each head as recorded"  # an edit keeps the hash column
    assert [line[8 : line.index(":")] for line in lines[:-3]] == ["Not-A-Game", *map(game_id, range(GAMES))]
    assert lines[0].startswith("BROKEN  Not-A-Game: event 1: ") and "(GEN-23)" in lines[0]
    broken = [line for line in lines[1:-3] if not line.startswith("ok      ")]
    assert broken == [lines[1 + 150]] and broken[0].startswith(f"BROKEN  {TAMPERED}: event 2:")
    assert "events/s" in two.stderr and "events/s" in one.stderr


def test_verify_defaults_to_the_cpus_available_and_refuses_zero_jobs(archive, monkeypatch):
    monkeypatch.setattr(workers.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert workers.default_jobs() == 3
    refused = verify(archive, "--jobs", "0")
    assert refused.exit_code == 2 and "--jobs" in refused.stderr


def test_an_intact_archive_verifies_in_workers_with_exit_status_zero(tmp_path):
    templates = recorded_templates(str(tmp_path))
    target = str(tmp_path / "intact.sqlite3")
    with open_store(target) as store, store.batch():
        for number in range(120):
            store.append(game_id(number), 0, templates[number % len(templates)][0])
    assert walk.processes_for(120, 2) == 2
    one, two = verify(target, "--jobs", "1"), verify(target, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0 and one.stdout == two.stdout
    assert one.stdout.endswith(": 0 failed\n") and one.stdout.count("\nok      ") == 119
    with open_store(target) as store, pytest.raises(walk.WorkerFailed, match="could not open"):
        list(walk.checked_streams(store, str(tmp_path / "no-such-folder" / "x.sqlite3"), 120, 2))


def test_a_range_read_is_the_part_of_the_ordered_scan_between_its_bounds(archive):
    with open_store(archive) as store:
        ids = [stream_id for stream_id, _ in store.read_streams(batch=64)]
        ranges = list(walk.id_ranges(store.ids_in_events(), 64))
        parts = [[stream_id for stream_id, _ in store.read_stream_range(*bounds)] for bounds in ranges]
        assert [stream_id for part in parts for stream_id in part] == ids
        assert [len(part) for part in parts] == [64, 64, 64, 64, GAMES + 1 - 4 * 64]
        after, last = ranges[1]
        events = dict(store.read_stream_range(after, last))
        assert events == {stream_id: store.read(stream_id) for stream_id in ids[64:128]}


def test_id_ranges_cover_every_id_once_in_runs_of_the_size():
    ids = [f"s{n:02d}" for n in range(7)]
    assert list(walk.id_ranges(ids, 3)) == [("", "s02"), ("s02", "s05"), ("s05", "s06")]
    assert list(walk.id_ranges(ids[:3], 3)) == [("", "s02")]
    assert list(walk.id_ranges([], 3)) == []


def test_a_small_archive_is_verified_in_process_and_a_large_one_in_every_job():
    assert walk.processes_for(walk.CHUNK_MIN, 8) == 1  # one range: not worth a worker
    assert walk.processes_for(10 * walk.CHUNK_MIN, 1) == 1
    assert walk.processes_for(100_000, 4) == 4
    assert walk.chunk_size(100_000, 4) == walk.CHUNK_MAX


def test_workers_that_cannot_open_the_database_end_the_report_with_one_line_saying_so(archive, monkeypatch):
    """The lines printed so far stand; the rest is named as not verified, with exit 1 and no traceback."""

    def first_range_then_failed(store, target, streams, jobs):
        yield [("ok      g0000: 24 events", 24, True)]
        raise walk.WorkerFailed(f"a verifying worker could not open {target}: gone")

    monkeypatch.setattr(walk, "checked_streams", first_range_then_failed)
    result = verify(archive, "--jobs", "2")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # sys.exit(1), not a traceback
    assert result.stdout == "ok      g0000: 24 events\n"
    assert result.stderr.endswith("gone; the streams after the last line printed were not verified\n")


def test_verify_of_a_whole_archive_asks_for_it_to_be_read_ahead_and_of_named_games_does_not(archive, monkeypatch):
    """A whole-archive walk reads every page, in id order (scattered over the file); the
    store is asked once, before the walk, to read its file in order (docs/auditing.md)."""
    from recorder.store.interface import BulkStore
    from recorder.store.postgres import PostgresEventStore
    from recorder.store.sqlite import SQLiteEventStore

    asked: list[str] = []
    for backend in (SQLiteEventStore, PostgresEventStore, BulkStore):
        original = backend.read_ahead
        monkeypatch.setattr(
            backend, "read_ahead", lambda self, original=original: asked.append("asked") or original(self)
        )
    whole = verify(archive, "--jobs", "1")
    assert whole.exit_code == 1 and asked == ["asked"]
    named = verify(archive, "--jobs", "1", game_id(1))
    assert named.exit_code == 0 and asked == ["asked"]
