"""``python -m tools.bench``: the engine on every board against the tutorials' naive
minimax, in Python and compiled (``../shared/baselines`` beside the clone), measured in
the same run; no Textual, no Rich. ``--ui`` and ``--search`` run `tools.uibench`'s
benchmarks instead. docs/engine.md says what each row measures."""

from __future__ import annotations

import json
import os
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

from tools.report import (
    ROOT,
    BenchError,
    Count,
    Options,
    Seconds,
    format_mib,
    format_speedup,
    format_time,
    machine,
    markdown_table,
    p95,
    plural,
    run_child,
    spread,
    verdict,
)
from ttt_tui.engine import Board, Difficulty, analyze, choose_move

BASELINES = ROOT.parent / "shared" / "baselines"
"""Where the compiled baselines are, beside the clone, unless ``--baselines`` says."""

RUST_TARGET = Path.home() / ".cache" / "ttt-tui-bench" / "rust-naive-minimax"
"""Where cargo builds the compiled baseline: outside the repository."""

REFERENCE_5X5_NODES = 65_784
"""Nodes a pure-Python proof search needed to prove (5,5,4) a draw: docs/engine.md."""

WARM_POSITION = "X...O...X"
"""O to move against two corners: the trap where only an edge holds the draw."""

COACH_SAMPLE = 12
"""Positions with two marks among the coach's first positions that are timed."""

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

_COLD_SCRIPT = """\
import json, time
start = time.perf_counter()
from ttt_tui.engine import Board, analyze
imported = time.perf_counter()
analyze(Board.empty())
print(json.dumps({"import": imported - start, "analyze": time.perf_counter() - imported}))
"""

_BIG_SCRIPT = """\
import json, resource, sys, time
from ttt_tui.engine import Board, analyze, evaluate
from ttt_tui.engine.search import _solver
board = Board.empty(int(sys.argv[1]))
table = _solver(board)
wall, cpu = time.perf_counter(), time.process_time()
value = analyze(board).value if sys.argv[2] == "analyze" else evaluate(board, book=False)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"wall": wall, "cpu": cpu, "nodes": table.nodes, "value": str(value),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
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
games = int(sys.argv[1])
moves, lost, hard_games = [], 0, []
for opponent in ("random", "easy", "medium", "hard"):
    for hard in (Player.X, Player.O):
        for game in range(games):
            rng_h = random.Random(f"bench/5/{opponent}/{hard.value}/{game}/hard")
            rng_o = random.Random(f"bench/5/{opponent}/{hard.value}/{game}/other")
            board, cells = Board.empty(5), []
            while not board.is_game_over():
                if board.to_move is hard:
                    table = _solver(board)
                    before = table.nodes
                    wall, cpu = time.perf_counter(), time.process_time()
                    cell = choose_move(board, Difficulty.HARD, rng_h)
                    moves.append((time.process_time() - cpu, time.perf_counter() - wall,
                                  table.nodes - before))
                elif opponent == "random":
                    cell = rng_o.choice(board.legal_moves())
                else:
                    cell = choose_move(board, Difficulty(opponent), rng_o)
                board = board.play(cell)
                cells.append(cell)
            lost += board.status.winner is hard.other
            if opponent == "hard":
                hard_games.append(cells)
print(json.dumps({"moves": moves, "lost": lost, "games": hard_games,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "entries": len(_solver(Board.empty(5)).table)}))
"""

_REVIEW_SCRIPT = """\
import json, sys, time
from ttt_tui.engine import analyze
from ttt_tui.teach.review import review_moves
cpu = time.process_time()
review_moves(5, json.loads(sys.argv[1]), analyze)
print(json.dumps({"cpu": time.process_time() - cpu}))
"""


@dataclass(slots=True)
class NaiveResult:
    """What the naive search found and how many positions it visited."""

    move: int
    """The first best move, a cell index in reading order."""
    score: int
    """Its tutorial score: 10 - depth for a win, depth - 10 for a loss, 0 a draw."""
    nodes: int
    """Calls of ``minimax``: every position below the root that was visited."""


def _evaluate(board: list[str], player: str, opponent: str) -> int:
    for a, b, c in _LINES:
        if board[a] == board[b] == board[c]:
            if board[a] == player:
                return 10
            if board[a] == opponent:
                return -10
    return 0


def _minimax(
    board: list[str], depth: int, is_max: bool, player: str, opponent: str, counter: list[int]
) -> int:
    counter[0] += 1
    score = _evaluate(board, player, opponent)
    if score == 10:
        return score - depth
    if score == -10:
        return score + depth
    if not any(cell == "_" for cell in board):
        return 0
    if is_max:
        best = -1000
        for i in range(9):
            if board[i] == "_":
                board[i] = player
                best = max(best, _minimax(board, depth + 1, False, player, opponent, counter))
                board[i] = "_"
        return best
    best = 1000
    for i in range(9):
        if board[i] == "_":
            board[i] = opponent
            best = min(best, _minimax(board, depth + 1, True, player, opponent, counter))
            board[i] = "_"
    return best


def naive_best_move(board: Board) -> NaiveResult:
    """The tutorials' ``find_best_move`` (GeeksforGeeks, "Finding optimal move in
    Tic-Tac-Toe using Minimax") for the side to move on a 3x3 board, as they write it:
    every line scanned at every node, +10/-10 adjusted by depth, no memo, no pruning.
    Counts one node per ``minimax`` call, so the root, which the move loop scores, is
    not one."""
    if board.n != 3 or board.is_game_over():
        raise ValueError(f"expected a 3x3 game in progress, got {board.n}x{board.n} {board}")
    player, opponent = board.to_move.value, board.to_move.other.value
    cells = [mark.value if (mark := board[c]) else "_" for c in range(9)]
    counter = [0]
    best_score, best_move = -1000, -1
    for i in range(9):
        if cells[i] == "_":
            cells[i] = player
            score = _minimax(cells, 0, False, player, opponent, counter)
            cells[i] = "_"
            if score > best_score:
                best_score, best_move = score, i
    return NaiveResult(best_move, best_score, counter[0])


def build_rust_naive(baselines: Path) -> Path | None:
    """Build the compiled baseline with cargo, outside the repository; None if impossible."""
    manifest = baselines / "rust-naive-minimax" / "Cargo.toml"
    cargo = shutil.which("cargo")
    if cargo is None or not manifest.is_file():
        return None
    command = [cargo, "build", "--release", "--offline", "--quiet", "--manifest-path"]
    env = dict(os.environ, CARGO_TARGET_DIR=str(RUST_TARGET))
    built = subprocess.run([*command, str(manifest)], env=env, capture_output=True)
    binary = RUST_TARGET / "release" / "naive-minimax"
    return binary if built.returncode == 0 and binary.is_file() else None


def time_rust_naive(binary: Path) -> tuple[Seconds, int]:
    """One run of the compiled search: its own timing of the empty board, and its nodes."""
    out = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout
    match = re.search(r"nodes=(\d+) time=([\d.]+) ms", out)
    if match is None:
        raise RuntimeError(f"unexpected output from {binary}: {out!r}")
    return float(match[2]) / 1000, int(match[1])


def time_warm(func: Callable[[], object], repeat: int, target: Seconds) -> tuple[Seconds, int]:
    """Median seconds per call over ``repeat`` timeit runs of about ``target`` seconds
    each, and the loops per run."""
    timer = timeit.Timer(func)
    number, taken = timer.autorange()
    number = max(1, round(number * target / taken))
    return statistics.median(timer.repeat(repeat=repeat, number=number)) / number, number


def first_positions(sample: int) -> list[str]:
    """The 5x5 positions a coach meets first, one per symmetry class: the empty board,
    every first move, and ``sample`` positions after the first two moves (seeded)."""
    from tools.book import book_positions

    boards = sorted(book_positions().values(), key=str)
    early = [str(b) for b in boards if (b.x | b.o).bit_count() < 2]
    later = [str(b) for b in boards if (b.x | b.o).bit_count() == 2]
    return early + random.Random(0).sample(later, min(sample, len(later)))


def three_by_three(repeat: int, naive_runs: int, target: Seconds, baselines: Path) -> str:
    """The 3x3 table, each row against the naive search measured here, and the goal
    against the compiled one."""
    naive_times = []
    for _ in range(naive_runs):
        start = time.perf_counter()
        naive = naive_best_move(Board.empty())
        naive_times.append(time.perf_counter() - start)
    base = statistics.median(naive_times)
    rust = build_rust_naive(baselines)
    run_child(_COLD_SCRIPT)  # Not counted: lets the first timed process find .pyc files.
    cold, compiled, rust_nodes = [], [], 0
    for _ in range(repeat):  # alternately, so that both meet the same load
        cold.append(run_child(_COLD_SCRIPT))
        if rust is not None:
            seconds, rust_nodes = time_rust_naive(rust)
            compiled.append(seconds)
    warm_board, rng = Board.parse(WARM_POSITION), random.Random(0)
    warm_analyze, analyze_loops = time_warm(lambda: analyze(Board.empty()), repeat, target)
    warm_choose, choose_loops = time_warm(
        lambda: choose_move(warm_board, Difficulty.HARD, rng), repeat, target
    )
    processes = plural(repeat, "process", "processes")
    imported = statistics.median(c["import"] for c in cold)
    cold_total = statistics.median(c["import"] + c["analyze"] for c in cold)
    rows: list[tuple[str, Seconds, str, bool]] = [
        ("naive minimax, first move on empty board", base, plural(naive_runs, "run"), True),
        ("cold analyze(empty), fresh process", statistics.median(c["analyze"] for c in cold),
         processes, True),
        ("cold import ttt_tui.engine, fresh process", imported, processes, False),
        ("cold import + analyze(empty), fresh process", cold_total, processes, True),
        ("warm analyze(empty), memo populated", warm_analyze,
         f"{repeat} x {analyze_loops:,} loops", True),
        (f"warm choose_move({WARM_POSITION}, HARD)", warm_choose,
         f"{repeat} x {choose_loops:,} loops", True),
    ]  # fmt: skip
    if compiled:
        rows.append(
            ("naive minimax compiled (Rust), first move, its own clock",
             statistics.median(compiled), plural(repeat, "run"), True)
        )  # fmt: skip
    body = [
        (name, format_time(s), runs, format_speedup(base, s) if compare else "(not a search)")
        for name, s, runs, compare in rows
    ]
    table = markdown_table(("what", "median", "runs", "vs naive minimax in this run"), body, {1})
    if not compiled:
        goal = f"Compiled baseline: not measured (cargo or {baselines} is missing here)."
    else:
        goal = (
            f"Compiled baseline: {rust} ({rust_nodes:,} nodes), built by cargo in {RUST_TARGET}."
            "\nGoal: a fresh process imports the engine and analyses the empty 3x3 board faster"
            f" than the compiled naive search: {format_time(cold_total)} against"
            f" {format_time(statistics.median(compiled))},"
            f" {verdict(cold_total < statistics.median(compiled))}."
        )
    return (
        "Baseline: the tutorials' naive minimax (no memo, no pruning) picks the first\n"
        f"move on an empty 3x3 board: move {naive.move}, score {naive.score},"
        f" {naive.nodes:,} nodes visited.\n"
        "Nodes counted: every minimax() call, every position below the root (the root is\n"
        f"scored by find_best_move's loop).\n\n{table}\n\n{goal}"
    )


def big_boards(runs: int, games: int, coach: Sequence[str]) -> str:
    """The 4x4 and 5x5 figures, each measured in fresh processes, and their goals."""
    four = [run_child(_BIG_SCRIPT, "4", "analyze") for _ in range(runs)]
    proof = [run_child(_BIG_SCRIPT, "5", "proof") for _ in range(runs)]
    played = run_child(_GAMES_SCRIPT, str(games))
    reviews = [run_child(_REVIEW_SCRIPT, json.dumps(g))["cpu"] for g in played["games"]]
    booked = run_child(_COACH_SCRIPT, "book", *coach)["cpu"]
    searched = run_child(_COACH_SCRIPT, "searched", *coach)["cpu"]

    def median(rows: list[dict[str, Any]], key: str) -> float:
        return statistics.median(float(r[key]) for r in rows)

    four_cpu, four_rss = median(four, "cpu"), max(r["rss"] for r in four)
    proof_cpu, proof_nodes = median(proof, "cpu"), proof[0]["nodes"]
    cpu, wall, nodes = ([m[i] for m in played["moves"]] for i in range(3))
    body = [
        (f"4x4: cold analyze(empty), {four[0]['value']}, fresh process", format_time(four_cpu),
         "", format_time(median(four, "wall")), f"{four[0]['nodes']:,}", format_mib(four_rss),
         "under 1 s and 150 MiB: " + verdict(four_cpu < 1 and four_rss < 150 * 2**20)),
        (f"5x5: cold proof that the empty board is a {proof[0]['value']} (no book)",
         format_time(proof_cpu), "", format_time(median(proof, "wall")), f"{proof_nodes:,}",
         format_mib(max(r["rss"] for r in proof)), f"under 2 s and {REFERENCE_5X5_NODES:,}"
         f" nodes: {verdict(proof_cpu < 2 and proof_nodes < REFERENCE_5X5_NODES)}"),
        ("5x5: the coach's first positions, from the book", *spread(booked), "", "", "",
         "p95 under 1 s: " + verdict(p95(booked) < 1)),
        ("5x5: the coach's first positions, searched, no book", *spread(searched), "", "", "",
         ""),
        (f"5x5: a Hard move, {len(cpu):,} moves of {8 * games} games", *spread(cpu),
         format_time(statistics.median(wall)),
         f"{statistics.median(nodes):,.0f} (p95 {p95(nodes):,.0f})", format_mib(played["rss"]),
         "p95 under 1 s: " + verdict(p95(cpu) < 1)),
        (f"5x5: review of a whole 25-move game, cold, {plural(len(reviews), 'game')}",
         *spread(reviews), "", "", "", "p95 under 5 s: " + verdict(p95(reviews) < 5)),
    ]  # fmt: skip
    header = ("what", "CPU median", "CPU p95", "wall median", "nodes", "peak memory", "goal")
    return (
        "Bigger boards: CPU seconds of the searching process (the machine is shared, so\n"
        "wall time can be longer); nodes are positions the search expanded.\n\n"
        + markdown_table(header, body, right={1, 2, 3, 4, 5})
        + f"\n\nThe coach's first positions: {len(coach)}, each analysed from empty tables"
        " (every move valued, as the coach shows it).\n"
        f"Hard's games: against random, Easy, Medium and Hard, as X and as O, {games} of each,"
        f" in one process (tables warm across games). Slowest move: {format_time(max(cpu))} of"
        f" CPU, {format_time(max(wall))} wall, {max(nodes):,} nodes; Hard lost"
        f" {played['lost']}; {played['entries']:,} table entries at the end. The reviews are of"
        " its games against Hard, each in a fresh process, as `ttt-tui review` makes them."
    )


COUNTS = (
    Count("--repeat", "fresh processes for the cold figures, timeit repeats for the warm ones",
          15, quick=3),
    Count("--naive-runs", "runs of the naive search", 5, quick=1),
    Count("--games", "5x5 games of Hard per opponent and side", 3, quick=1),
)  # fmt: skip
"""The benchmark's options, beside ``--baselines``."""


def main(argv: Sequence[str] | None = None) -> int:
    """Time the engine against the tutorials' naive minimax in the same run and print
    medians with ratios; with --ui, --search or --data, run that benchmark instead (its
    --help lists its options)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    flag = next((f for f in ("--ui", "--search", "--data") if f in args_list), None)
    if flag is not None:
        from tools import uibench

        run = {"--ui": uibench.main, "--search": uibench.search_main, "--data": uibench.data_main}
        try:
            return run[flag]([a for a in args_list if a != flag])
        except BenchError as error:
            print(f"benchmark failed: {error}", file=sys.stderr)
            return 1
    parser = Options("python -m tools.bench", main.__doc__, *COUNTS)
    described = "the compiled baselines' folder (default: %(default)s)"
    parser.add_argument("--baselines", type=Path, default=BASELINES, metavar="DIR", help=described)
    args = parser.parse(args_list)
    print(f"ttt-tui engine benchmark: {machine()}; all figures are medians.")
    target = 0.05 if args.quick else 0.2
    print(three_by_three(args.repeat, args.naive_runs, target, args.baselines))
    print()
    coach = first_positions(0)[:1] if args.quick else first_positions(COACH_SAMPLE)
    print(big_boards(1 if args.quick else 5, args.games, coach))
    return 0


if __name__ == "__main__":
    sys.exit(main())
