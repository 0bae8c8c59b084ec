"""Team round robins, the pure core (recorder/tournaments/teams.py): the Berger table over
teams, each match's boards by board order with alternating seats, match and game points."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.tournaments.teams import rounds_planned, team_round, team_standings

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def rosters(teams: int, boards: int) -> list[list[int]]:
    """Team t's players are entrants boards*(t-1)+1 ... boards*t, in board order."""
    return [list(range(boards * (t - 1) + 1, boards * t + 1)) for t in range(1, teams + 1)]


def team_of(player: int, boards: int) -> int:
    return (player - 1) // boards + 1


def test_six_teams_of_four_boards_meet_each_other_once_in_five_rounds():
    rounds = [team_round(rosters(6, 4), r, 4) for r in range(1, rounds_planned(6) + 1)]
    assert len(rounds) == 5
    met = [tuple(sorted((m.first, m.second))) for rnd in rounds for m in rnd.matches]
    assert sorted(met) == list(combinations(range(1, 7), 2))
    assert all(len(rnd.matches) == 3 and [b.board for b in rnd.boards] == list(range(1, 13)) for rnd in rounds)
    first = rounds[0]  # C.05 Annex 1 for six: 1-6 2-5 3-4
    assert [(m.first, m.second) for m in first.matches] == [(1, 6), (2, 5), (3, 4)]


def test_the_first_named_team_sits_south_on_the_odd_boards_each_team_fielding_its_board_order():
    rnd = team_round(rosters(6, 4), 1, 4)
    match = [(b.board_in_match, b.south, b.north) for b in rnd.boards if b.match == 1]  # team 1 v team 6
    assert match == [(1, 1, 21), (2, 22, 2), (3, 3, 23), (4, 24, 4)]


def test_a_team_that_meets_the_dummy_has_the_round_off():
    rnd = team_round(rosters(5, 2), 1, 2)
    assert rnd.off is not None and len(rnd.matches) == 2
    assert rnd.off not in {t for m in rnd.matches for t in (m.first, m.second)}


def test_a_team_with_fewer_players_than_boards_is_refused():
    with pytest.raises(ValueError, match="team 2 has fewer than 4 players"):
        team_round([[1, 2, 3, 4], [5, 6, 7]], 1, 4)


@settings(max_examples=60, derandomize=True)
@given(st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=8))
def test_every_pair_of_teams_meets_once_and_each_team_moves_first_on_half_its_boards(teams, boards):
    met = []
    for r in range(1, rounds_planned(teams) + 1):
        rnd = team_round(rosters(teams, boards), r, boards)
        for match in rnd.matches:
            met.append(tuple(sorted((match.first, match.second))))
            souths = [team_of(b.south, boards) for b in rnd.boards if b.match == match.match]
            assert souths.count(match.first) == (boards + 1) // 2  # the odd boards
            assert souths.count(match.second) == boards // 2
            orders = [b.board_in_match for b in rnd.boards if b.match == match.match]
            players = [
                b.south if team_of(b.south, boards) == match.first else b.north
                for b in rnd.boards
                if b.match == match.match
            ]
            assert [(p - 1) % boards + 1 for p in players] == orders  # board k: the team's k-th player
    assert sorted(met) == list(combinations(range(1, teams + 1), 2))


def played(rounds, result_of) -> dict:
    """(round, board) -> (South's points, North's), ``result_of(board)`` giving South's."""
    points = {}
    for rnd in rounds:
        for board in rnd.boards:
            south = result_of(rnd, board)
            points[(rnd.number, board.board)] = (south, 1 - south)
    return points


def test_the_team_standings_count_match_points_then_game_points():
    rounds = [team_round(rosters(6, 4), r, 4) for r in range(1, 6)]

    def lower_team_wins_every_board(rnd, board):
        return WIN if team_of(board.south, 4) < team_of(board.north, 4) else LOSS

    standings = team_standings(6, rounds, played(rounds, lower_team_wins_every_board))
    assert [(s.rank, s.team, s.match_points, s.game_points, s.played) for s in standings] == [
        (1, 1, 10, 20, 5), (2, 2, 8, 16, 5), (3, 3, 6, 12, 5), (4, 4, 4, 8, 5), (5, 5, 2, 4, 5), (6, 6, 0, 0, 5),
    ]  # fmt: skip


def test_a_level_match_gives_each_team_one_match_point_and_an_unfinished_one_counts_nothing():
    rnd = team_round(rosters(2, 4), 1, 4)
    points = {(1, 1): (WIN, LOSS), (1, 2): (WIN, LOSS), (1, 3): (LOSS, WIN), (1, 4): (LOSS, WIN)}
    assert [(s.team, s.match_points, s.game_points) for s in team_standings(2, [rnd], points)] == [(1, 1, 2), (2, 1, 2)]
    del points[(1, 4)]
    assert [(s.rank, s.match_points, s.played) for s in team_standings(2, [rnd], points)] == [(1, 0, 0), (1, 0, 0)]


def test_game_points_first_when_the_event_says_so():
    rounds = [team_round(rosters(3, 4), r, 4) for r in range(1, 4)]

    def result(rnd, board):
        south, north = team_of(board.south, 4), team_of(board.north, 4)
        if {south, north} == {1, 3}:  # team 3 crushes team 1: 4-0
            return WIN if south == 3 else LOSS
        if {south, north} == {1, 2}:  # team 1 edges team 2: 2.5-1.5
            return WIN if board.board_in_match == 1 else DRAW
        return DRAW if board.board_in_match < 4 else (WIN if south == 2 else LOSS)  # team 2 edges team 3

    points = played(rounds, result)
    by_match = [(s.team, s.match_points, s.game_points) for s in team_standings(3, rounds, points)]
    by_games = [(s.team, s.match_points, s.game_points) for s in team_standings(3, rounds, points, "game_points")]
    assert by_match[0][1] == by_match[1][1] == by_match[2][1] == 2  # a cycle: each won one match
    assert by_games[0][0] == 3 and by_games[0][2] == Fraction(11, 2)  # 4 against team 1, 1.5 against team 2
    with pytest.raises(ValueError):
        team_standings(3, rounds, points, "board_points")
