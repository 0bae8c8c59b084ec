"""Engine throughput: seeded random legal playouts through ``rules.play``/``legal_moves``.

Pure (rules engines only). Each game starts from the standard start; every decision
the rules await (GEN-22) is taken at random but validly: the Gabata race (a random
board of 54 seeds, GEN-24/GEN-37), the Tuz opening (GEN-25), a lot (GEN-26) and the
next round (GEN-27, default allocation); ``result`` is never chosen. A sowing that
would never end (GEN-16) is set aside and another hole is drawn.

Laps are counted without touching the engines: the timed pass is untraced; then the
same playout (same seed, same number of games) is replayed untimed with a trace, and
each sowing counts 1 lap plus one per ``relayed`` step (GEN-15).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from recorder.errors import EndlessSowing
from recorder.rules.base import Trace
from recorder.rules.board import PLAYERS

MAX_SOWINGS_PER_GAME = 5_000  # a safety bound for long matches; random games end far sooner


@dataclass(frozen=True)
class EngineFigures:
    variant: str
    games: int
    sowings: int
    laps: int
    seconds: float

    @property
    def laps_per_second(self) -> float:
        return self.laps / self.seconds

    @property
    def sowings_per_second(self) -> float:
        return self.sowings / self.seconds


def random_race_board(rules, rng: random.Random) -> tuple[int, ...]:
    """GEN-37: every hole, integers ≥ 0, the variant's total of seeds."""
    holes = [0] * rules.board.size
    for _ in range(rules.total_seeds):
        holes[rng.randrange(rules.board.size)] += 1
    return tuple(holes)


def take_decision(rules, state, rng: random.Random):
    """The awaited decision (GEN-22), chosen at random among the valid ones."""
    awaiting = state.awaiting
    if awaiting == "race":
        return rules.record_race(state, rng.choice(PLAYERS), random_race_board(rules, rng))
    if awaiting == "opening":
        return rules.play_opening(state, rng.choice(("tuz", "plain")))
    if awaiting == "lot":
        return rules.draw_lot(state, rng.choice(PLAYERS))
    if awaiting == "next_round":
        return rules.start_next_round(state, rng.choice(PLAYERS), None)
    raise ValueError(f"the bench cannot take the decision {awaiting!r}")


def play_random_game(rules, rng: random.Random, on_sowing: Callable | None = None) -> int:
    """One random game to its end; returns the number of sowings.

    ``on_sowing(trace)`` receives each sowing's trace when given (the counting pass);
    without it the engine runs untraced, as replay does.
    """
    state = rules.start(rng.choice(PLAYERS) if rules.has_first_player else None)
    sowings = 0
    while not state.game_over and sowings < MAX_SOWINGS_PER_GAME:
        if state.awaiting:
            state = take_decision(rules, state, rng)
            continue
        moves = rules.legal_moves(state)
        if not moves:
            break  # defensive: a correct engine always awaits something or is over
        state = play_random_move(rules, state, moves, rng, on_sowing)
        if state is None:
            break  # every legal sowing is endless (GEN-16): nothing more to play
        sowings += 1
    return sowings


def play_random_move(rules, state, moves, rng: random.Random, on_sowing):
    """A random legal sowing; a sowing that never ends (GEN-16) is set aside."""
    while moves:
        # A uniform pick at a fraction of random.choice's cost: the bench measures the
        # engine, and choice() alone took a fifth of the Qelat loop.
        hole = moves[int(rng.random() * len(moves))]
        trace: Trace | None = [] if on_sowing is not None else None
        try:
            after = rules.play(state, hole, trace)
        except EndlessSowing:
            moves = tuple(m for m in moves if m != hole)
            continue
        if on_sowing is not None:
            on_sowing(trace)
        return after
    return None


def measure(rules, *, seconds: float, seed: int = 2024, max_games: int = 1_000_000) -> EngineFigures:
    """Timed untraced playouts for about ``seconds``, then an untimed traced lap count."""
    rng = random.Random(seed)
    games = sowings = 0
    started = time.perf_counter()
    while games < max_games:
        sowings += play_random_game(rules, rng)
        games += 1
        if time.perf_counter() - started >= seconds:
            break
    elapsed = time.perf_counter() - started
    laps, counted = count_laps(rules, seed=seed, games=games)
    if counted != sowings:
        raise AssertionError(f"{rules.name}: the traced replay played {counted} sowings, the timed pass {sowings}")
    return EngineFigures(rules.name, games, sowings, laps, elapsed)


def count_laps(rules, *, seed: int, games: int) -> tuple[int, int]:
    """Replay the same playout traced: 1 lap per sowing + 1 per relay (GEN-15)."""
    rng = random.Random(seed)
    totals = [0, 0]  # laps, sowings

    def on_sowing(trace: list) -> None:
        totals[1] += 1
        totals[0] += 1 + sum(1 for step in trace if step["step"] == "relayed")

    for _ in range(games):
        play_random_game(rules, rng, on_sowing)
    return totals[0], totals[1]
