"""The tables of a store, each described once (recorder/store/tables.py): the log's (events,
streams, their heads, idempotency keys) and those of the projections and records beside
it (the games list and caches, the player registry, the rating lists, the access tokens).
Both backends' DDL is generated from these descriptions.
"""

from __future__ import annotations

from .tables import POSTGRES, SQLITE, Column, ids, index, ints, table, texts

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

# -- The games list and caches ------------------------------------------------------------

GAMES = table(
    "games",
    [
        *ids("game_id"),
        *texts(*SUMMARY_COLUMNS[:-1]),
        Column("created_at", not_null=True, ordered=True),
        Column("updated_at", not_null=True),
        *texts("metadata", *PLAYER_KEY_COLUMNS),
    ],
    "game_id",
    index("idx_games_variant", "variant"),
    index("idx_games_south_key", "south_key"),
    index("idx_games_north_key", "north_key"),
    index("idx_games_tournament_id", "tournament_id"),
    index("idx_games_event", "event"),
    index("idx_games_created_at_game_id", "created_at", "game_id"),
    # The finished games by the time of their last event (the month a rating list counts a
    # result in): partial, so appends to games in progress never write to it.
    index("games_finished", "updated_at", where="status = 'finished'"),
)

NOTATIONS = table("notations", [*ids("game_id"), *ints("version"), Column("text", not_null=True)], "game_id")

# The position index (recorder/store/caches.py, ``PositionIndex``): each position a game
# reached, by the game's number and the event's seq, with its key's digest (two integers).
# ``position_games`` numbers the games: a number never changes.
POSITION_GAMES = table(
    "position_games", [Column("game", "serial"), Column("game_id", not_null=True, ordered=True, unique=True)], "game"
)

# The position index's second B-tree, in key order: what a search reads (the table itself
# is in game order). ``PositionIndex.index_pending`` may drop it for a large bulk import and
# create it again at its end; an import stopped in between leaves it for the next open to create.
POSITIONS_BY_KEY_INDEX = index("positions_by_key", "key_high", "key_low", "game", "seq")
POSITIONS = table(
    "positions", ints("game", "seq", "key_high", "key_low"), ("game", "seq"), POSITIONS_BY_KEY_INDEX, without_rowid=True
)

# A bulk import's positions (SQLite's: PostgreSQL indexes as it goes), queued in no order
# until it indexes them; AUTOINCREMENT: an id is never given twice, so indexing "the rows
# up to id N" never takes in a row queued later by another import after the top rows were removed.
POSITIONS_PENDING = table(
    "positions_pending",
    [Column("id", "serial"), *ints("key_high", "key_low", "game", "seq")],
    "id",
    autoincrement=True,
    backends=(SQLITE,),
)

# -- Access tokens: digests of every kind (``arbiter``, ``recorder``, ``admin``) ------------

ACCESS_TOKENS = table(
    "access_tokens",
    [
        Column("token_id", not_null=True),
        Column("token_hash", not_null=True),
        Column("kind", not_null=True),
        Column("tournament_id"),
        Column("holder", not_null=True),
        Column("created_at", not_null=True),
        Column("revoked_at"),
    ],
    "token_id",
    index("idx_access_tokens_token_hash", "token_hash", unique=True),
    index("idx_access_tokens_tournament_id", "tournament_id"),
)

# -- The player registry (recorder/store/registry.py) -------------------------------------

PLAYERS = table(
    "players",
    [
        *ids("player_id"),
        Column("name", not_null=True),
        Column("name_geez"),
        Column("federation", not_null=True),
        Column("club"),
        Column("birth_year", "int"),
        Column("external_id"),
        Column("merged_into", ordered=True),
        *ints("version"),
        *ids("name_key"),
        Column("geez_key", ordered=True),
        Column("created_at", not_null=True),
        Column("updated_at", not_null=True),
    ],
    "player_id",
    index("players_by_name_key", "name_key"),
    index("players_by_geez_key", "geez_key"),
)

PLAYER_KEYS = table(
    "player_keys",
    ids("key", "player_id"),
    ("key", "player_id"),
    index("player_keys_by_player", "player_id"),
    without_rowid=True,
)

# The sound key of each player's names: near spellings (recorder/players/geez.py).
PLAYER_SOUNDS = table(
    "player_sounds",
    ids("key", "player_id"),
    ("key", "player_id"),
    index("player_sounds_by_player", "player_id"),
    without_rowid=True,
)

PLAYER_ENTRIES = table(
    "player_entries",
    [*ids("tournament_id"), *ints("number"), *ids("player_id")],
    ("tournament_id", "number"),
    index("player_entries_by_player", "player_id"),
)

PLAYER_GAMES = table(
    "player_games",
    [*ids("game_id"), Column("side", not_null=True), *ids("player_id")],
    ("game_id", "side"),
    index("player_games_by_player", "player_id"),
)

# -- The rating lists ---------------------------------------------------------------------

RATING_LISTS = table(
    "rating_lists",
    [
        *ids("variant", "period", "player_id"),
        Column("rank", "int"),
        *(Column(name, "real", not_null=True) for name in ("rating", "rd", "volatility")),
        *ints("games", "provisional"),
        Column("explanation", not_null=True),
    ],
    ("variant", "period", "player_id"),
    index("rating_lists_by_player", "player_id", "variant", "period"),
)

RATING_LIST_DIGESTS = table(
    "rating_list_digests",
    [*ids("variant", "period"), Column("digest", not_null=True)],
    ("variant", "period"),
)

# Each change of a game's result (finished with a result, or unfinished again: NULL), by
# the event that made it, and the corrections each published rating list states.
GAME_RESULTS = table(
    "game_results",
    [*ids("game_id"), *ints("seq"), *ids("recorded_at"), Column("result")],
    ("game_id", "seq"),
    index("game_results_by_time", "recorded_at"),
)

RATING_LIST_CORRECTIONS = table(
    "rating_list_corrections",
    [*ids("variant", "period", "game_id", "game_period"), *texts("before", "after")],
    ("variant", "period", "game_id"),
)

# The months from which a variant's published rating lists are stale: an import stored a
# game whose result is dated then (a restore keeps each event's date), and the next read of
# the lists publishes them again (recorder/ratings/service.py ``publish_due``).
RATING_LISTS_STALE = table(
    "rating_lists_stale",
    [Column("id", "serial"), *ids("variant", "since")],
    "id",
    index("rating_lists_stale_by_variant", "variant", "id"),
    autoincrement=True,
)

FEATURE_TABLES = (
    GAMES,
    NOTATIONS,
    POSITION_GAMES,
    POSITIONS,
    POSITIONS_PENDING,
    ACCESS_TOKENS,
    PLAYERS,
    PLAYER_KEYS,
    PLAYER_SOUNDS,
    PLAYER_ENTRIES,
    PLAYER_GAMES,
    RATING_LISTS,
    RATING_LIST_DIGESTS,
    GAME_RESULTS,
    RATING_LIST_CORRECTIONS,
    RATING_LISTS_STALE,
)

ALL_TABLES = LOG_TABLES + FEATURE_TABLES
