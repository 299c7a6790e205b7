"""Benchmark the engine against naive minimax, in one run, on every board size.

``python -m tools.bench`` times, on this machine and in this run:

- the baselines: the plain recursive minimax of the classic tutorial articles
  (no memo, no pruning) choosing the first move on an empty 3x3 board, in
  Python here and compiled (the Rust build in
  ``shared/baselines/rust-naive-minimax``, built with cargo when it is there);
- ``analyze(Board.empty())`` in a fresh process (cold tables), and the import
  of ``ttt_tui.engine`` in that process; ``analyze`` and a Hard
  ``choose_move`` once the tables are populated (warm);
- 4x4: ``analyze`` of the empty board in fresh processes, with nodes and peak
  memory; 5x5: the proof that the empty board is a draw (no opening book),
  and every Hard move over whole games against random, Easy, Medium and Hard,
  as X and as O, in one process whose tables stay warm across games, as in
  the app's search process; and the coach's first positions (the empty board,
  every first move, a sample after two) analysed from empty tables, with the
  opening book and with every move searched, as before the book had them.

Time figures are medians (and p95 where a distribution matters) and the 3x3
ones are quoted as ratios to the baselines measured alongside them. Pure
Python: no Textual, no Rich.

``--ui`` runs the interface benchmarks instead (`tools.feltbench`: `tools.uibench`,
then a browser tab's first frame and the explorer while it counts), and
``--search`` the interface while the computer searches, and cancelling
(`tools.searchbench`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.report import format_time, markdown_table, plural
from ttt_tui.engine import Board, Difficulty, analyze, choose_move

Seconds = float
"""A duration in seconds."""

RUST_NAIVE = Path("/work/shared/baselines/rust-naive-minimax")
"""A Rust build of a tutorial's naive minimax: the compiled baseline, if present."""

RUST_TARGET = Path.home() / ".cache" / "ttt-tui-bench" / "rust-naive-minimax"
"""Where cargo builds it: outside the repository."""

REFERENCE_4X4_NODES = 25_034
"""Nodes a pure-Python alpha-beta (table, symmetries, forced blocks) needed for (4,4,4)."""

REFERENCE_5X5_NODES = 65_784
"""Nodes a pure-Python proof search needed to prove (5,5,4) a draw."""

REFERENCE_5X5_SECONDS: Seconds = 1.15
"""CPU seconds that proof search took, on the machine it was quoted from."""

REFERENCE_CPYTHON_NAIVE: Seconds = 0.8
"""The reference CPython timing of the naive search. Not measured here."""

NAIVE_EMPTY_BOARD_NODES = 549_945
"""Calls of the tutorial's ``minimax`` when it picks the first move.

That is every position after the first move, down to the ends of the games:
the root is scored by the move loop in ``find_best_move``, not by a
``minimax`` call. With the root the complete game tree has 549,946 nodes.
"""

WARM_POSITION = "X...O...X"
"""O to move against two corners: the trap where only an edge holds the draw."""

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_EMPTY = "_"

_COLD_SCRIPT = """\
import json, time
start = time.perf_counter()
from ttt_tui.engine import Board, analyze
imported = time.perf_counter()
analyze(Board.empty())
done = time.perf_counter()
print(json.dumps({"import": imported - start, "analyze": done - imported}))
"""

_BIG_SCRIPT = """\
import json, resource, sys, time
from ttt_tui.engine import Board, analyze, evaluate
from ttt_tui.engine.search import _solver
n, what = int(sys.argv[1]), sys.argv[2]
board = Board.empty(n)
table = _solver(board)
wall, cpu = time.perf_counter(), time.process_time()
if what == "analyze":
    value = str(analyze(board).value)
else:
    value = str(evaluate(board, book=False))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
nodes = table.nodes
print(json.dumps({
    "wall": wall, "cpu": cpu,
    "nodes": nodes, "value": value,
    "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
}))
"""

_COACH_SCRIPT = """\
import json, sys, time
from ttt_tui.engine import Board, analyze, opening, solver
if sys.argv[1] == "searched":
    opening.BOOK.clear()
    opening.VALUES.clear()
seconds = []
for position in sys.argv[2:]:
    solver.clear_tables()
    cpu = time.process_time()
    analyze(Board.parse(position))
    seconds.append(time.process_time() - cpu)
print(json.dumps({"cpu": seconds}))
"""

_GAMES_SCRIPT = """\
import json, random, resource, sys, time
from ttt_tui.engine import Board, Difficulty, Player, choose_move
from ttt_tui.engine.search import _solver
n, games = int(sys.argv[1]), int(sys.argv[2])
moves, lost, results = [], 0, {}
for opponent in ("random", "easy", "medium", "hard"):
    for hard in (Player.X, Player.O):
        for game in range(games):
            rng_h = random.Random(f"bench/{n}/{opponent}/{hard.value}/{game}/hard")
            rng_o = random.Random(f"bench/{n}/{opponent}/{hard.value}/{game}/other")
            board = Board.empty(n)
            while not board.is_game_over():
                if board.to_move is hard:
                    table = _solver(board)
                    before = table.nodes
                    wall, cpu = time.perf_counter(), time.process_time()
                    cell = choose_move(board, Difficulty.HARD, rng_h)
                    moves.append((
                        time.process_time() - cpu, time.perf_counter() - wall,
                        table.nodes - before,
                    ))
                elif opponent == "random":
                    cell = rng_o.choice(board.legal_moves())
                else:
                    cell = choose_move(board, Difficulty(opponent), rng_o)
                board = board.play(cell)
            lost += board.status.winner is hard.other
print(json.dumps({
    "moves": moves, "lost": lost,
    "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    "entries": len(_solver(Board.empty(n)).table),
}))
"""


# The naive baseline. It follows the tutorials (GeeksforGeeks, "Finding optimal
# move in Tic-Tac-Toe using Minimax"): a list of characters, evaluate() scans
# all eight lines, +10/-10 adjusted by depth, and the search recurses into
# every move with no memo and no pruning. The one addition is the node counter.


@dataclass(slots=True)
class NaiveResult:
    """What the naive search found and how many positions it visited."""

    move: int
    """The first best move, a cell index in reading order."""
    score: int
    """Its tutorial score: 10 - depth for a win, depth - 10 for a loss, 0 a draw."""
    nodes: int
    """Calls of ``minimax``: every position below the root that was visited."""


class _Counter:
    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes = 0


def _evaluate(board: list[str], player: str, opponent: str) -> int:
    for a, b, c in _LINES:
        if board[a] == board[b] == board[c]:
            if board[a] == player:
                return 10
            if board[a] == opponent:
                return -10
    return 0


def _is_moves_left(board: list[str]) -> bool:
    return any(cell == _EMPTY for cell in board)


def _minimax(
    board: list[str], depth: int, is_max: bool, player: str, opponent: str, counter: _Counter
) -> int:
    counter.nodes += 1
    score = _evaluate(board, player, opponent)
    if score == 10:
        return score - depth
    if score == -10:
        return score + depth
    if not _is_moves_left(board):
        return 0
    if is_max:
        best = -1000
        for i in range(9):
            if board[i] == _EMPTY:
                board[i] = player
                best = max(best, _minimax(board, depth + 1, False, player, opponent, counter))
                board[i] = _EMPTY
        return best
    best = 1000
    for i in range(9):
        if board[i] == _EMPTY:
            board[i] = opponent
            best = min(best, _minimax(board, depth + 1, True, player, opponent, counter))
            board[i] = _EMPTY
    return best


def naive_best_move(board: Board) -> NaiveResult:
    """The tutorial's ``find_best_move`` for the side to move on a 3x3 board.

    Counts one node per ``minimax`` call, so the root, which the move loop
    here scores, is not counted: 549,945 nodes for the empty board.
    """
    if board.n != 3 or board.k != 3:
        raise ValueError(f"expected a 3x3 board, got {board.n}x{board.n}")
    if board.is_game_over():
        raise ValueError(f"expected a game in progress, got {board.status.value}")
    player, opponent = board.to_move.value, board.to_move.other.value
    cells = [mark.value if (mark := board[c]) else _EMPTY for c in range(9)]
    counter = _Counter()
    best_score, best_move = -1000, -1
    for i in range(9):
        if cells[i] == _EMPTY:
            cells[i] = player
            score = _minimax(cells, 0, False, player, opponent, counter)
            cells[i] = _EMPTY
            if score > best_score:
                best_score, best_move = score, i
    return NaiveResult(best_move, best_score, counter.nodes)


# Measurements.


@dataclass(frozen=True, slots=True)
class Figure:
    """One measured row of the table."""

    name: str
    """What was timed."""
    median: Seconds
    """The median time of one call."""
    runs: str
    """How the median was taken, e.g. ``15 processes``."""
    compare: bool = True
    """Whether a ratio to the naive baseline means anything for this row."""


def time_naive(runs: int) -> tuple[list[Seconds], NaiveResult]:
    """Time the naive search on the empty board ``runs`` times."""
    times: list[Seconds] = []
    result = NaiveResult(-1, 0, 0)
    for _ in range(runs):
        start = time.perf_counter()
        result = naive_best_move(Board.empty())
        times.append(time.perf_counter() - start)
    return times, result


def _child_env() -> dict[str, str]:
    # The child must import this checkout even if the package is not installed, and
    # may keep its bytecode: with PYTHONDONTWRITEBYTECODE every cold start would
    # compile the engine from source, which an installed engine never does (the first,
    # uncounted process writes the .pyc files).
    root = str(Path(__file__).resolve().parents[1])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def cold_process() -> tuple[Seconds, Seconds]:
    """``(import, analyze)`` seconds from one fresh interpreter process."""
    out = subprocess.run(
        [sys.executable, "-c", _COLD_SCRIPT],
        env=_child_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = json.loads(out)
    return float(data["import"]), float(data["analyze"])


def time_cold(
    runs: int, rust: Path | None = None
) -> tuple[list[tuple[Seconds, Seconds]], list[Seconds], int]:
    """``(import, analyze)`` seconds from ``runs`` fresh interpreter processes.

    With a compiled baseline, each process alternates with one run of it, so
    both meet the same load on a shared machine; its times and nodes come back
    too (empty and 0 without it).
    """
    cold_process()  # Not counted: lets the first timed process find .pyc files written.
    cold: list[tuple[Seconds, Seconds]] = []
    compiled: list[Seconds] = []
    nodes = 0
    for _ in range(runs):
        cold.append(cold_process())
        if rust is not None:
            times, nodes = time_rust_naive(rust, 1)
            compiled.extend(times)
    return cold, compiled, nodes


def time_warm(func: Callable[[], object], repeat: int, target: Seconds) -> tuple[Seconds, int]:
    """Median seconds per call over ``repeat`` timeit runs, and loops per run.

    Loops per run are chosen so that one run lasts about ``target`` seconds.
    """
    timer = timeit.Timer(func)
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= target:
            break
        number = max(number * 2, int(number * target / max(elapsed, 1e-9) * 1.1))
    runs = timer.repeat(repeat=repeat, number=number)
    return statistics.median(runs) / number, number


def _child(script: str, *args: str) -> dict[str, Any]:
    """Run a measuring script in a fresh interpreter and read its JSON line."""
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=_child_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data: dict[str, Any] = json.loads(out)
    return data


def build_rust_naive() -> Path | None:
    """Build the compiled baseline with cargo, outside the repository; None if impossible."""
    cargo = shutil.which("cargo")
    if cargo is None or not (RUST_NAIVE / "Cargo.toml").is_file():
        return None
    env = dict(os.environ, CARGO_TARGET_DIR=str(RUST_TARGET))
    built = subprocess.run(
        [
            cargo,
            "build",
            "--release",
            "--offline",
            "--quiet",
            "--manifest-path",
            str(RUST_NAIVE / "Cargo.toml"),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    binary = RUST_TARGET / "release" / "naive-minimax"
    return binary if built.returncode == 0 and binary.is_file() else None


def time_rust_naive(binary: Path, runs: int) -> tuple[list[Seconds], int]:
    """The compiled search's own timing of the empty board (in-process), and its nodes."""
    times: list[Seconds] = []
    nodes = 0
    for _ in range(runs):
        out = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout
        match = re.search(r"nodes=(\d+) time=([\d.]+) ms", out)
        if match is None:
            raise RuntimeError(f"unexpected output from {binary}: {out!r}")
        nodes = int(match[1])
        times.append(float(match[2]) / 1000)
    return times, nodes


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with ``fraction`` of them at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def format_mib(size: float) -> str:
    """Bytes as MiB with one decimal."""
    return f"{size / 2**20:.1f} MiB"


def format_ratio(baseline: Seconds, seconds: Seconds) -> str:
    """How many times faster than the baseline, e.g. ``143x faster``."""
    ratio = baseline / seconds
    if seconds == baseline:
        return "1x (baseline)"
    if ratio >= 1:
        return f"{_ratio_digits(ratio)}x faster"
    return f"{_ratio_digits(1 / ratio)}x slower"


def _ratio_digits(ratio: float) -> str:
    # Three significant figures: the run-to-run noise is larger than that.
    if ratio < 10:
        return f"{ratio:.1f}"
    digits = len(str(int(ratio)))
    return f"{round(ratio, 3 - digits):,.0f}"


def render_table(naive: Seconds, rows: Sequence[Figure]) -> str:
    """A Markdown table: each figure's median and its ratio to the naive search."""
    header = ("what", "median", "runs", "vs naive minimax in this run")
    body = [
        (
            row.name,
            format_time(row.median),
            row.runs,
            format_ratio(naive, row.median) if row.compare else "(not a search)",
        )
        for row in rows
    ]
    return markdown_table(header, body, right={1})


def build_parser() -> argparse.ArgumentParser:
    """The parser for ``python -m tools.bench``."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench",
        description=(
            "Time the engine against the tutorials' naive minimax in the same run"
            " and print medians with ratios."
        ),
    )
    parser.add_argument(
        "--repeat",
        type=int,
        metavar="N",
        help="fresh processes for the cold figures and timeit repeats for the"
        " warm ones (default: 15, or 3 with --quick)",
    )
    parser.add_argument(
        "--naive-runs",
        type=int,
        metavar="N",
        help="runs of the naive search (default: 5, or 1 with --quick)",
    )
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="5x5 games of Hard per opponent and side (default: 3, or 1 with --quick)",
    )
    parser.add_argument("--quick", action="store_true", help="fewer and shorter runs, for tests")
    parser.add_argument(
        "--ui",
        action="store_true",
        help="time the app's interface against a bare Textual app instead;"
        " --ui --help lists its options",
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="time the interface while the computer searches a 5x5 position, and"
        " how fast a search stops, instead; --search --help lists its options",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table; returns the exit status.

    With ``--ui``, the rest of the arguments go to `tools.feltbench`; with
    ``--search``, to `tools.searchbench`.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    if "--search" in args_list:
        from tools import searchbench

        args_list.remove("--search")
        return searchbench.main(args_list)
    if "--ui" in args_list:
        from tools import feltbench

        args_list.remove("--ui")
        return feltbench.main(args_list)
    parser = build_parser()
    args = parser.parse_args(args_list)
    repeat: int = args.repeat if args.repeat is not None else 3 if args.quick else 15
    naive_runs: int = args.naive_runs if args.naive_runs is not None else 1 if args.quick else 5
    if repeat < 1 or naive_runs < 1:
        parser.error(f"expected at least 1 run, got --repeat {repeat} --naive-runs {naive_runs}")
    target = 0.05 if args.quick else 0.2

    print(
        f"ttt-tui engine benchmark: {platform.python_implementation()}"
        f" {platform.python_version()} on {platform.system()} {platform.machine()};"
        " all figures are medians."
    )
    naive_times, naive = time_naive(naive_runs)
    naive_median = statistics.median(naive_times)
    print(
        "Baseline: the tutorials' naive minimax (no memo, no pruning) picks the first\n"
        f"move on an empty 3x3 board: move {naive.move}, score {naive.score},"
        f" {naive.nodes:,} nodes visited.\n"
        "Nodes counted: every minimax() call, i.e. every position below the root; the\n"
        "root is scored by find_best_move's loop. With the root the game tree has"
        f" {naive.nodes + 1:,}."
    )

    rust = build_rust_naive()
    cold, rust_times, rust_nodes = time_cold(repeat, rust)
    warm_board = Board.parse(WARM_POSITION)
    rng = random.Random(0)
    analyze(Board.empty())  # Populates the memo: the warm figures start here.
    warm_analyze, analyze_loops = time_warm(lambda: analyze(Board.empty()), repeat, target)
    warm_choose, choose_loops = time_warm(
        lambda: choose_move(warm_board, Difficulty.HARD, rng), repeat, target
    )

    rust_median = statistics.median(rust_times) if rust_times else None

    cold_total = statistics.median(i + a for i, a in cold)
    rows = [
        Figure("naive minimax, first move on empty board", naive_median, plural(naive_runs, "run")),
        Figure(
            "cold analyze(empty), fresh process",
            statistics.median(a for _, a in cold),
            plural(repeat, "process", "processes"),
        ),
        Figure(
            "cold import ttt_tui.engine, fresh process",
            statistics.median(i for i, _ in cold),
            plural(repeat, "process", "processes"),
            compare=False,
        ),
        Figure(
            "cold import + analyze(empty), fresh process",
            cold_total,
            plural(repeat, "process", "processes"),
        ),
        Figure(
            "warm analyze(empty), memo populated",
            warm_analyze,
            f"{repeat} x {analyze_loops:,} loops",
        ),
        Figure(
            f"warm choose_move({WARM_POSITION}, HARD)",
            warm_choose,
            f"{repeat} x {choose_loops:,} loops",
        ),
    ]
    if rust_median is not None:
        rows.append(
            Figure(
                "naive minimax compiled (Rust), first move, its own clock",
                rust_median,
                plural(repeat, "run"),
            )
        )
    print()
    print(render_table(naive_median, rows))
    print()
    if rust_median is None:
        print(f"Compiled baseline: not measured (cargo or {RUST_NAIVE} is missing here).")
    else:
        verdict = "met" if cold_total < rust_median else "not met"
        print(
            f"Compiled baseline: {rust} ({rust_nodes:,} nodes), built by cargo in"
            f" {RUST_TARGET}.\nGoal: a fresh process imports the engine and analyses the"
            f" empty 3x3 board faster than the compiled naive search: {format_time(cold_total)}"
            f" against {format_time(rust_median)}, {verdict}."
        )

    big_runs = 1 if args.quick else 5
    games = args.games if args.games is not None else 1 if args.quick else 3
    print()
    coach = first_positions(0)[:1] if args.quick else first_positions(COACH_SAMPLE)
    print(big_boards(big_runs, games, coach))
    return 0


COACH_SAMPLE = 12
"""Positions with two marks among the coach's first positions the benchmark times."""


def first_positions(sample: int) -> list[str]:
    """The 5x5 positions a coach meets first, one per symmetry class: the empty board,
    every first move, and ``sample`` positions after the first two moves (seeded)."""
    from tools.book import book_positions

    boards = sorted(book_positions().values(), key=str)
    early = [str(b) for b in boards if (b.x | b.o).bit_count() < 2]
    later = [str(b) for b in boards if (b.x | b.o).bit_count() == 2]
    return early + random.Random(0).sample(later, min(sample, len(later)))


def met(condition: bool) -> str:
    """A goal's verdict."""
    return "met" if condition else "not met"


def big_boards(runs: int, games: int, coach_positions: Sequence[str]) -> str:
    """The 4x4 and 5x5 figures, measured in fresh processes, as text with a table;
    ``coach_positions`` are the coach's first positions to time."""
    four = [_child(_BIG_SCRIPT, "4", "analyze") for _ in range(runs)]
    proof = [_child(_BIG_SCRIPT, "5", "proof") for _ in range(runs)]
    played = _child(_GAMES_SCRIPT, "5", str(games))
    header = ("what", "CPU median", "CPU p95", "wall median", "nodes", "peak memory", "goal")
    body = []

    def median(rows: list[dict[str, Any]], key: str) -> float:
        return statistics.median(float(r[key]) for r in rows)

    four_cpu, four_rss = median(four, "cpu"), max(r["rss"] for r in four)
    body.append(
        (
            f"4x4: cold analyze(empty), {four[0]['value']}, fresh process",
            format_time(four_cpu),
            "",
            format_time(median(four, "wall")),
            f"{four[0]['nodes']:,}",
            format_mib(four_rss),
            "under 1 s and 150 MiB: "
            + ("met" if four_cpu < 1 and four_rss < 150 * 2**20 else "not met"),
        )
    )
    proof_cpu, proof_nodes = median(proof, "cpu"), proof[0]["nodes"]
    body.append(
        (
            f"5x5: cold proof that the empty board is a {proof[0]['value']} (no book)",
            format_time(proof_cpu),
            "",
            format_time(median(proof, "wall")),
            f"{proof_nodes:,}",
            format_mib(max(r["rss"] for r in proof)),
            f"under 2 s and {REFERENCE_5X5_NODES:,} nodes: "
            + ("met" if proof_cpu < 2 and proof_nodes < REFERENCE_5X5_NODES else "not met"),
        )
    )
    booked = _child(_COACH_SCRIPT, "book", *coach_positions)["cpu"]
    searched = _child(_COACH_SCRIPT, "searched", *coach_positions)["cpu"]
    for label, times, goal in (
        ("from the book", booked, "p95 under 1 s: " + met(percentile(booked, 0.95) < 1)),
        ("searched, no book (before it)", searched, ""),
    ):
        body.append(
            (
                f"5x5: the coach's first positions, {label}",
                format_time(statistics.median(times)),
                format_time(percentile(times, 0.95)),
                "",
                "",
                "",
                goal,
            )
        )
    moves = played["moves"]
    cpu = [m[0] for m in moves]
    wall = [m[1] for m in moves]
    nodes = [m[2] for m in moves]
    body.append(
        (
            f"5x5: a Hard move, {len(moves):,} moves of {8 * games} games",
            format_time(statistics.median(cpu)),
            format_time(percentile(cpu, 0.95)),
            format_time(statistics.median(wall)),
            f"{statistics.median(nodes):,.0f} (p95 {percentile(nodes, 0.95):,.0f})",
            format_mib(played["rss"]),
            "p95 under 1 s: " + ("met" if percentile(cpu, 0.95) < 1 else "not met"),
        )
    )
    table = markdown_table(header, body, right={1, 2, 3, 4, 5})
    return (
        "Bigger boards: CPU seconds of the searching process (the machine is shared, so\n"
        "wall time can be longer); nodes are positions the search expanded.\n\n"
        + table
        + "\n\n"
        + f"The coach's first positions: {len(coach_positions)}, each analysed from empty"
        " tables (every move valued, as the coach shows it).\n"
        + f"Hard's games: against random, Easy, Medium and Hard, as X and as O, {games} of"
        f" each, in one process (tables warm across games). Slowest move:"
        f" {format_time(max(cpu))} of CPU, {format_time(max(wall))} wall,"
        f" {max(nodes):,} nodes; Hard lost {played['lost']}; {played['entries']:,} table"
        " entries at the end.\n"
        f"References, not measured here: a pure-Python alpha-beta reached the 4x4 value in"
        f" {REFERENCE_4X4_NODES:,} nodes; a pure-Python proof search proved 5x5 a draw in"
        f" {REFERENCE_5X5_NODES:,} nodes and {format_time(REFERENCE_5X5_SECONDS)}."
    )


if __name__ == "__main__":
    sys.exit(main())
