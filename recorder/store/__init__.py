"""The event store: every move of every game is an immutable, hash-chained event.

``EventStore`` (interface.py) is the small interface the rest of the service talks to:
append and read, with versions and idempotency; ``BulkStore`` is what archives,
verification and listings read in bulk. Neither holds SQL: ``SQLiteEventStore`` and
``PostgresEventStore`` implement both (``StoreBackend``), the append's algorithm written
once for both (sql.py).

Guarantees every backend gives:
- per stream, sequence numbers are 1, 2, 3... with no gaps and no forks: an append
  names the version it expects and is refused (VersionConflict) when it is stale;
- an append is all-or-nothing, including its idempotency key and the projection write
  it carries;
- an idempotent retry returns the originally stored events and stores nothing;
- each event links to the previous one by hash (see recorder.core.chain);
- each stream has a type (``game``, ``tournament`` or ``player``) fixed by its first append.

The store keeps the log: append and read, bulk reads for archives and verification, the
notice of appends (notify.py), the writer lock (writer_lock.py), backup and copy
(backup.py, copy.py), and the schema of the events, streams and heads (catalogue.py, with
SQLite's triggers in schema.py and PostgreSQL's protections and migrations in pg_schema.py).

Every table is described once (tables.py) and both backends' DDL is generated from the
descriptions. Each feature owns its tables and their projections: the games list, caches
and results (recorder/games), the registry (recorder/players), the tournaments' entries
(recorder/tournaments), the rating lists (recorder/ratings), the tokens (recorder/auth).
The store imports no feature: a feature hands its tables to the store, describing them in
its ``tables.py`` as a ``tables.Schema``, which it registers when imported
(``tables.register``: every store opened afterwards creates what they lack) and which its
table classes ensure when they are made (``Tables.ensure``: a store opened earlier gets
them before their first use). ``recorder.feature_tables`` lists them all, for the app
factory and the commands (``recorder init-db`` among them). The projections' statements
are SQL both backends accept, with ``?`` placeholders (the PostgreSQL handle gives them as
``%s``). This package is the only code that touches SQLite.
"""

from .interface import (
    GAME,
    PLAYER,
    STREAM_TYPES,
    TEAM,
    TOURNAMENT,
    AppendResult,
    BulkStore,
    CheckedChain,
    EventStore,
    Idempotency,
    NewEvent,
    ProjectionWrite,
    StoreBackend,
    StoredEvent,
    StoredEvents,
    StreamHead,
    Tables,
    Tx,
    every_stream_id,
    utc_now,
)
from .sqlite import SQLiteEventStore

__all__ = [
    "GAME",
    "PLAYER",
    "STREAM_TYPES",
    "TEAM",
    "TOURNAMENT",
    "AppendResult",
    "BulkStore",
    "CheckedChain",
    "EventStore",
    "Idempotency",
    "NewEvent",
    "ProjectionWrite",
    "SQLiteEventStore",
    "StoreBackend",
    "StoredEvent",
    "StoredEvents",
    "StreamHead",
    "Tables",
    "Tx",
    "every_stream_id",
    "utc_now",
]
