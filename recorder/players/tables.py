"""The player registry's tables, described once (recorder/store/tables.py), handed to the
store by ``PlayerTables`` (registry.py).
"""

from __future__ import annotations

from recorder.store.tables import Column, Schema, ids, index, ints, register, table

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

PLAYER_GAMES = table(
    "player_games",
    [*ids("game_id"), Column("side", not_null=True), *ids("player_id")],
    ("game_id", "side"),
    index("player_games_by_player", "player_id"),
)


SCHEMA = register(Schema("players", (PLAYERS, PLAYER_KEYS, PLAYER_SOUNDS, PLAYER_GAMES)))
