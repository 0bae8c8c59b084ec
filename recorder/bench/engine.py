"""Engine throughput: seeded random legal playouts through ``rules.play``/``legal_moves``.

Pure (rules engines only). Each game starts from the standard start and is played by
the project's one random-game generator (``recorder.core.playout``): every awaited
decision (GEN-22) taken at random but validly, the next round with its default
allocation, ``result`` never chosen, and a sowing that would never end (GEN-16) set
aside for another hole.

Laps are counted without touching the engines: the timed pass is untraced; then the
same playout (same seed, same number of games) is replayed untimed with a trace, and
each sowing counts 1 lap plus one per ``relayed`` step (GEN-15).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from recorder.core.game import apply_move
from recorder.core.playout import random_decision, random_sowing
from recorder.rules.base import Trace
from recorder.rules.board import PLAYERS
from recorder.rules.playout import random_sowings

MAX_SOWINGS_PER_GAME = 5_000  # a safety bound for long matches; random games end far sooner


@dataclass(frozen=True)
class EngineFigures:
    variant: str
    games: int
    sowings: int
    laps: int
    seconds: float
    cpu_seconds: float = 0.0  # this process's CPU time over the timed pass: a share below 1 is load, not code

    @property
    def laps_per_second(self) -> float:
        return self.laps / self.seconds

    @property
    def cpu_share(self) -> float:
        return self.cpu_seconds / self.seconds

    @property
    def sowings_per_second(self) -> float:
        return self.sowings / self.seconds


def play_random_game(rules, rng: random.Random, on_sowing: Callable | None = None) -> int:
    """One random game to its end (``core.playout``); returns the number of sowings.

    ``on_sowing(trace)`` receives each sowing's trace when given (the counting pass);
    without it the engine runs untraced, as replay does.
    """
    state = rules.start(rng.choice(PLAYERS) if rules.has_first_player else None)
    sowings = 0
    while not state.game_over and sowings < MAX_SOWINGS_PER_GAME:
        if state.awaiting:
            state = apply_move(rules, state, random_decision(rules, state, rng))
            continue
        if on_sowing is None:  # the timed pass: the sowings up to the next decision in one compiled call
            state, played, stuck = random_sowings(rules, state, rng, MAX_SOWINGS_PER_GAME - sowings)
            sowings += played
            if stuck:
                break
            continue
        trace: Trace = []
        sown = random_sowing(rules, state, rng, trace)
        if sown is None:
            break  # no legal sowing, or every one is endless (GEN-16): nothing more to play
        state = sown[1]
        on_sowing(trace)
        sowings += 1
    return sowings


def measure(rules, *, seconds: float, seed: int = 2024, max_games: int = 1_000_000) -> EngineFigures:
    """Timed untraced playouts for about ``seconds``, then an untimed traced lap count."""
    rng = random.Random(seed)
    games = sowings = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    while games < max_games:
        sowings += play_random_game(rules, rng)
        games += 1
        if time.perf_counter() - started >= seconds:
            break
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    laps, counted = count_laps(rules, seed=seed, games=games)
    if counted != sowings:
        raise AssertionError(f"{rules.name}: the traced replay played {counted} sowings, the timed pass {sowings}")
    return EngineFigures(rules.name, games, sowings, laps, elapsed, cpu)


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
