"""The SQLite file's schema: every described table (recorder/store/catalogue.py) created
where missing, and the migrations that bring an older file's data up to date.

The tables' DDL is generated from their one description (recorder/store/tables.py), as
PostgreSQL's is: a column added to a description is added to an older file on its next
open (``ALTER TABLE ... ADD COLUMN``). What is not a table stays here: the triggers that
keep the log append-only, and the data migrations of older files. ``create_schema`` is
idempotent and runs on every open, inside one write transaction: a database created by
an earlier release is migrated in place.

- ``events``: the log itself (append only, hash-chained, guarded by triggers). ``line``
  holds each event's canonical JSON (``chain.event_text(event, linked=True)``), the
  very text an NDJSON archive writes; rows from before it existed have NULL there and
  are rendered by SQL (``sql.EVENT_LINE``) to the same bytes.
- ``streams``: one row per stream with its type (``game``, ``tournament`` or ``player``), written by
  the first append. Older files knew a tournament only by its ``t-`` id prefix; the
  migration reads that prefix once, here, and never again.
- ``stream_heads``: each stream's head (its last event's seq and hash), recorded by every
  append in its transaction, moving only forward (triggers): ``recorder verify`` holds the
  events against it, so deleted last events are found (docs/security.md). A file from
  before it has the heads read from its events when it is opened.
- ``idempotency_keys``: which request stored which events.

Each feature's tables (the games list and caches, the registry, the rating lists, the
tokens) are the feature's: described in its ``tables.py`` and created, with what its older
files need, by ``ensure_schema`` when the feature hands them over (``tables.Schema``).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlite_utils import Database

from . import catalogue
from .interface import GAME, TOURNAMENT
from .sql import _REPLACED_TRIGGERS, _TRIGGERS
from .tables import SQLITE, Schema, Table, missing_columns, on, sqlite_add_column, sqlite_ddl

_LEGACY_TOURNAMENT_PREFIX = "t-"  # how files from before the streams table told streams apart


def create_schema(db: Database) -> None:
    """Create the log's tables where missing and migrate older files; call inside a write transaction."""
    existed = set(db.table_names())
    create_tables(db, catalogue.LOG_TABLES, existed)
    _fill_new_tables(db, existed)
    for name in _REPLACED_TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    db.executescript(_TRIGGERS)
    for trigger in _HEAD_TRIGGERS:  # one statement each: a script would commit the transaction
        db.execute(trigger)


def ensure_schema(db: Database, schema: Schema) -> None:
    """A feature's tables (``tables.Schema``), created where missing, an older file's data
    brought up to date with them; call inside a write transaction."""
    existed = set(db.table_names())
    schema.reshape(db, existed)
    create_tables(db, schema.tables, existed)
    schema.fill(db, existed)


def create_tables(db: Database, tables: Iterable[Table], existed: set[str]) -> None:
    """Each table and its indexes, where missing; a table of an older file takes the
    described columns it lacks (ADD COLUMN fires no trigger)."""
    for table in on(SQLITE, tables):
        create, *indexes = sqlite_ddl(table)
        if table.name in existed:
            for name in missing_columns(table, columns_of(db, table.name)):
                db.execute(sqlite_add_column(table, name))
        else:
            db.execute(create)
        for statement in indexes:
            db.execute(statement)


def columns_of(db: Database, name: str) -> list[str]:
    """The columns a table of the file has."""
    return [row[1] for row in db.execute(f"PRAGMA table_info({name})").fetchall()]


def _fill_new_tables(db: Database, existed: set[str]) -> None:
    """The rows a table new to an older file is given from what the file held before it."""
    if "streams" not in existed:
        db.execute(
            "INSERT INTO streams (stream_id, stream_type, created_at)"
            " SELECT game_id, CASE WHEN substr(game_id, 1, 2) = ? THEN ? ELSE ? END, recorded_at"
            " FROM events WHERE seq = 1",
            (_LEGACY_TOURNAMENT_PREFIX, TOURNAMENT, GAME),
        )
    if "stream_heads" not in existed:  # one pass down the key: SQLite takes a bare column beside MAX from its row
        db.execute(
            "INSERT INTO stream_heads (stream_id, head_seq, head_hash)"
            " SELECT game_id, MAX(seq), hash FROM events GROUP BY game_id"
        )


# A head only moves forward, and is never removed: an append takes it past its events.
_HEAD_TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS stream_heads_forward BEFORE UPDATE ON stream_heads"
    " WHEN NEW.head_seq <= OLD.head_seq OR NEW.stream_id IS NOT OLD.stream_id"
    " BEGIN SELECT RAISE(ABORT, 'a stream head only moves forward'); END",
    "CREATE TRIGGER IF NOT EXISTS stream_heads_no_delete BEFORE DELETE ON stream_heads"
    " BEGIN SELECT RAISE(ABORT, 'stream heads are kept'); END",
)


# The triggers that keep the log immutable and the heads moving forward, by table: every
# open creates what is missing (create_schema), and ``recorder verify`` names it.
PROTECTIVE_TRIGGERS = {
    "events_no_update": "events",
    "events_no_delete": "events",
    "events_extend_chain": "events",
    "stream_heads_forward": "stream_heads",
    "stream_heads_no_delete": "stream_heads",
}


def missing_triggers(db: Database) -> list[str]:
    """The protective triggers a file lacks, one line each: those of a table it has. A file
    from before a trigger (or its table) is not lacking it: its next open creates it."""
    present = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')")}
    return [
        f"trigger {name} on {table}: missing"
        for name, table in PROTECTIVE_TRIGGERS.items()
        if table in present and name not in present and _REPLACES.get(name) not in present
    ]


# A trigger that took an older one's place (create_schema drops the older one).
_REPLACES = {"events_extend_chain": "events_append_only"}
