"""The data benchmark: every row with the empty directory's figure, each size's with its
ratio, the targets and the JSONL store's figures."""

from __future__ import annotations

import re

import pytest

from tools import databench
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode

FIGURE = r"[\d.,]+ (?:[mµ]?s|MiB)"


@pytest.mark.long  # fills two directories and launches the game four times: about 30 s
def test_a_tiny_run_prints_every_row_beside_the_empty_directory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert databench.main(["--sizes", "100", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\| measure +\| empty directory \| +100 games \| target at 100 +\|", out)
    assert "before (JSONL, from issue 29)" in out
    for label, _key, _statistic, target, _before in databench.ROWS:
        ratio = "" if label.startswith("database size") else r" \([\d.]+x\)"
        goal = r"[<≤] [\d.,]+ (?:[mµ]?s|MiB): (?:met|not met)" if target else ""
        row = rf"\| {re.escape(label)} +\| +{FIGURE} \| +{FIGURE}{ratio} \| {goal} *\|"
        assert re.search(row, out), label
    assert re.search(r"\| 1k: 17 ms; 10k: 155 ms; 100k: 0\.4–1\.45 s \|", out)


def test_the_seeded_games_cover_every_board_mode_and_result() -> None:
    records = databench.seeded_records(500, seed=0, start=databench.START)
    assert {r.n for r in records} == {3, 4, 5}
    assert {r.mode for r in records} == set(Mode)
    assert {r.result for r in records} == set(Result)
    assert records == databench.seeded_records(500, seed=0, start=databench.START)
