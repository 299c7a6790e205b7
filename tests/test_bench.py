"""The benchmark: its naive baseline is the tutorials' search, and it reports ratios."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ttt_tui.devtools import bench
from ttt_tui.engine import Board, Status, analyze


def _positions_below(board: Board) -> int:
    """Positions reachable from ``board`` by legal moves, ``board`` itself not counted."""
    return sum(1 + _positions_below(board.play(cell)) for cell in board.legal_moves())


def test_quick_run_counts_the_empty_board_tree_and_prints_ratios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "549,945 nodes visited" in out
    assert "With the root the game tree has 549,946" in out
    assert re.search(
        r"\| naive minimax, first move on empty board +\| +[\d.,]+ [mµ]?s .*1x \(baseline\)", out
    )
    for row in (
        "cold analyze(empty), fresh process",
        "cold import + analyze(empty), fresh process",
        "warm analyze(empty), memo populated",
        "warm choose_move(X...O...X, HARD)",
    ):
        assert re.search(
            re.escape(row) + r" +\| +[\d.,]+ [mµ]?s \|.*\| [\d.,]+x (faster|slower) +\|", out
        ), row
    assert re.search(r"34\.0 ms \| reference figure +\| not measured here", out)


@pytest.mark.parametrize("position", ["X...O....", "XO..X....", "X...O...X", "XOX.O...."])
def test_naive_counts_every_position_below_the_root(position: str) -> None:
    board = Board.parse(position)
    assert bench.naive_best_move(board).nodes == _positions_below(board)


@pytest.mark.parametrize(
    "position", ["X........", "....X....", "X...O....", "XO..X....", "X...O...X", "XX.OO...."]
)
def test_naive_first_best_move_agrees_with_the_engine(position: str) -> None:
    board = Board.parse(position)
    assert bench.naive_best_move(board).move == analyze(board).best[0]


def test_naive_search_refuses_a_finished_game() -> None:
    board = Board.parse("XXXOO....")
    assert board.status is Status.X_WON
    with pytest.raises(ValueError, match="expected a game in progress, got x_won"):
        bench.naive_best_move(board)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(1.234, "1.23 s"), (0.0053, "5.30 ms"), (0.694, "694 ms"), (12.34e-6, "12.3 µs")],
)
def test_format_time(seconds: float, text: str) -> None:
    assert bench.format_time(seconds) == text


@pytest.mark.parametrize(
    ("baseline", "seconds", "text"),
    [
        (0.7, 0.7, "1x (baseline)"),
        (0.7, 0.35, "2.0x faster"),
        (0.694, 0.00522, "133x faster"),
        (0.694, 0.694 / 16_718, "16,700x faster"),
        (0.01, 0.03, "3.0x slower"),
    ],
)
def test_format_ratio(baseline: float, seconds: float, text: str) -> None:
    assert bench.format_ratio(baseline, seconds) == text


def test_bench_imports_no_ui() -> None:
    code = (
        "import sys, ttt_tui.devtools.bench; "
        "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
