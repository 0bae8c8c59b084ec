"""Tournaments: players, rounds, pairings, results and standings, event-sourced like games.

A tournament is a stream of events in the same store as the games, of stream type
``tournament`` (its id starts with ``t-`` only to be readable). Everything here except
``service.py`` is pure (standard library
only, and networkx for the Swiss matching): ``events`` (past-tense facts), ``fold``
(the one fold of a tournament), ``decide`` (all validation), ``pairing`` (Berger round
robin, FIDE's Dutch Swiss) with ``dutch`` (its matching), ``standings`` (points,
tiebreaks, crosstable) over each player's rounds (``cell``), ``tiebreaks`` (FIDE C.07's),
``categories`` and ``prizes`` (who belongs to a category; who is paid which prize, shared
by the Hort system or not) with ``prize_views``, ``finish`` (when a finished tournament
finished: its categories are decided as the registry stood then), and ``render`` (text tables).
A game played on a board carries its tournament, round and board in its setup, and
its id is derived from them (``board_game_id``), so the store's expected-version
check makes "one game per board" atomic. The definitions are in docs/tournaments.md.
"""

from __future__ import annotations

import secrets

TOURNAMENT_PREFIX = "t-"
TEAM_ROUND_ROBIN = "team_round_robin"  # teams meet by the Berger tables (teams.py)
TEAM_SWISS = "team_swiss"  # teams paired by FIDE's Swiss Team Pairing System (team_swiss.py)
TEAM_FORMATS = (TEAM_ROUND_ROBIN, TEAM_SWISS)
FORMATS = ("round_robin", "double_round_robin", "swiss", "manual", "knockout", TEAM_ROUND_ROBIN, TEAM_SWISS)
# FIDE C.07's tie-breaks by their codes (tiebreaks.py), beside this service's own six.
FIDE_TIEBREAKS = (
    "DE",
    "BH",
    "BH/C1",
    "BH/C2",
    "BH/M1",
    "BH/M2",
    "SB",
    "SB/C1",
    "PS",
    "PS/C1",
    "ARO",
    "ARO/C1",
    "TPR",
    "TPR/C1",
    "KS",
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "LOTS",  # the drawing of lots (seeded by the tournament): the last criterion
    # C.07's options: P, a forfeit counts as a game against its opponent (a round robin's
    # rule); V, a cut takes the least significant value, played or not.
    "BH/P",
    "BH/C1/P",
    "BH/C2/P",
    "BH/M1/P",
    "SB/P",
    "SB/C1/P",
    "DE/P",
    "BH/C1/V",
    "BH/C2/V",
    "SB/C1/V",
)
# FIDE's recommended lists, in C.07's codes, the default of a tournament created now (one
# created before keeps the list its creation event names): the handbook's list for an
# individual Swiss where not all the ratings are consistent (C.02 13.16.4: unrated and
# unevenly rated players, as here), and for an individual round robin (13.16.2).
C07_SWISS = ("BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG")
C07_ROUND_ROBIN = ("DE", "WIN", "SB", "KS")
TIEBREAKS = (
    "buchholz",
    "sonneborn_berger",
    "direct_encounter",
    "wins",
    "round_difference",
    "hole_difference",
    *FIDE_TIEBREAKS,
)
MAX_BROADCAST_DELAY = 24 * 60 * 60  # seconds (a day): the longest delay a tournament may set
MAX_ROUNDS = 99  # planned or played, by the API or a TRF
MAX_RATING = 4000
# Players who must not meet (family, team-mates): a group names 2 to 50 different players,
# and a tournament forbids at most 10,000 pairs in all (a group of n forbids n(n-1)/2).
# Every pairing of a round, and the checker's every round, works through them.
MAX_FORBIDDEN_GROUP = 50
MAX_FORBIDDEN_PAIRS = 10_000
# A TRF's pre-declared zero-point byes (240 Z): each a player and a round, at most this many
# in all (each is checked against the rounds to come).
MAX_DECLARED_BYES = 10_000
BOARD_RESULTS = ("south_wins", "north_wins", "draw", "double_forfeit")
# A result entered for a board without a game: a game played on the board and recorded on
# paper, or a forfeit (no game); the event's ``reason`` (a TRF import's "played" too).
BOARD_RESULT_KINDS = ("played", "forfeit")


def forbidden_pairs(group_size: int) -> int:
    """The pairs a forbidden group of ``group_size`` different players forbids."""
    return group_size * (group_size - 1) // 2


def new_tournament_id() -> str:
    return TOURNAMENT_PREFIX + secrets.token_hex(6)


def is_tournament_id(stream_id: str) -> bool:
    """Whether an id reads as a tournament's; no game takes such an id (archive imports
    refuse it), so a reader is never misled. The store knows streams by their type."""
    return isinstance(stream_id, str) and stream_id.startswith(TOURNAMENT_PREFIX)


def board_game_id(tournament_id: str, round_number: int, board: int) -> str:
    """The id of the game on a board: one game per board, enforced by the store."""
    return f"{tournament_id.removeprefix(TOURNAMENT_PREFIX)}-r{round_number}-b{board}"
