"""Benchmark `ttt-tui check`: how long checking a learner's plain minimax takes, and
how much of it is the bot's own time.

    python -m tools.checkbench            # all 4,520 positions
    python -m tools.checkbench --quick    # X's positions only, for the tests

The bot is CS50's plain minimax, as a learner writes it first: no pruning, no
memory, a fresh search for every position. The check runs in this process, so
its own CPU (asking, reading, proving each position's values, grading) is read
apart from the bot's (the bot's process, a child, counted once it ends). The
baseline, measured in the same run, is the tutorials' naive minimax choosing X's
first move on the empty board (`tools.bench.naive_best_move`). The goal (issue
20): under a minute in all, nearly all of it the bot's.
"""

from __future__ import annotations

import argparse
import io
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tools.bench import format_ratio, naive_best_move
from tools.report import format_time
from ttt_tui.__main__ import build_parser
from ttt_tui.commands.check import run_check
from ttt_tui.engine import Board

PLAIN_MINIMAX = """
X, O, EMPTY = "X", "O", None
LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
LINES += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


def player(board):
    return X if sum(c is not EMPTY for row in board for c in row) % 2 == 0 else O


def actions(board):
    return [(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY]


def winner(board):
    for line in LINES:
        first = board[line[0][0]][line[0][1]]
        if first is not EMPTY and all(board[i][j] == first for i, j in line):
            return first
    return None


def value(board, me, depth):
    won = winner(board)
    if won is not None:
        return 10 - depth if won == me else depth - 10
    moves = actions(board)
    if not moves:
        return 0
    turn = player(board)
    results = []
    for i, j in moves:
        board[i][j] = turn
        results.append(value(board, me, depth + 1))
        board[i][j] = EMPTY
    return max(results) if turn == me else min(results)


def minimax(board):
    me = player(board)
    best, best_value = None, None
    for i, j in actions(board):
        board[i][j] = me
        found = value(board, me, 1)
        board[i][j] = EMPTY
        if best_value is None or found > best_value:
            best, best_value = (i, j), found
    return best
"""


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.checkbench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="X's positions only, for the tests")
    options = parser.parse_args(argv)
    start = time.process_time()
    naive_best_move(Board.empty())
    baseline = time.process_time() - start
    with tempfile.TemporaryDirectory() as folder:
        bot = Path(folder) / "plain_minimax.py"
        bot.write_text(PLAIN_MINIMAX, encoding="utf-8")
        side = "X" if options.quick else "both"
        args = build_parser().parse_args(
            ["check", "--side", side, "--timeout", "600", "--budget", "86400", str(bot)]
        )
        own, children, wall = (
            cpu(resource.RUSAGE_SELF),
            cpu(resource.RUSAGE_CHILDREN),
            time.perf_counter(),
        )
        report = io.StringIO()
        status = run_check(args, report, io.StringIO())
        wall = time.perf_counter() - wall
        own = cpu(resource.RUSAGE_SELF) - own
        children = cpu(resource.RUSAGE_CHILDREN) - children
    first = report.getvalue().splitlines()[0]
    print(f"{first}; the check's exit status {status}")
    print("| measure | time | share of the CPU | ratio |")
    print("| --- | ---: | ---: | ---: |")
    naive = "naive minimax, X's first move on empty 3x3"
    print(f"| {naive} | {format_time(baseline)} | | 1x (baseline) |")
    total = own + children
    for label, seconds in (("the bot's CPU", children), ("ttt-tui's own CPU", own)):
        share = f"{100 * seconds / total:.0f}%" if total else "—"
        print(f"| {label} | {format_time(seconds)} | {share} | {format_ratio(baseline, seconds)} |")
    print(f"| wall clock, in all | {format_time(wall)} | | {format_ratio(baseline, wall)} |")
    print()
    goal = 60.0
    print(f"Under a minute in all: {'met' if wall < goal else 'not met'} ({format_time(wall)}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
