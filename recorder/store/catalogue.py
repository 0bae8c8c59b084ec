"""The log's tables, each described once (recorder/store/tables.py): events, streams, their
heads, idempotency keys. Both backends' DDL is generated from these descriptions; each
feature describes its own tables and hands them to the store (``tables.Schema``,
``Tables.ensure``).
"""

from __future__ import annotations

from .tables import POSTGRES, Column, index, ints, table

STREAM_KINDS = "stream_type IN ('game', 'tournament', 'player', 'team')"

# -- The log -------------------------------------------------------------------------------

EVENTS = table(
    "events",
    [
        Column("game_id", not_null=True, ordered=True, references="streams (stream_id)"),
        Column("seq", "int", not_null=True, check="seq >= 1"),
        Column("type", not_null=True),
        Column("payload", not_null=True),  # canonical JSON text: the exact bytes that were hashed
        Column("recorded_at", not_null=True),  # ISO text as hashed; never re-rendered by the database
        Column("recorded_by"),
        Column("prev_hash", not_null=True),
        Column("hash", not_null=True),
        Column("line", not_null=POSTGRES),  # the event's canonical JSON; NULL in rows of files from before it
    ],
    ("game_id", "seq"),
)

STREAMS = table(
    "streams",
    [
        Column("stream_id", not_null=True, ordered=True),
        Column("stream_type", not_null=True, check=STREAM_KINDS),
        Column("created_at", not_null=True, ordered=True),
    ],
    "stream_id",
    index("idx_streams_stream_type_created_at_stream_id", "stream_type", "created_at", "stream_id"),
)

STREAM_HEADS = table(
    "stream_heads",
    [
        Column("stream_id", not_null=True, ordered=True, references="streams (stream_id)"),
        *ints("head_seq"),
        Column("head_hash", not_null=True),
    ],
    "stream_id",
)

IDEMPOTENCY_KEYS = table(
    "idempotency_keys",
    [
        Column("key", not_null=True),
        Column("fingerprint", not_null=True),
        Column("game_id", not_null=True, ordered=True),
        *ints("first_seq", "last_seq"),
        Column("created_at", not_null=True),
    ],
    "key",
)

LOG_TABLES = (STREAMS, EVENTS, STREAM_HEADS, IDEMPOTENCY_KEYS)
