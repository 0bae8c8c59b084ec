"""Every table of the SQLite file, and the migrations that bring an older file up to date.

One place for the schema, so a change to a column (e.g. ``recorded_by`` made NOT NULL)
is made once. ``create_schema`` is idempotent and runs on every open, inside one write
transaction: a database created by an earlier release is migrated in place.

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

from .interface import GAME, TOURNAMENT
from .sql import _REPLACED_TRIGGERS, _TRIGGERS

# The games projection's columns a caller may set (created_at/updated_at are kept by it).
SUMMARY_COLUMNS = (
    "variant",
    "south",
    "north",
    "event",
    "site",
    "date",
    "round",
    "tournament_id",
    "board",
    "status",
    "result",
    "metadata",
)

# What a search by player matches (``recorder.core.names.player_key`` of south and north):
# derived by the games list from the two names, never set by a caller.
PLAYER_KEY_COLUMNS = ("south_key", "north_key")

# The position index's second B-tree, in key order: what a search reads (the table itself
# is in game order). ``PositionIndex.index_pending`` may drop it for a large bulk import and
# create it again at its end; an import stopped in between leaves it for the next open to create.
POSITIONS_BY_KEY = "CREATE INDEX IF NOT EXISTS positions_by_key ON positions (key_high, key_low, game, seq)"

_LEGACY_TOURNAMENT_PREFIX = "t-"  # how files from before the streams table told streams apart


def create_schema(db: Database) -> None:
    """Create what is missing and migrate older files; call inside a write transaction."""
    _create_events(db)
    _create_streams(db)
    _create_stream_heads(db)
    _create_idempotency_keys(db)
    _create_games(db)
    _create_caches(db)
    _create_token_table(db)
    _create_registry(db)
    for name in _REPLACED_TRIGGERS:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    db.executescript(_TRIGGERS)


def _create_events(db: Database) -> None:
    events = db.table("events")
    events.create(
        {
            "game_id": str,
            "seq": int,
            "type": str,
            "payload": str,
            "recorded_at": str,
            "recorded_by": str,
            "prev_hash": str,
            "hash": str,
            "line": str,
        },
        pk=("game_id", "seq"),
        not_null=["game_id", "seq", "type", "payload", "recorded_at", "prev_hash", "hash"],
        if_not_exists=True,
    )
    if "line" not in events.columns_dict:  # a file from before stored lines: ADD COLUMN fires no trigger
        db.execute("ALTER TABLE events ADD COLUMN line TEXT")


def _create_streams(db: Database) -> None:
    existed = db.table("streams").exists()
    streams = db.table("streams").create(
        {"stream_id": str, "stream_type": str, "created_at": str},
        pk="stream_id",
        not_null=["stream_id", "stream_type", "created_at"],
        if_not_exists=True,
    )
    streams.create_index(["stream_type", "created_at", "stream_id"], if_not_exists=True)
    if not existed:
        db.execute(
            "INSERT INTO streams (stream_id, stream_type, created_at)"
            " SELECT game_id, CASE WHEN substr(game_id, 1, 2) = ? THEN ? ELSE ? END, recorded_at"
            " FROM events WHERE seq = 1",
            (_LEGACY_TOURNAMENT_PREFIX, TOURNAMENT, GAME),
        )


def _create_stream_heads(db: Database) -> None:
    """Each stream's head: the seq and hash of its last event, recorded by every append
    (``sql.UPSERT_HEAD``). A file from before it has them read from its events, once (one
    pass down the events' key: SQLite takes a bare column beside MAX from the row it picked)."""
    existed = db.table("stream_heads").exists()
    db.execute(
        "CREATE TABLE IF NOT EXISTS stream_heads"
        " (stream_id TEXT PRIMARY KEY, head_seq INTEGER NOT NULL, head_hash TEXT NOT NULL)"
    )
    if not existed:
        db.execute(
            "INSERT INTO stream_heads (stream_id, head_seq, head_hash)"
            " SELECT game_id, MAX(seq), hash FROM events GROUP BY game_id"
        )
    for trigger in _HEAD_TRIGGERS:  # one statement each: a script would commit the transaction
        db.execute(trigger)


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


def _create_idempotency_keys(db: Database) -> None:
    db.table("idempotency_keys").create(
        {"key": str, "fingerprint": str, "game_id": str, "first_seq": int, "last_seq": int, "created_at": str},
        pk="key",
        not_null=["key", "fingerprint", "game_id", "first_seq", "last_seq", "created_at"],
        if_not_exists=True,
    )


def _create_games(db: Database) -> None:
    games = db.table("games").create(
        {
            "game_id": str,
            **{c: str for c in SUMMARY_COLUMNS[:-1]},
            "created_at": str,
            "updated_at": str,
            "metadata": str,
            **{c: str for c in PLAYER_KEY_COLUMNS},
        },
        pk="game_id",
        not_null=["game_id", "created_at", "updated_at"],
        if_not_exists=True,
    )
    if "south_key" not in games.columns_dict:
        _add_player_keys(db)
    for columns in (["variant"], ["south_key"], ["north_key"], ["tournament_id"], ["event"], ["created_at", "game_id"]):
        games.create_index(columns, if_not_exists=True)
    # The finished games by the time of their last event (the month a rating list counts a
    # result in): partial, so appends to games in progress never write to it.
    db.execute("CREATE INDEX IF NOT EXISTS games_finished ON games (updated_at) WHERE status = 'finished'")


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


def _create_caches(db: Database) -> None:
    """The notation of each game at a version, and every position each game reached."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS notations (game_id TEXT PRIMARY KEY, version INTEGER NOT NULL, text TEXT NOT NULL)"
    )
    if "position" in db.table("positions").columns_dict:  # a file whose index held the keys' texts
        _migrate_position_texts(db)
    _create_position_index(db)


# The position index (recorder/store/caches.py, ``PositionIndex``): each position a game
# reached, by the game's number and the event's seq, with its key's digest (two integers).
# ``position_games`` numbers the games: INTEGER PRIMARY KEY, so a number never changes.
# ``positions_pending``: a bulk import's positions, queued in no order until it indexes
# them; AUTOINCREMENT: an id is never given twice, so indexing "the rows up to id N" never
# takes in a row queued later by another import after the top rows were removed.
_POSITION_INDEX = (
    "CREATE TABLE IF NOT EXISTS position_games (game INTEGER PRIMARY KEY, game_id TEXT NOT NULL UNIQUE)",
    "CREATE TABLE IF NOT EXISTS positions (game INTEGER NOT NULL, seq INTEGER NOT NULL,"
    " key_high INTEGER NOT NULL, key_low INTEGER NOT NULL, PRIMARY KEY (game, seq)) WITHOUT ROWID",
    POSITIONS_BY_KEY,
    "CREATE TABLE IF NOT EXISTS positions_pending (id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " key_high INTEGER NOT NULL, key_low INTEGER NOT NULL, game INTEGER NOT NULL, seq INTEGER NOT NULL)",
)


def _create_position_index(db: Database) -> None:
    for statement in _POSITION_INDEX:
        db.execute(statement)


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
    _create_position_index(db)
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


# The player registry's projections (recorder/store/registry.py).
_REGISTRY = (
    "CREATE TABLE IF NOT EXISTS players (player_id TEXT PRIMARY KEY, name TEXT NOT NULL, name_geez TEXT,"
    " federation TEXT NOT NULL, club TEXT, birth_year INTEGER, external_id TEXT, merged_into TEXT,"
    " version INTEGER NOT NULL, name_key TEXT NOT NULL, geez_key TEXT, created_at TEXT NOT NULL,"
    " updated_at TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS players_by_name_key ON players (name_key)",
    "CREATE INDEX IF NOT EXISTS players_by_geez_key ON players (geez_key)",
    "CREATE TABLE IF NOT EXISTS player_keys (key TEXT NOT NULL, player_id TEXT NOT NULL,"
    " PRIMARY KEY (key, player_id)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS player_keys_by_player ON player_keys (player_id)",
    "CREATE TABLE IF NOT EXISTS player_sounds (key TEXT NOT NULL, player_id TEXT NOT NULL,"
    " PRIMARY KEY (key, player_id)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS player_sounds_by_player ON player_sounds (player_id)",
    "CREATE TABLE IF NOT EXISTS player_entries (tournament_id TEXT NOT NULL, number INTEGER NOT NULL,"
    " player_id TEXT NOT NULL, PRIMARY KEY (tournament_id, number))",
    "CREATE INDEX IF NOT EXISTS player_entries_by_player ON player_entries (player_id)",
    "CREATE TABLE IF NOT EXISTS player_games (game_id TEXT NOT NULL, side TEXT NOT NULL, player_id TEXT NOT NULL,"
    " PRIMARY KEY (game_id, side))",
    "CREATE INDEX IF NOT EXISTS player_games_by_player ON player_games (player_id)",
    "CREATE TABLE IF NOT EXISTS rating_lists (variant TEXT NOT NULL, period TEXT NOT NULL,"
    " player_id TEXT NOT NULL, rank INTEGER, rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,"
    " games INTEGER NOT NULL, provisional INTEGER NOT NULL, explanation TEXT NOT NULL,"
    " PRIMARY KEY (variant, period, player_id))",
    "CREATE INDEX IF NOT EXISTS rating_lists_by_player ON rating_lists (player_id, variant, period)",
    "CREATE TABLE IF NOT EXISTS rating_list_digests (variant TEXT NOT NULL, period TEXT NOT NULL,"
    " digest TEXT NOT NULL, PRIMARY KEY (variant, period))",
)

# Each change of a game's result (finished with a result, or unfinished again: NULL), by
# the event that made it, and the corrections each published rating list states.
_RESULTS = (
    "CREATE TABLE IF NOT EXISTS game_results (game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
    " recorded_at TEXT NOT NULL, result TEXT, PRIMARY KEY (game_id, seq))",
    "CREATE INDEX IF NOT EXISTS game_results_by_time ON game_results (recorded_at)",
    "CREATE TABLE IF NOT EXISTS rating_list_corrections (variant TEXT NOT NULL, period TEXT NOT NULL,"
    " game_id TEXT NOT NULL, game_period TEXT NOT NULL, before TEXT, after TEXT,"
    " PRIMARY KEY (variant, period, game_id))",
)

# The months from which a variant's published rating lists are stale: an import stored a
# game whose result is dated then (a restore keeps each event's date), and the next read of
# the lists publishes them again (recorder/ratings/service.py ``publish_due``).
_STALE_LISTS = (
    "CREATE TABLE IF NOT EXISTS rating_lists_stale (id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " variant TEXT NOT NULL, since TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS rating_lists_stale_by_variant ON rating_lists_stale (variant, id)",
)

# A file from before ``game_results``: each finished game's result as of the event that
# ended it (its last but annotations), as the lists read it then; ``recorder rebuild``
# writes every change from the events.
RESULTS_FROM_GAMES = (
    "INSERT INTO game_results (game_id, seq, recorded_at, result)"
    " SELECT g.game_id, e.seq, e.recorded_at, g.result FROM games g JOIN events e ON e.game_id = g.game_id"
    " WHERE g.status = 'finished' AND e.seq = (SELECT MAX(x.seq) FROM events x"
    " WHERE x.game_id = g.game_id AND x.type != 'annotated')"
)


def _create_registry(db: Database) -> None:
    for statement in _REGISTRY:
        db.execute(statement)
    fresh = "game_results" not in db.table_names()
    for statement in _RESULTS:
        db.execute(statement)
    if fresh:
        db.execute(RESULTS_FROM_GAMES)
    for statement in _STALE_LISTS:
        db.execute(statement)


def _create_token_table(db: Database) -> None:
    """Access token digests of every kind (``arbiter``, ``recorder``, ``admin``)."""
    fresh = "access_tokens" not in db.table_names()
    tokens = db.table("access_tokens").create(
        {
            "token_id": str,
            "token_hash": str,
            "kind": str,
            "tournament_id": str,
            "holder": str,
            "created_at": str,
            "revoked_at": str,
        },
        pk="token_id",
        not_null=["token_id", "token_hash", "kind", "holder", "created_at"],
        if_not_exists=True,
    )
    tokens.create_index(["token_hash"], unique=True, if_not_exists=True)
    tokens.create_index(["tournament_id"], if_not_exists=True)
    if fresh and "tokens" in db.table_names():
        db.execute(
            "INSERT INTO access_tokens (token_id, token_hash, kind, tournament_id, holder, created_at, revoked_at)"
            " SELECT token_id, token_hash, 'arbiter', tournament_id, holder, created_at, revoked_at FROM tokens"
        )
