"""The line-up rules and the round laid out from line-ups, pure (recorder/tournaments/teams.py):
every line-up the rules take puts each of its players on one board of his team's match, in
the team's fixed order, and leaves its empty boards last, lost by forfeit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.tournaments.teams import lineup_problem, lineup_round, rounds_planned


@st.composite
def events(draw):
    """Teams of ``boards`` players and 0 to 2 reserves, numbered in order, and a line-up
    each: a few of its members in the team's order, empty boards after them."""
    boards = draw(st.integers(min_value=1, max_value=6))
    count = draw(st.integers(min_value=2, max_value=7))
    orders, lineups, first = [], [], 1
    for _ in range(count):
        size = boards + draw(st.integers(min_value=0, max_value=2))
        order = list(range(first, first + size))
        first += size
        fielded = sorted(draw(st.sets(st.sampled_from(order), max_size=boards)))
        orders.append(order)
        lineups.append((*fielded, *[None] * (boards - len(fielded))))
    return boards, orders, lineups


@settings(max_examples=80, derandomize=True)
@given(events())
def test_every_line_up_the_rules_take_seats_each_player_once_in_board_order_and_empty_boards_last(event):
    boards, orders, lineups = event
    for order, lineup in zip(orders, lineups, strict=True):
        assert lineup_problem(order, lineup, boards) is None
    for r in range(1, rounds_planned(len(orders)) + 1):
        rnd, empty = lineup_round(lineups, r, boards)
        seats: dict[int, int] = {}
        for b in rnd.boards:
            seats[b.south] = seats[b.north] = b.board
        for e in empty:
            for player in (e.south, e.north):
                if player is not None:
                    seats[player] = e.board
            assert (
                e.result
                == {
                    (True, True): "double_forfeit",
                    (True, False): "north_wins",
                    (False, True): "south_wins",
                }[(e.south is None, e.north is None)]
            )
        for match in rnd.matches:
            for team in (match.first, match.second):
                played = [p for p in lineups[team - 1] if p is not None]
                where = [seats.pop(p) for p in played]
                assert where == [(match.match - 1) * boards + k for k in range(1, len(played) + 1)]
        assert seats == {}  # nobody else plays: not the team off, not a player left out
        assert len(rnd.boards) + len(empty) == len(rnd.matches) * boards


def test_a_line_up_out_of_order_twice_short_or_with_a_gap_is_refused():
    order = [1, 2, 3]  # boards 1 and 2, reserve 3
    assert lineup_problem(order, (1, 3), 2) is None  # the reserve on board 2, 2 absent
    assert lineup_problem(order, (2, 3), 2) is None  # 1 absent: 2 moves up
    assert "fixed board order" in (lineup_problem(order, (3, 1), 2) or "")
    assert "one board" in (lineup_problem(order, (1, 1), 2) or "")
    assert "last board" in (lineup_problem(order, (None, 1), 2) or "")
    assert "not one of the team's" in (lineup_problem(order, (1, 4), 2) or "")
    assert "each of the 2 boards" in (lineup_problem(order, (1,), 2) or "")
