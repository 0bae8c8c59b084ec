"""Conformance tests for EventStore backends.

Every test taking the ``store`` fixture runs against each factory in BACKENDS: SQLite
and PostgreSQL (a real server started by tests/conftest.py's ``postgres_server``;
skipped with the reason where PostgreSQL is not installed). Tests taking
``sqlite_store`` check what only SQLite can show (triggers, pragmas, the file);
tests/test_store_postgres.py does the same for PostgreSQL.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import inspect
import json
import os
import pickle
import sqlite3
import threading
import time
from typing import Any

import pytest

from recorder.core import chain
from recorder.errors import ChainBroken, IdempotencyMismatch, UnknownGame, VersionConflict
from recorder.games.games_list import GamesList
from recorder.store import (
    GAME,
    TOURNAMENT,
    AppendResult,
    CheckedChain,
    EventStore,
    Idempotency,
    NewEvent,
    SQLiteEventStore,
    StoreBackend,
    StoredEvent,
)
from recorder.store.notify import wait_for_append
from recorder.store.sql import TEXTS_BATCH
from recorder.store.sqlite import enter_wal


def sqlite_backend(tmp_path) -> StoreBackend:
    return SQLiteEventStore(str(tmp_path / "events.sqlite3"))


def postgres_backend(request) -> StoreBackend:
    from recorder.store.postgres import PostgresEventStore

    return PostgresEventStore(request.getfixturevalue("postgres_url"))


BACKENDS = [
    pytest.param(lambda request: sqlite_backend(request.getfixturevalue("tmp_path")), id="sqlite"),
    pytest.param(postgres_backend, id="postgres"),
]


@pytest.fixture(params=BACKENDS)
def store(request):
    with request.param(request) as backend:
        yield backend


@pytest.fixture
def sqlite_store(tmp_path):
    with sqlite_backend(tmp_path) as backend:
        yield backend


def moves(*pits: int) -> list[NewEvent]:
    return [NewEvent("sow", {"pit": pit}) for pit in pits]


def race(n: int, fn) -> list:
    """Run fn(i) in n threads released together; return each result or exception."""
    barrier = threading.Barrier(n)
    outcomes: list = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = fn(i)
        except Exception as exc:  # collected and asserted on by the caller
            outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a racing append hung"
    return outcomes


@contextlib.contextmanager
def raw_connection(path: str):
    """A plain sqlite3 connection, as someone bypassing the store would use."""
    conn = sqlite3.connect(path)
    try:
        yield conn
    finally:
        conn.close()


# --------------------------------------------------------------------- sequences


def test_appends_number_events_gaplessly_from_one(store):
    first = store.append("g", 0, [NewEvent("setup", {"seeds": 4})] + moves(2))
    second = store.append("g", 2, moves(3, 4, 5))
    assert [e.seq for e in first.events + second.events] == [1, 2, 3, 4, 5]
    assert not first.replayed and not second.replayed
    assert store.version("g") == 5
    # What append returns is exactly what is stored.
    assert store.read("g") == list(first.events + second.events)


def test_streams_are_independent_per_game(store):
    store.append("a", 0, moves(1, 2))
    store.append("b", 0, moves(3))
    assert [e.seq for e in store.read("b")] == [1]
    assert (store.version("a"), store.version("b")) == (2, 1)


@pytest.mark.parametrize(
    "after, upto, expected",
    [(0, None, [1, 2, 3, 4, 5]), (2, None, [3, 4, 5]), (1, 3, [2, 3]), (0, 0, []), (5, None, []), (4, 99, [5])],
)
def test_read_returns_the_after_upto_slice(store, after, upto, expected):
    store.append("g", 0, moves(1, 2, 3, 4, 5))
    assert [e.seq for e in store.read("g", after=after, upto=upto)] == expected


def test_version_at_a_time_is_the_last_event_at_or_before_the_time(store):
    """A broadcast delay's cut (docs/tournaments.md): the events' own stored times decide."""
    for seq in range(1, 4):
        store.append("g", seq - 1, moves(seq))
    times = [e.recorded_at for e in store.read("g")]
    assert store.version("g", at=times[1]) == 2
    assert store.version("g", at=times[2]) == 3
    assert store.version("g", at="2000-01-01T00:00:00.000000Z") == 0
    assert store.version("nope", at=times[2]) == 0


def test_unknown_game_is_empty(store):
    assert store.read("nope") == []
    assert store.version("nope") == 0
    assert store.version("nope") == 0


def test_exists_after_first_append(store):
    store.append("g", 0, moves(1))
    assert store.version("g") > 0


def test_stored_event_fields_and_to_dict(store):
    (event,) = store.append("g", 0, [NewEvent("sow", {"pit": 3, "note": "é"})], recorded_by="alice").events
    assert (event.game_id, event.type, event.payload, event.recorded_by) == (
        "g",
        "sow",
        {"pit": 3, "note": "é"},
        "alice",
    )
    # UTC ISO-8601 with microseconds and 'Z'.
    assert len(event.recorded_at) == len("2024-01-02T03:04:05.123456Z") and event.recorded_at.endswith("Z")
    assert event.to_dict() == {
        "game_id": "g",
        "seq": 1,
        "type": "sow",
        "payload": {"pit": 3, "note": "é"},
        "recorded_at": event.recorded_at,
        "recorded_by": "alice",
        "prev_hash": chain.GENESIS,
        "hash": event.hash,
    }


def test_empty_append_is_refused(store):
    with pytest.raises(ValueError):
        store.append("g", 0, [])
    assert store.version("g") == 0


# --------------------------------------------------------------------- versions


@pytest.mark.parametrize("stale", [0, 1, 3])
def test_stale_expected_version_conflicts_and_stores_nothing(store, stale):
    store.append("g", 0, moves(1, 2))
    with pytest.raises(VersionConflict) as caught:
        store.append("g", stale, moves(3), projection=lambda tx, events: pytest.fail("ran for a refused append"))
    assert caught.value.extra == {"expected": stale, "actual": 2}
    assert store.version("g") == 2


def test_racing_appends_have_exactly_one_winner(store):
    """16 writers at the same expected version: one wins, no fork, no lost event."""
    store.append("g", 0, moves(0))
    outcomes = race(16, lambda i: store.append("g", 1, moves(i)))

    winners = [o for o in outcomes if isinstance(o, AppendResult)]
    assert len(winners) == 1
    assert all(isinstance(o, VersionConflict) for o in outcomes if o not in winners)
    events = store.read("g")
    assert [e.seq for e in events] == [1, 2]
    assert events[1] == winners[0].events[0]


def test_racing_appends_on_different_games_all_succeed(store):
    outcomes = race(8, lambda i: store.append(f"g{i}", 0, moves(i, i)))
    assert all(isinstance(o, AppendResult) for o in outcomes)
    assert [store.version(f"g{i}") for i in range(8)] == [2] * 8


# --------------------------------------------------------------------- idempotency


def test_idempotent_retry_returns_the_original_events(store):
    key = Idempotency("k1", "fp-a")
    original = store.append("g", 0, moves(1, 2), idempotency=key)
    # The retry carries the now-stale expected version: it must still replay.
    retry = store.append("g", 0, moves(1, 2), idempotency=key)
    assert retry == AppendResult(original.events, replayed=True)
    assert store.version("g") == 2


def test_idempotent_retry_after_later_appends_returns_only_its_events(store):
    key = Idempotency("k1", "fp-a")
    store.append("g", 0, moves(1))
    original = store.append("g", 1, moves(2, 3), idempotency=key)
    store.append("g", 3, moves(4))
    assert store.append("g", 1, moves(2, 3), idempotency=key).events == original.events


def test_reused_key_with_another_fingerprint_is_refused(store):
    store.append("g", 0, moves(1), idempotency=Idempotency("k1", "fp-a"))
    with pytest.raises(IdempotencyMismatch):
        store.append("g", 1, moves(2), idempotency=Idempotency("k1", "fp-b"))
    # The same request (same fingerprint) retried under another new stream id, as two
    # concurrent game creations with one key do: the original events, nothing stored.
    retried = store.append("h", 0, moves(2), idempotency=Idempotency("k1", "fp-a"))
    assert retried.replayed and retried.events[0].game_id == "g"
    assert store.version("g") == 1 and store.version("h") == 0


def test_key_of_a_refused_append_is_not_remembered(store):
    store.append("g", 0, moves(1))
    with pytest.raises(VersionConflict):
        store.append("g", 0, moves(2), idempotency=Idempotency("k1", "fp-a"))
    result = store.append("g", 1, moves(2), idempotency=Idempotency("k1", "fp-a"))
    assert not result.replayed and store.version("g") == 2


def test_concurrent_requests_with_one_key_store_one_event(store):
    key = Idempotency("k1", "fp-a")
    outcomes = race(8, lambda i: store.append("g", 0, moves(7), idempotency=key))
    assert all(isinstance(o, AppendResult) for o in outcomes), outcomes
    assert sorted(o.replayed for o in outcomes) == [False] + [True] * 7
    assert all(o.events == tuple(store.read("g")) for o in outcomes)
    assert store.version("g") == 1


# --------------------------------------------------------------------- hash chain


def test_canonical_json_is_sorted_compact_utf8():
    assert chain.canonical_json({"b": [1, {"d": 2, "c": "é"}], "a": None}) == '{"a":null,"b":[1,{"c":"é","d":2}]}'


def test_event_hash_covers_prev_hash_and_record():
    record = {"game_id": "g", "seq": 1, "type": "sow", "payload": {}, "recorded_at": "t", "recorded_by": None}
    expected = hashlib.sha256((chain.GENESIS + chain.canonical_json(record)).encode("utf-8")).hexdigest()
    assert chain.event_hash(chain.GENESIS, record) == expected
    assert chain.event_hash("1" * 64, record) != expected


def test_every_event_links_to_the_previous_one(store):
    store.append("g", 0, moves(1, 2))
    store.append("h", 0, moves(9))  # interleaved game: chains are per game
    store.append("g", 2, moves(3), recorded_by="bob")
    events = store.read("g")
    assert events[0].prev_hash == chain.GENESIS
    for prev, event in zip(events, events[1:]):
        assert event.prev_hash == prev.hash
    for event in events:
        assert chain.event_hash(event.prev_hash, chain.record_of(event)) == event.hash
    assert chain.first_broken_link(events) is None
    assert chain.first_broken_link(store.read("h")) is None


def test_first_broken_link_spots_gaps_relinks_and_edits(store):
    events = list(store.append("g", 0, moves(1, 2, 3, 4)).events)
    assert chain.first_broken_link([]) is None
    assert chain.first_broken_link(events[:1] + events[2:]) == 3  # gap
    assert chain.first_broken_link(events[1:]) == 2  # does not start at seq 1
    relinked = dataclasses.replace(events[2], prev_hash=events[0].hash)
    assert chain.first_broken_link(events[:2] + [relinked] + events[3:]) == 3
    edited = dataclasses.replace(events[3], payload={"pit": 5})
    assert chain.first_broken_link(events[:3] + [edited]) == 4


def test_first_broken_link_finds_an_event_edited_behind_the_stores_back(sqlite_store):
    sqlite_store.append("g", 0, moves(1, 2, 3))
    with raw_connection(sqlite_store.path) as conn:
        triggers = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'")
        ]
        for name in triggers:
            conn.execute(f'DROP TRIGGER "{name}"')
        conn.execute("""UPDATE events SET payload = '{"pit":7}' WHERE game_id = 'g' AND seq = 2""")
        conn.commit()
    events = sqlite_store.read("g")
    assert events[1].payload == {"pit": 7}
    assert chain.first_broken_link(events) == 2


# --------------------------------------------------------------------- SQLite specifics


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET payload = '{}' WHERE seq = 1",
        "UPDATE events SET hash = hash",
        "DELETE FROM events WHERE seq = 2",
        "DELETE FROM events",
        # REPLACE deletes without firing DELETE triggers on a plain connection.
        "INSERT OR REPLACE INTO events SELECT game_id, seq, type, '{}', recorded_at, recorded_by, prev_hash, hash,"
        " line FROM events WHERE seq = 1",
        # Inserting past the end (a gap) or with a forged link is refused too.
        "INSERT INTO events SELECT game_id, 9, type, payload, recorded_at, recorded_by, hash, hash, line"
        " FROM events WHERE seq = 2",
        "INSERT INTO events SELECT game_id, 3, type, payload, recorded_at, recorded_by, prev_hash, hash, line"
        " FROM events WHERE seq = 2",
        # The last event replaced by another with the same (true) link, and a second genesis.
        "INSERT OR REPLACE INTO events SELECT game_id, seq, type, '{}', recorded_at, recorded_by, prev_hash, hash,"
        " line FROM events WHERE seq = 2",
        f"INSERT OR REPLACE INTO events SELECT game_id, 1, type, '{{}}', recorded_at, recorded_by, '{chain.GENESIS}',"
        " hash, line FROM events WHERE seq = 2",
        "UPDATE events SET line = NULL",
    ],
)
def test_database_refuses_to_change_stored_events(sqlite_store, statement):
    before = sqlite_store.append("g", 0, moves(1, 2)).events
    with raw_connection(sqlite_store.path) as conn:
        with pytest.raises(sqlite3.DatabaseError, match="events are immutable"):
            conn.execute(statement)
        conn.rollback()
    assert tuple(sqlite_store.read("g")) == before


def test_sqlite_durability_settings(sqlite_store):
    with raw_connection(sqlite_store.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn = sqlite_store._db().conn  # settings are per connection: check the store's own
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 10000
    assert conn.isolation_level is None


def test_schema_init_is_idempotent_and_data_survives_reopen(sqlite_store):
    stored = sqlite_store.append("g", 0, moves(1), projection=GamesList(sqlite_store).write({"variant": "k"})).events
    sqlite_store.init_schema()
    with SQLiteEventStore(sqlite_store.path) as reopened:
        assert tuple(reopened.read("g")) == stored
        assert [g["game_id"] for g in GamesList(reopened).page()] == ["g"]


def test_connections_are_reused_per_thread(sqlite_store):
    assert sqlite_store._db() is sqlite_store._db()
    other = race(1, lambda i: sqlite_store._db())[0]
    assert other is not sqlite_store._db()


def test_servers_opening_one_new_file_together_all_open_it(tmp_path):
    # A recording server and a live server started on one new file (threads here, each
    # with its own connection as a process has): each turns the file to WAL at once, and
    # SQLite answers "database is locked" to a loser without waiting its busy timeout.
    for attempt in range(40):
        path = str(tmp_path / f"new-{attempt}.sqlite3")
        opened = race(3, lambda i, path=path: SQLiteEventStore(path))
        failed = [outcome for outcome in opened if isinstance(outcome, Exception)]
        for outcome in opened:
            if not isinstance(outcome, Exception):
                outcome.close()
        assert failed == []


class RefusingConnection:
    """Answers every statement with one SQLite error, counting the tries."""

    def __init__(self, message: str):
        self.message, self.tries = message, 0

    def execute(self, statement: str):
        self.tries += 1
        raise sqlite3.OperationalError(self.message)


def test_a_file_that_stays_locked_is_refused_once_the_patience_runs_out():
    locked = RefusingConnection("database is locked")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        enter_wal(locked, patience=0.05)  # type: ignore[arg-type]
    assert locked.tries > 1


def test_a_file_that_is_not_a_database_is_refused_at_the_first_try():
    garbage = RefusingConnection("file is not a database")
    with pytest.raises(sqlite3.OperationalError, match="not a database"):
        enter_wal(garbage)  # type: ignore[arg-type]
    assert garbage.tries == 1


def test_closed_store_refuses_use(tmp_path):
    backend = sqlite_backend(tmp_path)
    backend.close()
    backend.close()  # idempotent
    with pytest.raises(RuntimeError):
        backend.version("g")


# --------------------------------------------------------------------- projection writes


def test_the_projection_write_runs_in_the_append_with_the_stored_events(store):
    seen = []
    result = store.append("g", 0, moves(1, 2), projection=lambda tx, events: seen.append(events))
    assert seen == [result.events]


def test_a_failing_projection_write_stores_nothing(store):
    def fail(tx, events):
        raise RuntimeError("the projection is broken")

    with pytest.raises(RuntimeError):
        store.append("g", 0, moves(1), projection=fail, idempotency=Idempotency("k", "fp"))
    assert store.version("g") == 0 and store.replayed(Idempotency("k", "fp")) is None


# --------------------------------------------------------------------- the games list


@pytest.fixture
def listed(store):
    return GamesList(store)


def add_game(store: EventStore, game_id: str, **summary) -> None:
    games = GamesList(store)  # type: ignore[arg-type]  # the games list lives on the database's file or server
    store.append(game_id, 0, [NewEvent("setup", {"seeds": 4})], projection=games.write(summary))


def test_summary_is_upserted_with_the_append(store, listed):
    add_game(store, "g", variant="kalah", south="ann", north="bob", tournament_id="t1", metadata={"k": ["é", 1]})
    (game,) = listed.page()
    assert game["game_id"] == "g" and game["south"] == "ann" and game["metadata"] == {"k": ["é", 1]}
    assert game["created_at"] == game["updated_at"] == store.read("g")[0].recorded_at
    second = store.append("g", 1, moves(3), projection=listed.write({"status": "in_progress"})).events
    (game,) = listed.page()
    assert (game["variant"], game["status"]) == ("kalah", "in_progress")  # untouched columns kept
    assert game["updated_at"] == second[-1].recorded_at  # the last event's time: a rebuild gives the same


def test_unknown_summary_columns_are_refused_before_storing(store, listed):
    with pytest.raises(ValueError):
        store.append("g", 0, moves(1), projection=listed.write({"colour": "red"}))
    assert store.version("g") == 0


def test_rebuild_rewrites_every_row_from_scratch_and_drops_orphans(sqlite_store):
    listed = GamesList(sqlite_store)
    add_game(sqlite_store, "g", variant="kalah", status="in_progress")
    sqlite_store.append("h", 0, moves(1))  # no row yet
    sqlite_store.append("t-x", 0, moves(1), stream_type=TOURNAMENT)
    with raw_connection(sqlite_store.path) as conn:
        conn.execute("UPDATE games SET created_at = 'wrong', variant = 'wrong'")
        conn.execute("INSERT INTO games (game_id, created_at, updated_at) VALUES ('ghost', 'x', 'x')")
        conn.commit()
    listed.replace([("g", {"variant": "kalah"}), ("h", {"variant": "oware"})])
    listed.drop_orphans()
    assert ids(listed.page()) == ["h", "g"]
    row = listed.row("g")
    assert (row["variant"], row["status"], row["created_at"]) == ("kalah", None, sqlite_store.read("g")[0].recorded_at)


@pytest.fixture
def games(store):
    """Five games, created in id order so g4 is the newest."""
    add_game(store, "g0", variant="kalah", south="ann", north="bob", tournament_id="t1")
    add_game(store, "g1", variant="oware", south="bob", north="cat", tournament_id="t1")
    add_game(store, "g2", variant="kalah", south="cat", north="ann")
    add_game(store, "g3", variant="kalah", south="dan", north="eve", tournament_id="t2")
    add_game(store, "g4", variant="oware", south="ann", north="dan")
    return GamesList(store)


def ids(rows: list[dict]) -> list[str]:
    return [row["game_id"] for row in rows]


@pytest.mark.parametrize(
    "filters, expected",
    [
        ({}, ["g4", "g3", "g2", "g1", "g0"]),
        ({"variant": "kalah"}, ["g3", "g2", "g0"]),
        ({"player": "ann"}, ["g4", "g2", "g0"]),  # south or north
        ({"player": "an"}, []),  # exact match only
        ({"tournament": "t1"}, ["g1", "g0"]),
        ({"variant": "kalah", "player": "ann", "tournament": "t1"}, ["g0"]),
    ],
)
def test_games_list_filters_newest_first(games, filters, expected):
    assert ids(games.page(**filters)) == expected
    assert list(games.iter_ids(**filters, batch_size=2)) == expected


def test_games_list_pages(games):
    assert ids(games.page(limit=2)) == ["g4", "g3"]
    assert ids(games.page(limit=2, offset=2)) == ["g2", "g1"]
    assert ids(games.page(limit=2, offset=4)) == ["g0"]
    with pytest.raises(ValueError):
        games.page(limit=-1)


@pytest.mark.parametrize("batch_size", [1, 7, 50, 500])
def test_iter_game_ids_streams_every_id_once(store, listed, batch_size):
    for i in range(50):
        add_game(store, f"game-{i:03d}", variant="kalah" if i % 2 else "oware")
    streamed = listed.iter_ids(batch_size=batch_size)
    assert inspect.isgenerator(streamed)
    streamed = list(streamed)
    assert streamed == ids(listed.page(limit=1000))
    assert sorted(streamed) == [f"game-{i:03d}" for i in range(50)]
    assert len(list(listed.iter_ids(variant="kalah", batch_size=batch_size))) == 25


def test_iter_game_ids_is_lazy(store, listed):
    add_game(store, "a")
    streamed = listed.iter_ids(batch_size=1)
    add_game(store, "b")  # appears because nothing was fetched yet
    assert list(streamed) == ["b", "a"]


def test_stored_event_is_frozen(store):
    (event,) = store.append("g", 0, moves(1)).events
    assert isinstance(event, StoredEvent)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seq = 2


def test_an_event_read_back_is_the_event_its_fields_make(store):
    """Events read from the store (and from an archive's line) are made without the
    dataclass's __init__: each is still the event __init__ makes of its fields, frozen,
    with its payload text beside it, and pickles as one."""
    store.append("g", 0, [NewEvent("sow", {"pit": 3, "note": "é"}), NewEvent("note", {})], recorded_by="alice")
    read = store.read("g")
    assert read.texts == [chain.canonical_json(event.payload) for event in read]
    for event in read:
        fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(StoredEvent)}
        made = StoredEvent(**fields)
        assert event == made and repr(event) == repr(made) and vars(event) == vars(made)
        assert pickle.loads(pickle.dumps(event)) == event
        with pytest.raises(dataclasses.FrozenInstanceError):
            event.seq = 2
    record = store.read("g")[0].to_dict()
    assert (
        StoredEvent.of_fields(dict(record)) == StoredEvent(**record)
        and vars(StoredEvent.of_fields(dict(record))) == record
    )


# ---- stream types: games and tournaments share the store


def test_first_events_lists_streams_of_one_type_newest_first(store):
    store.append("t-aaa", 0, [NewEvent("tournament_created", {"name": "A"})], stream_type=TOURNAMENT)
    store.append("g-1", 0, moves(1))
    store.append("bbb", 0, [NewEvent("tournament_created", {"name": "B"})], stream_type=TOURNAMENT)  # any id
    store.append("t-aaa", 1, [NewEvent("player_registered", {"number": 1})], stream_type=TOURNAMENT)
    streams = store.first_events(TOURNAMENT)
    assert [(e.game_id, e.seq, e.payload["name"]) for e in streams] == [("bbb", 1, "B"), ("t-aaa", 1, "A")]
    assert [e.game_id for e in store.first_events(TOURNAMENT, limit=1, offset=1)] == ["t-aaa"]
    assert [e.game_id for e in store.first_events(GAME)] == ["g-1"]
    assert (store.stream_type("bbb"), store.stream_type("g-1"), store.stream_type("none")) == (TOURNAMENT, GAME, None)


def test_a_stream_keeps_the_type_of_its_first_append(store):
    store.append("t-aaa", 0, moves(1), stream_type=TOURNAMENT)
    with pytest.raises(UnknownGame):
        store.append("t-aaa", 1, moves(2))  # a game's append to a tournament's stream
    with pytest.raises(VersionConflict):
        store.append("t-aaa", 0, moves(2))  # the id is taken, whatever the type
    with pytest.raises(ValueError):
        store.append("x", 0, moves(1), stream_type="match")
    assert store.version("t-aaa") == 1 and store.version("x") == 0


def test_stream_ids_walk_one_type_in_id_order(store):
    for stream_id in ("c", "a", "d", "b"):
        store.append(stream_id, 0, moves(1))
    store.append("t-x", 0, moves(1), stream_type=TOURNAMENT)
    assert store.stream_ids(GAME, limit=3) == ["a", "b", "c"]
    assert store.stream_ids(GAME, after="c") == ["d"]
    assert store.stream_ids(TOURNAMENT) == ["t-x"]


# --------------------------------------------------------------------- archived events, appended as given


def chained(game_id: str, pits: list[int], prev: str = chain.GENESIS, start: int = 1) -> list[StoredEvent]:
    events = []
    for seq, pit in enumerate(pits, start=start):
        record: dict[str, Any] = {
            "game_id": game_id,
            "seq": seq,
            "type": "sow",
            "payload": {"pit": pit},
            "recorded_at": f"2025-01-0{seq}T00:00:00.000000Z",
            "recorded_by": "archive",
        }
        digest = chain.event_hash(prev, record)
        events.append(StoredEvent(**record, prev_hash=prev, hash=digest))
        prev = digest
    return events


def test_appending_archived_events_stores_pre_hashed_events_exactly(store):
    events = chained("g", [1, 2, 3])
    result = store.append("g", 0, events)
    assert result.events == tuple(events) and not result.replayed
    assert store.read("g") == events
    assert store.event_lines("g") == [chain.canonical_json(e.to_dict()) for e in events]
    assert store.first_events(GAME)[0].recorded_at == events[0].recorded_at  # the archive's time, not the import's
    assert chain.first_broken_link(store.read("g")) is None


def test_an_archived_game_is_listed_with_the_archives_times(store, listed):
    events = chained("g", [1, 2, 3])
    store.append("g", 0, events, projection=listed.write({"variant": "kalah"}))
    (game,) = listed.page()
    assert (game["created_at"], game["updated_at"]) == (events[0].recorded_at, events[-1].recorded_at)


def test_new_and_stored_events_are_not_mixed_in_one_append(store):
    with pytest.raises(TypeError):
        store.append("g", 0, [*chained("g", [1]), *moves(2)])
    assert store.version("g") == 0


def test_appending_archived_events_extends_an_existing_chain(store):
    first = store.append("g", 0, moves(1)).events
    more = chained("g", [2, 3], prev=first[-1].hash, start=2)
    store.append("g", 1, more)
    assert store.read("g") == [*first, *more]
    store.append("g", 3, moves(4))  # ordinary appends go on from the imported head
    assert chain.first_broken_link(store.read("g")) is None


@pytest.mark.parametrize(
    "forge",
    [
        lambda es: [es[0], es[2]],  # a gap
        lambda es: [es[1], es[0], es[2]],  # out of order
        lambda es: [es[0], dataclasses.replace(es[1], payload={"pit": 9}), es[2]],  # edited
        lambda es: [es[0], dataclasses.replace(es[1], prev_hash="f" * 64), es[2]],  # relinked
        lambda es: [es[0], es[1], dataclasses.replace(es[2], game_id="h")],  # another game's event
    ],
)
def test_appending_archived_events_refuses_a_broken_chain_and_stores_nothing(store, forge):

    with pytest.raises(ChainBroken):
        store.append("g", 0, forge(chained("g", [1, 2, 3])))
    assert store.version("g") == 0


def test_appending_archived_events_checks_the_expected_version(store):
    store.append("g", 0, moves(1))
    with pytest.raises(VersionConflict):
        store.append("g", 0, chained("g", [1]))
    assert store.version("g") == 1


def test_iter_game_ids_filters_dates_and_results_and_can_go_oldest_first(store, listed):
    add_game(store, "a", date="2025-05-01", result="south_wins")
    add_game(store, "b", date="2026", result=None)
    add_game(store, "c", date="2026-02-10", result="draw")
    add_game(store, "d")
    assert list(listed.iter_ids(date_from="2026")) == ["c", "b"]
    assert list(listed.iter_ids(date_to="2025-12-31")) == ["a"]
    assert list(listed.iter_ids(result="unfinished")) == ["d", "b"]
    assert list(listed.iter_ids(result="draw", date_from="2026-01-01")) == ["c"]
    assert list(listed.iter_ids(oldest_first=True, batch_size=1)) == ["a", "b", "c", "d"]


@pytest.mark.parametrize("text", ["plain", "é ✓ ሰላም 😀", "a\nb\tc\r", 'q"uote \\ /', "\x00\x1f\x7f\u2028"])
def test_event_lines_are_the_canonical_json_of_each_event(store, text):
    # PostgreSQL text cannot hold U+0000: there only the payload (JSON escapes it) carries it.
    name = text if isinstance(store, SQLiteEventStore) else text.replace("\x00", "")
    store.append(f"g {name}", 0, [NewEvent("sow", {"note": text, "n": [1, None, True]})], recorded_by=name)
    store.append(f"g {name}", 1, moves(2))
    events = store.read(f"g {name}")
    assert events[0].payload["note"] == text
    assert store.event_lines(f"g {name}") == [chain.canonical_json(e.to_dict()) for e in events]
    assert store.event_lines("unknown") == []
    assert [t.text for t in store.event_texts([f"g {name}", "unknown"])] == ["\n".join(store.event_lines(f"g {name}"))]


def test_event_texts_are_each_streams_lines_in_the_order_asked_batch_after_batch(store):
    """Games recorded turn about (their events interleaved in the table), asked for in an
    order that is neither id nor recording order, over more than one query's batch: each
    comes back once per asking, its lines in seq order, a stream without events left out."""
    names = [f"g{number:02d}" for number in range(TEXTS_BATCH + 5)]
    for turn in range(3):
        for number, name in enumerate(names):
            if turn <= number % 3:
                store.append(name, turn, moves(turn + 1))
    asked = [*reversed(names[::2]), "unknown", *names[1::2], names[0]]
    texts = list(store.event_texts(iter(asked)))
    assert [t.stream_id for t in texts] == [name for name in asked if name != "unknown"]
    for text in texts:
        assert text.text == "\n".join(store.event_lines(text.stream_id))
        assert text.events == store.version(text.stream_id) == len(text.text.split("\n"))
    assert list(store.event_texts([])) == []


# --------------------------------------------------------------------- files from the previous release

PREVIOUS_RELEASE_SCHEMA = """
CREATE TABLE events (game_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL,
  recorded_at TEXT NOT NULL, recorded_by TEXT, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY NOT NULL, fingerprint TEXT NOT NULL, game_id TEXT NOT NULL,
  first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE games (game_id TEXT PRIMARY KEY NOT NULL, variant TEXT, south TEXT, north TEXT, event TEXT, site TEXT,
  date TEXT, round TEXT, tournament_id TEXT, board TEXT, status TEXT, result TEXT, created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, metadata TEXT);
CREATE TABLE tokens (token_id TEXT PRIMARY KEY NOT NULL, token_hash TEXT NOT NULL, tournament_id TEXT NOT NULL,
  holder TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;
"""


def test_a_database_of_the_previous_release_is_migrated_on_open(tmp_path):
    """Its streams get their types from the old id prefix; stored events read and export
    as before (lines rendered by SQL); appends go on."""
    path = str(tmp_path / "old.sqlite3")
    rows = [*chained("g", [1, 2]), *chained("t-abc", [7])]
    with raw_connection(path) as conn:
        conn.executescript(PREVIOUS_RELEASE_SCHEMA)
        conn.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(e.game_id, e.seq, e.type, chain.canonical_json(e.payload), *dataclasses.astuple(e)[4:8]) for e in rows],
        )
        conn.commit()
    with SQLiteEventStore(path) as store:
        assert (store.stream_type("g"), store.stream_type("t-abc")) == (GAME, TOURNAMENT)
        assert store.read("g") == rows[:2]
        assert store.event_lines("g") == [chain.canonical_json(e.to_dict()) for e in rows[:2]]
        assert [t.text for t in store.event_texts(["g"])] == ["\n".join(store.event_lines("g"))]
        assert [e.game_id for e in store.first_events(TOURNAMENT)] == ["t-abc"]
        store.append("g", 2, moves(3))
        assert chain.first_broken_link(store.read("g")) is None
        assert store.event_lines("g")[-1] == chain.canonical_json(store.read("g")[-1].to_dict())
    with SQLiteEventStore(path) as reopened:  # the migration ran once; reopening changes nothing
        assert reopened.stream_ids(GAME) == ["g"] and reopened.version("g") == 3


# --------------------------------------------------------------------- batches (bulk imports)


def test_appends_in_a_batch_commit_together_and_a_refused_one_stores_nothing(store):
    with store.batch():
        store.append("a", 0, moves(1))
        with pytest.raises(VersionConflict):
            store.append("a", 0, moves(2))  # refused inside the batch: undone alone
        with pytest.raises(ChainBroken):
            store.append("b", 0, [*chained("b", [1, 2])][::-1])
        store.append("c", 0, moves(3), projection=lambda tx, events: None)
    assert (store.version("a"), store.version("b"), store.version("c")) == (1, 0, 1)


def test_a_batch_left_by_an_exception_stores_none_of_its_appends(sqlite_store):
    with pytest.raises(RuntimeError), sqlite_store.batch():
        sqlite_store.append("a", 0, moves(1))
        raise RuntimeError("the import was interrupted")
    assert sqlite_store.version("a") == 0 and sqlite_store.stream_type("a") is None


def test_a_batch_keeps_its_savepoints_journals_in_memory_and_then_sets_the_setting_back(sqlite_store):
    temp_store = lambda: sqlite_store._db().execute("PRAGMA temp_store").fetchone()[0]  # noqa: E731
    with sqlite_store.batch():
        assert temp_store() == 2  # MEMORY: no temporary file per savepoint's journal
        sqlite_store.append("a", 0, moves(1))
    assert temp_store() == 0  # DEFAULT again: the position index's sort spills to a file
    with pytest.raises(RuntimeError), sqlite_store.batch():
        raise RuntimeError("the import was interrupted")
    assert temp_store() == 0 and sqlite_store.version("a") == 1


def test_games_list_ids_filter_by_event(store, listed):
    add_game(store, "a", event="Asmara Open")
    add_game(store, "b", event="Keren Cup")
    add_game(store, "c", event="Asmara Open")
    assert list(listed.iter_ids(event="Asmara Open", batch_size=1)) == ["c", "a"]


# --------------------------------------------------------------------- waiting for appends (live views)


def test_a_waiter_wakes_when_the_stream_moves_past_its_version(store):
    store.append("g", 0, moves(1))
    woke: list = []
    waiter = threading.Thread(target=lambda: woke.append((wait_for_append(store, "g", 1, 20), time.monotonic())))
    waiter.start()
    time.sleep(0.3)
    assert not woke  # nothing new yet: still waiting
    store.append("g", 1, moves(2))
    appended = time.monotonic()
    waiter.join(timeout=20)
    ((version, at),) = woke
    assert version == 2 and at - appended < 2  # PostgreSQL: pushed; SQLite: within a 0.25 s poll


def test_a_waiter_gets_the_current_version_when_its_time_runs_out(store):
    store.append("g", 0, moves(1, 2))
    assert wait_for_append(store, "g", 0, 5) == 2  # already past: no wait
    started = time.monotonic()
    assert wait_for_append(store, "g", 2, 0.3) == 2 and time.monotonic() - started >= 0.3


def test_read_streams_gives_every_stream_in_id_order_across_batches(store):
    ids = ("g3", "g1", "t-9", "g2", "g10")
    for number, stream_id in enumerate(ids):
        store.append(stream_id, 0, moves(number, number + 1))
    expected = [(stream_id, store.read(stream_id)) for stream_id in sorted(ids)]
    assert list(store.read_streams(batch=2)) == expected
    assert list(store.read_streams()) == expected


def test_a_checked_chain_is_stored_exactly_as_given(store):
    events = chained("h", [1, 2, 3])
    broken, texts = chain.checked_links(events)
    assert broken is None
    store.append("h", 0, CheckedChain(events, texts))
    assert store.read("h") == events
    assert store.event_lines("h") == [chain.canonical_json(e.to_dict()) for e in events]


@pytest.mark.parametrize("text", ['{"hole":"a2","player":"north"}', ' {"a": [1, 2]} ', "[]", '"\\u2028"', "1e3"])
def test_a_stored_payload_is_read_as_json_loads_reads_it(text):
    """The quick read of a stored payload (canonical text) agrees with json.loads on any text."""
    assert chain.parse_json(text) == json.loads(text)


@pytest.mark.parametrize("text", ["", "{", '{"a":1} x', "{'a':1}"])
def test_a_payload_that_is_not_json_is_refused_as_json_loads_refuses_it(text):
    with pytest.raises(json.JSONDecodeError) as quick:
        chain.parse_json(text)
    with pytest.raises(json.JSONDecodeError) as plain:
        json.loads(text)
    assert str(quick.value) == str(plain.value)


OLD_APPEND_TRIGGER = f"""
CREATE TRIGGER events_append_only BEFORE INSERT ON events
WHEN NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM events WHERE game_id = NEW.game_id), 0) + 1
  OR NEW.prev_hash IS NOT COALESCE(
       (SELECT hash FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq - 1), '{chain.GENESIS}')
BEGIN SELECT RAISE(ABORT, 'events are immutable: append only, extending the hash chain'); END;
"""


def test_a_file_with_the_older_two_seek_append_trigger_gets_the_one_seek_trigger_on_open(tmp_path):
    path = str(tmp_path / "older.sqlite3")
    with SQLiteEventStore(path) as store:
        store.append("g", 0, moves(1))
    with raw_connection(path) as conn:
        conn.execute("DROP TRIGGER events_extend_chain")
        conn.executescript(OLD_APPEND_TRIGGER)
    with SQLiteEventStore(path) as store:
        store.append("g", 1, moves(2))
        with raw_connection(path) as conn:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        assert "events_append_only" not in names and "events_extend_chain" in names
        assert chain.first_broken_link(store.read("g")) is None


# -- Reading ahead of a walk over every stream (recorder verify) ---------------------------


def _advice_recorded(monkeypatch) -> list[tuple[int, int, int]]:
    from recorder.store import sqlite as sqlite_module

    calls: list[tuple[int, int, int]] = []
    monkeypatch.setattr(
        sqlite_module.os,
        "posix_fadvise",
        lambda fd, offset, length, advice: calls.append((offset, length, advice)),
        raising=False,
    )
    monkeypatch.setattr(sqlite_module.os, "POSIX_FADV_WILLNEED", 3, raising=False)
    return calls


def test_sqlite_store_asks_for_its_whole_file_to_be_read_ahead_when_it_fits_in_half_the_memory(
    sqlite_store, monkeypatch
):
    from recorder.store import sqlite as sqlite_module

    sqlite_store.append("g1", 0, [NewEvent("annotated", {"text": "x"})], recorded_by="arbiter")
    calls = _advice_recorded(monkeypatch)
    size = os.path.getsize(sqlite_store.path)
    monkeypatch.setattr(sqlite_module, "available_memory", lambda: 2 * size)
    assert sqlite_store.read_ahead() is True
    assert calls == [(0, size, 3)]  # from the first byte to the last, as one hint


def test_sqlite_store_does_not_read_ahead_a_file_larger_than_half_the_memory(sqlite_store, monkeypatch):
    from recorder.store import sqlite as sqlite_module

    calls = _advice_recorded(monkeypatch)
    monkeypatch.setattr(sqlite_module, "available_memory", lambda: 2 * os.path.getsize(sqlite_store.path) - 1)
    assert sqlite_store.read_ahead() is False and calls == []


def test_sqlite_store_does_not_read_ahead_where_the_system_cannot_say_or_be_told(sqlite_store, monkeypatch, tmp_path):
    from recorder.store import sqlite as sqlite_module

    available_memory = sqlite_module.available_memory
    calls = _advice_recorded(monkeypatch)
    monkeypatch.setattr(sqlite_module, "available_memory", lambda: None)
    assert sqlite_store.read_ahead() is False
    monkeypatch.setattr(sqlite_module, "available_memory", lambda: 1 << 40)
    monkeypatch.delattr(sqlite_module.os, "posix_fadvise")
    assert sqlite_store.read_ahead() is False and calls == []
    # No /proc/meminfo (another system), or one without the figure: nothing is known.
    assert available_memory(str(tmp_path / "missing")) is None
    (tmp_path / "meminfo").write_text("MemTotal:       24000000 kB\n")
    assert available_memory(str(tmp_path / "meminfo")) is None
    (tmp_path / "meminfo").write_text("MemTotal:       24000000 kB\nMemAvailable:   1000 kB\n")
    assert available_memory(str(tmp_path / "meminfo")) == 1000 * 1024


@pytest.mark.parametrize("count", [1, 15, 16, 17, 40])
def test_an_append_of_many_events_inserts_them_many_rows_a_statement_in_order(store, count):
    """``sql.insert_rows``: 16 rows a statement, the rest in one; every row as one at a time gives."""
    stored = store.append("g", 0, moves(*range(count))).events
    assert [event.payload["pit"] for event in store.read("g")] == list(range(count))
    assert chain.first_broken_link(store.read("g")) is None and store.version("g") == count == len(stored)


def test_the_append_only_trigger_checks_every_row_of_a_statement_of_many(sqlite_store):
    """A forged link in the middle of a statement of 16 rows fails that statement (the
    trigger fires for each row, the rows before it in the statement included), and the
    transaction stores nothing of the call."""
    from recorder.store.sql import _INSERT_EVENTS, _write_transaction, insert_rows

    sqlite_store.append("source", 0, moves(*range(40)))
    rows = [tuple(row) for row in raw_rows(sqlite_store.path, "source")]
    rows = [(("g",) + row[1:8] + (row[8].replace('"source"', '"g"', 1),)) for row in rows]
    forged = list(rows)
    forged[20] = forged[20][:6] + ("0" * 64,) + forged[20][7:]  # prev_hash: not event 20's hash
    db = sqlite_store._db()
    with pytest.raises(sqlite3.DatabaseError, match="events are immutable"):
        with _write_transaction(db):
            insert_rows(db.conn, _INSERT_EVENTS, forged)
    assert sqlite_store.version("g") == 0
    with _write_transaction(db):
        insert_rows(db.conn, _INSERT_EVENTS, rows)  # the true chain goes in, under another name
    assert sqlite_store.version("g") == 40


def raw_rows(path: str, game_id: str) -> list:
    with raw_connection(path) as conn:
        query = "SELECT game_id, seq, type, payload, recorded_at, recorded_by, prev_hash, hash, line FROM events"
        return conn.execute(query + " WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()


def test_every_append_records_its_streams_head_and_a_head_only_moves_forward(store):
    """Each stream's head (its last event's seq and hash) is written by the append that
    moves it, so verification can hold the events against it (docs/security.md)."""
    store.append("g", 0, moves(1, 2))
    store.append("h", 0, moves(9))
    store.append("g", 2, moves(3))
    assert store.stream_heads() == []  # every head agrees with its events
    (head,) = store.stream_heads("g")
    assert (head.head_seq, head.head_hash, head.agrees) == (3, store.read("g")[-1].hash, True)
    assert store.stream_count() == 2


def test_a_file_from_before_stream_heads_gets_them_from_its_events_when_opened(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    with SQLiteEventStore(path) as store:
        store.append("g", 0, moves(1, 2))
        store.append("h", 0, moves(9))
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("DROP TABLE stream_heads")  # its triggers go with it
        with pytest.raises(sqlite3.OperationalError):
            conn.execute("SELECT 1 FROM stream_heads")
    with SQLiteEventStore(path) as store:
        assert store.stream_heads() == []
        assert [store.stream_heads(s)[0].head_seq for s in ("g", "h")] == [2, 1]
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        with pytest.raises(sqlite3.IntegrityError, match="only moves forward"):
            conn.execute("UPDATE stream_heads SET head_seq = 1 WHERE stream_id = 'g'")
        with pytest.raises(sqlite3.IntegrityError, match="kept"):
            conn.execute("DELETE FROM stream_heads")
