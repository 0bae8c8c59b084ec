"""The games' tables, described once (recorder/store/tables.py): the games list, the
notation cache, the position index, each game's result changes and the months an import
made the rating lists stale. The store creates them from these descriptions when a table
class of this package hands it ``SCHEMA`` (``Tables.ensure``), on either backend; what an
older SQLite file needs to match them is here too (``_reshape``, ``_fill``).

- ``games``, ``notations``, ``positions``: projections (games_list.py, caches.py), derived
  from the events and rebuilt by ``recorder rebuild``; ``position_games``: the numbers the
  position index gives games; ``positions_pending``: a bulk import's positions until it
  indexes them. An index from before digests (the keys' texts) is rewritten as digests on
  open (``_migrate_position_texts``).
- ``game_results`` and ``rating_lists_stale`` (results.py): written by a game's append,
  in its transaction, so they are the games' (the rating lists read them: the ratings
  package is above this one).
"""

from __future__ import annotations

from typing import Any

from recorder.store.tables import (
    SQLITE,
    Column,
    Schema,
    ids,
    index,
    index_ddl,
    ints,
    register,
    sqlite_ddl,
    table,
    texts,
)

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

# The position index (recorder/games/caches.py, ``PositionIndex``): each position a game
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

# The position index's second B-tree, as its statement (``PositionIndex.index_pending``).
POSITIONS_BY_KEY = index_ddl(POSITIONS, POSITIONS_BY_KEY_INDEX)

# Each change of a game's result (finished with a result, or unfinished again: NULL), by
# the event that made it, and the corrections each published rating list states.
GAME_RESULTS = table(
    "game_results",
    [*ids("game_id"), *ints("seq"), *ids("recorded_at"), Column("result")],
    ("game_id", "seq"),
    index("game_results_by_time", "recorded_at"),
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


def _columns(db: Any, name: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({name})").fetchall()]


def _reshape(db: Any, existed: set[str]) -> None:
    """An older SQLite file's tables whose data must change before the described ones are
    created: the games list's search keys, the position index of keys' texts."""
    if "games" in existed and "south_key" not in _columns(db, "games"):
        _add_player_keys(db)
    if "positions" in existed and "position" in _columns(db, "positions"):  # an index of the keys' texts
        _migrate_position_texts(db)


def _fill(db: Any, existed: set[str]) -> None:
    """A file from before ``game_results`` has each finished game's result read from its games list."""
    if "game_results" not in existed:
        db.execute(RESULTS_FROM_GAMES)


def _add_player_keys(db: Any) -> None:
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


def _migrate_position_texts(db: Any) -> None:
    """An index of the keys' texts (``positions (position, game_id, seq)`` and its queue)
    rewritten as digests and game numbers, in the same transaction as the rest of the
    schema: the index answers the same searches after the migration as before it."""
    from recorder.core.position_digest import key_digest

    db.conn.create_function("key_high", 1, lambda key: key_digest(key)[0], deterministic=True)
    db.conn.create_function("key_low", 1, lambda key: key_digest(key)[1], deterministic=True)
    db.execute("ALTER TABLE positions RENAME TO positions_of_texts")
    db.execute("ALTER TABLE positions_pending RENAME TO positions_pending_of_texts")
    db.execute("DROP INDEX IF EXISTS positions_by_game")
    for described in (POSITION_GAMES, POSITIONS, POSITIONS_PENDING):
        for statement in sqlite_ddl(described):
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


SCHEMA = register(
    Schema(
        "games",
        (GAMES, NOTATIONS, POSITION_GAMES, POSITIONS, POSITIONS_PENDING, GAME_RESULTS, RATING_LISTS_STALE),
        reshape=_reshape,
        fill=_fill,
    )
)
