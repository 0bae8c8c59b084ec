"""The SQLite backend: WAL, one reused connection per thread, BEGIN IMMEDIATE appends."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from sqlite_utils import Database

from .interface import StoreBackend
from .schema import create_schema, ensure_schema, missing_triggers
from .sql import (
    _INSERT_EVENTS,
    LockedDatabase,
    SqlStreams,
    _write_transaction,
    insert_rows,
)
from .tables import Schema
from .writer_lock import writer_lock_for

# A connection that writes batches (a bulk import) keeps more of the file's pages in memory
# and lets its write-ahead log grow before copying it back into the file: a page of the
# position index is written in many batches, and is then copied once per checkpoint, not
# once per batch (a large share of a bulk import's commits otherwise).
BATCH_CACHE_KIB = 256 * 1024
BATCH_CHECKPOINT_PAGES = 16384  # 64 MiB of 4 KiB pages (SQLite's default is 1,000)
IDLE_CONNECTIONS = 8  # connections let go of (release_connection) kept open for the next thread


def _bulk_pragmas(db: Database) -> None:
    db.execute(f"PRAGMA cache_size = -{BATCH_CACHE_KIB}")
    db.execute(f"PRAGMA wal_autocheckpoint = {BATCH_CHECKPOINT_PAGES}")


@contextlib.contextmanager
def _batch_settings(db: Database) -> Iterator[None]:
    """A batch's savepoints keep their journals in memory, and its commit does not wait for
    the disk, while it lasts; both are set back after it.

    Each append in a batch is a savepoint, and SQLite copies every page an append first
    changes into that savepoint's journal, a temporary file once it passes 64 KiB: an
    import wrote more pages to such files than to the database and its log together. A
    savepoint's journal holds one append's pages and is dropped when it is released, so
    it is kept in memory (``temp_store``).

    A batch commits with ``synchronous = NORMAL``: in WAL mode the commit is atomic and
    the file stays whole whatever happens, but the log is synced at the next checkpoint,
    not at each commit; what a crash loses is whole batches, which the import that wrote
    them finds missing when it is run again. The import makes it all durable at its end
    (``sync``) before it reports what it stored.

    Both settings may change only outside a transaction: the position index's sort
    (``PositionIndex.index_pending``) still spills to a file, so its memory stays flat, and
    every other write of the connection syncs at its commit, as always."""
    if db.conn.in_transaction:  # a batch inside a transaction: left as it is
        yield
        return
    db.execute("PRAGMA temp_store = MEMORY")
    db.execute("PRAGMA synchronous = NORMAL")
    try:
        yield
    finally:
        if not db.conn.in_transaction:
            db.execute("PRAGMA temp_store = DEFAULT")
            db.execute("PRAGMA synchronous = FULL")


BUSY_TIMEOUT_MS = 10000
WAL_RETRY_SECONDS = 0.01


def enter_wal(conn: sqlite3.Connection, *, patience: float = BUSY_TIMEOUT_MS / 1000) -> None:
    """The file in WAL mode. Connections turning one new file to WAL together (a
    recording and a live server started on it at once) may be answered "database is
    locked" at once, their busy timeout not waited: such an answer is tried again,
    as a write lock would be waited for, for as long."""
    deadline = time.monotonic() + patience
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
        time.sleep(WAL_RETRY_SECONDS)


MEMINFO = "/proc/meminfo"


def available_memory(meminfo: str = MEMINFO) -> int | None:
    """Bytes of memory the system can give without swapping (Linux's ``MemAvailable``,
    which counts the file cache it may reclaim), or None where the system does not say."""
    try:
        with open(meminfo, encoding="ascii") as handle:
            for line in handle:
                name, _, value = line.partition(":")
                if name == "MemAvailable":
                    return int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class SQLiteEventStore(SqlStreams, StoreBackend):
    """EventStore on one SQLite file, WAL mode, one reused connection per thread."""

    def __init__(self, path: str):
        self.path = str(path)
        self._pid = os.getpid()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[tuple[threading.Thread, LockedDatabase]] = []
        self._idle: list[LockedDatabase] = []  # let go of by release_connection, taken again by the next _connect
        self._closed = False
        self._writer_lock = writer_lock_for(self.path)
        self._ensured: set[str] = set()  # the features' schemas ensured (``ensure``)
        self.init_schema()

    def _db(self) -> LockedDatabase:
        """This thread's connection, opened on first use and then reused."""
        if self._closed:
            raise RuntimeError("the event store is closed")
        if self._pid != os.getpid():
            self._forget_inherited_connections()
        db = getattr(self._local, "db", None)
        return db if db is not None else self._connect()

    def _connect(self) -> LockedDatabase:
        with self._lock:
            db = self._idle.pop() if self._idle and not self._closed else None
            if db is not None:
                self._connections.append((threading.current_thread(), db))
        if db is not None:
            self._local.db = db
            return db
        return self._open()

    def _open(self) -> LockedDatabase:
        # isolation_level=None: the sqlite3 module opens no implicit
        # transactions; we issue BEGIN IMMEDIATE ourselves. check_same_thread is
        # off only so close() can close every thread's connection; each
        # connection is still used by the thread that opened it.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")  # wait up to 10 s for the write lock
            enter_wal(conn)  # readers never block the writer
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
        self._idle = []

    def release_connection(self) -> None:
        """This thread's connection is kept for the next thread that needs one (up to
        ``IDLE_CONNECTIONS``): under gevent every request is a greenlet, and opening a
        connection per request cost more than the request, while each one closed beside
        another of the process kept its file descriptor."""
        db = getattr(self._local, "db", None)
        if db is None:
            return
        self._local.db = None
        with self._lock:
            self._connections = [(thread, held) for thread, held in self._connections if held is not db]
            if not self._closed and len(self._idle) < IDLE_CONNECTIONS:
                self._idle.append(db)
                return
        db.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
            idle, self._idle = self._idle, []
        for db in [*(db for _, db in connections), *idle]:
            db.close()
        if self._writer_lock is not None:
            self._writer_lock.close()

    @contextlib.contextmanager
    def _batching(self, db: LockedDatabase) -> Iterator[None]:
        """A batch holds the write lock throughout: keep batches short (recorder import's
        last ``BATCH_SECONDS``); its commit does not wait for the disk (``sync`` does, once,
        at the import's end). The connection then keeps a larger page cache and checkpoints
        less often (``_bulk_pragmas``), and the savepoints' journals stay in memory
        (``_batch_settings``)."""
        _bulk_pragmas(db)
        with _batch_settings(db):
            yield

    def sync(self) -> None:
        """What batches committed made durable: the write-ahead log synced. A passive
        checkpoint (it waits for nobody) copies what it can back into the file, syncing
        both; but a reader's open snapshot can leave it nothing to copy, and then it syncs
        nothing, so the log is synced here too."""
        self._db().execute("PRAGMA wal_checkpoint(PASSIVE)")
        try:
            log = os.open(self.path + "-wal", os.O_RDONLY)
        except FileNotFoundError:  # no log: every commit is in the file, synced by its checkpoint
            return
        try:
            os.fsync(log)
        finally:
            os.close(log)

    def _create_log(self) -> None:
        """Create tables, indexes and triggers if missing and migrate older files (idempotent);
        the protective triggers an existing file lacked are ``protections_restored``."""
        db = self._db()
        with _write_transaction(db):
            self.protections_restored = tuple(missing_triggers(db))
            create_schema(db)

    def _ensure_schema(self, schema: Schema) -> None:
        db = self._db()
        with _write_transaction(db):
            ensure_schema(db, schema)

    def missing_protections(self) -> list[str]:
        return missing_triggers(self._db())

    def handle(self) -> LockedDatabase:
        return self._db()

    def _appending(self, stream_id: str, expected_version: int) -> contextlib.AbstractContextManager[Database]:
        return self.transaction()

    def _insert_rows(self, db: Database, rows: Sequence[Sequence[Any]]) -> None:
        insert_rows(db.conn, _INSERT_EVENTS, rows)

    def read_ahead(self) -> bool:
        """The database file handed to the operating system to read into its cache, in
        file order, ahead of a walk over every stream (``recorder verify``).

        The walk reads the streams in id order, each where its append put it: scattered
        over the file, so on a cold cache it waits on one small read after another.
        Asked to read ahead, the system reads the file in order, at the disk's sequential
        pace, while the walk starts (docs/decisions.md has the figures). Only when the file
        takes at most half the memory available: a larger one would push out the pages
        read first before the walk reached them, and other processes' pages too."""
        advise, will_need = getattr(os, "posix_fadvise", None), getattr(os, "POSIX_FADV_WILLNEED", None)
        available = available_memory()
        if advise is None or will_need is None or available is None:
            return False
        try:
            with open(self.path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size * 2 > available:
                    return False
                advise(handle.fileno(), 0, size, will_need)
        except OSError:  # an in-memory database, a file gone: there is nothing to read ahead
            return False
        return True
