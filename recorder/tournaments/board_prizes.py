"""A team event's board prizes (pure): on each board, the players ranked by their result on it.

The rule is the one team events have long used, as the ECU's Tournament Rules (B.7.1.1)
write it down for their team championships: a player competes on a board once he has
played at least 70% of his team's rounds there (a reserve 50%), the share rounded half
up; the qualified rank by percentage score, then by games played, the more the better
(B.7.1.1 (b) and (c)). Only games played count: a forfeit, an empty board and a game of
less than a move are no games, as FIDE's rules for unplayed games have it. The ECU ranks
by performance rating first; this service's entrants seldom have a rating, so percentage
decides (the Olympiad's older rule) and no performance is computed.

A game counts for the board it was played on, board k of its match: a player moved up by a
line-up competes on the board he played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from .fold import Tournament
from .teams import POINTS, stored_round, team_of

SHARE_OF_ROUNDS = Fraction(7, 10)  # of his team's rounds, for a board player
SHARE_OF_ROUNDS_RESERVE = Fraction(1, 2)


@dataclass(frozen=True)
class BoardResult:
    board: int  # board k of the match
    player: int
    team: int
    games: int
    points: Fraction
    minimum: int  # the games he needs to compete
    rank: int | None  # among the qualified; None below the minimum

    @property
    def percentage(self) -> Fraction:
        return self.points / self.games * 100

    @property
    def qualified(self) -> bool:
        return self.games >= self.minimum


def half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


def tally(t: Tournament, outcomes: Mapping) -> dict[tuple[int, int], tuple[int, Fraction]]:
    """(board k, player) -> (games played there, points scored there)."""
    boards = t.team_boards or 1
    found: dict[tuple[int, int], tuple[int, Fraction]] = {}
    for rnd in t.rounds:
        for b in rnd.boards:
            outcome = outcomes.get((rnd.number, b.board))
            if outcome is None or not outcome.played:
                continue
            k = (b.board - 1) % boards + 1
            for player, points in zip((b.south, b.north), POINTS[outcome.result], strict=True):
                games, scored = found.get((k, player), (0, Fraction(0)))
                found[(k, player)] = (games + 1, scored + points)
    return found


def rounds_of_teams(t: Tournament) -> dict[int, int]:
    """Team -> the paired rounds in which it has a match (a round off is not one)."""
    played = dict.fromkeys((e.number for e in t.teams), 0)
    for rnd in t.rounds:
        for match in stored_round(t, rnd.number).matches:
            played[match.first] += 1
            played[match.second] += 1
    return played


def board_prizes(t: Tournament, outcomes: Mapping) -> dict[int, list[BoardResult]]:
    """Board k -> its players, the qualified first in prize order, then the others."""
    teams, rounds = team_of(t), rounds_of_teams(t)
    reserves = {number for e in t.teams for number in e.reserves}
    found: dict[int, list[BoardResult]] = {k: [] for k in range(1, (t.team_boards or 0) + 1)}
    for (k, player), (games, points) in tally(t, outcomes).items():
        share = SHARE_OF_ROUNDS_RESERVE if player in reserves else SHARE_OF_ROUNDS
        minimum = max(1, half_up(share * rounds[teams[player]]))
        found[k].append(BoardResult(k, player, teams[player], games, points, minimum, None))
    return {k: ranked(results) for k, results in found.items()}


def ranked(results: list[BoardResult]) -> list[BoardResult]:
    """The qualified by percentage, then games, sharing a place when both are level; the
    others after them, unranked, in the same order."""
    order = sorted(results, key=lambda r: (not r.qualified, -r.percentage, -r.games, r.player))
    placed: list[BoardResult] = []
    for place, r in enumerate(order, start=1):
        before = placed[-1] if placed else None
        level = before is not None and (before.percentage, before.games) == (r.percentage, r.games)
        rank = None if not r.qualified else before.rank if level and before is not None else place
        placed.append(replace(r, rank=rank))
    return placed


def board_prizes_json(t: Tournament, prizes: Mapping[int, list[BoardResult]]) -> list[dict]:
    """The board prizes as the API gives them, board 1 first."""
    named = {e.number: e for e in t.teams}
    return [
        {
            "board": k,
            "players": [
                {
                    "rank": r.rank,
                    "number": r.player,
                    "name": t.seated(r.player).name,
                    "team": {"number": r.team, "name": named[r.team].name, "name_geez": named[r.team].name_geez},
                    "games": r.games,
                    "points": float(r.points),
                    "percentage": round(float(r.percentage), 1),
                    "minimum": r.minimum,
                    "qualified": r.qualified,
                }
                for r in results
            ],
        }
        for k, results in sorted(prizes.items())
    ]
