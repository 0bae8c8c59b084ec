"""Seeded random play: the one generator of random games, for the engine bench and the tests.

From any state, ``random_move(rules, state, rng)`` picks a valid next move at random and
plays it: the awaited decision (GEN-22) with random but valid values (a race board of
the variant's seeds over every hole, GEN-24/GEN-37; an opening, GEN-25; a lot, GEN-26;
the next round's first player and, by chance, an allocation, GEN-27/GEN-38), else a
legal sowing. A sowing that never ends (GEN-16) is set aside and another is drawn; when
every legal sowing is endless there is no move (GEN-35: the game needs adjudication).
A result is never chosen here: callers that want results, notes or retractions add them.

The same ``random.Random`` seed always gives the same game. ``random_sowing`` is the
sowing step alone, on hole indices, for the bench's tight loop: it lives in the rules
package (recorder/rules/playout.py), compiled with the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from recorder.rules.base import Rules
from recorder.rules.board import PLAYERS
from recorder.rules.playout import random_sowing
from recorder.rules.state import State
from recorder.rules.values import OPENING_CHOICES

from .events import Event, LotDrawn, OpeningPlayed, RaceRecorded, RoundStarted, Sowed
from .game import apply_move

__all__ = ["random_allocation", "random_decision", "random_move", "random_play", "random_race_board", "random_sowing"]


def random_race_board(rules: Rules, rng: random.Random) -> dict[str, int]:
    """GEN-37: every hole, integers ≥ 0, the variant's total of seeds."""
    counts = [0] * rules.board.size
    for _ in range(rules.total_seeds):
        counts[rng.randrange(rules.board.size)] += 1
    return dict(zip(rules.board.holes, counts))


def random_allocation(rules: Rules, state: State, rng: random.Random) -> dict[str, list[str]]:
    """GEN-38: every hole named once, each player given the count he has won (GEN-27)."""
    if state.hole_counts is None:
        raise ValueError("an allocation follows a counted round (GEN-27)")
    holes: list[str] = list(rules.board.holes)
    rng.shuffle(holes)
    south = state.hole_counts[0]
    return {"south": holes[:south], "north": holes[south:]}


def random_decision(rules: Rules, state: State, rng: random.Random, *, allocations: float = 0.0) -> Event:
    """The awaited decision (GEN-22), its values chosen at random among the valid ones."""
    awaiting = state.awaiting
    if awaiting == "race":
        return RaceRecorded(rng.choice(PLAYERS).json, random_race_board(rules, rng))
    if awaiting == "opening":
        return OpeningPlayed(rng.choice(OPENING_CHOICES))
    if awaiting == "lot":
        return LotDrawn(rng.choice(PLAYERS).json)
    if awaiting == "next_round":
        first = rng.choice(PLAYERS).json
        return RoundStarted(first, random_allocation(rules, state, rng) if rng.random() < allocations else None)
    raise ValueError(f"no random choice for the decision {awaiting!r}")


def random_move(
    rules: Rules, state: State, rng: random.Random, *, allocations: float = 0.0
) -> tuple[Event, State] | None:
    """A random valid move as the event that records it, and the state after it; None when
    nothing can be played (the game is over, or every legal sowing is endless)."""
    if state.game_over:
        return None
    if state.awaiting:
        event = random_decision(rules, state, rng, allocations=allocations)
        return event, apply_move(rules, state, event)
    if state.to_move is None:
        return None
    sown = random_sowing(rules, state, rng)
    if sown is None:
        return None
    hole, after = sown
    return Sowed(rules.board.holes[hole], state.to_move.json), after


def random_play(
    rules: Rules, state: State, rng: random.Random, *, max_moves: int = 5_000, allocations: float = 0.0
) -> Iterator[tuple[Event, State]]:
    """Random moves from ``state`` until the game ends, no move is left or ``max_moves``."""
    for _ in range(max_moves):
        move = random_move(rules, state, rng, allocations=allocations)
        if move is None:
            return
        yield move
        state = move[1]
