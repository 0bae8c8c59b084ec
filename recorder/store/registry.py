"""The player registry's projections beside the event store, on the store's own file.

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
- ``rating_lists``: each published rating list (recorder/ratings/service.py), and
  ``rating_list_digests`` a digest of each, which tells a reader that kept a list
  whether it changed; ``rating_list_corrections``: the corrections of earlier months'
  results each list applies;
- ``game_results`` (``GameResults``): each change of a game's result, by the event that
  made it (finished with a result, or unfinished again: NULL), written with the games
  list's row: what the rating lists read, instead of folding every game;
- ``rating_lists_stale`` (``GameResults.mark_lists_stale``): the month from which an
  import made a variant's published lists stale (a restored game keeps its date), until
  the next read publishes them again.

All are derived from the events: the services write them in the append's transaction,
``recorder rebuild`` rewrites them and ``recorder verify --projections`` compares them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence

from .catalogue import PLAYERS
from .interface import GAME, ProjectionWrite, StoredEvent, Tables, Tx
from .tables import on_conflict_update

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
RATING_COLUMNS = (
    "variant",
    "period",
    "player_id",
    "rank",
    "rating",
    "rd",
    "volatility",
    "games",
    "provisional",
    "explanation",
)
CORRECTION_COLUMNS = ("variant", "period", "game_id", "game_period", "before", "after")
_LAST_CHARACTER = "\U0010ffff"  # above every key's characters: the end of a prefix's range


class GameResults:
    """``game_results``: each game's result changes, (seq, recorded_at, result or None)."""

    def __init__(self, store: Tables):
        self.store = store

    def _handle(self) -> Tx:
        return self.store.handle()

    def write(self, changes: Sequence[tuple[int, str | None]]) -> ProjectionWrite:
        """What an append runs in its transaction: ``(index of the new event, the result
        after it)`` of each new event that changed the result."""

        def put(db: Tx, events: Sequence[StoredEvent]) -> None:
            for index, result in changes:
                event = events[index]
                db.execute(
                    "INSERT INTO game_results (game_id, seq, recorded_at, result) VALUES (?, ?, ?, ?)",
                    (event.game_id, event.seq, event.recorded_at, result),
                )

        return put

    def mark_lists_stale(self, variant: str, changes: Sequence[tuple[int, str | None]]) -> ProjectionWrite:
        """What an import's append runs in its transaction: the variant's rating lists from
        the month of the game's first result change on are stale (an import keeps the date a
        restored log gives each event, so the month may be one already published). Only a
        game with a result change is marked; the reader that publishes the lists decides
        whether the game counts (recorder/ratings/service.py ``publish_due``)."""

        def put(db: Tx, events: Sequence[StoredEvent]) -> None:
            if changes:
                since = min(events[index].recorded_at[:7] for index, _ in changes)
                db.execute("INSERT INTO rating_lists_stale (variant, since) VALUES (?, ?)", (variant, since))

        return put

    def stale_lists(self, variant: str) -> tuple[str, int] | None:
        """(the earliest month marked stale, the last mark's id), None when nothing is marked."""
        row = (
            self._handle()
            .execute("SELECT MIN(since), MAX(id) FROM rating_lists_stale WHERE variant = ?", (variant,))
            .fetchone()
        )
        return None if row is None or row[1] is None else (str(row[0]), int(row[1]))

    def clear_stale(self, variant: str, last: int) -> None:
        """Forget the marks up to id ``last``, those a publication has covered; a mark made
        since, by an import that went on meanwhile, stays for the next read."""
        with self.store.transaction() as db:
            db.execute("DELETE FROM rating_lists_stale WHERE variant = ? AND id <= ?", (variant, last))

    def replace(self, games: Iterable[tuple[str, list[tuple[int, str, str | None]]]]) -> None:
        """Rewrite the changes of each ``(game id, [(seq, recorded_at, result)])``."""
        with self.store.transaction() as db:
            for game_id, rows in games:
                db.execute("DELETE FROM game_results WHERE game_id = ?", (game_id,))
                for seq, recorded_at, result in rows:
                    db.execute(
                        "INSERT INTO game_results (game_id, seq, recorded_at, result) VALUES (?, ?, ?, ?)",
                        (game_id, seq, recorded_at, result),
                    )

    def of_game(self, game_id: str) -> list[tuple[int, str, str | None]]:
        rows = self._handle().execute(
            "SELECT seq, recorded_at, result FROM game_results WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(r[0], r[1], r[2]) for r in rows.fetchall()]

    def latest_change(self, game_ids: Sequence[str], *, before: str | None = None) -> str | None:
        """When the last result change of any of these games was recorded (only those
        recorded before ``before``, when given); None when there was none. One query a
        500 games, by the table's key."""
        latest = None
        for start in range(0, len(game_ids), 500):
            batch = list(game_ids[start : start + 500])
            query = f"SELECT MAX(recorded_at) FROM game_results WHERE game_id IN ({', '.join('?' * len(batch))})"
            if before is not None:
                query, batch = query + " AND recorded_at < ?", [*batch, before]
            found = self._handle().execute(query, batch).fetchone()
            if found is not None and found[0] is not None and (latest is None or found[0] > latest):
                latest = str(found[0])
        return latest

    def drop_orphans(self) -> None:
        """Drop the changes of games that have no events (after a rebuild)."""
        with self.store.transaction() as db:
            db.execute(
                "DELETE FROM game_results WHERE game_id NOT IN (SELECT stream_id FROM streams WHERE stream_type = ?)",
                (GAME,),
            )


class PlayerTables:
    """The registry's rows on the store's file (SQLite, or PostgreSQL through its handle)."""

    def __init__(self, store: Tables):
        self.store = store

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

    # -- Tournament entries ---------------------------------------------------------

    def write_entries(self, tournament_id: str, entries: list[tuple[int, str]]) -> ProjectionWrite:
        """What a tournament's append runs in its transaction: entrant ``number`` is player ``id``."""

        def put(db: Tx, events: Sequence[StoredEvent]) -> None:
            self._put_entries(db, tournament_id, entries)

        return put

    @staticmethod
    def _put_entries(db: Tx, tournament_id: str, entries: list[tuple[int, str]]) -> None:
        for number, player_id in entries:
            db.execute(
                "INSERT INTO player_entries (tournament_id, number, player_id) VALUES (?, ?, ?)"
                " ON CONFLICT (tournament_id, number) DO UPDATE SET player_id = excluded.player_id",
                (tournament_id, number, player_id),
            )

    def replace_entries(self, tournament_id: str, entries: list[tuple[int, str]]) -> None:
        with self.store.transaction() as db:
            db.execute("DELETE FROM player_entries WHERE tournament_id = ?", (tournament_id,))
            self._put_entries(db, tournament_id, entries)

    def entries(self, tournament_id: str) -> list[tuple[int, str]]:
        rows = self._handle().execute(
            "SELECT number, player_id FROM player_entries WHERE tournament_id = ? ORDER BY number", (tournament_id,)
        )
        return [(r[0], r[1]) for r in rows.fetchall()]

    def tournaments_of(self, player_ids: Sequence[str]) -> list[tuple[str, int]]:
        """(tournament id, entrant number) of every entry of these players."""
        marks = ", ".join("?" * len(player_ids))
        rows = self._handle().execute(
            f"SELECT tournament_id, number FROM player_entries WHERE player_id IN ({marks})"
            " ORDER BY tournament_id, number",
            list(player_ids),
        )
        return [(r[0], r[1]) for r in rows.fetchall()]

    def entered_tournaments(self) -> list[str]:
        rows = self._handle().execute("SELECT DISTINCT tournament_id FROM player_entries ORDER BY tournament_id")
        return [r[0] for r in rows.fetchall()]

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

    # -- Rating lists ---------------------------------------------------------------

    def result_changes(
        self, variant: str, *, since: str | None = None, tournaments: list[str] | None = None
    ) -> list[tuple[str, str, int, str, str | None, str | None]]:
        """(game id, tournament id, seq, recorded_at, result, metadata text) of every result
        change of the variant's tournament games, by game then seq: those of
        ``tournaments`` (by the games list's tournament index), or those of the games
        whose result changed in the month ``since`` or later (by the changes' time index)."""
        columns = (
            "SELECT g.game_id, g.tournament_id, r.seq, r.recorded_at, r.result, g.metadata"
            " FROM game_results r JOIN games g ON g.game_id = r.game_id"
        )
        if since is not None:
            rows = self._handle().execute(
                f"{columns} WHERE r.game_id IN (SELECT game_id FROM game_results WHERE recorded_at >= ?)"
                " AND g.variant = ? AND g.tournament_id IS NOT NULL ORDER BY g.game_id, r.seq",
                (since, variant),
            )
            return [tuple(r) for r in rows.fetchall()]  # type: ignore[misc]
        found: list = []
        for tournament_id in tournaments or []:
            rows = self._handle().execute(
                f"{columns} WHERE g.tournament_id = ? AND g.variant = ? ORDER BY g.game_id, r.seq",
                (tournament_id, variant),
            )
            found += [tuple(r) for r in rows.fetchall()]
        return found

    def replace_lists(self, variant: str, rows: list[dict], corrections: Sequence[dict] = ()) -> None:
        """The published lists of one game, all periods at once (a rebuild's one write),
        each list's digest and the corrections each states."""
        digests = list_digests(rows)
        with self.store.transaction() as db:
            db.execute("DELETE FROM rating_lists WHERE variant = ?", (variant,))
            db.execute("DELETE FROM rating_list_digests WHERE variant = ?", (variant,))
            db.execute("DELETE FROM rating_list_corrections WHERE variant = ?", (variant,))
            for correction in corrections:
                db.execute(
                    f"INSERT INTO rating_list_corrections ({', '.join(CORRECTION_COLUMNS)}) VALUES (?, ?, ?, ?, ?, ?)",
                    [correction[c] for c in CORRECTION_COLUMNS],
                )
            for period, digest in digests.items():
                db.execute(
                    "INSERT INTO rating_list_digests (variant, period, digest) VALUES (?, ?, ?)",
                    (variant, period, digest),
                )
            marks = ", ".join("?" * len(RATING_COLUMNS))
            db.executemany(
                f"INSERT INTO rating_lists ({', '.join(RATING_COLUMNS)}) VALUES ({marks})",
                [[row[c] for c in RATING_COLUMNS] for row in rows],
            )

    def list_rows(self, variant: str, period: str | None = None) -> list[dict]:
        clause, params = ("AND period = ?", [variant, period]) if period is not None else ("", [variant])
        cursor = self._handle().execute(
            f"SELECT {', '.join(RATING_COLUMNS)} FROM rating_lists WHERE variant = ? {clause}"
            " ORDER BY period, rank, player_id",
            params,
        )
        return [dict(zip(RATING_COLUMNS, r)) for r in cursor.fetchall()]

    def correction_rows(self, variant: str, period: str | None = None) -> list[dict]:
        clause, params = ("AND period = ?", [variant, period]) if period is not None else ("", [variant])
        cursor = self._handle().execute(
            f"SELECT {', '.join(CORRECTION_COLUMNS)} FROM rating_list_corrections WHERE variant = ? {clause}"
            " ORDER BY period, game_id",
            params,
        )
        return [dict(zip(CORRECTION_COLUMNS, r)) for r in cursor.fetchall()]

    def list_fingerprint(self, variant: str, period: str) -> str | None:
        """The digest of a stored list's rows (written with them): one row to read, and
        another whenever a rebuild changed the list."""
        row = (
            self._handle()
            .execute("SELECT digest FROM rating_list_digests WHERE variant = ? AND period = ?", (variant, period))
            .fetchone()
        )
        return None if row is None else row[0]

    def last_period(self, variant: str, before: str) -> str | None:
        """The last stored month before ``before``: one seek down the primary key."""
        row = (
            self._handle()
            .execute("SELECT MAX(period) FROM rating_lists WHERE variant = ? AND period < ?", (variant, before))
            .fetchone()
        )
        return row[0] if row else None

    def player_rows(self, player_id: str) -> list[dict]:
        cursor = self._handle().execute(
            f"SELECT {', '.join(RATING_COLUMNS)} FROM rating_lists WHERE player_id = ? ORDER BY variant, period",
            (player_id,),
        )
        return [dict(zip(RATING_COLUMNS, r)) for r in cursor.fetchall()]

    def periods(self, variant: str) -> list[str]:
        rows = self._handle().execute(
            "SELECT DISTINCT period FROM rating_lists WHERE variant = ? ORDER BY period", (variant,)
        )
        return [r[0] for r in rows.fetchall()]


def list_digests(rows: Iterable[dict]) -> dict[str, str]:
    """Each period's digest of its rows, in their order (what ``rating_list_digests`` holds)."""
    digests: dict[str, hashlib._Hash] = {}
    for row in rows:
        digests.setdefault(row["period"], hashlib.sha256()).update(repr([row[c] for c in RATING_COLUMNS]).encode())
    return {period: digest.hexdigest() for period, digest in digests.items()}
