"""The puzzle rating: Glicko-2 against the worked example of Glickman's paper."""

from __future__ import annotations

import pytest

from ttt_tui.play.rating import (
    START_DEVIATION,
    Rating,
    Result,
    after_attempt,
    puzzle_rating,
    update,
)


def test_the_paper_s_worked_example() -> None:
    # "Example of the Glicko-2 system", Glickman 2012: a 1500 (RD 200, sigma 0.06) player
    # beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300), tau 0.5.
    player = Rating(1500.0, 200.0, 0.06)
    results = [Result(1400, 30, 1.0), Result(1550, 100, 0.0), Result(1700, 300, 0.0)]
    after = update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_grows_the_deviation() -> None:
    player = Rating(1500.0, 200.0, 0.06)
    after = update(player, [])
    assert after.rating == 1500.0 and after.volatility == 0.06
    # The paper: phi* = sqrt(phi^2 + sigma^2).
    assert after.deviation == pytest.approx(200.27, abs=0.01)


def test_solving_raises_the_rating_missing_lowers_it_and_both_narrow_it() -> None:
    newcomer = Rating()
    assert newcomer.deviation == START_DEVIATION
    solved = after_attempt(newcomer, 5, solved=True)
    missed = after_attempt(newcomer, 5, solved=False)
    assert missed.rating < newcomer.rating < solved.rating
    assert solved.deviation < newcomer.deviation and missed.deviation < newcomer.deviation
    # A harder puzzle solved is worth more; an easier one missed costs more.
    assert after_attempt(newcomer, 9, True).rating > solved.rating
    assert after_attempt(newcomer, 1, False).rating < missed.rating


def test_a_puzzle_s_rating_rises_with_its_difficulty() -> None:
    assert [puzzle_rating(d) for d in (1, 5, 9)] == [1100.0, 1500.0, 1900.0]
