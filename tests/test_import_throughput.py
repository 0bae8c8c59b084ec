"""What bulk import and verify skip doing twice still gives exactly what doing it twice gave:
the schemas asked once per distinct command, each event hashed once, a whole archive read
in one ordered scan."""

from __future__ import annotations

import dataclasses

import pytest
from marshmallow import ValidationError

from recorder.api.archive import schema_check
from recorder.archive.shapes import REMEMBERED, OncePerShape, shape_key
from recorder.core import chain
from recorder.errors import ChainBroken, InvalidRecord
from recorder.store import CheckedChain, NewEvent, SQLiteEventStore, StoredEvent


class Counting:
    """A schema check that counts what it is asked and refuses a hole named 'zz'."""

    def __init__(self):
        self.asked: list[dict] = []

    def __call__(self, command: dict) -> dict:
        self.asked.append(command)
        if command.get("hole") == "zz":
            raise InvalidRecord("hole: not a hole", field="hole")
        return {**command, "loaded": True}


def test_gen_21_a_sowing_is_checked_by_the_schemas_once_per_distinct_command():
    check = OncePerShape(counting := Counting())
    for _ in range(3):
        assert check({"type": "sow", "hole": "a1", "player": "south"})["loaded"] is True
    check({"type": "sow", "hole": "b1", "player": "south"})
    assert [c["hole"] for c in counting.asked] == ["a1", "b1"]


def test_gen_21_a_refused_command_is_refused_every_time_and_never_remembered():
    check = OncePerShape(counting := Counting())
    for _ in range(2):
        with pytest.raises(InvalidRecord):
            check({"type": "sow", "hole": "zz"})
    assert len(counting.asked) == 2 and not check.passed


def test_values_equal_in_python_but_not_in_json_are_different_shapes():
    # 1 == 1.0 == True in Python, yet the schemas take a StrictInteger count and refuse the others.
    assert len({shape_key({"count": value}) for value in (1, 1.0, True)}) == 3
    check = OncePerShape(schema_check)
    assert check({"type": "retract", "count": 1, "reason": "slip"})["count"] == 1
    for wrong in (True, 1.0):
        with pytest.raises(InvalidRecord):
            check({"type": "retract", "count": wrong, "reason": "slip"})


def test_gen_24_gen_27_commands_holding_lists_or_dicts_are_checked_every_time():
    check = OncePerShape(counting := Counting())
    allocation = {"type": "next_round", "first_player": "south", "allocation": {"south": ["a1"], "north": []}}
    race = {"type": "race", "winner": "south", "holes": {"a1": 3}}
    for _ in range(2):
        check(allocation)
        check(race)
    assert len(counting.asked) == 4
    assert shape_key(allocation) is None and shape_key(race) is None


def test_a_remembered_command_is_handed_out_as_a_copy():
    check = OncePerShape(Counting())
    first = check({"type": "sow", "hole": "a1"})
    first["hole"] = "changed"
    assert check({"type": "sow", "hole": "a1"})["hole"] == "a1"


def test_the_memory_of_checked_commands_stays_bounded():
    check = OncePerShape(Counting())
    for number in range(REMEMBERED + 10):
        check({"type": "annotate", "text": str(number)})
    assert len(check.passed) <= REMEMBERED


def test_the_schemas_verdict_is_the_same_remembered_or_not():
    commands = [
        {"type": "sow", "hole": "a1", "player": "south"},
        {"type": "sow", "hole": "a1", "player": "west"},
        {"type": "sow", "hole": 3},
        {"type": "result", "kind": "resignation", "winner": "north"},
        {"type": "annotate", "text": ""},
    ]
    check = OncePerShape(schema_check)
    for command in commands * 2:
        try:
            expected: object = schema_check(command)
        except (InvalidRecord, ValidationError) as error:
            expected = type(error)
        try:
            got: object = check(command)
        except (InvalidRecord, ValidationError) as error:
            got = type(error)
        assert got == expected


def stored_log(store: SQLiteEventStore, game_id: str = "g", count: int = 4) -> list[StoredEvent]:
    payloads = [{"hole": f"a{n}", "note": 'é\u2028"q"'} for n in range(1, count + 1)]
    return list(store.append(game_id, 0, [NewEvent("sowed", p) for p in payloads], recorded_by="ann").events)


@pytest.fixture
def store(tmp_path):
    with SQLiteEventStore(str(tmp_path / "events.sqlite3")) as backend:
        yield backend


def test_a_stored_hash_built_around_the_payload_text_is_the_chain_hash(store):
    for event in stored_log(store):
        assert chain.stored_hash(event) == chain.event_hash(event.prev_hash, chain.record_of(event)) == event.hash


def test_fields_of_other_json_types_are_hashed_as_canonical_json_gives_them():
    event = StoredEvent("g", 1, "sowed", {"hole": "a1"}, "t", None, chain.GENESIS, "")
    for odd in (dataclasses.replace(event, seq=True), dataclasses.replace(event, seq=1.0)):
        assert chain.record_text(odd, "{}") is None
        assert chain.stored_hash(odd) == chain.event_hash(odd.prev_hash, chain.record_of(odd))


def test_checked_links_finds_the_first_broken_link_and_serialises_each_payload_once(store):
    events = stored_log(store)
    assert chain.checked_links(events) == (None, [chain.canonical_json(e.payload) for e in events])
    edited = [*events[:2], dataclasses.replace(events[2], payload={"hole": "f6"}), events[3]]
    assert chain.checked_links(edited)[0] == chain.first_broken_link(edited) == 3


def test_a_checked_chain_is_stored_exactly_as_a_plain_log_is(tmp_path, store):
    events = stored_log(store)
    with SQLiteEventStore(str(tmp_path / "a.sqlite3")) as plain, SQLiteEventStore(str(tmp_path / "b.sqlite3")) as fast:
        plain.append("g", 0, events)
        _, texts = chain.checked_links(events)
        fast.append("g", 0, CheckedChain(events, texts))
        assert fast.read("g") == plain.read("g") == events
        assert fast.event_lines("g") == plain.event_lines("g") == store.event_lines("g")


def test_a_checked_chain_of_another_stream_is_refused(store):
    events = stored_log(store, "g")
    with pytest.raises(ChainBroken):
        store.append("h", 0, CheckedChain(events, chain.checked_links(events)[1]))
    assert store.read("h") == []


def test_a_checked_chain_needs_one_text_per_event(store):
    with pytest.raises(ValueError):
        CheckedChain(stored_log(store), [])


def test_a_checked_chain_refuses_what_an_append_refuses_when_it_is_made(store):
    """The store's door checks a checked chain's links only: its events' fields are
    checked when it is made, as ``append`` checks any other events'."""
    events = stored_log(store)
    texts = chain.checked_links(events)[1]
    for bad, error in (
        (dataclasses.replace(events[1], payload=["f1"]), TypeError),
        (dataclasses.replace(events[1], type=""), ValueError),
        (NewEvent("sowed", {"hole": "f1"}), TypeError),
    ):
        with pytest.raises(error):
            CheckedChain([events[0], bad, *events[2:]], texts)


def test_a_checked_chain_starts_its_stream_and_only_an_empty_stream_takes_it(store, tmp_path):
    """A checked chain skips the hashes at the store's door (they were checked when it was
    made), so it starts its stream: one of later events is refused when it is made, and a
    whole one appended to a stream that holds events is refused at the door."""
    events = stored_log(store, "g")
    tampered = [*events[:3], dataclasses.replace(events[3], payload={"hole": "f6"})]
    with pytest.raises(ChainBroken, match="event 4 does not follow event 0"):
        CheckedChain(tampered[3:], [chain.canonical_json(tampered[3].payload)])
    with SQLiteEventStore(str(tmp_path / "fresh.sqlite3")) as fresh:
        fresh.append("g", 0, events[:3])
        with pytest.raises(ChainBroken, match="event 1 does not follow event 3"):
            fresh.append("g", 3, CheckedChain(events, chain.checked_links(events)[1]))
        assert fresh.version("g") == 3


def test_a_checked_chain_checks_its_links_when_it_is_made(store):
    """One stream, seq 1, 2, 3…, each prev_hash the hash before it, GENESIS first."""
    events = stored_log(store, "g")
    texts = chain.checked_links(events)[1]
    broken = [
        [*events[:2], events[3]],  # a gap
        [events[0], dataclasses.replace(events[1], prev_hash=chain.GENESIS), *events[2:]],  # a broken link
        [dataclasses.replace(events[0], prev_hash="f" * 64), *events[1:]],  # not after GENESIS
        [events[0], dataclasses.replace(events[1], game_id="other"), *events[2:]],  # another stream's event
    ]
    for chained in broken:
        with pytest.raises(ChainBroken):
            CheckedChain(chained, texts[: len(chained)])


def test_import_and_verify_on_the_command_line_report_their_pace(tmp_path):
    from click.testing import CliRunner
    from conftest import FIXTURES

    from recorder.cli.main import main

    db = str(tmp_path / "cli.sqlite3")
    runner = CliRunner()
    imported = runner.invoke(main, ["import", "--db", db, str(FIXTURES / "notation" / "qelat-default.mn")])
    assert imported.exit_code == 0, imported.output
    assert "imported 1 game, refused 0" in imported.stdout and "events/s" in imported.stderr
    verified = runner.invoke(main, ["verify", "--db", db])
    assert verified.exit_code == 0, verified.output
    assert "verified 1 streams" in verified.stdout and "events/s" in verified.stderr
    assert "events/s" not in verified.stdout  # stdout stays the report


def test_a_batch_commits_without_waiting_for_the_disk_and_an_import_syncs_once_at_its_end(tmp_path, monkeypatch):
    """``synchronous = NORMAL`` inside a batch only (the file stays whole whatever happens;
    a crash loses whole batches), then every write of the connection syncs again; the
    import makes its batches durable before it reports (``sync``)."""
    from click.testing import CliRunner
    from conftest import FIXTURES

    from recorder.cli.main import main

    db = str(tmp_path / "batches.sqlite3")
    with SQLiteEventStore(db) as store:
        connection = store._db()
        with store.batch():
            assert connection.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    synced = []
    monkeypatch.setattr(SQLiteEventStore, "sync", lambda self: synced.append(self.path))
    imported = CliRunner().invoke(main, ["import", "--db", db, str(FIXTURES / "notation" / "qelat-default.mn")])
    assert imported.exit_code == 0 and synced == [db]


def test_sync_syncs_the_write_ahead_log_itself_as_a_reader_may_hold_the_checkpoint_back(tmp_path, monkeypatch):
    """A passive checkpoint syncs the log only when it can copy some of it back, and a
    reader's open snapshot can stop it copying anything: ``sync`` syncs the log itself."""
    import os
    import sqlite3

    db = str(tmp_path / "held.sqlite3")
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(os.readlink(f"/proc/self/fd/{fd}")) or real_fsync(fd))
    with SQLiteEventStore(db) as store:
        stored_log(store, "g")
        store._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every frame so far copied back
        reader = sqlite3.connect(db)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()  # a snapshot from before the batch
        with store.batch():
            stored_log(store, "h")
        synced.clear()
        store.sync()
        reader.close()
    assert db + "-wal" in synced
