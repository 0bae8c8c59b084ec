"""Swiss pairing speed: seeded Swiss events paired round by round by the Dutch system.

Pure (the pairing and its matching library only). Each event starts from a field with
no history; every round is paired by ``pair_swiss`` and timed, then random results
(draws included) update the standings as the tournament fold would: scores, opponents,
seats, floats and byes. The last round is paired as the last (topscorers, A.7).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..tournaments import trf
from ..tournaments.check import before
from ..tournaments.decide import swiss_pairing
from ..tournaments.events import DUTCH_2026, TournamentCreated
from ..tournaments.fold import Tournament, replay
from ..tournaments.pairing import DOWN, NORTH, SOUTH, UP, NoPairing, SwissPlayer, pair_swiss
from ..tournaments.results import result_of_forfeit

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "pairings"
SIZE_BANDS = ((8, 12), (13, 21), (22, 51), (52, 100), (101, 200))


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
    """Rounds paired by the 2026 text, the default of a new Swiss."""
    pair_swiss([SwissPlayer(1, 1, 0), SwissPlayer(2, 2, 0)])  # load the matching library untimed
    rng = random.Random(seed)
    field = {n: SwissPlayer(n, n, 0) for n in range(1, players + 1)}
    seconds, cpu = [], []
    for r in range(1, rounds + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        pairing = pair_swiss(list(field.values()), final_round=r if r == rounds else None, rules=DUTCH_2026)
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
            floats=(*field[n].floats, DOWN if n == pairing.bye else None),  # 1.4.3
        )
    return after


# --------------------------------------------------------------------------- identity


@dataclass
class IdentityFigures:
    """Rounds of the reference corpus paired exactly as the reference engine paired them:
    the same pairs, seats (south White), pairing-allocated bye and board order."""

    low: int
    high: int
    rounds: int = 0
    identical: int = 0
    tournaments: int = 0
    kinds: Counter = field(default_factory=Counter)  # how the others differ

    @property
    def rate(self) -> float:
        return self.identical / self.rounds if self.rounds else 0.0


def corpus_tournament(text: str) -> Tournament:
    """A corpus TRF as a tournament here (no games: every result is recorded in it)."""
    parsed = trf.parse(text)
    fields = trf.creation_fields(parsed)
    created = TournamentCreated(variant="qelat", options={}, format="swiss", tiebreaks=[], **fields)
    return replay("t-corpus", enumerate(trf.import_events(parsed, created), start=1))


def how_it_differs(got, want: dict) -> str:
    if got is None:
        return "refused"
    boards = [list(b) for b in got.boards]
    if got.bye != want["bye"]:
        return "bye"
    if {frozenset(b) for b in boards} != {frozenset(b) for b in want["boards"]}:
        return "pairs"
    if sorted(boards) != sorted(want["boards"]):
        return "seats"
    return "board order" if boards != want["boards"] else ""


def identity(corpus: Path = CORPUS) -> list[IdentityFigures]:
    """Every round of every corpus tournament paired here from the rounds before it (the
    players the engine did not pair that round left out, as requested byes)."""
    expected = json.loads((corpus / "expected.json").read_text())
    bands = [IdentityFigures(low, high) for low, high in SIZE_BANDS]
    for name, info in expected.items():
        band = next(b for b in bands if b.low <= info["players"] <= b.high)
        band.tournaments += 1
        t = corpus_tournament((corpus / f"{name}.trf").read_text())
        outcomes = {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}
        for number, want in info["rounds"].items():
            r = int(number)
            earlier, known = before(t, outcomes, r)
            placed = {p for b in want["boards"] for p in b} | ({want["bye"]} if want["bye"] else set())
            absent = frozenset(e.number for e in t.entrants if e.number not in placed)
            try:
                got = swiss_pairing(earlier, known, r, absent)
            except NoPairing:
                got = None
            kind = how_it_differs(got, want)
            band.rounds += 1
            band.identical += not kind
            if kind:
                band.kinds[kind] += 1
    return bands
