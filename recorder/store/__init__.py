"""The event store: every move of every game is an immutable, hash-chained event.

``EventStore`` (interface.py) is the small interface the rest of the service talks to;
it holds no SQL, so a PostgreSQL backend can be added beside ``SQLiteEventStore``.

Guarantees every backend gives:
- per game, sequence numbers are 1, 2, 3... with no gaps and no forks: an append
  names the version it expects and is refused (VersionConflict) when it is stale;
- an append is all-or-nothing, including its idempotency key and games summary;
- an idempotent retry returns the originally stored events and stores nothing;
- each event links to the previous one by hash (see recorder.chain).

The ``games`` table is a projection derived from the events (listing and
filtering); it can be rebuilt, the events cannot. This package is the only code
that touches SQLite.
"""

from .interface import SUMMARY_COLUMNS, AppendResult, EventStore, Idempotency, NewEvent, StoredEvent, utc_now
from .sqlite import SQLiteEventStore

__all__ = [
    "SUMMARY_COLUMNS",
    "AppendResult",
    "EventStore",
    "Idempotency",
    "NewEvent",
    "SQLiteEventStore",
    "StoredEvent",
    "utc_now",
]
