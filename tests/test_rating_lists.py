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
