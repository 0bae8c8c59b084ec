"""A team Swiss event (pure): the teams' histories read from its stored rounds, the next
round paired by FIDE's Swiss Team Pairing System (C.04.6, ``pairing/team_swiss.py``) and
its matches laid out on boards from the teams' line-ups as in every team event
(``teams.matches_laid_out``).

- The team with White (C.04.6 art. 4) is the match's first-named team: its board 1 player
  sits South, the seat that moves first, and the teams alternate seats board by board. A
  team's colour in a match is its board 1 player's (art. 1.6.1), counted for pairing only
  when the match was actually played: a match every board of which was forfeited (or
  lasted less than a move) gives no colour, and its winner has won by forfeit (art. 2.1.2).
- The pairing-allocated bye (art. 1.4, 3.4) is the team left without a match in a round;
  it scores a drawn match: 1 match point and half the boards in game points.
- The primary score is the match points unless the event says game points
  (``team_primary_score``, art. 1.2); the other is the secondary score.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from recorder.errors import InvalidRecord

from . import TEAM_SWISS
from .events import RoundPaired
from .fold import EmptyBoard, Tournament
from .pairing.team_swiss import (
    BLACK,
    TYPE_A,
    WHITE,
    NoTeamPairing,
    PairingTeam,
    TeamRoundRecord,
    TeamSwissPairing,
    TeamSwissRules,
    pair_team_round,
)
from .teams import (
    TeamRound,
    board_points,
    empty_json,
    match_points,
    match_score,
    matches_laid_out,
    round_lineups,
    stored_round,
)

BYE_MATCH_POINTS = 1  # art. 1.4: the PAB is worth a drawn match


def bye_game_points(boards: int) -> Fraction:
    return Fraction(boards, 2)


def primary_score(t: Tournament) -> str:
    return t.team_primary_score or "match_points"


def played_match(rnd: TeamRound, match: int, outcomes: Mapping, number: int) -> bool:
    """Art. 1.6.1: a match counts as played when a game of it was played over the board."""
    return any(getattr(outcomes.get((number, b.board)), "played", False) for b in rnd.boards if b.match == match)


def round_records(t: Tournament, rnd: TeamRound, outcomes: Mapping) -> dict[int, TeamRoundRecord]:
    """Each team's record of one stored round, once every board of it has its result."""
    points = {board: pair for (number, board), pair in board_points(t, outcomes).items() if number == rnd.number}
    records: dict[int, TeamRoundRecord] = {}
    for match in rnd.matches:
        score = match_score(rnd, match, points)
        if score is None:
            raise InvalidRecord(f"round {rnd.number} is not finished: every board needs a result first")
        played = played_match(rnd, match.match, outcomes, rnd.number)
        for team, opponent, colour, mine, theirs in (
            (match.first, match.second, WHITE, *score),
            (match.second, match.first, BLACK, score[1], score[0]),
        ):
            won = match_points(mine, theirs)
            records[team] = TeamRoundRecord(
                opponent, colour if played else None, Fraction(won), mine, forfeit_win=not played and won == 2
            )
    if rnd.off is not None:
        boards = t.team_boards or 1
        records[rnd.off] = TeamRoundRecord(None, None, Fraction(BYE_MATCH_POINTS), bye_game_points(boards), bye=True)
    return records


def histories(t: Tournament, outcomes: Mapping, before: int) -> list[PairingTeam]:
    """Every team's history over the rounds before round ``before``."""
    history: dict[int, list[TeamRoundRecord]] = {entered.number: [] for entered in t.teams}
    for number in range(1, before):
        for team, record in round_records(t, stored_round(t, number), outcomes).items():
            history[team].append(record)
    return [PairingTeam(team, tuple(records)) for team, records in history.items()]


def rules_of(t: Tournament) -> TeamSwissRules:
    return TeamSwissRules(
        rounds=t.planned or 0,
        primary=primary_score(t),
        initial_colour=colour_of(t),
        colour_preferences=t.team_colour_preferences or TYPE_A,
    )


def colour_of(t: Tournament) -> str:
    return BLACK if t.initial_colour == "black" else WHITE


def pairing_of(t: Tournament, outcomes: Mapping, number: int) -> TeamSwissPairing:
    """Round ``number`` as C.04.6 pairs it from the rounds before it."""
    if len(t.teams) < 2:
        raise InvalidRecord("a team Swiss needs two teams or more", field="round")
    try:
        return pair_team_round(histories(t, outcomes, number), rules_of(t))
    except NoTeamPairing as error:
        raise InvalidRecord(f"round {number}: {error}", field="round") from error


def laid_round(t: Tournament, pairing: TeamSwissPairing, number: int) -> tuple[TeamRound, list[EmptyBoard]]:
    """Each match's boards laid out from the teams' line-ups for the round, the team with
    White first-named; a board left empty apart (no game is played on it)."""
    return matches_laid_out(number, pairing.matches, round_lineups(t, number), t.team_boards or 1, pairing.bye)


def decide_team_swiss_pair(t: Tournament, outcomes: Mapping) -> list[RoundPaired]:
    """The next round of a team Swiss, each match's boards laid out."""
    pairing = pairing_of(t, outcomes, t.next_round)
    rnd, empty = laid_round(t, pairing, t.next_round)
    boards = [{"board": b.board, "south": b.south, "north": b.north} for b in rnd.boards]
    return [RoundPaired(round=rnd.number, method=TEAM_SWISS, boards=boards, empty=empty_json(empty) or None)]
