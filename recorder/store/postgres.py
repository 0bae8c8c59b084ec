"""The PostgreSQL backend: psycopg 3, a connection pool, appends serialised per stream.

An append runs in one READ COMMITTED transaction:

1. ``pg_advisory_xact_lock`` on a hash of the Idempotency-Key (when there is one), then on
   a hash of the stream id: writers of one game queue, other games go on in parallel
   (the key's lock first, always, so two locks never deadlock);
2. the idempotency check: a known key replays the events it stored;
3. the stream's head against the expected version (VersionConflict);
4. the events, the key and the projection rows are inserted; commit.

The primary key ``(game_id, seq)`` is the second wall: an insert that skipped the lock and
collides fails with unique_violation, reported as VersionConflict, so the log never forks.
Triggers refuse UPDATE, DELETE and TRUNCATE of events and streams (recorder/store/pg_schema.py).

The projections beside the store (games_list.py, caches.py) and the token table share their
code with SQLite: their statements are SQL both backends accept, and the store's handle
(``handle()``, ``transaction()``) is a ``PgHandle``, a ``Tx`` like SQLite's, which gives
their ``?`` placeholders as its paramstyle's ``%s``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool, PoolTimeout

from recorder.errors import Unavailable, VersionConflict

from .interface import (
    StoreBackend,
)
from .notify import CHANNEL, AppendListener
from .pg_schema import LATEST, applied_version, ensure_tables, migrate, protection_problems, restore_protections
from .sql import _EVENT_COLUMNS, SqlStreams
from .tables import Schema

log = logging.getLogger(__name__)

# How long opening the store waits for the server before it says it cannot reach it.
CONNECT_TIMEOUT_SECONDS = 10


def _require_reachable(url: str) -> None:
    """One connection made at once, so that a server that is down, a wrong password or an
    unknown database is told with its reason (the pool would retry for 30 s and say only
    that it timed out). psycopg's message names the host and port, never the password."""
    try:
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_SECONDS).close()
    except psycopg.Error as error:
        reason = " ".join(str(error).split())
        raise Unavailable(f"cannot reach the PostgreSQL server: {reason}", retry_after=5) from None


_INSERT_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}, line) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"


@functools.lru_cache(maxsize=512)
def in_paramstyle(sql: str) -> str:
    """A statement written with ``?`` placeholders, as psycopg takes it: ``%s`` (a literal
    ``%`` doubled). The store's statements hold no ``?`` but their placeholders."""
    return sql.replace("%", "%%").replace("?", "%s")


class PgHandle:
    """One psycopg connection (autocommit; transactions are explicit) as the store's ``Tx``:
    ``execute``, ``executemany``, and what a write transaction asks of it (``begin_write``,
    ``conn.execute``, ``conn.in_transaction``)."""

    in_batch = False  # set by PostgresEventStore.batch(): appends become savepoints
    begin_write = "BEGIN"  # PostgreSQL locks rows, not the file: the append's advisory lock serialises

    def __init__(self, raw: psycopg.Connection):
        self.raw = raw

    @property
    def conn(self) -> PgHandle:
        return self

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != TransactionStatus.IDLE

    def execute(self, sql: str, params=None) -> Any:  # a psycopg cursor, its rows untyped as sqlite3's
        if params is None:
            return self.raw.execute(sql)  # type: ignore[arg-type]
        if any(isinstance(p, str) and "\x00" in p for p in params):
            params = _without_nul(sql, params)
        return self.raw.execute(in_paramstyle(sql), params)  # type: ignore[arg-type]

    def executemany(self, sql: str, rows) -> psycopg.Cursor:
        cursor = self.raw.cursor()
        cursor.executemany(in_paramstyle(sql), list(rows))  # type: ignore[arg-type]
        return cursor


def _without_nul(sql: str, params) -> list:
    """PostgreSQL text cannot hold U+0000, so no stored text equals a string holding it (appends
    refuse such ids): a query asking for one is asked with NULL instead, which matches no row,
    rather than failing (a GET for such an id is a 404, not a 500). Writes are refused."""
    if not sql.lstrip().upper().startswith("SELECT"):
        raise ValueError("PostgreSQL text cannot hold U+0000")
    return [None if isinstance(p, str) and "\x00" in p else p for p in params]


def is_postgres_url(value: str | None) -> bool:
    return bool(value) and str(value).startswith(("postgresql://", "postgres://"))


class PostgresEventStore(SqlStreams, StoreBackend):
    """EventStore on a PostgreSQL database: one pooled connection per thread while it lives."""

    def __init__(self, url: str, *, max_connections: int = 32, migrate_schema: bool = True):
        if not is_postgres_url(url):
            raise ValueError("a PostgreSQL store needs a postgresql:// URL")
        self.url = url
        self.path = url  # what the CLI prints as "the database"
        self._max_connections = max_connections
        self._closed = False
        self._ensured: set[str] = set()  # the features' schemas ensured (``ensure``)
        _require_reachable(url)
        self._start_process()
        # The protective triggers found taken away, and created again, by this open.
        self.protections_restored: tuple[str, ...] = ()
        if migrate_schema:
            self.init_schema()
            self.protections_restored = self._restore_protections()

    # ---------------------------------------------------------------- connections

    def _start_process(self) -> None:
        """Fresh pool and thread map: at start, and in a forked child (gunicorn --preload)."""
        self._pid = os.getpid()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._handles: list[tuple[threading.Thread, PgHandle]] = []
        self._pool: ConnectionPool | None = None
        self._listener: AppendListener | None = None

    def append_listener(self) -> AppendListener:
        """This process's LISTEN connection, opened on first use (live views wait on it)."""
        if self._pid != os.getpid():
            self._start_process()  # a forked worker listens on its own connection
        with self._lock:
            if self._closed:
                raise RuntimeError("the event store is closed")
            if self._listener is None:
                self._listener = AppendListener(lambda: psycopg.connect(self.url, autocommit=True))
            return self._listener

    def _pool_here(self) -> ConnectionPool:
        if self._pool is None:
            self._pool = ConnectionPool(
                self.url,
                min_size=1,
                max_size=self._max_connections,
                kwargs={"autocommit": True},  # transactions are explicit: BEGIN ... COMMIT
                open=True,
                name="recorder",
            )
        return self._pool

    def _db(self) -> PgHandle:
        """This thread's connection, taken from the pool on first use and kept while the thread lives."""
        if self._closed:
            raise RuntimeError("the event store is closed")
        if self._pid != os.getpid():
            self._start_process()  # never use a parent's sockets
        handle = getattr(self._local, "handle", None)
        if handle is None or handle.raw.closed:
            handle = self._connect()
        return handle

    def _connect(self) -> PgHandle:
        with self._lock:
            if self._closed:
                raise RuntimeError("the event store is closed")
            self._return_dead_threads_connections()
            pool = self._pool_here()
        try:
            handle = PgHandle(pool.getconn())
        except PoolTimeout:  # the server went away, or every connection is busy: try later (503)
            raise Unavailable(
                "no connection to the PostgreSQL server is free; nothing was written", retry_after=5
            ) from None
        with self._lock:
            self._handles.append((threading.current_thread(), handle))
        self._local.handle = handle
        return handle

    def _return_dead_threads_connections(self) -> None:
        """A server that spawns a thread per request would otherwise keep a connection each."""
        alive = []
        for thread, handle in self._handles:
            if thread.is_alive():
                alive.append((thread, handle))
            elif self._pool is not None:
                self._pool.putconn(handle.raw)
        self._handles = alive

    def release_connection(self) -> None:
        handle = getattr(self._local, "handle", None)
        if handle is None:
            return
        self._local.handle = None
        with self._lock:
            self._handles = [(thread, held) for thread, held in self._handles if held is not handle]
            pool = self._pool
        if pool is not None and self._pid == os.getpid():
            pool.putconn(handle.raw)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            handles, self._handles = self._handles, []
            pool, self._pool = self._pool, None
            listener, self._listener = self._listener, None
        if listener is not None and self._pid == os.getpid():
            listener.close()
        if pool is not None and self._pid == os.getpid():
            for _, handle in handles:
                pool.putconn(handle.raw)
            pool.close()

    def _create_log(self) -> None:
        """Apply the migrations this database lacks (recorder/store/pg_schema.py)."""
        handle = self._db()
        with handle.raw.cursor() as cursor:
            if applied_version(cursor) >= LATEST:
                return  # the usual case: no DDL, so an application role without CREATE opens it
        migrate(handle.raw)

    def _restore_protections(self) -> tuple[str, ...]:
        """The triggers that keep the log immutable, created again where they were taken away
        (pg_schema.restore_protections); a role that may not (the application role owns no
        table) opens the store all the same: its privileges refuse it any change, and
        ``recorder verify`` names what is missing."""
        try:
            restored = restore_protections(self._db().raw)
        except psycopg.errors.InsufficientPrivilege:
            log.warning(
                "protective triggers are missing and this role may not create them: %s", self.missing_protections()
            )
            return ()
        if restored:
            log.warning("protective triggers created again: %s", "; ".join(restored))
        return restored

    def _ensure_schema(self, schema: Schema) -> None:
        """The schema's tables created where the catalogue lacks them (pg_schema.ensure_tables)."""
        ensure_tables(self._db().raw, schema.tables)

    def missing_protections(self) -> list[str]:
        """What the protective triggers and their functions lack now, one line each."""
        with self._db().raw.cursor() as cursor:
            return protection_problems(cursor)

    # ---------------------------------------------------------------- appends

    def handle(self) -> PgHandle:
        return self._db()

    @contextlib.contextmanager
    def _appending(self, stream_id: str, expected_version: int) -> Iterator[PgHandle]:
        """The append's transaction; an insert refused by the second wall (met only by a
        writer that skipped the lock: the primary key's unique_violation, or the append-only
        trigger refusing an insert behind the head) is reported as the VersionConflict it is."""
        try:
            with self.transaction() as handle:
                yield handle
        except psycopg.IntegrityError as error:
            actual = self.version(stream_id)
            if actual == expected_version:
                raise  # not a lost race: let the real fault show
            raise VersionConflict(
                f"{stream_id!r} has {actual} events, the request expected {expected_version}",
                expected=expected_version,
                actual=actual,
            ) from error

    def _check_values(self, stream_id: str, recorded_by: str | None, events: Sequence[Any]) -> None:
        _check_text(stream_id, recorded_by, *(e.type for e in events))

    def _serialise(self, db: PgHandle, name: str, space: int) -> None:
        db.execute(f"SELECT pg_advisory_xact_lock(hashtextextended(?, {int(space)}))", (name,))

    def _insert_rows(self, db: PgHandle, rows: Sequence[Sequence[Any]]) -> None:
        with db.raw.cursor() as cursor:
            cursor.executemany(_INSERT_EVENT, rows)

    def _notify(self, db: PgHandle, stream_id: str) -> None:
        """Delivered at commit to every listening app server (recorder/store/notify.py)."""
        db.execute("SELECT pg_notify(?, ?)", (CHANNEL, stream_id))

    # ---------------------------------------------------------------- reads

    _LINES_TEXT = "string_agg(line, chr(10) ORDER BY seq)"


def _check_text(*values: str | None) -> None:
    """PostgreSQL text cannot hold U+0000 (payloads can: canonical JSON escapes it)."""
    for value in values:
        if value is not None and "\x00" in value:
            raise ValueError("ids, event types and recorder names cannot contain U+0000 on PostgreSQL")


__all__ = ["PostgresEventStore", "is_postgres_url", "psycopg"]
