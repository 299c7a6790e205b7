"""``python -m tools.bench --search``: arrow keys while the coach searches a 5x5 position
against the same game with the coach off, and how long a search given up on goes on
against a tiny analysis alone, in the same run. docs/performance.md says how."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import Sequence

from tools.report import (
    Seconds,
    format_ratio,
    format_time,
    machine,
    markdown_table,
    p95,
    verdict,
    within,
)
from tools.uibench import BenchError, Terminal, five_by_five, shows
from ttt_tui.engine import Board, Progress

LONG = Board.parse(".......O......X.......X..")
"""X c3 and c5, O c2, O to move: the engine takes seconds to value every move."""
SETUP = (b"1", b"5", b"8", b"2", b"3")
"""The keys that play `LONG` on an empty 5x5 board: squares 15, 8 and 23."""
CYCLE = ((b"\x1b[D", 17), (b"\x1b[C", 18), (b"\x1b[A", 13), (b"\x1b[B", 18))
"""Arrow keys round empty squares of `LONG`, and the square each leaves the cursor on."""
TINY = Board.parse("XO.......")
"""What is asked for right behind a cancelled search."""
GOAL = 1.5
"""Key to screen p95 while searching, at most this multiple of the idle p95."""
CANCEL_GOAL: Seconds = 0.1
"""A search given up on stops within this many seconds."""
MIN_ROUNDS = 3
"""The fewest arrow keys a variant that make a figure, while the search runs."""


def searching(terminal: Terminal) -> bool:
    """Whether the coach is still working on some square (``proving…``, or ``…``)."""
    return any("…" in line for line in terminal.lines()[1:-1])


def key_times(keys: int) -> dict[str, list[Seconds]]:
    """Arrow keys to the idle game and to the searching one in turn, up to ``keys`` each,
    while the search runs: a round the search did not outlast is dropped."""
    times: dict[str, list[Seconds]] = {"idle (coach off)": [], "searching": []}
    with contextlib.ExitStack() as stack:
        terminals = []
        for name in times:
            terminal = stack.enter_context(five_by_five(name, True, SETUP, "O to move"))
            if name.startswith("idle"):
                terminal.press(b"c")
            terminal.timed(b"\x1b[A", shows("▶ 18 ◀"), "the cursor on 18")
            terminal.settle()
            terminals.append((name, terminal))
        rounds = 0
        while rounds < keys and searching(terminals[1][1]):
            key, square = CYCLE[rounds % len(CYCLE)]
            for name, terminal in terminals:
                moved = shows(f"▶ {square} ◀")
                times[name].append(terminal.timed(key, moved, f"the cursor on {square}"))
                terminal.settle()
            rounds += 1
        if not searching(terminals[1][1]):
            for values in times.values():
                del values[rounds - 1 :]
    if len(times["searching"]) < min(keys, MIN_ROUNDS):
        raise BenchError(f"the search ended after {len(times['searching'])} of {keys} keys")
    return times


async def cancel_times(trials: int) -> tuple[list[Seconds], list[Seconds]]:
    """(a tiny analysis behind a cancelled one, the tiny one alone), ``trials`` times."""
    from ttt_tui.search.client import SearchProcess

    searcher = SearchProcess()
    searcher.start()
    behind, alone = [], []
    try:
        await searcher.analyze(TINY, None)  # the process up and the engine imported
        for _ in range(trials):
            began = time.perf_counter()
            await searcher.analyze(TINY, None)
            alone.append(time.perf_counter() - began)
            reports: list[Progress] = []
            task = asyncio.create_task(searcher.analyze(LONG, reports.append))
            while not reports:
                await asyncio.sleep(0.005)
            await asyncio.sleep(0.05)  # well into the search
            task.cancel()
            began = time.perf_counter()
            await searcher.analyze(TINY, None)
            behind.append(time.perf_counter() - began)
            with contextlib.suppress(asyncio.CancelledError):
                await task
    finally:
        await searcher.close()
    return behind, alone


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench --search",
        description="Time keys while the computer searches a 5x5 position, and cancelling.",
    )
    parser.add_argument(
        "--keys", type=int, default=30, metavar="N", help="arrow keys a game (default: %(default)s)"
    )
    parser.add_argument(
        "--cancels",
        type=int,
        default=15,
        metavar="N",
        help="searches cancelled (default: %(default)s)",
    )
    parser.add_argument("--quick", action="store_true", help="3 keys, 2 cancels: for tests")
    args = parser.parse_args(argv)
    if args.quick:
        args.keys, args.cancels = 3, 2
    try:
        times = key_times(args.keys)
    except BenchError as error:
        print(f"search benchmark failed: {error}", file=sys.stderr)
        return 1
    behind, alone = asyncio.run(cancel_times(args.cancels))
    idle, busy = times.values()
    print(f"ttt-tui search benchmark: {machine()}.")
    print(
        f"Key to screen for {len(busy)} arrow keys a game (of {args.keys}: as many as the search"
        f" lasted), in turn, on 5x5 ({LONG}) with the coach valuing every move:\n"
    )
    medians = statistics.median(busy), statistics.median(idle)
    highs = p95(busy), p95(idle)
    body = [
        ["arrow key to screen, median", *map(format_time, medians),
         format_ratio(medians[0] / medians[1]), ""],
        ["arrow key to screen, p95", *map(format_time, highs), format_ratio(highs[0] / highs[1]),
         within(highs[0] / highs[1], GOAL)],
    ]  # fmt: skip
    header = ["measure", "searching", "idle (coach off)", "ratio", "goal"]
    print(markdown_table(header, body, {1, 2, 3}))
    print(f"\nA search given up on, {args.cancels} times: a tiny analysis right behind it.\n")
    extra = [b - a for b, a in zip(behind, alone, strict=True)]
    worst = f"worst under {format_time(CANCEL_GOAL)}: {verdict(max(extra) < CANCEL_GOAL)}"
    body = [
        [label, format_time(statistics.median(values)), format_time(p95(values)), goal]
        for label, values, goal in (
            ("tiny analysis, behind a cancel", behind, ""),
            ("tiny analysis, the process idle (baseline)", alone, ""),
            ("the cancelled search went on", extra, worst),
        )
    ]
    print(markdown_table(["measure", "median", "p95", "goal"], body, {1, 2}))
    return 0
