"""The step of every random game: a random legal sowing (``core/playout.py`` plays the
rest of a game, decisions included), and a run of them up to the next decision. Here, in
the rules package, they are compiled with the engine (recorder/engine), so the engine
bench's playouts (``recorder bench --only engine``) run no interpreted code between one
sowing and the next.

Pure: the random source is the caller's (a seeded ``random.Random``), so the same seed
always gives the same sowings, compiled or not.
"""

from __future__ import annotations

from typing import Protocol

from recorder.errors import EndlessSowing

from .base import Rules, Trace
from .state import State
from .values import Hole


class RandomSource(Protocol):
    """What a sowing is drawn with: ``random.Random``'s ``random()``."""

    def random(self) -> float: ...


def random_sowing(
    rules: Rules, state: State, rng: RandomSource, trace: Trace | None = None
) -> tuple[Hole, State] | None:
    """A random legal sowing and the state after it; None when every one is endless (GEN-16)."""
    moves = rules.legal_moves(state)
    while moves:
        # A uniform pick at a fraction of random.choice's cost: the bench's loop runs this.
        hole = moves[int(rng.random() * len(moves))]
        try:
            return hole, rules.play(state, hole, trace)
        except EndlessSowing:
            moves = tuple(m for m in moves if m != hole)
            if trace is not None:
                trace.clear()
    return None


def random_sowings(rules: Rules, state: State, rng: RandomSource, limit: int) -> tuple[State, int, bool]:
    """Random legal sowings from ``state`` until the game is over, a decision is awaited or
    ``limit`` sowings are played: the state, the sowings played, and whether it stopped
    because no sowing was left (every legal one endless, GEN-16). It draws what that many
    ``random_sowing`` calls would."""
    played = 0
    while played < limit and not state.game_over and state.awaiting is None:
        sown = random_sowing(rules, state, rng)
        if sown is None:
            return state, played, True
        state = sown[1]
        played += 1
    return state, played, False
