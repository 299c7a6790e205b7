"""A player's puzzle rating: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system",
2012), one rating period an attempt.

Pure: no UI imports. `update` takes a rating and the results of one period against
opponents of known rating (for puzzles, one attempt against the puzzle's rating from
`puzzle_rating`) and returns the new rating; the arithmetic follows the paper's steps
1 to 8, on its Glicko-2 scale (``(r - 1500) / 173.7178``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko points to one unit of the Glicko-2 scale (the paper's constant)."""

TAU = 0.5
"""How much the volatility may change a period (the paper's example value; 0.3 to 1.2)."""

EPSILON = 0.000001
"""The volatility iteration's tolerance (the paper's)."""

START_RATING = 1500.0
"""A new player's rating, deviation and volatility (the paper's)."""
START_DEVIATION = 350.0
START_VOLATILITY = 0.06

PUZZLE_DEVIATION = 80.0
"""The deviation a puzzle's rating is given: a fixed number, since it comes from its
difficulty measure, not from attempts."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale."""

    rating: float = START_RATING
    """The estimate: 1500 for a newcomer."""
    deviation: float = START_DEVIATION
    """How uncertain it is (RD): 350 for a newcomer, shrinking with each result."""
    volatility: float = START_VOLATILITY
    """How erratic the player's results are (sigma)."""


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a rating period: the opponent and the score (1 win, 0.5 draw, 0 loss)."""

    opponent: float
    """The opponent's rating."""
    deviation: float
    """The opponent's rating deviation."""
    score: float


def puzzle_rating(difficulty: int) -> float:
    """A puzzle's rating from its difficulty (`ttt_tui.teach.puzzles.difficulty_of`):
    1100 for difficulty 1, and 100 more a step, so that a newcomer at 1500 is offered
    puzzles of difficulty about 5."""
    return 1000.0 + 100.0 * difficulty


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """The player's rating after a rating period with ``results`` (none: only the
    deviation grows, as the paper says for a player who did not compete)."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, grown * SCALE, sigma)
    # Step 3 and 4: the estimated variance and the estimated improvement.
    v_inverse = 0.0
    improvement = 0.0
    for result in results:
        mu_j = (result.opponent - START_RATING) / SCALE
        phi_j = result.deviation / SCALE
        g = _g(phi_j)
        expected = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * expected * (1.0 - expected)
        improvement += g * (result.score - expected)
    v = 1.0 / v_inverse
    delta = v * improvement
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

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
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 to 8: the new deviation and rating, back on the Glicko scale.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(SCALE * new_mu + START_RATING, SCALE * new_phi, new_sigma)


def after_attempt(player: Rating, difficulty: int, solved: bool) -> Rating:
    """The player's rating after one attempt at a puzzle of ``difficulty``: a rating
    period of one game against the puzzle, won if solved."""
    opponent = Result(puzzle_rating(difficulty), PUZZLE_DEVIATION, 1.0 if solved else 0.0)
    return update(player, [opponent])


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt at a puzzle, as the store keeps it."""

    puzzle: str
    """The puzzle's record (`ttt_tui.teach.puzzles.record`)."""
    n: int
    """The board's side."""
    difficulty: int
    solved: bool
    streak: int | None = None
    """In streak mode, the streak's length after this attempt (0 once missed); None
    outside it."""
