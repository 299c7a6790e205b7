"""The check benchmark: the bot's share and ttt-tui's, beside the baseline."""

from __future__ import annotations

import re

import pytest

from tools import checkbench


@pytest.mark.long  # a plain minimax on 2,423 positions: several seconds
def test_the_quick_run_splits_the_time_between_the_bot_and_ttt_tui(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert checkbench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3x3: 2,423 of 2,423 positions asked; the check's exit status 0\n")
    for row in ("the bot's CPU", "ttt-tui's own CPU"):
        assert re.search(rf"\| {row} \| [\d.,]+ [mµ]?s \| \d+% \| [\d.,]+x (faster|slower) \|", out)
    assert re.search(r"Under a minute in all: (met|not met) \(", out)
