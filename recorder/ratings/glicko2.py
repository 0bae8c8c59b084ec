"""Glicko-2, step by step as in Glickman's "Example of the Glicko-2 system".

A rating period's games are treated as played at once: a player's rating ``r``, deviation
``RD`` and volatility ``σ`` before the period and his results against each opponent's
rating and deviation (as they stood before the period) give his values after it. Pure:
floats in, floats out; nothing here rounds (a list rounds what it shows).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # the Glicko-2 scale's unit in rating points (step 2)
BASE = 1500.0
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5  # the system constant τ: how much volatility may change in a period
EPSILON = 0.000001  # the convergence tolerance of step 5


@dataclass(frozen=True)
class Rating:
    """A player's rating, deviation and volatility on the Glicko (Elo-like) scale."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent as he stood before it, and the score (1, ½, 0)."""

    opponent: Rating
    score: float


def g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(μ, μj, φj): the expected score against opponent j."""
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The expected score of ``player`` against ``opponent`` (what a list's explanation shows)."""
    return expected(to_mu(player.rating), to_mu(opponent.rating), opponent.rd / SCALE)


def to_mu(rating: float) -> float:
    return (rating - BASE) / SCALE


def idle(player: Rating) -> Rating:
    """A period without games: rating and volatility stay, the deviation grows (step 6
    alone): φ' = √(φ² + σ²)."""
    phi = player.rd / SCALE
    return Rating(player.rating, SCALE * math.sqrt(phi * phi + player.volatility**2), player.volatility)


def rate(player: Rating, results: Sequence[Result], tau: float = DEFAULT_TAU) -> Rating:
    """The player after a rating period with these results (steps 2-8)."""
    if not results:
        return idle(player)
    mu, phi = to_mu(player.rating), player.rd / SCALE  # step 2
    terms = []
    for result in results:
        mu_j, phi_j = to_mu(result.opponent.rating), result.opponent.rd / SCALE
        terms.append((g(phi_j), expected(mu, mu_j, phi_j), result.score))
    v = 1 / sum(g_j * g_j * e_j * (1 - e_j) for g_j, e_j, _ in terms)  # step 3
    improvement = sum(g_j * (s_j - e_j) for g_j, e_j, s_j in terms)
    delta = v * improvement  # step 4
    sigma = new_volatility(phi, player.volatility, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)  # step 7
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(*from_glicko2_scale(mu_new, phi_new), sigma)  # step 8


def from_glicko2_scale(mu: float, phi: float) -> tuple[float, float]:
    """Step 8: r' = 173.7178 μ' + 1500, RD' = 173.7178 φ'."""
    return SCALE * mu + BASE, SCALE * phi


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ' = e^(A/2), A the root of f found by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
