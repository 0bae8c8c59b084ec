"""Every feature's tables (each feature's ``tables.SCHEMA``), collected above the features
and the store, which imports none of them.

Each feature's table classes hand the store their schema when they are made
(``Tables.ensure``), so a store opened anywhere gets a feature's tables before it reads or
writes them. The app factory and the commands' open path hand it every one at once
(``ensure_all``): a database made by ``recorder init-db`` (and an application role's
grants) takes in every table, and a server's first request creates none.
"""

from __future__ import annotations

from recorder.auth.tables import SCHEMA as AUTH
from recorder.games.tables import SCHEMA as GAMES
from recorder.players.tables import SCHEMA as PLAYERS
from recorder.ratings.tables import SCHEMA as RATINGS
from recorder.store import Tables
from recorder.tournaments.tables import SCHEMA as TOURNAMENTS

SCHEMAS = (GAMES, TOURNAMENTS, PLAYERS, RATINGS, AUTH)


def ensure_all(store: Tables) -> None:
    """Every feature's tables created where the store lacks them (once per store)."""
    for schema in SCHEMAS:
        store.ensure(schema)
