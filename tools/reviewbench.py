"""Benchmark the game review: how long grading a whole game takes, cold, on each board.

    python -m tools.reviewbench            # 20 games a board, 5 on 5x5
    python -m tools.reviewbench --quick    # a few games, for the tests

Games are seeded: on 3x3 half of the moves Hard's, half random (so that every
label turns up); on 4x4 every other game so, and the rest Hard against Hard, a
full 16-move draw; on 5x5 Hard against Hard, a full 25-move draw, the longest
game there is. Each game is reviewed in a fresh interpreter with the engine's
tables empty (``review_moves`` with ``analyze``, as ``ttt-tui review`` does), and
its CPU time read. The baseline, measured in the same run, is the tutorials'
naive minimax choosing X's first move on the empty 3x3 board
(`tools.bench.naive_best_move`): one search every tic-tac-toe tutorial has.
Goals (issue 19): any 3x3 or 4x4 game under 1 s, a 25-move 5x5 game under 5 s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence

from tools.bench import _child, format_ratio, naive_best_move, percentile
from tools.report import format_time
from ttt_tui.engine import Board, Difficulty, choose_move

_REVIEW_SCRIPT = """\
import json, sys, time
from ttt_tui.engine import analyze
from ttt_tui.teach.review import review_moves
n = int(sys.argv[1])
seconds = []
for game in json.loads(sys.argv[2]):
    cpu = time.process_time()
    review_moves(n, game, analyze)
    seconds.append(time.process_time() - cpu)
print(json.dumps({"cpu": seconds}))
"""

GOALS = {3: 1.0, 4: 1.0, 5: 5.0}
"""The most a review of one game may take on each board, in seconds (the p95 is checked)."""


def seeded_game(n: int, seed: int) -> list[int]:
    """A seeded game: Hard against Hard on 5x5 and in every other 4x4 game (full-board
    draws, the longest games), Hard and random moves mixed otherwise."""
    rng = random.Random(f"reviewbench/{n}/{seed}")
    hard_only = n == 5 or (n == 4 and seed % 2 == 0)
    board, cells = Board.empty(n), []
    while not board.is_game_over():
        if hard_only or rng.random() < 0.5:
            cell = choose_move(board, Difficulty.HARD, rng)
        else:
            cell = rng.choice(board.legal_moves())
        cells.append(cell)
        board = board.play(cell)
    return cells


def review_times(n: int, games: Sequence[Sequence[int]]) -> list[float]:
    """CPU seconds to review each game, every one in a fresh process of its own."""
    return [_child(_REVIEW_SCRIPT, str(n), json.dumps([list(game)]))["cpu"][0] for game in games]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.reviewbench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few games, for the tests")
    args = parser.parse_args(argv)
    counts = {3: 3, 4: 2, 5: 1} if args.quick else {3: 20, 4: 20, 5: 5}
    naive = []
    for _ in range(3 if args.quick else 7):
        start = time.process_time()
        naive_best_move(Board.empty())
        naive.append(time.process_time() - start)
    baseline = statistics.median(naive)
    rows: list[tuple[str, float, float, str, str]] = [
        ("naive minimax, X's first move on empty 3x3", baseline, baseline, "", "1x (baseline)")
    ]
    verdicts = []
    for n, count in counts.items():
        games = [seeded_game(n, seed) for seed in range(count)]
        times = review_times(n, games)
        median, high = statistics.median(times), percentile(times, 0.95)
        moves = statistics.median(len(game) for game in games)
        rows.append(
            (
                f"{n}x{n}: review of a whole game, {moves:.0f} moves (median)",
                median,
                high,
                str(count),
                format_ratio(baseline, median),
            )
        )
        verdicts.append(
            f"{n}x{n}: p95 {format_time(high)} against a goal of {format_time(GOALS[n])}:"
            f" {'met' if high < GOALS[n] else 'not met'}."
        )
    print("| measure | median CPU | p95 CPU | games | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, median, high, played, ratio in rows:
        print(f"| {label} | {format_time(median)} | {format_time(high)} | {played} | {ratio} |")
    print()
    print("\n".join(verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
