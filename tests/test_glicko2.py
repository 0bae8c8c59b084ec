"""Glicko-2 against Glickman's own worked example ("Example of the Glicko-2 system")."""

import math

import pytest

from recorder.ratings.glicko2 import SCALE, Rating, Result, expected_score, from_glicko2_scale, idle, rate

# The paper's player and his three opponents, with τ = 0.5.
PLAYER = Rating(1500, 200, 0.06)
GAMES = [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)]


def test_glickmans_worked_example_on_the_glicko2_scale():
    # The paper's step 5 and step 7 values: σ' = 0.05999, μ' = -0.2069, φ' = 0.8722.
    after = rate(PLAYER, GAMES, tau=0.5)
    assert f"{after.volatility:.6f}"[:7] == "0.05999"  # 0.059996: the paper writes five places, cut
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.rd / SCALE, 4) == 0.8722


def test_glickmans_step_8_gives_1464_06_and_151_52():
    # The paper converts its step 7 values, written to four places, back: 1464.06 and 151.52.
    rating, rd = from_glicko2_scale(-0.2069, 0.8722)
    assert (round(rating, 2), round(rd, 2)) == (1464.06, 151.52)


def test_glickmans_worked_example_unrounded_is_within_a_hundredth_of_the_paper():
    # Without the paper's rounding of μ' the rating is 1464.0507 (1464.05); RD 151.5165.
    after = rate(PLAYER, GAMES, tau=0.5)
    assert abs(after.rating - 1464.06) < 0.01
    assert round(after.rd, 2) == 151.52


def test_the_expected_scores_of_the_example():
    # The paper's table: E = 0.639, 0.432, 0.303.
    assert [round(expected_score(PLAYER, r.opponent), 3) for r in GAMES] == [0.639, 0.432, 0.303]


def test_a_period_without_games_grows_the_deviation_only():
    # φ' = √(φ² + σ²), rating and volatility unchanged (the paper's note after step 6).
    after = idle(PLAYER)
    phi = 200 / SCALE
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.rd == pytest.approx(SCALE * math.sqrt(phi**2 + 0.06**2))
    assert rate(PLAYER, []) == after


def test_a_win_over_an_equal_player_raises_the_rating_and_a_loss_lowers_it():
    opponent = Rating(1500, 200, 0.06)
    assert rate(PLAYER, [Result(opponent, 1)]).rating > 1500 > rate(PLAYER, [Result(opponent, 0)]).rating
    assert rate(PLAYER, [Result(opponent, 0.5)]).rating == pytest.approx(1500)
