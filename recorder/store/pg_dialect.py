"""A PostgreSQL connection seen through the few sqlite-utils calls the store's projections make.

The games list, the notation and position caches and the token table (games_list.py,
caches.py, tokens.py) are written once, against the store's typed handle (``Tx``:
``execute(sql, params)``, ``executemany``) and its ``transaction()``. ``PgHandle`` offers those calls on a
psycopg connection and rewrites the SQLite-only phrases they use, so each projection has
one implementation for both backends:

- ``?`` placeholders become ``%s`` (a literal ``%`` is doubled);
- ``BEGIN IMMEDIATE`` becomes ``BEGIN`` (PostgreSQL locks rows, not the file);
- ``INSERT OR REPLACE INTO t (cols)`` becomes an upsert on t's primary key;
- ``INSERT OR IGNORE`` becomes ``ON CONFLICT DO NOTHING``;
- ``x IS ?`` becomes ``x IS NOT DISTINCT FROM %s``.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

# Primary keys of the tables a projection replaces rows of.
_PRIMARY_KEYS = {
    "games": "game_id",
    "notations": "game_id",
    "positions": "game, seq",
    "players": "player_id",
    "player_entries": "tournament_id, number",
}
_REPLACE = re.compile(r"^\s*INSERT OR REPLACE INTO (\w+) \(([^)]*)\)", re.IGNORECASE)
_IGNORE = re.compile(r"^\s*INSERT OR IGNORE INTO ", re.IGNORECASE)


@functools.lru_cache(maxsize=512)
def postgres_sql(sql: str, has_params: bool = True) -> str:
    """The statement in PostgreSQL's dialect (see the module docstring)."""
    if sql.strip().upper() == "BEGIN IMMEDIATE":
        return "BEGIN"
    replace = _REPLACE.match(sql)
    if replace:
        table, columns = replace.group(1), [c.strip() for c in replace.group(2).split(",")]
        key = _PRIMARY_KEYS[table]
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c.strip('"') not in key.split(", "))
        sql = f"INSERT INTO {sql[replace.start(1) :]} ON CONFLICT ({key}) DO UPDATE SET {updates}"
    elif _IGNORE.match(sql):
        sql = "INSERT INTO " + sql[_IGNORE.match(sql).end() :] + " ON CONFLICT DO NOTHING"  # type: ignore[union-attr]
    sql = sql.replace(" IS ?", " IS NOT DISTINCT FROM ?")
    if not has_params:
        return sql
    return sql.replace("%", "%%").replace("?", "%s")


class PgHandle:
    """One psycopg connection (autocommit; transactions are explicit) with the sqlite-utils
    surface the projections use: ``execute``, ``conn.execute``, ``conn.executemany``,
    ``conn.in_transaction``."""

    in_batch = False  # set by PostgresEventStore.batch(): appends become savepoints

    def __init__(self, raw: psycopg.Connection):
        self.raw = raw

    @property
    def conn(self) -> PgHandle:
        return self

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != TransactionStatus.IDLE

    def execute(self, sql: str, params=None) -> Any:  # a psycopg cursor, its rows untyped as sqlite3's
        if params is not None and any(isinstance(p, str) and "\x00" in p for p in params):
            params = _without_nul(sql, params)
        return self.raw.execute(postgres_sql(sql, params is not None), params)  # type: ignore[arg-type]

    def executemany(self, sql: str, rows) -> psycopg.Cursor:
        cursor = self.raw.cursor()
        cursor.executemany(postgres_sql(sql), list(rows))  # type: ignore[arg-type]
        return cursor


def _without_nul(sql: str, params) -> list:
    """PostgreSQL text cannot hold U+0000, so no stored text equals a string holding it (appends
    refuse such ids): a query asking for one is asked with NULL instead, which matches no row,
    rather than failing (a GET for such an id is a 404, not a 500). Writes are refused."""
    if not sql.lstrip().upper().startswith("SELECT"):
        raise ValueError("PostgreSQL text cannot hold U+0000")
    return [None if isinstance(p, str) and "\x00" in p else p for p in params]
