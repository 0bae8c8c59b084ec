"""An exhaustive reference for the Swiss pairing of small fields, written apart from the
matching's weights (recorder/tournaments/pairing/criteria.py): every legal pairing of a round is
enumerated, seated by the colour rules E.1-E.5, and ranked by FIDE C.04.3's ordered
quality criteria as counted here from the seated boards.

The key, smaller is better: players (not topscorers' pairs) whose absolute colour rule
(C.3) is broken; per score group from the top, its downfloaters (C.5); the score
differences of the boards and the bye, largest first (C.6); topscorers past ±2 (C.8) or
three in a row (C.9); colour preferences missed (C.10), strong ones missed (C.11); the
same downfloat/upfloat as in the previous round (C.12, C.13), as two rounds before
(C.14, C.15).
"""

from __future__ import annotations

import random

from recorder.tournaments.decide import decide_create, decide_pair, decide_register, swiss_players
from recorder.tournaments.fold import apply, start
from recorder.tournaments.pairing import NORTH, SOUTH, preference, seat
from recorder.tournaments.results import PairingResult


def legal_pairings(players: list, strict: bool, final_round=None):
    """Every (pairs, bye) with no repeat game and no second bye while someone has none; with
    ``strict``, only pairs whose seats can keep the colour rule for both, unless one of
    them is a topscorer (A.7: in the last round, more than half the points so far)."""
    top = {p.number for p in players if final_round is not None and p.score > final_round - 1}
    ranked = sorted(players, key=lambda p: (-p.score, p.rank))
    if len(ranked) % 2 == 0:
        yield from ((pairs, None) for pairs in _matchings(ranked, strict, top))
        return
    eligible = [p for p in ranked if not p.had_bye] or ranked
    for bye in eligible:
        rest = [p for p in ranked if p is not bye]
        yield from ((pairs, bye) for pairs in _matchings(rest, strict, top))


def _matchings(players: list, strict: bool, top: set):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        if partner.number in first.opponents:
            continue
        if strict and not top & {first.number, partner.number} and not _keeps_colours(first, partner):
            continue
        for tail in _matchings(rest[:i] + rest[i + 1 :], strict, top):
            yield [(first, partner), *tail]


def _keeps_colours(p, q) -> bool:
    return any(_colour_ok(a, SOUTH) and _colour_ok(b, NORTH) for a, b in ((p, q), (q, p)))


def _colour_ok(p, colour: str) -> bool:
    history = (*p.colours, colour)
    return abs(history.count(SOUTH) - history.count(NORTH)) <= 2 and history[-3:] != (colour,) * 3


def quality(players: list, boards: tuple, bye, final_round) -> tuple:
    """The ordered key of a seated pairing (boards as (south, north) numbers)."""
    by = {p.number: p for p in players}
    scores = sorted({p.score for p in players}, reverse=True)
    group = {p.number: scores.index(p.score) for p in players}
    top = {p.number for p in players if final_round is not None and p.score * 2 > 2 * (final_round - 1)}
    opponent = {}
    for s, n in boards:
        opponent[s], opponent[n] = n, s
    broken = wide = rows = missed = strong_missed = 0
    for s, n in boards:
        for number, colour in ((s, SOUTH), (n, NORTH)):
            p, history = by[number], (*by[number].colours, colour)
            is_wide = abs(history.count(SOUTH) - history.count(NORTH)) > 2
            is_row = history[-3:] == (colour,) * 3
            if top & {s, n}:
                wide, rows = wide + is_wide, rows + is_row
            else:
                broken += is_wide or is_row
            want, strength = preference(p)
            missed += want is not None and want != colour
            strong_missed += want is not None and want != colour and strength >= 2
    downfloaters = [
        sum(1 for p in players if group[p.number] <= b and (p.number not in opponent or group[opponent[p.number]] > b))
        for b in range(len(scores))
    ]
    differences = sorted(
        [abs(by[s].score - by[n].score) for s, n in boards]
        + ([by[bye].score - scores[-1] + 2] if bye is not None else []),
        reverse=True,
    )
    floats = _repeated_floats(by, boards)
    return (broken, *downfloaters, *differences, wide, rows, missed, strong_missed, *floats)


def _repeated_floats(by: dict, boards: tuple) -> tuple:
    got = {}  # number -> the float received this round
    for s, n in boards:
        hi, lo = sorted((by[s], by[n]), key=lambda p: -p.score)
        if hi.score != lo.score:
            got[hi.number], got[lo.number] = "down", "up"
    counts = []
    for back, kind in ((1, "down"), (1, "up"), (2, "down"), (2, "up")):
        counts.append(
            sum(
                1
                for n, k in got.items()
                if k == kind and by[n].floats[-back:][:1] == (kind,) and len(by[n].floats) >= back
            )
        )
    return tuple(counts)


def best_key(players: list, final_round):
    """The best key over every legal pairing (strict colours first), or None if none exists."""
    for strict in (True, False):
        keys = [
            quality(players, seat(pairs), bye.number if bye else None, final_round)
            for pairs, bye in legal_pairings(players, strict, final_round)
        ]
        if keys:
            return min(keys)
    return None


def random_rounds(n: int, rounds: int, seed: int):
    """A seeded Swiss through the pure pipeline with random results (draws included):
    yields (players, final_round, tournament, outcomes) before each round is paired."""
    rng = random.Random(seed)
    t = start("t-ref", decide_create({"name": "R", "variant": "qelat", "format": "swiss", "rounds": rounds}))
    seq = 1
    for i in range(n):
        seq += 1
        t = apply(t, decide_register(t, {"name": f"P{i}", "rating": rng.randrange(1200, 2400, 50)})[0], seq)
    outcomes: dict = {}
    for r in range(1, rounds + 1):
        yield swiss_players(t, outcomes, r), (r if r == rounds else None), t, outcomes
        for event in decide_pair(t, outcomes, {}):
            seq += 1
            t = apply(t, event, seq)
        for b in t.rounds[-1].boards:
            outcomes[(r, b.board)] = PairingResult(rng.choice(["south_wins", "north_wins", "draw", "draw"]), True)
