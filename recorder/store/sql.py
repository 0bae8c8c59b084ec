"""SQL both backends share: triggers, filters, rows, transactions, and how appended events
are chained and written as lines."""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain as concatenated
from itertools import groupby, islice
from operator import itemgetter
from typing import Any, Protocol, TypeVar

from sqlite_utils import Database

from recorder.core import chain
from recorder.errors import IdempotencyMismatch, UnknownGame, VersionConflict

from .interface import (
    GAME,
    AppendResult,
    CheckedChain,
    Idempotency,
    NewEvent,
    ProjectionWrite,
    StoredEvent,
    StoredEvents,
    StreamHead,
    StreamText,
    _check_append,
    _check_page,
    _verify_next_events,
    event_of_row,
    event_rows,
    stored_line,
    utc_now,
)
from .tables import Schema, registered
from .writer_lock import WriterLock


class LockedDatabase(Database):
    """A connection whose writers first queue on the store's WriterLock (set by
    SQLiteEventStore._connect; _write_transaction takes it): the SQLite store's ``Tx``."""

    writer_lock: WriterLock | None = None
    begin_write = "BEGIN IMMEDIATE"  # the write lock taken up front (``_write_transaction``)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        return self.conn.executemany(sql, rows)


_TRIGGERS = f"""
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;

CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;

-- INSERT OR REPLACE deletes without firing DELETE triggers (recursive_triggers is
-- off on plain connections), so inserts must also extend the chain exactly: the game's
-- last event (one seek down the primary key) must be the one before, its hash the new
-- prev_hash; a game with no event yet takes seq 1 after the genesis hash.
CREATE TRIGGER IF NOT EXISTS events_extend_chain BEFORE INSERT ON events
WHEN NEW.prev_hash IS NOT COALESCE(
       (SELECT CASE WHEN seq = NEW.seq - 1 THEN hash END
          FROM events WHERE game_id = NEW.game_id ORDER BY seq DESC LIMIT 1),
       CASE WHEN NEW.seq = 1 AND NOT EXISTS (SELECT 1 FROM events WHERE game_id = NEW.game_id)
         THEN '{chain.GENESIS}' END)
BEGIN SELECT RAISE(ABORT, 'events are immutable: append only, extending the hash chain'); END;
"""
# The check before events_extend_chain, which took two seeks per insert (the last seq, then
# the previous hash); create_schema drops it from older files.
_REPLACED_TRIGGERS = ("events_append_only",)


_EVENT_COLUMNS = "game_id, seq, type, payload, recorded_at, recorded_by, prev_hash, hash"


_INSERT_EVENTS = f"INSERT INTO events ({_EVENT_COLUMNS}, line)"  # VALUES, a row or many: insert_rows

# Rows inserted by one statement: each statement carries this many rows' values, the last
# one of a call the rest. A statement of one row costs SQLite (and the sqlite3 module)
# its whole step for each row; 16 rows a statement was the cheapest of the sizes tried
# (docs/decisions.md), the append-only trigger still firing for every row.
ROWS_PER_INSERT = 16


def insert_rows(connection: Any, insert: str, rows: Sequence[Sequence[Any]], then: str = "") -> None:
    """``insert`` (``INSERT INTO table (columns)``) of every row, each a value per column,
    in order, ``ROWS_PER_INSERT`` rows a statement, each statement ended by ``then`` (e.g.
    ``ON CONFLICT DO NOTHING``); a failing row fails its statement, so the caller's
    transaction (or savepoint) is what makes the rows all or nothing, as always."""
    if not rows:
        return
    size, fields = ROWS_PER_INSERT, len(rows[0])
    whole = len(rows) - len(rows) % size
    if whole:
        values = [list(concatenated.from_iterable(rows[i : i + size])) for i in range(0, whole, size)]
        connection.executemany(f"{insert} VALUES {_placeholders(fields, size)}{then}", values)
    if whole < len(rows):
        rest = list(concatenated.from_iterable(rows[whole:]))
        connection.execute(f"{insert} VALUES {_placeholders(fields, len(rows) - whole)}{then}", rest)


@functools.lru_cache(maxsize=64)
def _placeholders(fields: int, rows: int) -> str:
    one = "(" + ", ".join("?" * fields) + ")"
    return ", ".join([one] * rows)


# Each event's columns and its stored line, in seq order. Rows stored before lines were hold
# none: their lines are built from the columns by the one encoder (``stored_line``).
_EVENT_ROWS_WITH_LINES = f"SELECT {_EVENT_COLUMNS}, line FROM events WHERE game_id = ? ORDER BY seq"

# A game's lines joined by newlines, in seq order. SQLite (before 3.44, which accepts the
# ORDER BY) concatenates in the order it visits the rows: the primary key's index, walked
# in (game_id, seq) order for ``game_id IN (...)`` (tests/test_store.py pins it).
# Every path to a game's rows gives seq order anyway: the append-only trigger inserts a
# game's events in seq order, so its rowids rise with seq.
_IN_SEQ_ORDER = " ORDER BY seq" if sqlite3.sqlite_version_info >= (3, 44) else ""
_SQLITE_LINES_TEXT = f"group_concat(line, char(10){_IN_SEQ_ORDER})"
TEXTS_BATCH = 16  # games per query: a batch's texts are held at once, so memory stays small


class _Connection(Protocol):
    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, /) -> Any: ...


class _Handle(Protocol):
    """What a write transaction needs of a backend's handle (SQLite's, or ``PgHandle``)."""

    begin_write: str  # the statement that opens a write transaction

    def execute(self, sql: str, params: Any = None, /) -> Any: ...

    @property
    def conn(self) -> _Connection: ...


Handle = TypeVar("Handle", bound=_Handle)


@contextlib.contextmanager
def _write_transaction(db: Handle) -> Iterator[Handle]:
    """BEGIN IMMEDIATE ... COMMIT, ROLLBACK on any exception.

    IMMEDIATE takes the write lock up front, so the version read inside the
    transaction cannot go stale before the insert: racing writers queue on the
    busy timeout instead of forking the stream. Writers of this store first
    queue on its WriterLock (recorder/store/writer_lock.py), so they rarely poll.
    """
    if getattr(db, "in_batch", False):  # inside SQLiteEventStore.batch(): this append is a savepoint
        yield from _savepoint(db)
        return
    lock = db.writer_lock if isinstance(db, LockedDatabase) else None
    with lock.held() if lock is not None else contextlib.nullcontext():
        db.execute(db.begin_write)
        try:
            yield db
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except BaseException:
            # A failed COMMIT can leave the transaction open; never leak it into
            # this thread's next call.
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise


def _savepoint(db: Handle) -> Iterator[Handle]:
    """One append inside a batch: undone alone if it fails, committed with the batch."""
    db.execute("SAVEPOINT append")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK TO append")
        db.execute("RELEASE append")
        raise
    db.execute("RELEASE append")


_STREAM_IDS_AFTER = "SELECT DISTINCT game_id FROM events WHERE game_id > ? ORDER BY game_id LIMIT ?"
_STREAMS_BETWEEN = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id > ? AND game_id <= ? ORDER BY game_id, seq"


def ids_in_events(connection: Callable[[], Any]) -> Iterator[str]:
    """Every stream in the events table itself (games and tournaments), by id: what
    ``recorder verify`` walks, so no table beside the events (the streams, the games list)
    can hide a stream from it. ``connection`` gives the backend's handle.

    One seek down the primary key per stream (the next id after the last), so the walk
    reads as many keys as there are streams, where a ``DISTINCT`` over the key would read
    every event's."""
    after = ""
    while (stream_id := connection().execute(_NEXT_STREAM_ID, (after,)).fetchone()[0]) is not None:
        yield stream_id
        after = stream_id


_NEXT_STREAM_ID = "SELECT MIN(game_id) FROM events WHERE game_id > ?"

# Each append records its stream's head, the seq and hash of its last event, in the same
# transaction (``stream_heads``): what verification holds the events against, so a
# stream's last events deleted behind the service's back are found, not only a broken link.
UPSERT_HEAD = (
    "INSERT INTO stream_heads (stream_id, head_seq, head_hash) VALUES (?, ?, ?)"
    " ON CONFLICT (stream_id) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash"
)
# A stream, its recorded head and its events' last seq and hash (one seek each).
_HEADS = (
    "SELECT s.stream_id, s.stream_type, h.head_seq, h.head_hash, e.seq, e.hash FROM streams s"
    " LEFT JOIN stream_heads h ON h.stream_id = s.stream_id"
    " LEFT JOIN events e ON e.game_id = s.stream_id"
    " AND e.seq = (SELECT MAX(seq) FROM events WHERE game_id = s.stream_id)"
)
_HEADS_DISAGREEING = (
    _HEADS + " WHERE e.seq IS NULL OR h.head_seq IS NULL OR e.seq <> h.head_seq OR e.hash <> h.head_hash"
    " ORDER BY s.stream_id"
)


# The lock spaces of an append's two locks (``SqlStreams._serialise``): its key's, then its stream's.
KEY_LOCKS, STREAM_LOCKS = 1, 0


class SqlStreams:
    """What both SQL backends do the same way: the append, every read, the tables'
    transactions, batches and schemas (``EventStore``, ``BulkStore`` and ``Tables``, written
    once).

    The SQL is written once, in SQL both backends accept, with ``?`` placeholders (the
    PostgreSQL handle knows its own: ``postgres.PgHandle``). A backend implements little
    beside it (tests/test_store_backends.py counts it: eight public methods at most):
    ``handle()``, this thread's handle; ``close``; ``missing_protections``; and the hooks
    ``_appending`` (the append's transaction), ``_insert_rows``, ``_create_log`` (the log's
    schema), ``_ensure_schema`` (a feature's), with ``_serialise``, ``_notify``,
    ``_check_values`` and ``_batching`` where it needs them.
    """

    # A game's lines joined by newlines, in seq order, as the backend's SQL aggregates them.
    _LINES_TEXT = _SQLITE_LINES_TEXT

    _ensured: set[str]  # the names of the schemas ensured (``ensure``); each backend's __init__ sets it

    def handle(self) -> Any:
        """This thread's handle (the backend's)."""
        raise NotImplementedError

    # The shared side of ``Tables`` and the schema: a backend supplies ``_create_log``,
    # ``_ensure_schema`` and, if it sets anything up for a batch, ``_batching``.

    def init_schema(self) -> None:
        """The log's tables created or migrated (``_create_log``), then every registered
        feature's (``tables.register``)."""
        self._create_log()
        for schema in registered():
            self.ensure(schema)

    def ensure(self, schema: Schema) -> None:
        if schema.name not in self._ensured:
            self._ensure_schema(schema)
            self._ensured.add(schema.name)

    def transaction(self) -> contextlib.AbstractContextManager[Any]:
        return _write_transaction(self.handle())

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Appends made inside share one write transaction, each its own savepoint (so a
        refused one stores nothing): bulk imports pay one commit per batch. The backend
        may set its connection up for it (``_batching``)."""
        db = self.handle()
        with self._batching(db), _write_transaction(db):
            db.in_batch = True
            try:
                yield
            finally:
                db.in_batch = False

    def _create_log(self) -> None:
        """The log's tables, triggers and protections, created or migrated."""
        raise NotImplementedError

    def _ensure_schema(self, schema: Schema) -> None:
        """A feature's tables created where missing (``Tables.ensure``)."""
        raise NotImplementedError

    def _batching(self, db: Any) -> contextlib.AbstractContextManager[None]:
        """What a batch sets up on the connection while it lasts (nothing, unless the backend says otherwise)."""
        return contextlib.nullcontext()

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent] | Sequence[StoredEvent],
        *,
        stream_type: str = GAME,
        recorded_by: str | None = None,
        idempotency: Idempotency | None = None,
        projection: ProjectionWrite | None = None,
    ) -> AppendResult:
        """``EventStore.append``, the one algorithm of both backends: checked and encoded
        outside the lock; then, in one write transaction (``_appending``), the key's replay,
        the stream's lock and head, the chained events inserted with the stream's row and
        head, the key, the projection, and the backend's notice of the append."""
        batch, verbatim, texts = self._prepared(stream_id, expected_version, events, stream_type)  # outside the lock
        self._check_values(stream_id, recorded_by, batch)
        with self._appending(stream_id, expected_version) as db:
            if idempotency is not None:
                self._serialise(db, idempotency.key, KEY_LOCKS)
                original = self._replay(db, idempotency)
                if original is not None:
                    return AppendResult(original, replayed=True)
            self._serialise(db, stream_id, STREAM_LOCKS)
            head = self._head(db, stream_id, expected_version, stream_type)
            now = utc_now()  # inside the lock, so recorded_at never goes backwards
            if verbatim:
                stored: Sequence[StoredEvent] = batch
                _verify_next_events(stream_id, head, stored, texts)
            else:
                stored = _chained(stream_id, head, batch, texts, now, recorded_by)
            self._insert(db, stream_type, stored, texts)
            self._after_insert(db, stream_id, stored, idempotency, projection, now)
            self._notify(db, stream_id)
        return AppendResult(stored, replayed=False)

    # The backend's hooks of the append.

    def _appending(self, stream_id: str, expected_version: int) -> contextlib.AbstractContextManager[Any]:
        """The append's write transaction on this thread's handle, which it yields."""
        raise NotImplementedError

    def _check_values(self, stream_id: str, recorded_by: str | None, events: Sequence[Any]) -> None:
        """Refuse texts the backend cannot store (nothing, unless it says otherwise)."""

    def _serialise(self, db: Any, name: str, space: int) -> None:
        """Serialise the writers of ``name`` (a key, a stream) inside the transaction; a
        backend whose write transaction is taken whole (SQLite's BEGIN IMMEDIATE) need not."""

    def _insert_rows(self, db: Any, rows: Sequence[Sequence[Any]]) -> None:
        """Insert the events' rows (``event_row``)."""
        raise NotImplementedError

    def _notify(self, db: Any, stream_id: str) -> None:
        """Tell the backend's listeners of the append, delivered at commit (nothing, unless it says otherwise)."""

    def _insert(self, db: Any, stream_type: str, stored: Sequence[StoredEvent], texts: list[str]) -> None:
        """Insert chained events (and the stream's row with its first event) and record the
        stream's head; the one insert both recorded and archived events go through."""
        first = stored[0]
        if first.seq == 1:
            db.execute(
                "INSERT INTO streams (stream_id, stream_type, created_at) VALUES (?, ?, ?)",
                (first.stream_id, stream_type, first.recorded_at),
            )
        self._insert_rows(db, event_rows(stored, texts))
        last = stored[-1]
        db.execute(UPSERT_HEAD, (last.stream_id, last.seq, last.hash))

    @staticmethod
    def _prepared(
        stream_id: str,
        expected_version: int,
        events: Iterable[NewEvent] | Iterable[StoredEvent],
        stream_type: str,
    ) -> tuple[Any, bool, list[str]]:
        """An append's work before the lock: the call checked, and each payload's canonical
        text (none for a ``CheckedChain``, whose rows hold them). Returns the events as a
        sequence, whether they are an archive's ``StoredEvent``s, and the texts."""
        # A generator would be empty after validation; a checked chain is kept, rows and all.
        batch: Any = events if isinstance(events, CheckedChain) else tuple(events)
        _check_append(stream_id, expected_version, batch, stream_type)
        if isinstance(batch, CheckedChain):
            return batch, True, []
        return batch, isinstance(batch[0], StoredEvent), [chain.canonical_json(e.payload) for e in batch]

    @staticmethod
    def _after_insert(
        db: Any,
        stream_id: str,
        stored: Sequence[StoredEvent],
        idempotency: Idempotency | None,
        projection: ProjectionWrite | None,
        now: str,
    ) -> None:
        """An append's work after its insert, in the same transaction: the idempotency key
        names the events it stored, and the projection (the games list) follows them."""
        if idempotency is not None:
            db.execute(
                "INSERT INTO idempotency_keys (key, fingerprint, game_id, first_seq, last_seq, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (idempotency.key, idempotency.fingerprint, stream_id, stored[0].seq, stored[-1].seq, now),
            )
        if projection is not None:
            projection(db, stored)

    @staticmethod
    def _head(db: Any, stream_id: str, expected_version: int, stream_type: str) -> tuple[int, str]:
        """The stream's last (seq, hash), checked inside the transaction against the
        version and type the caller expects."""
        last = db.execute(
            "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (stream_id,)
        ).fetchone()
        actual, prev_hash = last if last is not None else chain.START
        if actual != expected_version:
            raise VersionConflict(
                f"{stream_id!r} has {actual} events, the request expected {expected_version}",
                expected=expected_version,
                actual=actual,
            )
        if actual > 0:
            (kind,) = db.execute("SELECT stream_type FROM streams WHERE stream_id = ?", (stream_id,)).fetchone()
            if kind != stream_type:
                raise UnknownGame(f"no {stream_type} {stream_id!r}: it is a {kind}")
        return actual, prev_hash

    def _replay(self, db: Any, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        """The events a previous request with this key stored, or None if the key is new."""
        row = db.execute(
            "SELECT fingerprint, game_id, first_seq, last_seq FROM idempotency_keys WHERE key = ?",
            (idempotency.key,),
        ).fetchone()
        if row is None:
            return None
        fingerprint, original_stream, first_seq, last_seq = row
        if fingerprint != idempotency.fingerprint:
            raise IdempotencyMismatch("this Idempotency-Key was already used for a different request")
        # The same request: its events, even if a concurrent retry chose another new id.
        return tuple(self._select(db, original_stream, first_seq - 1, last_seq))

    def replayed(self, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        return self._replay(self.handle(), idempotency)

    @staticmethod
    def _select(db: Any, stream_id: str, after: int, upto: int | None) -> StoredEvents:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        params: list = [stream_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        return StoredEvents(db.execute(sql + " ORDER BY seq", params).fetchall())

    def read(self, stream_id: str, *, after: int = 0, upto: int | None = None) -> StoredEvents:
        return self._select(self.handle(), stream_id, after, upto)

    def version(self, stream_id: str, *, at: str | None = None) -> int:
        if at is None:
            row = self.handle().execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (stream_id,)).fetchone()
        else:
            sql = "SELECT MAX(seq) FROM events WHERE game_id = ? AND recorded_at <= ?"
            row = self.handle().execute(sql, (stream_id, at)).fetchone()
        return row[0] or 0

    def stream_type(self, stream_id: str) -> str | None:
        row = self.handle().execute("SELECT stream_type FROM streams WHERE stream_id = ?", (stream_id,)).fetchone()
        return None if row is None else row[0]

    def first_events(self, stream_type: str, *, limit: int = 100, offset: int = 0) -> list[StoredEvent]:
        _check_page(limit=limit, offset=offset)
        columns = ", ".join(f"e.{c}" for c in _EVENT_COLUMNS.split(", "))
        rows = self.handle().execute(
            f"SELECT {columns} FROM streams s JOIN events e ON e.game_id = s.stream_id AND e.seq = 1"
            " WHERE s.stream_type = ? ORDER BY s.created_at DESC, s.stream_id DESC LIMIT ? OFFSET ?",
            (stream_type, limit, offset),
        )
        return [event_of_row(r) for r in rows.fetchall()]

    def stream_ids(self, stream_type: str, *, after: str | None = None, limit: int = 1000) -> list[str]:
        _check_page(limit=limit)
        rows = self.handle().execute(
            "SELECT stream_id FROM streams WHERE stream_type = ? AND stream_id > ? ORDER BY stream_id LIMIT ?",
            (stream_type, after or "", limit),
        )
        return [row[0] for row in rows.fetchall()]

    def ids_in_events(self) -> Iterator[str]:
        return ids_in_events(self.handle)

    def stream_heads(self, stream_id: str | None = None) -> list[StreamHead]:
        if stream_id is None:
            rows = self.handle().execute(_HEADS_DISAGREEING).fetchall()
        else:
            rows = self.handle().execute(_HEADS + " WHERE s.stream_id = ?", (stream_id,)).fetchall()
        return [StreamHead(*row) for row in rows]

    def stream_count(self) -> int:
        return self.handle().execute("SELECT COUNT(*) FROM streams").fetchone()[0]

    def read_streams(self, batch: int = 500) -> Iterator[tuple[str, list[StoredEvent]]]:
        """Every stream in the events table with its events, in id order: one ordered scan
        of ``batch`` streams' rows per query instead of a query per stream (``recorder
        verify`` over a whole archive). Memory holds one batch."""
        after = ""
        while True:
            ids = self.handle().execute(_STREAM_IDS_AFTER, (after, batch)).fetchall()
            if not ids:
                return
            last = ids[-1][0]
            yield from self.read_stream_range(after, last)
            after = last

    def read_stream_range(self, after: str, last: str) -> Iterator[tuple[str, list[StoredEvent]]]:
        """The streams with ``after < id <= last`` and their events, in id order, in one
        query (a worker of ``recorder verify --jobs`` reads its range of streams so)."""
        rows = self.handle().execute(_STREAMS_BETWEEN, (after, last)).fetchall()
        for stream_id, group in groupby(rows, key=itemgetter(0)):
            yield stream_id, StoredEvents(group)

    def event_texts(self, stream_ids: Iterable[str]) -> Iterator[StreamText]:
        """One query per batch of streams, each stream's lines joined by the database (one
        row per stream, not per event): the cost per stream stays the same however many
        the export holds, and only a batch's texts are in memory at once."""
        ids = iter(stream_ids)
        while batch := list(islice(ids, TEXTS_BATCH)):
            texts = {row[0]: self._stream_text(*row) for row in self._texts_of(batch)}
            yield from (texts[stream_id] for stream_id in batch if stream_id in texts)

    def _texts_of(self, batch: list[str]) -> list[tuple[str, int, int, str | None]]:
        marks = ", ".join("?" * len(batch))
        query = f"SELECT game_id, count(*), count(line), {self._LINES_TEXT} FROM events WHERE game_id IN ({marks})"
        return self.handle().execute(query + " GROUP BY game_id", batch).fetchall()

    def _stream_text(self, stream_id: str, events: int, lines: int, text: str | None) -> StreamText:
        """A stream's joined lines; a stream with rows stored before lines were (the
        database skips their missing lines) has them built (``event_lines``)."""
        if lines < events or text is None:
            text = "\n".join(self.event_lines(stream_id))
        return StreamText(stream_id, events, text)

    def event_lines(self, stream_id: str) -> list[str]:
        """Each event's stored line; a row stored before lines were has its line built from
        its columns by the one encoder (``stored_line``)."""
        rows = self.handle().execute(_EVENT_ROWS_WITH_LINES, (stream_id,)).fetchall()
        return [row[8] if row[8] is not None else stored_line(event_of_row(row), row[3]) for row in rows]


# The appended events' chain and stored lines, the same on both backends.


def _chained(
    stream_id: str,
    head: tuple[int, str],
    events: Sequence[NewEvent],
    texts: list[str],
    now: str,
    recorded_by: str | None,
) -> tuple[StoredEvent, ...]:
    """Number, time and hash new events after ``head`` (``chain.new_links``). Each payload is
    the round trip of its canonical text, so the returned events equal what read() will return."""
    links = chain.new_links(
        stream_id, head, ((event.type, text) for event, text in zip(events, texts)), now, recorded_by
    )
    stored = []
    for (seq, prev_hash, digest), event, text in zip(links, events, texts):
        stored.append(
            StoredEvent(
                stream_id, seq, event.type, json.loads(text), now, recorded_by, prev_hash=prev_hash, hash=digest
            )
        )
    return tuple(stored)
