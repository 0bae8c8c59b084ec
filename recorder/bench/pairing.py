"""Swiss pairing speed: seeded Swiss events paired round by round by the Dutch system.

Pure (the pairing and its matching library only). Each event starts from a field with
no history; every round is paired by ``pair_swiss`` and timed, then random results
(draws included) update the standings as the tournament fold would: scores, opponents,
seats, floats and byes. The last round is paired as the last (topscorers, A.7).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from ..tournaments.dutch import pair_swiss
from ..tournaments.pairing import DOWN, NORTH, SOUTH, UP, SwissPlayer


@dataclass(frozen=True)
class PairingFigures:
    players: int
    rounds: int
    seconds: tuple  # per round, wall clock
    cpu_seconds: tuple  # per round, this process's CPU time (what the pairing costs on a shared machine)

    @property
    def mean_ms(self) -> float:
        return 1000 * sum(self.seconds) / len(self.seconds)

    @property
    def max_ms(self) -> float:
        return 1000 * max(self.seconds)

    @property
    def cpu_mean_ms(self) -> float:
        return 1000 * sum(self.cpu_seconds) / len(self.cpu_seconds)

    @property
    def cpu_max_ms(self) -> float:
        return 1000 * max(self.cpu_seconds)


def measure(players: int, rounds: int, seed: int = 2024) -> PairingFigures:
    pair_swiss([SwissPlayer(1, 1, 0), SwissPlayer(2, 2, 0)])  # load the matching library untimed
    rng = random.Random(seed)
    field = {n: SwissPlayer(n, n, 0) for n in range(1, players + 1)}
    seconds, cpu = [], []
    for r in range(1, rounds + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        pairing = pair_swiss(list(field.values()), final_round=r if r == rounds else None)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        field = play(field, pairing, rng)
    return PairingFigures(players, rounds, tuple(seconds), tuple(cpu))


def play(field: dict, pairing, rng: random.Random) -> dict:
    """The standings after random results: a win 2 half-points, a draw 1 each."""
    after = dict(field)
    for s, n in pairing.boards:
        south, north = field[s], field[n]
        points = rng.choice((2, 1, 1, 0))
        down = DOWN if south.score > north.score else UP if south.score < north.score else None
        up = {DOWN: UP, UP: DOWN, None: None}[down]
        after[s] = replace(
            south,
            score=south.score + points,
            opponents=south.opponents | {n},
            colours=(*south.colours, SOUTH),
            floats=(*south.floats, down),
        )
        after[n] = replace(
            north,
            score=north.score + 2 - points,
            opponents=north.opponents | {s},
            colours=(*north.colours, NORTH),
            floats=(*north.floats, up),
        )
    for n in field.keys() - {p for b in pairing.boards for p in b}:
        after[n] = replace(
            field[n],
            score=field[n].score + 2 * (n == pairing.bye),
            had_bye=field[n].had_bye or n == pairing.bye,
            floats=(*field[n].floats, None),
        )
    return after
