"""The rating lists' tables, described once (recorder/store/tables.py), handed to the
store by ``RatingTables`` (lists_table.py). Each game's result changes, which the lists
read, are the games' (recorder/games/tables.py).
"""

from __future__ import annotations

from recorder.store.tables import Column, Schema, ids, index, ints, register, table, texts

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

RATING_LIST_CORRECTIONS = table(
    "rating_list_corrections",
    [*ids("variant", "period", "game_id", "game_period"), *texts("before", "after")],
    ("variant", "period", "game_id"),
)


SCHEMA = register(Schema("ratings", (RATING_LISTS, RATING_LIST_DIGESTS, RATING_LIST_CORRECTIONS)))
