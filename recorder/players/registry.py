"""The player registry's projections beside the event store, on the store's database.

- ``players``: one row per player stream, his fold as of its last event, with the
  search keys of his full names (``name_key``, ``geez_key``: a registration whose name
  has the same key as another's asks for confirmation);
- ``player_keys``: the search key of each name from each of its words on
  (``players.word_keys``), in key order: a search is one range of that index;
- ``player_sounds``: the sound key of each name (``players.geez.sound_key``): a
  registration's candidates spelt nearly alike are those sharing one, an index lookup;
- ``player_entries``: which tournament entrant is which registry player (written with
  the tournament's events that say so); ``player_games``: which side of a game outside
  tournaments is which player, linked after the fact (written with his ``game_linked``);

The rating lists are the ratings' (recorder/ratings/lists_table.py), each game's result
changes the games' (recorder/games/results.py). The tables are described in tables.py.

All are derived from the events: the services write them in the append's transaction,
``recorder rebuild`` rewrites them and ``recorder verify --projections`` compares them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from recorder.store import ProjectionWrite, StoredEvent, Tables, Tx
from recorder.store.tables import on_conflict_update
from recorder.tournaments.entries import EntryTables

from .tables import PLAYERS, SCHEMA

_ADD_KEY = "INSERT INTO player_keys (key, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
_ADD_SOUND = "INSERT INTO player_sounds (key, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING"

PLAYER_COLUMNS = (
    "player_id",
    "name",
    "name_geez",
    "federation",
    "club",
    "birth_year",
    "external_id",
    "merged_into",
    "version",
    "name_key",
    "geez_key",
    "created_at",
    "updated_at",
)
_LAST_CHARACTER = "\U0010ffff"  # above every key's characters: the end of a prefix's range


class PlayerTables(EntryTables):
    """The registry's rows on the store's file (SQLite, or PostgreSQL through its handle)."""

    def __init__(self, store: Tables):
        super().__init__(store)
        store.ensure(SCHEMA)

    def _handle(self) -> Tx:
        return self.store.handle()

    # -- Players --------------------------------------------------------------------

    def write(
        self, row: dict, keys: list[str], games: Sequence[tuple[str, str]] = (), sounds: Sequence[str] = ()
    ) -> ProjectionWrite:
        """What a player's append runs in its transaction: his row, keys, linked games and sound keys, as of it."""

        def upsert(db: Tx, events: Sequence[StoredEvent]) -> None:
            created = events[0].recorded_at if events[0].seq == 1 else None
            self._put(db, row, keys, created, events[-1].recorded_at, games, sounds)

        return upsert

    def _put(
        self,
        db: Tx,
        row: dict,
        keys: list[str],
        created_at: str | None,
        updated_at: str,
        games: Sequence[tuple[str, str]] = (),
        sounds: Sequence[str] = (),
    ) -> None:
        player_id = row["player_id"]
        if created_at is None:
            found = db.execute("SELECT created_at FROM players WHERE player_id = ?", (player_id,)).fetchone()
            created_at = found[0] if found else updated_at
        full = {**row, "created_at": created_at, "updated_at": updated_at}
        names = ", ".join(PLAYER_COLUMNS)
        db.execute(
            f"INSERT INTO players ({names}) VALUES ({', '.join('?' * len(PLAYER_COLUMNS))})"
            + on_conflict_update(PLAYERS, PLAYER_COLUMNS),
            [full.get(c) for c in PLAYER_COLUMNS],
        )
        db.execute("DELETE FROM player_keys WHERE player_id = ?", (player_id,))
        for key in keys:
            db.execute(_ADD_KEY, (key, player_id))
        db.execute("DELETE FROM player_games WHERE player_id = ?", (player_id,))
        for game_id, side in games:
            db.execute(
                "INSERT INTO player_games (game_id, side, player_id) VALUES (?, ?, ?)", (game_id, side, player_id)
            )
        db.execute("DELETE FROM player_sounds WHERE player_id = ?", (player_id,))
        for sound in sounds:
            db.execute(_ADD_SOUND, (sound, player_id))

    def replace(self, rows: Iterable[tuple[dict, list[str], str, str, Sequence[tuple[str, str]], list[str]]]) -> None:
        """Rewrite each player's row, keys, linked games and sound keys:
        ``(row, keys, created_at, updated_at, games, sounds)``."""
        with self.store.transaction() as db:
            for row, keys, created_at, updated_at, games, sounds in rows:
                self._put(db, row, keys, created_at, updated_at, games, sounds)

    def linked(self, player_id: str) -> list[tuple[str, str]]:
        """The (game id, side) of the games linked to this player, in game order."""
        rows = self._handle().execute(
            "SELECT game_id, side FROM player_games WHERE player_id = ? ORDER BY game_id, side", (player_id,)
        )
        return [(r[0], r[1]) for r in rows.fetchall()]

    def linked_to(self, game_id: str, side: str) -> str | None:
        row = (
            self._handle()
            .execute("SELECT player_id FROM player_games WHERE game_id = ? AND side = ?", (game_id, side))
            .fetchone()
        )
        return None if row is None else row[0]

    def linked_players(self, game_ids: Sequence[str]) -> dict[tuple[str, str], str]:
        """(game id, side) -> the player linked to it, for these games (500 to a query)."""
        found: dict[tuple[str, str], str] = {}
        for start in range(0, len(game_ids), 500):
            batch = list(game_ids[start : start + 500])
            marks = ", ".join("?" * len(batch))
            cursor = self._handle().execute(
                f"SELECT game_id, side, player_id FROM player_games WHERE game_id IN ({marks})", batch
            )
            found.update({(r[0], r[1]): r[2] for r in cursor.fetchall()})
        return found

    def row(self, player_id: str) -> dict | None:
        cursor = self._handle().execute(
            f"SELECT {', '.join(PLAYER_COLUMNS)} FROM players WHERE player_id = ?", (player_id,)
        )
        found = cursor.fetchone()
        return None if found is None else dict(zip(PLAYER_COLUMNS, found))

    def keys(self, player_id: str) -> list[str]:
        rows = self._handle().execute("SELECT key FROM player_keys WHERE player_id = ? ORDER BY key", (player_id,))
        return [r[0] for r in rows.fetchall()]

    def sounds(self, player_id: str) -> list[str]:
        rows = self._handle().execute("SELECT key FROM player_sounds WHERE player_id = ? ORDER BY key", (player_id,))
        return [r[0] for r in rows.fetchall()]

    def sounds_missing(self) -> bool:
        """Players and no sound key at all: a file from before ``player_sounds`` was kept."""
        found = self._handle().execute(
            "SELECT 1 FROM players WHERE EXISTS (SELECT 1 FROM players) AND NOT EXISTS (SELECT 1 FROM player_sounds)"
            " LIMIT 1"
        )
        return found.fetchone() is not None

    def names(self) -> list[tuple[str, str, str | None]]:
        """(id, name, Ge'ez name) of every player, as his row holds them."""
        rows = self._handle().execute("SELECT player_id, name, name_geez FROM players ORDER BY player_id")
        return [(r[0], r[1], r[2]) for r in rows.fetchall()]

    def add_sounds(self, sounds: dict[str, list[str]]) -> None:
        with self.store.transaction() as db:
            for player_id, keys in sounds.items():
                for key in keys:
                    db.execute(_ADD_SOUND, (key, player_id))

    def sounding_like(self, sounds: Sequence[str], *, limit: int) -> list[dict]:
        """Players (not merged) with a name of one of these sound keys: an index range each."""
        wanted = sorted({s for s in sounds if s})
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))
        ids = self._handle().execute(
            "SELECT DISTINCT s.player_id FROM player_sounds s JOIN players p ON p.player_id = s.player_id"
            f" WHERE s.key IN ({marks}) AND p.merged_into IS NULL ORDER BY s.player_id LIMIT ?",
            [*wanted, limit],
        )
        found = self.rows([r[0] for r in ids.fetchall()])
        return sorted(found.values(), key=lambda r: (r["name_key"], r["player_id"]))

    def rows(self, player_ids: Sequence[str]) -> dict[str, dict]:
        found: dict[str, dict] = {}
        for start in range(0, len(player_ids), 500):
            batch = list(player_ids[start : start + 500])
            marks = ", ".join("?" * len(batch))
            cursor = self._handle().execute(
                f"SELECT {', '.join(PLAYER_COLUMNS)} FROM players WHERE player_id IN ({marks})", batch
            )
            found.update({r[0]: dict(zip(PLAYER_COLUMNS, r)) for r in cursor.fetchall()})
        return found

    def search(self, key: str, *, limit: int = 20) -> list[dict]:
        """Players (not merged) with a name whose key, from one of its words on, begins
        with ``key``: one range of the key index, then the rows by id."""
        if not key:
            return []
        ids = self._handle().execute(
            "SELECT DISTINCT k.player_id FROM player_keys k JOIN players p ON p.player_id = k.player_id"
            " WHERE k.key >= ? AND k.key < ? AND p.merged_into IS NULL LIMIT ?",
            (key, key + _LAST_CHARACTER, limit),
        )
        found = self.rows([r[0] for r in ids.fetchall()])
        return sorted(found.values(), key=lambda r: (r["name_key"], r["player_id"]))

    def same_names(self, keys: Sequence[str]) -> list[dict]:
        """Players (not merged) whose full Latin or Ge'ez name has one of these keys."""
        wanted = [k for k in keys if k]
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))
        cursor = self._handle().execute(
            f"SELECT {', '.join(PLAYER_COLUMNS)} FROM players WHERE merged_into IS NULL"
            f" AND (name_key IN ({marks}) OR geez_key IN ({marks})) ORDER BY name_key, player_id",
            [*wanted, *wanted],
        )
        return [dict(zip(PLAYER_COLUMNS, r)) for r in cursor.fetchall()]

    def merged(self) -> dict[str, str]:
        """Every merged record's id -> the id it was merged into."""
        rows = self._handle().execute("SELECT player_id, merged_into FROM players WHERE merged_into IS NOT NULL")
        return {r[0]: r[1] for r in rows.fetchall()}

    def all_ids(self) -> list[str]:
        return [r[0] for r in self._handle().execute("SELECT player_id FROM players ORDER BY player_id").fetchall()]

    def count(self) -> int:
        return self._handle().execute("SELECT count(*) FROM players").fetchone()[0]

    def drop_orphans(self, player_ids: set[str]) -> None:
        """Drop the rows of players that are not among ``player_ids`` (after a rebuild)."""
        with self.store.transaction() as db:
            for player_id in set(self.all_ids()) - player_ids:
                db.execute("DELETE FROM players WHERE player_id = ?", (player_id,))
                db.execute("DELETE FROM player_keys WHERE player_id = ?", (player_id,))
                db.execute("DELETE FROM player_games WHERE player_id = ?", (player_id,))
                db.execute("DELETE FROM player_sounds WHERE player_id = ?", (player_id,))

    def games_naming(self, player_ids: Sequence[str]) -> list[dict]:
        """Games outside tournaments that name one of these registry players (their
        metadata's ``south_player`` or ``north_player``)."""
        found = []
        for player_id in player_ids:
            rows = self._handle().execute(
                "SELECT game_id, south, north, metadata FROM games WHERE tournament_id IS NULL AND metadata LIKE ?"
                " ORDER BY created_at, game_id",
                (f'%"{player_id}"%',),
            )
            for game_id, south, north, metadata in rows.fetchall():
                meta = json.loads(metadata)
                if player_id in (meta.get("south_player"), meta.get("north_player")):
                    found.append(
                        {
                            "game_id": game_id,
                            "south": south,
                            "north": north,
                            "south_player": meta.get("south_player"),
                            "north_player": meta.get("north_player"),
                        }
                    )
        return found

    def rated(self, player_id: str) -> bool:
        """Whether a published rating list names the player (the ratings' table, read)."""
        found = self._handle().execute("SELECT 1 FROM rating_lists WHERE player_id = ? LIMIT 1", (player_id,))
        return found.fetchone() is not None
