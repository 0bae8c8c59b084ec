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
- ``games``, ``notations``, ``positions``: projections (recorder/store/games_list.py,
  recorder/store/caches.py), derived from the events and rebuilt by ``recorder rebuild``;
  ``position_games``: the numbers the position index gives games; ``positions_pending``:
  a bulk import's positions until it indexes them. An index from before digests (the
  keys' texts) is rewritten as digests on open (``_migrate_position_texts``).
- ``players``, ``player_keys``, ``player_sounds``, ``player_entries``, ``rating_lists``,
  ``rating_list_corrections``, ``game_results``: the player registry's and the rating
  lists' projections (recorder/store/registry.py), rebuilt like the games list.
- ``access_tokens``: digests of the access tokens (recorder/store/tokens.py), records
  beside the events. A database from before recorder tokens keeps its arbiter tokens:
  they are copied from the old ``tokens`` table when this one is created.
"""

from __future__ import annotations

from sqlite_utils import Database

from . import catalogue
from .catalogue import PLAYER_KEY_COLUMNS, SUMMARY_COLUMNS
from .interface import GAME, TOURNAMENT
from .sql import _REPLACED_TRIGGERS, _TRIGGERS
from .tables import SQLITE, Table, index_ddl, missing_columns, on, sqlite_add_column, sqlite_ddl

__all__ = ["PLAYER_KEY_COLUMNS", "POSITIONS_BY_KEY", "SUMMARY_COLUMNS", "create_schema", "missing_triggers"]

# The position index's second B-tree (``catalogue.POSITIONS_BY_KEY_INDEX``), which
# ``PositionIndex.index_pending`` drops for a large bulk import and creates again at its end.
POSITIONS_BY_KEY = index_ddl(catalogue.POSITIONS, catalogue.POSITIONS_BY_KEY_INDEX)

_LEGACY_TOURNAMENT_PREFIX = "t-"  # how files from before the streams table told streams apart


def create_schema(db: Database) -> None:
    """Create what is missing and migrate older files; call inside a write transaction."""
    existed = set(db.table_names())
    _migrate_shapes(db, existed)
    for table in on(SQLITE, catalogue.ALL_TABLES):
        _create_table(db, table, existed)
    _fill_new_tables(db, existed)
    for name in _REPLACED_TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    db.executescript(_TRIGGERS)
    for trigger in _HEAD_TRIGGERS:  # one statement each: a script would commit the transaction
        db.execute(trigger)


def _create_table(db: Database, table: Table, existed: set[str]) -> None:
    """The table and its indexes, where missing; a table of an older file takes the
    described columns it lacks (ADD COLUMN fires no trigger)."""
    create, *indexes = sqlite_ddl(table)
    if table.name in existed:
        for name in missing_columns(table, _columns(db, table.name)):
            db.execute(sqlite_add_column(table, name))
    else:
        db.execute(create)
    for statement in indexes:
        db.execute(statement)


def _columns(db: Database, name: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({name})").fetchall()]


def _migrate_shapes(db: Database, existed: set[str]) -> None:
    """The older files' tables whose data must change before the described tables are
    created: the games list's search keys, the position index of keys' texts."""
    if "games" in existed and "south_key" not in _columns(db, "games"):
        _add_player_keys(db)
    if "positions" in existed and "position" in _columns(db, "positions"):  # an index of the keys' texts
        _migrate_position_texts(db)


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
    if "access_tokens" not in existed and "tokens" in existed:  # arbiter tokens from before recorder tokens
        db.execute(
            "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at, revoked_at)"
            " SELECT token_id, token_hash, 'arbiter', tournament_id, holder, created_at, revoked_at FROM tokens"
        )
    if "game_results" not in existed:
        db.execute(RESULTS_FROM_GAMES)


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


def _add_player_keys(db: Database) -> None:
    """A games list from before searches by player ignored case: its keys, derived from the
    names by the very function new rows use; the indexes of the exact names go (nothing
    searches them now)."""
    from recorder.core.names import player_key

    db.conn.create_function("player_key", 1, lambda name: None if name is None else player_key(name))
    for column in PLAYER_KEY_COLUMNS:
        db.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT")
    db.execute("UPDATE games SET south_key = player_key(south), north_key = player_key(north)")
    db.execute("DROP INDEX IF EXISTS idx_games_south")
    db.execute("DROP INDEX IF EXISTS idx_games_north")


def _migrate_position_texts(db: Database) -> None:
    """An index of the keys' texts (``positions (position, game_id, seq)`` and its queue)
    rewritten as digests and game numbers, in the same transaction as the rest of the
    schema: the index answers the same searches after the migration as before it."""
    from recorder.core.position_digest import key_digest

    db.conn.create_function("key_high", 1, lambda key: key_digest(key)[0], deterministic=True)
    db.conn.create_function("key_low", 1, lambda key: key_digest(key)[1], deterministic=True)
    db.execute("ALTER TABLE positions RENAME TO positions_of_texts")
    db.execute("ALTER TABLE positions_pending RENAME TO positions_pending_of_texts")
    db.execute("DROP INDEX IF EXISTS positions_by_game")
    for table in (catalogue.POSITION_GAMES, catalogue.POSITIONS, catalogue.POSITIONS_PENDING):
        for statement in sqlite_ddl(table):
            db.execute(statement)
    db.execute(
        "INSERT OR IGNORE INTO position_games (game_id) SELECT game_id FROM positions_of_texts"
        " UNION SELECT game_id FROM positions_pending_of_texts ORDER BY 1"
    )
    numbered = "JOIN position_games USING (game_id)"
    db.execute("DROP INDEX positions_by_key")  # created again once its rows are in, in one sorted pass
    db.execute(
        "INSERT OR IGNORE INTO positions (key_high, key_low, game, seq) SELECT key_high(position),"
        f" key_low(position), game, seq FROM positions_of_texts {numbered} ORDER BY game, seq"
    )
    db.execute(POSITIONS_BY_KEY)
    db.execute(  # the queue's ids go on where they stood: AUTOINCREMENT never gives one twice
        "INSERT INTO sqlite_sequence (name, seq) SELECT 'positions_pending', seq FROM sqlite_sequence"
        " WHERE name = 'positions_pending_of_texts'"
    )
    db.execute(
        "INSERT INTO positions_pending (id, key_high, key_low, game, seq) SELECT id, key_high(position),"
        f" key_low(position), game, seq FROM positions_pending_of_texts {numbered} ORDER BY id"
    )
    db.execute("DROP TABLE positions_of_texts")
    db.execute("DROP TABLE positions_pending_of_texts")


# A file from before ``game_results``: each finished game's result as of the event that
# ended it (its last but annotations), as the lists read it then; ``recorder rebuild``
# writes every change from the events.
RESULTS_FROM_GAMES = (
    "INSERT INTO game_results (game_id, seq, recorded_at, result)"
    " SELECT g.game_id, e.seq, e.recorded_at, g.result FROM games g JOIN events e ON e.game_id = g.game_id"
    " WHERE g.status = 'finished' AND e.seq = (SELECT MAX(x.seq) FROM events x"
    " WHERE x.game_id = g.game_id AND x.type != 'annotated')"
)
