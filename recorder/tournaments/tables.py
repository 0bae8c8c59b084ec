"""The tournaments' table, described once (recorder/store/tables.py), handed to the store by
``EntryTables`` (entries.py): ``player_entries``, which tournament entrant is which registry
player, written with the tournament's events that say so.
"""

from __future__ import annotations

from recorder.store.tables import Schema, ids, index, ints, register, table

PLAYER_ENTRIES = table(
    "player_entries",
    [*ids("tournament_id"), *ints("number"), *ids("player_id")],
    ("tournament_id", "number"),
    index("player_entries_by_player", "player_id"),
)

SCHEMA = register(Schema("tournaments", (PLAYER_ENTRIES,)))
