"""Standings, tiebreaks and the crosstable, from the tournament and its board results (pure).

Points: a win 1, a draw 1/2, a loss 0, in a match of rounds the match result; a
forfeit win 1; a double forfeit 0 each; a bye its recorded points; a round a player
was not paired in (late entry, withdrawal) 0. Tiebreaks (docs/tournaments.md), in the
organiser's order:
- buchholz: the opponents' scores; every unplayed round (bye, forfeit, absence)
  counts as a dummy opponent with the player's own score;
- sonneborn_berger: each opponent's score times the points taken from him, the dummy
  (own score) times the points of an unplayed round;
- direct_encounter: points in the games among players still tied, only when they have
  all met; 0 otherwise;
- wins: games won on the board or by forfeit (not byes);
- round_difference / hole_difference: rounds won minus lost, holes held minus the
  opponent's, summed over played matches (results.py).
FIDE C.07's tie-breaks, named by their codes (BH/C1, DE, ...), come from tiebreaks.py.
Players tied on everything share a rank.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from . import FIDE_TIEBREAKS, board_game_id, tiebreaks
from .cell import ABSENT, BYE, FORFEIT, PENDING, PLAYED, Cell
from .fold import Tournament, bye_kind
from .pairing import NORTH, SOUTH
from .results import PairingResult

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


@dataclass(frozen=True)
class Standing:
    rank: int
    number: int
    points: Fraction
    tiebreaks: dict = field(default_factory=dict)


# --------------------------------------------------------------------------- cells


def points_of(result: str, colour: str) -> Fraction:
    if result == "draw":
        return DRAW
    return WIN if result == f"{colour}_wins" else LOSS


def board_cell(round_number: int, board, outcome: PairingResult | None, colour: str) -> Cell:
    me, opponent = (board.south, board.north) if colour == SOUTH else (board.north, board.south)
    base = dict(round=round_number, opponent=opponent, colour=colour, board=board.board)
    if outcome is None:
        return Cell(kind=PENDING, **base)
    if not outcome.played:
        return Cell(kind=FORFEIT, points=points_of(outcome.result, colour), short_game=outcome.short_game, **base)
    mine, theirs = (0, 1) if colour == SOUTH else (1, 0)
    return Cell(
        kind=PLAYED,
        points=points_of(outcome.result, colour),
        rounds_diff=outcome.rounds_won[mine] - outcome.rounds_won[theirs],
        holes_diff=outcome.holes[mine] - outcome.holes[theirs],
        **base,
    )


def cells(t: Tournament, outcomes: dict) -> dict[int, list[Cell]]:
    """Every player's rounds, in order; ``outcomes`` maps (round, board) to a PairingResult."""
    table: dict[int, list[Cell]] = {e.number: [] for e in t.entrants}
    for rnd in t.rounds:
        placed = set()
        for board in rnd.boards:
            outcome = outcomes.get((rnd.number, board.board))
            for colour, player in ((SOUTH, board.south), (NORTH, board.north)):
                table[player].append(board_cell(rnd.number, board, outcome, colour))
                placed.add(player)
        for bye in rnd.byes:
            table[bye.player].append(Cell(rnd.number, BYE, Fraction(bye.points), bye=bye_kind(rnd, bye)))
            placed.add(bye.player)
        for number in table.keys() - placed:
            table[number].append(Cell(rnd.number, ABSENT, LOSS))
    return table


def score(player_cells: list[Cell]) -> Fraction:
    return sum((c.points for c in player_cells if c.points is not None and c.kind != PENDING), Fraction(0))


def round_complete(t: Tournament, outcomes: dict, round_number: int) -> bool:
    rnd = t.round(round_number)
    return rnd is not None and all((round_number, b.board) in outcomes for b in rnd.boards)


def is_finished(t: Tournament, outcomes: dict) -> bool:
    """Finished by its arbiter (``tournament_finished``), or every planned round paired and
    every board's result known."""
    if t.finished_explicitly:
        return True
    planned = t.planned_rounds
    return bool(planned) and len(t.rounds) == planned and round_complete(t, outcomes, planned)


# --------------------------------------------------------------------------- tiebreaks


def buchholz(number: int, table: dict, scores: dict) -> Fraction:
    return sum(
        (scores[c.opponent] if c.kind == PLAYED else scores[number] for c in table[number] if c.kind != PENDING),
        Fraction(0),
    )


def sonneborn_berger(number: int, table: dict, scores: dict) -> Fraction:
    return sum(
        (
            (scores[c.opponent] if c.kind == PLAYED else scores[number]) * c.points
            for c in table[number]
            if c.kind != PENDING
        ),
        Fraction(0),
    )


def wins(number: int, table: dict, scores: dict) -> int:
    return sum(1 for c in table[number] if c.is_game and c.points == WIN)


def round_difference(number: int, table: dict, scores: dict) -> int:
    return sum(c.rounds_diff for c in table[number] if c.kind == PLAYED)


def hole_difference(number: int, table: dict, scores: dict) -> int:
    return sum(c.holes_diff for c in table[number] if c.kind == PLAYED)


PER_PLAYER: dict[str, Callable] = {
    "buchholz": buchholz,
    "sonneborn_berger": sonneborn_berger,
    "wins": wins,
    "round_difference": round_difference,
    "hole_difference": hole_difference,
}


def direct_encounter(group: list[int], table: dict) -> dict[int, Fraction]:
    """Points among the tied players, if every two of them have met; else 0 for all."""
    members = set(group)
    met = {frozenset((n, c.opponent)) for n in group for c in table[n] if c.is_game and c.opponent in members}
    if len(group) < 2 or len(met) < len(group) * (len(group) - 1) // 2:
        return {n: Fraction(0) for n in group}
    return {n: sum((c.points for c in table[n] if c.is_game and c.opponent in members), Fraction(0)) for n in group}


def tied_groups(keys: dict[int, list]) -> list[list[int]]:
    groups: dict[tuple, list[int]] = {}
    for number in sorted(keys):
        groups.setdefault(tuple(keys[number]), []).append(number)
    return list(groups.values())


def fide_tiebreak(t: Tournament, table: dict, code: str, keys: dict[int, list]) -> dict:
    """One of C.07's tie-breaks (tiebreaks.py), by the ties ``keys`` leave so far."""
    ratings = {e.number: e.rating for e in t.entrants}
    context = tiebreaks.context_of(table, ratings, t.is_round_robin, seed=t.draw_seed)
    return tiebreaks.one(code, table, context, keys)


def ranking_key(name: str, value):
    """More is better; but a C.07 place (DE, the drawing of lots) counts down."""
    return tiebreaks.ranking_key(tiebreaks.parse(name), value) if name in FIDE_TIEBREAKS else value


def standings(t: Tournament, outcomes: dict) -> list[Standing]:
    """Players in order: points, then the tiebreaks in the organiser's order, then number."""
    table = cells(t, outcomes)
    scores = {n: score(c) for n, c in table.items()}
    keys = {n: [scores[n]] for n in table}
    values: dict[int, dict] = {n: {} for n in table}
    for name in t.tiebreaks:
        if name in FIDE_TIEBREAKS:
            computed = fide_tiebreak(t, table, name, keys)
        elif name == "direct_encounter":
            computed = {}
            for group in tied_groups(keys):
                computed.update(direct_encounter(group, table))
        else:
            computed = {n: PER_PLAYER[name](n, table, scores) for n in table}
        for n in table:
            values[n][name] = computed[n]
            keys[n].append(ranking_key(name, computed[n]))
    order = sorted(table, key=lambda n: ([-k for k in keys[n]], n))
    ranks: dict[tuple[Fraction, ...], int] = {}
    for place, n in enumerate(order, start=1):
        ranks[tuple(keys[n])] = ranks.get(tuple(keys[n]), place)
    return [Standing(ranks[tuple(keys[n])], n, scores[n], values[n]) for n in order]


# --------------------------------------------------------------------------- crosstable

MARKS = {PLAYED: {WIN: "1", DRAW: "½", LOSS: "0"}, FORFEIT: {WIN: "+", DRAW: "=", LOSS: "-"}}


def mark(cell: Cell) -> str:
    if cell.kind == PENDING:
        return "*"
    if cell.kind == ABSENT or cell.points is None:
        return ""
    return MARKS.get(cell.kind, MARKS[FORFEIT])[cell.points]


def crosstable(t: Tournament, outcomes: dict) -> list[dict]:
    """One row per player in standings order; each cell names the opponent's place."""
    table = cells(t, outcomes)
    ranked = standings(t, outcomes)
    place: dict[int | None, int] = {s.number: i for i, s in enumerate(ranked, start=1)}
    rows = []
    for s in ranked:
        row_cells = [
            {
                "round": c.round,
                "kind": c.kind,
                "opponent": c.opponent,
                "opponent_place": place.get(c.opponent),
                "colour": c.colour,
                "board": c.board,
                "mark": mark(c),
                "points": c.points,
                "game_id": board_game_id(t.tournament_id, c.round, c.board) if c.board else None,
            }
            for c in table[s.number]
        ]
        rows.append({"place": place[s.number], "standing": s, "cells": row_cells})
    return rows
