"""Pairings (pure): Berger round-robin tables and FIDE's Dutch Swiss system.

Definitions: docs/tournaments.md. The modules, each named for what it holds:

- ``berger``: the round-robin tables (C.05 Annex 1);
- ``swiss``: what both Dutch texts share: the player, colour preferences, seats (E.1-E.5);
- ``criteria``: the criteria as digits of an edge's weight, in each text's order;
- ``matching``: the maximum-weight matching over a whole round;
- ``dutch``: ``pair_swiss``, the round's pairing by the text a tournament names;
- ``dutch_2017``: the windowed brackets of large fields;
- ``dutch_2026``: the 2026 text's brackets top down, with ``candidates`` (the handbook's
  order of candidates, ``orders`` its digits), ``shortcuts`` and ``floaters``.
"""

from .berger import berger_cycle_length, berger_round, round_robin_round, table_round
from .dutch import pair_swiss, seat
from .swiss import (
    ABSOLUTE,
    DOWN,
    MILD,
    NORTH,
    SOUTH,
    STRONG,
    UP,
    NoPairing,
    SwissPairing,
    SwissPlayer,
    allocate,
    can_meet,
    colour_difference,
    is_topscorer,
    may_take,
    other,
    preference,
    ranks_before,
)

__all__ = [
    "ABSOLUTE",
    "DOWN",
    "MILD",
    "NORTH",
    "SOUTH",
    "STRONG",
    "UP",
    "NoPairing",
    "SwissPairing",
    "SwissPlayer",
    "allocate",
    "berger_cycle_length",
    "berger_round",
    "can_meet",
    "colour_difference",
    "is_topscorer",
    "may_take",
    "other",
    "pair_swiss",
    "preference",
    "ranks_before",
    "round_robin_round",
    "seat",
    "table_round",
]
