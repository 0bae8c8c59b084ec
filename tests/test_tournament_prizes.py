"""The prize allocation (recorder/tournaments/prizes.py): one prize per player, the highest he
can take; a tie shared by the Hort system or not; the worked example of docs/tournaments.md;
properties by hypothesis."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.tournaments.prizes import HORT, NOT_SHARED, Award, Prize, Ranked, allocate, offered

# The worked example of docs/tournaments.md, *Prizes*: six players, C and E and F women.
RANKING = [
    Ranked(1, Fraction(6)),  # A
    Ranked(2, Fraction(11, 2)),  # B
    Ranked(3, Fraction(11, 2)),  # C (a woman)
    Ranked(4, Fraction(11, 2)),  # D
    Ranked(5, Fraction(5)),  # E (a woman)
    Ranked(6, Fraction(5)),  # F (a woman)
]
WOMEN = {"W": frozenset({3, 5, 6})}
PRIZES = [
    Prize(1, 1000),
    Prize(2, 500),
    Prize(3, 300),
    Prize(4, 200),
    Prize(1, 250, "W"),
]


def paid(awards: list[Award]) -> dict[int, int]:
    return {a.number: a.amount for a in awards}


def test_each_prize_goes_highest_first_to_the_best_placed_player_without_one():
    # C, the first woman, is third: the 3rd prize (300) is more than the women's (250), so
    # she takes it and the women's prize passes to E; D takes the 4th (200) after them.
    awards = allocate(RANKING, WOMEN, PRIZES, NOT_SHARED)
    assert paid(awards) == {1: 1000, 2: 500, 3: 300, 5: 250, 4: 200}
    assert {a.number: (a.category, a.prize) for a in awards}[5] == ("W", 4)


def test_the_worked_example_of_the_hort_system():
    # The overall list: B, C and D tied on 5.5 pool 2nd-4th (500 + 300 + 200 = 1000); half
    # (500) equally, 166 2/3 each, half as their own prizes' halves (250, 150, 100):
    # 416 2/3, 316 2/3, 266 2/3, rounded down to 416, 316, 266, and the 2 units left to B
    # and C, the first in the tie-break order. The women's list: E took 250 and F, tied
    # with her on 5 and without a prize, joins: E 125 + 62.5, F 62.5; 187 and 62, the unit
    # left to E.
    awards = allocate(RANKING, WOMEN, PRIZES, HORT)
    assert paid(awards) == {1: 1000, 2: 417, 3: 317, 4: 266, 5: 188, 6: 62}
    assert sum(paid(awards).values()) == offered(PRIZES) == 2250
    f = next(a for a in awards if a.number == 6)
    assert (f.category, f.prize, f.pool, f.sharers) == ("W", None, (1,), 2)
    b = next(a for a in awards if a.number == 2)
    assert (b.category, b.pool, b.sharers) == (None, (2, 3, 4), 3)


def test_a_player_alone_on_his_points_keeps_his_prize_under_hort():
    awards = allocate(RANKING, WOMEN, PRIZES, HORT)
    a = next(a for a in awards if a.number == 1)
    assert (a.amount, a.pool, a.sharers) == (1000, (), 1)


def test_a_prize_without_a_player_left_for_it_is_not_paid():
    awards = allocate(RANKING[:2], {"W": frozenset()}, PRIZES, NOT_SHARED)
    assert paid(awards) == {1: 1000, 2: 500}


# --------------------------------------------------------------------------- properties

CATEGORIES = ("W", "U16", "S50")


@st.composite
def events(draw):
    """A ranking (points not increasing), categories' members, a prize list (each list's
    amounts not increasing with the place), a sharing."""
    size = draw(st.integers(min_value=1, max_value=14))
    steps = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=size, max_size=size))
    points, ranking = Fraction(2 * size), []
    for number, step in enumerate(steps, start=1):
        points -= Fraction(step, 2)
        ranking.append(Ranked(number, points))
    numbers = st.sets(st.integers(min_value=1, max_value=size))
    members = {code: frozenset(draw(numbers)) for code in CATEGORIES}
    prizes = []
    for category in (None, *CATEGORIES):
        amounts = draw(st.lists(st.integers(min_value=0, max_value=5000), max_size=5))
        prizes += [Prize(place, amount, category) for place, amount in enumerate(sorted(amounts, reverse=True), 1)]
    return ranking, members, prizes, draw(st.sampled_from([NOT_SHARED, HORT]))


@settings(derandomize=True, max_examples=400, deadline=None)
@given(events())
def test_no_player_gets_two_prizes_and_every_payment_is_from_a_list_he_belongs_to(case):
    ranking, members, prizes, sharing = case
    awards = allocate(ranking, members, prizes, sharing)
    numbers = [a.number for a in awards]
    assert len(numbers) == len(set(numbers))
    for a in awards:
        assert a.amount >= 0
        assert a.category is None or a.number in members[a.category]


@settings(derandomize=True, max_examples=400, deadline=None)
@given(events())
def test_the_money_paid_is_the_money_offered_when_every_list_has_players_enough(case):
    ranking, members, prizes, sharing = case
    everyone = frozenset(r.number for r in ranking)
    enough = len(ranking) >= len(prizes)
    members = {code: everyone for code in members} if enough else members
    awards = allocate(ranking, members, prizes, sharing)
    total = sum(a.amount for a in awards)
    if enough:
        assert total == offered(prizes)
    else:
        assert total <= offered(prizes)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(events())
def test_hort_pays_out_what_the_unshared_allocation_pays_among_tied_players(case):
    # Sharing moves money between players tied on points, never in or out of a list.
    ranking, members, prizes, _ = case
    points = {r.number: r.points for r in ranking}

    def by_list_and_points(awards):
        totals: dict[tuple, int] = {}
        for a in awards:
            key = (a.category, points[a.number])
            totals[key] = totals.get(key, 0) + a.amount
        return totals

    unshared = by_list_and_points(allocate(ranking, members, prizes, NOT_SHARED))
    shared = by_list_and_points(allocate(ranking, members, prizes, HORT))
    assert {k: v for k, v in shared.items() if v} == {k: v for k, v in unshared.items() if v}


@settings(derandomize=True, max_examples=300, deadline=None)
@given(events())
def test_unshared_each_player_takes_the_highest_prize_he_could(case):
    # No prize paid to someone placed after a player eligible for it is worth more than
    # what that player got.
    ranking, members, prizes, _ = case
    awards = allocate(ranking, members, prizes, NOT_SHARED)
    got = paid(awards)
    position = {r.number: i for i, r in enumerate(ranking)}
    for a in awards:
        for r in ranking[: position[a.number]]:
            if a.category is None or r.number in members[a.category]:
                assert got.get(r.number, -1) >= a.amount
