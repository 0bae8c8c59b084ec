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

Beside the store, on the same file: the games list (games_list.py) and the notation and
position caches (caches.py), projections derived from the events and rebuilt by
``recorder rebuild``; the events cannot be rebuilt. The access tokens (tokens.py) are
records there too, not events. This package is the only code that
touches SQLite.
"""

from .games_list import GamesList
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
    every_stream_id,
    utc_now,
)
from .registry import GameResults, PlayerTables
from .schema import PLAYER_KEY_COLUMNS, SUMMARY_COLUMNS
from .sqlite import SQLiteEventStore
from .tokens import TokenTable

__all__ = [
    "GAME",
    "PLAYER",
    "STREAM_TYPES",
    "TEAM",
    "SUMMARY_COLUMNS",
    "PLAYER_KEY_COLUMNS",
    "TOURNAMENT",
    "AppendResult",
    "BulkStore",
    "CheckedChain",
    "EventStore",
    "GamesList",
    "Idempotency",
    "NewEvent",
    "GameResults",
    "PlayerTables",
    "ProjectionWrite",
    "SQLiteEventStore",
    "StoreBackend",
    "StoredEvent",
    "StoredEvents",
    "StreamHead",
    "TokenTable",
    "every_stream_id",
    "utc_now",
]
