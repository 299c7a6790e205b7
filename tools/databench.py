"""``python -m tools.databench [--sizes 1000,100000,1000000] [--runs N]``: the data
layer's screens and commands with up to a million recorded games, side by side with an
empty data directory measured in the same run. docs/data.md says how each figure is
taken."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tools import uibench
from tools.report import child_env, format_mib, format_time, markdown_table, p95, run_child
from ttt_tui.engine import SIZES, Board, Difficulty, Player, choose_move, mover_of
from ttt_tui.play.results import Result
from ttt_tui.play.settings import LEVELS, Mode
from ttt_tui.storage import DATABASE_FILE, GameRecord, Store

BATCH = 10_000
"""Games a transaction while filling."""
RECORDS = 50
"""Games recorded, each timed, in each directory."""
TIMEOUT = 60.0
"""Seconds a screen may take to show on a loaded machine."""
START = datetime(2024, 1, 1, tzinfo=UTC)
"""When the first seeded game began; the next ones a minute apart."""
TARGETS = {"record_p95": 0.020, "stats": 0.5, "games": 0.5, "review": 0.5}
"""The targets at 1,000,000 games, in seconds, and RSS within 20% of the empty directory's:
docs/data.md says why."""

_RECORD_SCRIPT = """\
import json, sys, time
from datetime import UTC, datetime
from pathlib import Path
from tools.databench import seeded_records
from ttt_tui.storage import Store
store = Store(Path(sys.argv[1]))
store.load_stats()  # the database opened, as the app's saver does at its start
seconds = []
for record in seeded_records(int(sys.argv[2]), seed=1, start=datetime.now(UTC)):
    began = time.perf_counter()
    store.record_game(record)
    seconds.append(time.perf_counter() - began)
print(json.dumps({"seconds": seconds}))
"""


def played(n: int, rng: random.Random) -> tuple[int, tuple[int, ...], Result]:
    """A random game on the n x n board; one in ten left unfinished (abandoned)."""
    board, cells = Board.empty(n), []
    while not board.is_game_over():
        cells.append(rng.choice(board.legal_moves()))
        board = board.play(cells[-1])
    if rng.random() < 0.1:
        return n, tuple(cells[: rng.randrange(len(cells))]), Result.ABANDONED
    return n, tuple(cells), Result(board.status.value)


def seeded_records(count: int, seed: int, start: datetime) -> list[GameRecord]:
    """``count`` games a minute apart from ``start``: 3x3 three times in five, any mode,
    the computer's sides at any level."""
    rng = random.Random(seed)
    pool = [played(n, rng) for n in (3, 3, 3, 4, 5) for _ in range(200)]
    records = []
    for i in range(count):
        n, moves, result = rng.choice(pool)
        mode = rng.choice(tuple(Mode))
        human = rng.choice(tuple(Player)) if mode is Mode.HUMAN_VS_AI else None
        side = {p: None if mode is Mode.TWO_PLAYERS or p is human else rng.choice(LEVELS)
                for p in Player}  # fmt: skip
        began = start + timedelta(minutes=i)
        records.append(GameRecord(
            began, began + timedelta(seconds=3 * len(moves)), mode, side[Player.X],
            side[Player.O], human, moves, result, rng.random() < 0.1, rng.choice((0, 0, 1, 2)),
            tuple(side[mover_of(ply)] for ply in range(len(moves))), n, SIZES[n],
        ))  # fmt: skip
    return records


def last_game(ended: datetime) -> GameRecord:
    """Every directory's newest game: Hard against Hard on 3x3, a nine-move draw."""
    board, cells, rng = Board.empty(), [], random.Random(0)
    while not board.is_game_over():
        cells.append(choose_move(board, Difficulty.HARD, rng))
        board = board.play(cells[-1])
    hard, result = Difficulty.HARD, Result(board.status.value)
    levels = (hard,) * len(cells)
    return GameRecord(
        ended, ended, Mode.AI_VS_AI, hard, hard, None, tuple(cells), result, levels=levels
    )


def fill(directory: Path, count: int) -> None:
    """``count`` games, the last `last_game`, recorded through `Store.import_games`."""
    store = Store(directory)
    for first in range(0, count - 1, BATCH):
        began = START + timedelta(minutes=first)
        store.import_games(seeded_records(min(BATCH, count - 1 - first), first, began))
    if count:
        store.import_games([last_game(START + timedelta(minutes=count))])
    store.close()


def rss(pid: int) -> int:
    """Bytes of memory the process holds (field 24 of /proc/PID/stat, in pages)."""
    return int(uibench.stat_fields(pid)[21]) * os.sysconf("SC_PAGE_SIZE")


def launch(directory: Path, newest: int, figures: dict[str, list[float]]) -> None:
    """Start the game, open the Stats screen and the games list, and time each."""
    game = uibench.Game()
    command = [sys.executable, *game.command]
    terminal = uibench.Terminal(game.name, command, child_env(directory / "data"), directory)
    shows = uibench.shows
    listed = shows("Newest first", f"{newest:>6}  ") if newest else shows("No games recorded")
    try:
        seen = terminal.wait_for(game.first_frame, "its first full frame", TIMEOUT)
        figures["start"].append(seen - terminal.started)
        figures["rss_start"].append(rss(terminal.proc.pid))
        terminal.settle(0.2)
        figures["stats"].append(terminal.timed(b"s", shows("Kept in"), "the counts", TIMEOUT))
        terminal.settle()
        figures["games"].append(terminal.timed(b"g", listed, "the newest games", TIMEOUT))
        terminal.settle()
        figures["rss_open"].append(rss(terminal.proc.pid))
    finally:
        terminal.close()


def review(directory: Path, moves: str | None) -> float:
    """Seconds ``ttt-tui review last`` takes, as a process (with ``moves``: ``review --moves``)."""
    game = ["last"] if moves is None else ["--moves", moves]
    command = [sys.executable, "-m", "ttt_tui", "review", *game]
    began = time.perf_counter()
    done = subprocess.run(command, env=child_env(directory / "data"), capture_output=True)
    took = time.perf_counter() - began
    if done.returncode:
        raise uibench.BenchError(f"{' '.join(command[1:])} failed: {done.stderr[-300:]!r}")
    return took


def database_size(data: Path) -> int:
    """Bytes of the database file and its write-ahead log."""
    files = (data / DATABASE_FILE, data / f"{DATABASE_FILE}-wal")
    return sum(f.stat().st_size for f in files if f.exists())


def measure(sizes: Sequence[int], runs: int, root: Path) -> dict[int, dict[str, list[float]]]:
    """Every figure for the empty directory (0) and each size, in directories under ``root``."""
    figures: dict[int, dict[str, list[float]]] = {}
    moves = " ".join(str(cell + 1) for cell in last_game(START).moves)
    for count in (0, *sizes):
        (root / str(count) / "data").mkdir(parents=True)
        began = time.perf_counter()
        fill(root / str(count) / "data", count)
        figures[count] = defaultdict(list, fill=[time.perf_counter() - began])
        print(f"filled {count:,} games", file=sys.stderr)
    launch(root / "0", 0, defaultdict(list))  # not counted: writes the .pyc files
    review(root / "0", moves)
    for run in range(runs):
        print(f"run {run + 1} of {runs}", file=sys.stderr)
        for count in list(figures) if run % 2 == 0 else reversed(figures):
            launch(root / str(count), count, figures[count])
            figures[count]["review"].append(review(root / str(count), None if count else moves))
    for count in figures:
        figures[count]["size"] = [database_size(root / str(count) / "data")]
    for run in range(runs):  # last, as they add games; a fresh process each time
        for count in list(figures) if run % 2 == 0 else reversed(figures):
            data, records = str(root / str(count) / "data"), str(-(-RECORDS // runs))
            figures[count]["record"] += run_child(_RECORD_SCRIPT, data, records)["seconds"]
    return figures


JSONL_RSS = "100k: 264 MB"
ROWS = (
    ("record a game (`Store.record_game`), median", "record", statistics.median, "",
     "1k: 17 ms; 10k: 155 ms; 100k: 0.4–1.45 s"),
    ("record a game, p95", "record", p95, "record_p95", ""),
    ("start to first full frame, median", "start", statistics.median, "", ""),
    ("Stats screen open (`s` to the counts), median", "stats", statistics.median, "stats", ""),
    ("games list open (`g` to the newest games), median", "games", statistics.median, "games",
     "100k: 2.7 s"),
    ("`ttt-tui review last` (empty: `--moves`), median", "review", statistics.median, "review",
     ""),
    ("app RSS at its first frame, median", "rss_start", statistics.median, "rss", JSONL_RSS),
    ("app RSS with the games list open, median", "rss_open", statistics.median, "rss", JSONL_RSS),
    ("database size (`.sqlite3` and `-wal`)", "size", statistics.median, "", ""),
)  # fmt: skip
"""The table's rows: label, figure, statistic, target, and the JSONL store's figure
as measured before the database (not in this run)."""


def table(figures: dict[int, dict[str, list[float]]]) -> str:
    """Each size's figure with its ratio to the empty directory's, the target checked at
    the largest size, and the JSONL store's figures."""
    largest = max(figures)
    header = ["measure", "empty directory", *(f"{c:,} games" for c in figures if c)]
    header += [f"target at {largest:,}", "before (the JSONL store)"]
    body = []
    for label, key, statistic, target, before in ROWS:
        value = {count: statistic(f[key]) for count, f in figures.items()}
        show = format_mib if key in ("rss_start", "rss_open", "size") else format_time
        cells = [show(value[c]) + (f" ({value[c] / value[0]:.2f}x)" if c and key != "size" else "")
                 for c in figures]  # fmt: skip
        goal = ""
        if target == "rss":
            limit = 1.2 * value[0]
            goal = f"≤ {format_mib(limit)}: {'met' if value[largest] <= limit else 'not met'}"
        elif target in TARGETS:
            limit = TARGETS[target]
            goal = f"< {format_time(limit)}: {'met' if value[largest] < limit else 'not met'}"
        body.append([label, *cells, goal, before])
    return markdown_table(header, body, right=set(range(1, len(header) - 2)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.databench",
        description="Time the data layer's screens and commands with up to a million recorded"
        " games against an empty data directory, in the same run.",
    )
    parser.add_argument(
        "--sizes",
        default="1000,100000,1000000",
        metavar="N,N,...",
        help="games in each data directory (default: %(default)s)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=5,
        metavar="N",
        help="launches and reviews in each directory (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    sizes = sorted({int(size) for size in args.sizes.split(",")} - {0})
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ttt-databench-") as root:
        figures = measure(sizes, args.runs, Path(root))
    fills = ", ".join(f"{c:,} in {format_time(f['fill'][0])}" for c, f in figures.items() if c)
    print(f"Data benchmark, {os.cpu_count()} CPUs, load average {load:.2f} at the start and"
          f" {os.getloadavg()[0]:.2f} at the end. Filled (games): {fills}. Each directory:"
          f" {args.runs} launches and reviews, taking turns; {RECORDS} records, one a"
          " transaction. Ratios are to the empty directory's figure.")  # fmt: skip
    print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
