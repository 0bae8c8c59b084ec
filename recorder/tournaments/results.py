"""Board results: what a game (or a recorded forfeit) says about a pairing (pure).

A match of rounds (Selus rounds, Lahemay Walida, Tuz) counts by its match result; the
rounds won and the holes held are kept for the ``round_difference`` and
``hole_difference`` tiebreaks:
- a player wins a round when he ends it holding more holes than he started it with
  (SEL-15, LW-12, TUZ-12 count takings back into holes); a round whose count is not
  known (cut short by a GEN-28 result, or awaiting a lot) is not counted;
- the holes held are the last known hole counts (after the last counted round).
"""

from __future__ import annotations

from dataclasses import dataclass

from recorder.rules.board import Player
from recorder.rules.state import State

from .fold import Forfeit


@dataclass(frozen=True)
class PairingResult:
    """A pairing's result as the tournament counts it: from its game's outcome (the rules'
    ``Outcome``) or from a result recorded on the board (a forfeit, a short game), with what
    the tiebreaks and the pairing read besides (rounds won, holes held, played or not)."""

    result: str  # south_wins, north_wins, draw, double_forfeit
    played: bool  # False for forfeits: no game was decided over the board
    rounds_won: tuple[int, int] = (0, 0)  # south, north
    holes: tuple[int, int] = (0, 0)  # south, north: holes held at the end
    short_game: bool = False  # lasted less than a move: unplayed for pairing, a game for C.07's tie-breaks


def result_of_forfeit(forfeit: Forfeit) -> PairingResult:
    """A result recorded in the tournament: a forfeit, a game that lasted less than a move
    (``short_game``, unplayed for pairing), or a game played before the tournament was
    imported here (``played``)."""
    return PairingResult(forfeit.result, played=forfeit.reason == "played", short_game=forfeit.reason == "short_game")


def result_of_state(state: State) -> PairingResult | None:
    """The result of a finished game; None while it is being played."""
    if not state.game_over:
        return None
    played = state.result.reason != "forfeit"  # GEN-28 forfeit: the game was not played out
    return PairingResult(state.result.name, played, rounds_won(state), holes_held(state))


def round_counts(state: State) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(holes at the start, holes after the count) of every counted round."""
    counted = []
    for index, record in enumerate(state.rounds):
        after = state.rounds[index + 1].holes if index + 1 < len(state.rounds) else state.hole_counts
        if after is not None:
            counted.append((record.holes, after))
    return counted


def rounds_won(state: State) -> tuple[int, int]:
    south = north = 0
    for before, after in round_counts(state):
        gain = after[Player.SOUTH] - before[Player.SOUTH]
        south += gain > 0
        north += gain < 0
    return south, north


def holes_held(state: State) -> tuple[int, int]:
    counted = round_counts(state)
    return counted[-1][1] if counted else (0, 0)
