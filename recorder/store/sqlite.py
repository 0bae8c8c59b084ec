"""The SQLite backend: WAL, one reused connection per thread, BEGIN IMMEDIATE appends."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from sqlite_utils import Database

from recorder.core import chain
from recorder.errors import IdempotencyMismatch, VersionConflict

from .interface import (
    SUMMARY_COLUMNS,
    AppendResult,
    EventStore,
    Idempotency,
    NewEvent,
    StoredEvent,
    _check_append,
    _check_page,
    _summary_row,
    _verify_next_events,
    utc_now,
)
from .projection import GamesProjection
from .sql import (
    _EVENT_COLUMNS,
    _EVENT_LINE,
    _INSERT_EVENT,
    _TRIGGERS,
    LockedDatabase,
    _event_from_row,
    _prefix_end,
    _write_transaction,
)
from .tokens import TokenTable, _create_token_table
from .writer_lock import writer_lock_for


class SQLiteEventStore(GamesProjection, TokenTable, EventStore):
    """EventStore on one SQLite file, WAL mode, one reused connection per thread."""

    def __init__(self, path: str):
        self.path = str(path)
        self._pid = os.getpid()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[tuple[threading.Thread, Database]] = []
        self._closed = False
        self._writer_lock = writer_lock_for(self.path)
        self.init_schema()

    def _db(self) -> Database:
        """This thread's connection, opened on first use and then reused."""
        if self._closed:
            raise RuntimeError("the event store is closed")
        if self._pid != os.getpid():
            self._forget_inherited_connections()
        db = getattr(self._local, "db", None)
        return db if db is not None else self._connect()

    def _connect(self) -> Database:
        # isolation_level=None: the sqlite3 module opens no implicit
        # transactions; we issue BEGIN IMMEDIATE ourselves. check_same_thread is
        # off only so close() can close every thread's connection; each
        # connection is still used by the thread that opened it.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 10000")  # wait up to 10 s for the write lock
            conn.execute("PRAGMA journal_mode = WAL")  # readers never block the writer
            conn.execute("PRAGMA synchronous = FULL")  # an acknowledged append survives kill -9 / power loss
            db = LockedDatabase(conn)
            db.writer_lock = self._writer_lock  # _write_transaction queues on it
        except BaseException:
            conn.close()
            raise
        with self._lock:
            if self._closed:  # close() ran while we were connecting
                db.close()
                raise RuntimeError("the event store is closed")
            self._close_dead_threads_connections()
            self._connections.append((threading.current_thread(), db))
        self._local.db = db
        return db

    def _close_dead_threads_connections(self) -> None:
        """Servers that spawn a thread per request would otherwise leak a connection each."""
        alive = []
        for thread, db in self._connections:
            if thread.is_alive():
                alive.append((thread, db))
            else:
                db.close()
        self._connections = alive

    def _forget_inherited_connections(self) -> None:
        """After fork (gunicorn --preload) never touch the parent's SQLite handles."""
        self._pid = os.getpid()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections = []

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for _, db in connections:
            db.close()
        if self._writer_lock is not None:
            self._writer_lock.close()

    def init_schema(self) -> None:
        """Create tables, indexes and immutability triggers if missing (idempotent)."""
        db = self._db()
        with _write_transaction(db):
            db.table("events").create(
                {
                    "game_id": str,
                    "seq": int,
                    "type": str,
                    "payload": str,
                    "recorded_at": str,
                    "recorded_by": str,
                    "prev_hash": str,
                    "hash": str,
                },
                pk=("game_id", "seq"),
                not_null=["game_id", "seq", "type", "payload", "recorded_at", "prev_hash", "hash"],
                if_not_exists=True,
            )
            db.table("idempotency_keys").create(
                {
                    "key": str,
                    "fingerprint": str,
                    "game_id": str,
                    "first_seq": int,
                    "last_seq": int,
                    "created_at": str,
                },
                pk="key",
                not_null=["key", "fingerprint", "game_id", "first_seq", "last_seq", "created_at"],
                if_not_exists=True,
            )
            games = db.table("games").create(
                {
                    "game_id": str,
                    **{c: str for c in SUMMARY_COLUMNS[:-1]},
                    "created_at": str,
                    "updated_at": str,
                    "metadata": str,
                },
                pk="game_id",
                not_null=["game_id", "created_at", "updated_at"],
                if_not_exists=True,
            )
            for columns in (["variant"], ["south"], ["north"], ["tournament_id"], ["created_at", "game_id"]):
                games.create_index(columns, if_not_exists=True)
            _create_token_table(db)
            db.executescript(_TRIGGERS)

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        recorded_by: str | None = None,
        idempotency: Idempotency | None = None,
        summary: dict | None = None,
    ) -> AppendResult:
        events = tuple(events)  # a generator would be empty after validation
        _check_append(game_id, expected_version, events)
        # Serialise outside the write lock; hash the round-tripped payload so the
        # returned events equal what read() will return.
        texts = [chain.canonical_json(e.payload) for e in events]
        payloads = [json.loads(t) for t in texts]
        summary_row = _summary_row(summary) if summary is not None else None
        db = self._db()
        with _write_transaction(db):
            if idempotency is not None:
                original = self._replay(db, game_id, idempotency)
                if original is not None:
                    return AppendResult(original, replayed=True)
            now = utc_now()  # inside the lock, so recorded_at never goes backwards
            stored = self._insert_events(db, game_id, expected_version, events, texts, payloads, now, recorded_by)
            if idempotency is not None:
                db.execute(
                    "INSERT INTO idempotency_keys (key, fingerprint, game_id, first_seq, last_seq, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (idempotency.key, idempotency.fingerprint, game_id, stored[0].seq, stored[-1].seq, now),
                )
            if summary_row is not None:
                self._upsert_summary(db, game_id, summary_row, now)
        return AppendResult(stored, replayed=False)

    def _replay(self, db: Database, game_id: str | None, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        """The events a previous request with this key stored, or None if the key is new."""
        row = db.execute(
            "SELECT fingerprint, game_id, first_seq, last_seq FROM idempotency_keys WHERE key = ?",
            (idempotency.key,),
        ).fetchone()
        if row is None:
            return None
        fingerprint, original_game, first_seq, last_seq = row
        if fingerprint != idempotency.fingerprint:
            raise IdempotencyMismatch("this Idempotency-Key was already used for a different request")
        # The same request: its events, even if a concurrent retry chose another new game id.
        return tuple(self._select(db, original_game, first_seq - 1, last_seq))

    def replayed(self, game_id: str | None, idempotency: Idempotency) -> tuple[StoredEvent, ...] | None:
        return self._replay(self._db(), game_id, idempotency)

    def append_verbatim(
        self, game_id: str, expected_version: int, events: Sequence[StoredEvent], *, summary: dict | None = None
    ) -> tuple[StoredEvent, ...]:
        events = tuple(events)
        _check_append(game_id, expected_version, events)
        texts = [chain.canonical_json(e.payload) for e in events]
        summary_row = _summary_row(summary) if summary is not None else None
        db = self._db()
        with _write_transaction(db):
            last = db.execute(
                "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
            ).fetchone()
            head = last if last is not None else (0, chain.GENESIS)
            if head[0] != expected_version:
                raise VersionConflict(
                    f"game {game_id!r} has {head[0]} events, the archive expected {expected_version}",
                    expected=expected_version,
                    actual=head[0],
                )
            _verify_next_events(game_id, head, events)
            db.conn.executemany(
                _INSERT_EVENT,
                [
                    (e.game_id, e.seq, e.type, text, e.recorded_at, e.recorded_by, e.prev_hash, e.hash)
                    for e, text in zip(events, texts)
                ],
            )
            if summary_row is not None:
                self._upsert_summary(db, game_id, summary_row, utc_now())
        return events

    def _insert_events(
        self,
        db: Database,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        texts: list[str],
        payloads: list[dict],
        now: str,
        recorded_by: str | None,
    ) -> tuple[StoredEvent, ...]:
        """Check the version inside the transaction, then chain and insert the events."""
        last = db.execute(
            "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        actual, prev_hash = last if last is not None else (0, chain.GENESIS)
        if actual != expected_version:
            raise VersionConflict(
                f"game {game_id!r} has {actual} events, the request expected {expected_version}",
                expected=expected_version,
                actual=actual,
            )
        stored = []
        for seq, event, payload in zip(range(actual + 1, actual + 1 + len(events)), events, payloads):
            record: dict[str, Any] = {
                "game_id": game_id,
                "seq": seq,
                "type": event.type,
                "payload": payload,
                "recorded_at": now,
                "recorded_by": recorded_by,
            }
            digest = chain.event_hash(prev_hash, record)
            stored.append(StoredEvent(**record, prev_hash=prev_hash, hash=digest))
            prev_hash = digest
        db.conn.executemany(
            _INSERT_EVENT,
            [
                (e.game_id, e.seq, e.type, text, e.recorded_at, e.recorded_by, e.prev_hash, e.hash)
                for e, text in zip(stored, texts)
            ],
        )
        return tuple(stored)

    def _select(self, db: Database, game_id: str, after: int, upto: int | None) -> list[StoredEvent]:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ?"
        params: list = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        return [_event_from_row(r) for r in db.execute(sql + " ORDER BY seq", params).fetchall()]

    def read(self, game_id: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        return self._select(self._db(), game_id, after, upto)

    def event_lines(self, game_id: str) -> list[str]:
        return [row[0] for row in self._db().execute(_EVENT_LINE, (game_id,)).fetchall()]

    def version(self, game_id: str) -> int:
        row = self._db().execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return row[0] or 0

    @staticmethod
    def _exists(db: Database, game_id: str) -> bool:
        return db.execute("SELECT 1 FROM events WHERE game_id = ? LIMIT 1", (game_id,)).fetchone() is not None

    def exists(self, game_id: str) -> bool:
        return self._exists(self._db(), game_id)

    def stream_ids(self) -> Iterator[str]:
        """Every stream in the events table (games and tournaments), by id, in batches:
        what ``recorder verify`` walks, rather than a summary table that can be edited."""
        after = ""
        while True:
            rows = (
                self._db()
                .execute("SELECT DISTINCT game_id FROM events WHERE game_id > ? ORDER BY game_id LIMIT 500", (after,))
                .fetchall()
            )
            if not rows:
                return
            yield from (row[0] for row in rows)
            after = rows[-1][0]

    def list_streams(self, prefix: str, *, limit: int = 100, offset: int = 0) -> list[StoredEvent]:
        if not isinstance(prefix, str) or not prefix:
            raise ValueError("prefix must be a non-empty string")
        _check_page(limit=limit, offset=offset)
        rows = (
            self._db()
            .execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE game_id >= ? AND game_id < ? AND seq = 1"
                " ORDER BY recorded_at DESC, game_id DESC LIMIT ? OFFSET ?",
                (prefix, _prefix_end(prefix), limit, offset),
            )
            .fetchall()
        )
        return [_event_from_row(r) for r in rows]
