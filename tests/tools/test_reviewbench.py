"""The review benchmark: every board's row, with a ratio to the baseline and a verdict."""

from __future__ import annotations

import re

import pytest

from tools import reviewbench


@pytest.mark.long  # reviews a 25-move 5x5 game cold: a few seconds
def test_the_quick_run_prints_every_board_with_its_ratio_and_goal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert reviewbench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert re.search(
        r"\| naive minimax, X's first move on empty 3x3 \| .* \| 1x \(baseline\) \|", out
    )
    for n in (3, 4, 5):
        assert re.search(
            rf"\| {n}x{n}: review of a whole game, \d+ moves \(median\) \| [\d.,]+ [mµ]?s \|"
            r" [\d.,]+ [mµ]?s \| \d+ \| [\d.,]+x (faster|slower) \|",
            out,
        ), n
        assert re.search(rf"{n}x{n}: p95 [\d.,]+ [mµ]?s against a goal of .*: (met|not met)\.", out)


def test_a_5x5_game_is_a_full_board_of_hard_against_hard() -> None:
    cells = reviewbench.seeded_game(5, 0)
    assert len(cells) == 25 and len(set(cells)) == 25
