"""The published rating lists beside the event store (recorder/ratings/service.py):

- ``rating_lists``: each published list, and ``rating_list_digests`` a digest of each,
  which tells a reader that kept a list whether it changed;
- ``rating_list_corrections``: the corrections of earlier months' results each list applies.

Derived from the events (each game's result changes, recorder/games/results.py): the
service publishes them, ``recorder rebuild`` rewrites them and ``recorder verify
--projections`` compares them. The tables are described in tables.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from recorder.players.registry import PlayerTables
from recorder.store import Tables

from .tables import SCHEMA

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


class RatingTables(PlayerTables):
    """The rating lists' rows, beside the registry's (whose players they rank)."""

    def __init__(self, store: Tables):
        super().__init__(store)
        store.ensure(SCHEMA)

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
