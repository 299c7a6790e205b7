"""The search benchmark: what it reads off the screen, and (in CI) one quick run."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from ttt_tui.devtools import searchbench
from ttt_tui.engine import Board


def test_the_benchmark_s_position_and_keys_fit_each_other() -> None:
    """SETUP plays LONG from the empty board; CYCLE visits only empty squares."""
    board = Board.empty(5)
    typed = b"".join(searchbench.SETUP).decode()
    for number in ("15", "8", "23"):
        assert typed.startswith(number)
        typed = typed[len(number) :]
        board = board.play(int(number) - 1)
    assert board == searchbench.LONG
    assert all(board[square - 1] is None for _, square in searchbench.CYCLE)
    assert searchbench.LONG[18 - 1] is None  # where "up" from 23 leaves the cursor


def test_the_screen_readers() -> None:
    assert searchbench.cursor_at(18)(["│  ▶ 18 ◀  │"])
    assert searchbench.cursor_at(8)(["│  ▶8◀  │"])
    assert not searchbench.cursor_at(8)(["│  ▶ 18 ◀  │"])
    assert searchbench.searching(["title", "│ 13 proving… │", "footer"])
    assert not searchbench.searching(["title", "│ 13 draw │", "footer"])


@pytest.mark.skipif(
    not os.environ.get("TTT_BENCH_LONG"), reason="three games in ptys: set TTT_BENCH_LONG=1"
)
def test_a_quick_run_prints_both_tables_and_both_goals() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ttt_tui.devtools.bench", "--search", "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for name in ("idle (coach off, no search)", "searching in the search process"):
        assert re.search(rf"\| {re.escape(name)} +\| +[\d.]+ m?s \|", out), out
    assert re.search(r"p95 while searching within 1.5x idle: [\d.]+x, (met|not met)", out)
    assert re.search(r"a search stops within 100 ms: worst [\d.]+ m?s, (met|not met)", out)
