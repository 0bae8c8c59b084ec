"""Rating lists over calendar months (recorder/ratings/lists.py), pure."""

import pytest

from recorder.ratings.glicko2 import Rating, Result, idle, rate
from recorder.ratings.lists import PROVISIONAL_RD, SCORES, RatedGame, months, rating_lists


def test_months_run_across_the_year_end():
    assert months("2025-11", "2026-02") == ["2025-11", "2025-12", "2026-01", "2026-02"]


def test_a_period_rates_each_player_by_glicko2_against_ratings_before_it():
    games = [RatedGame("g1", "2026-01", "a", "b", "south_wins"), RatedGame("g2", "2026-01", "b", "c", "draw")]
    (january,) = rating_lists(games)
    by_id = {e.player_id: e for e in january.entries}
    fresh = Rating()
    assert by_id["a"].rating == rate(fresh, [Result(fresh, 1)])
    assert by_id["b"].rating == rate(fresh, [Result(fresh, 0), Result(fresh, 0.5)])
    assert [e.player_id for e in january.entries] == ["a", "c", "b"]
    assert by_id["b"].games == 2 and all(e.provisional for e in january.entries)
    assert by_id["b"].explanation["games"][0] == {
        "game_id": "g1",
        "opponent": "a",
        "opponent_rating": 1500.0,
        "opponent_rd": 350.0,
        "expected": 0.5,
        "score": 0.0,
    }


def test_a_month_without_games_grows_the_deviation_of_every_rated_player():
    games = [RatedGame("g1", "2026-01", "a", "b", "south_wins"), RatedGame("g2", "2026-03", "a", "b", "north_wins")]
    january, february, march = rating_lists(games)
    a_jan, a_feb = january.entries[0].rating, february.entries[0].rating
    assert february.period == "2026-02" and a_feb == Rating(a_jan.rating, min(idle(a_jan).rd, 350), a_jan.volatility)
    assert [e.games for e in february.entries] == [0, 0] and march.entries[0].player_id == "b"


def test_many_games_bring_the_deviation_under_the_provisional_threshold():
    games = [RatedGame(f"g{i:03d}", "2026-01", "a", "b", "south_wins" if i % 2 else "north_wins") for i in range(60)]
    (january,) = rating_lists(games)
    assert all(e.rating.rd < PROVISIONAL_RD and not e.provisional for e in january.entries)
    assert january.entries[0].rating.rating == pytest.approx(1500, abs=1)


def test_a_game_of_a_player_against_himself_counts_for_nothing():
    assert rating_lists([RatedGame("g1", "2026-01", "a", "a", "south_wins")]) == []


def test_a_running_period_moved_a_result_at_a_time_is_the_periods_list():
    import random

    from recorder.ratings.lists import RunningPeriod

    rng = random.Random(11)
    players = [f"p{i}" for i in range(12)]
    start = {p: Rating(rng.uniform(1300, 1800), rng.uniform(60, 300), 0.06) for p in players[:8]}
    running = RunningPeriod("2026-05", start)
    games: list[RatedGame] = []
    for number in range(40):
        south, north = rng.sample(players, 2)
        games.append(RatedGame(f"g{number:02d}", "2026-05", south, north, rng.choice(list(SCORES))))
        if number % 7 == 3:  # a result corrected, a game withdrawn
            games[0] = RatedGame("g00", "2026-05", games[0].south, games[0].north, "draw")
            games.pop(rng.randrange(len(games)))
        running.update(games)
        (expected,) = rating_lists(games, "2026-05", start=start, first_period="2026-05")
        got = running.list()
        assert got == expected
        assert [e.explanation for e in got.entries] == [e.explanation for e in expected.entries]


# -- Corrections: a list is as known at its month's end; a later correction goes in a later list


def record(game_id: str, south: str, north: str, *changes: tuple[str, str | None]):
    from recorder.ratings.lists import GameRecord

    return GameRecord(game_id, south, north, tuple(changes))


def as_if_always(games: list[RatedGame], last: str):
    """The lists computed from these results, as if each had always been so."""
    return {p.period: p for p in rating_lists(games, last)}


def test_a_result_corrected_after_its_month_is_applied_in_the_next_list_and_stated():
    from recorder.ratings.lists import Correction, published_lists

    corrected = record("g1", "a", "b", ("2026-01", "south_wins"), ("2026-02", None), ("2026-02", "north_wins"))
    other = record("g2", "c", "a", ("2026-01", "draw"))
    january, february, march = published_lists([corrected, other], "2026-03")
    as_recorded = as_if_always(
        [RatedGame("g1", "2026-01", "a", "b", "south_wins"), RatedGame("g2", "2026-01", "c", "a", "draw")], "2026-01"
    )
    assert january == as_recorded["2026-01"] and january.corrections == ()
    right = [RatedGame("g1", "2026-01", "a", "b", "north_wins"), RatedGame("g2", "2026-01", "c", "a", "draw")]
    expected = as_if_always(right, "2026-03")
    assert february.entries == expected["2026-02"].entries
    assert february.corrections == (Correction("g1", "2026-01", "south_wins", "north_wins"),)
    assert march.entries == expected["2026-03"].entries and march.corrections == ()
    # what was known at January's end gives January's list: a later correction never changes it
    (known_then,) = published_lists([record("g1", "a", "b", ("2026-01", "south_wins")), other], "2026-01")
    assert known_then == january


def test_a_correction_within_the_month_changes_that_months_list_only():
    from recorder.ratings.lists import published_lists

    fixed = record("g1", "a", "b", ("2026-01", "south_wins"), ("2026-01", None), ("2026-01", "draw"))
    lists = published_lists([fixed, record("g2", "a", "c", ("2026-02", "north_wins"))], "2026-02")
    games = [RatedGame("g1", "2026-01", "a", "b", "draw"), RatedGame("g2", "2026-02", "a", "c", "north_wins")]
    assert lists == rating_lists(games, "2026-02")
    assert all(p.corrections == () for p in lists)


def test_a_withdrawn_result_counts_nowhere_until_it_is_given_again_in_its_first_month():
    from recorder.ratings.lists import Correction, published_lists

    withdrawn = record("g1", "a", "b", ("2026-01", "south_wins"), ("2026-02", None), ("2026-04", "draw"))
    other = record("g2", "c", "d", ("2026-01", "south_wins"))
    january, february, march, april = published_lists([withdrawn, other], "2026-04")
    assert {e.player_id for e in january.entries} == {"a", "b", "c", "d"}
    without = as_if_always([RatedGame("g2", "2026-01", "c", "d", "south_wins")], "2026-03")
    assert february.entries == without["2026-02"].entries and march.entries == without["2026-03"].entries
    assert february.corrections == (Correction("g1", "2026-01", "south_wins", None),) and march.corrections == ()
    given = as_if_always(
        [RatedGame("g1", "2026-01", "a", "b", "draw"), RatedGame("g2", "2026-01", "c", "d", "south_wins")], "2026-04"
    )
    assert april.entries == given["2026-04"].entries
    assert april.corrections == (Correction("g1", "2026-01", None, "draw"),)


MONTHS = ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05"]


def random_records(draw) -> list:
    from hypothesis import strategies as st

    players = ["a", "b", "c", "d", "e"]
    found = []
    for number in range(draw(st.integers(1, 8))):
        south, north = draw(st.sampled_from([(s, n) for s in players for n in players if s != n]))
        first = draw(st.integers(0, len(MONTHS) - 1))
        changes = [(MONTHS[first], draw(st.sampled_from(list(SCORES))))]
        for _ in range(draw(st.integers(0, 3))):  # later corrections: withdrawn, given again, changed
            first = draw(st.integers(first, len(MONTHS) - 1))
            changes.append((MONTHS[first], draw(st.sampled_from([*SCORES, None]))))
        found.append(record(f"g{number}", south, north, *changes))
    return found


def test_each_list_is_the_run_as_known_at_its_months_end_and_later_events_never_change_it():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from recorder.ratings.lists import GameRecord, corrections, games_as_of, published_lists

    @settings(derandomize=True, max_examples=200, deadline=None)
    @given(st.data())
    def check(data):
        records = random_records(data.draw)
        lists = published_lists(records, MONTHS[-1])
        assert published_lists(records, MONTHS[-1]) == lists  # computed again: the same
        for published in lists:
            month = published.period
            known = [g for p in MONTHS if p <= month for g in games_as_of(records, p, month)]
            expected = [p for p in rating_lists(known, month) if p.period == month]
            assert published.entries == (expected[0].entries if expected else ())
            assert published.corrections == corrections(records, month)
            then = [
                GameRecord(r.game_id, r.south, r.north, tuple(c for c in r.changes if c[0] <= month)) for r in records
            ]
            assert published_lists(then, month) == [p for p in lists if p.period <= month]

    check()
