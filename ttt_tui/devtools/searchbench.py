"""Benchmark the interface while the computer searches, and how fast a search stops.

``python -m ttt_tui.devtools.bench --search`` measures, on this machine and in this run:

- **key to screen while a 5x5 search runs**: the game is started three times in
  80x24 pseudo-terminals (as `ttt_tui.devtools.uibench` does), each on 5x5 with
  two players and the coach on, and brought to a position whose analysis takes
  the engine seconds (`LONG`). In one launch the coach is then switched off: the
  idle baseline. In another the analysis runs in the search process, as the
  game does it. In the third (through `ttt_tui.devtools.launch`) it runs in a
  thread of the app, as it did before the search process: the contrast. Cursor
  moves go to the three in turn, one key at a time, and each is timed from the
  key to the frame showing the cursor moved; the search must still be running
  when the last key is timed, or the figure is refused.
- **a search given up on**: the time from cancelling a running analysis of
  `LONG` to the result of a tiny analysis asked for right behind it, against the
  tiny analysis alone on an idle search process: how long the process keeps
  working on a search nobody wants.

Timings are what this machine did in this run: only the ratios compare like with like.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ttt_tui.devtools.launch import THREAD_SEARCH_ENV
from ttt_tui.devtools.report import Seconds, format_time, markdown_table
from ttt_tui.devtools.uibench import KEY_TIMEOUT, START_TIMEOUT, BenchError, Terminal, child_env
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
"""Issue 10: key to screen p95 while searching, within this multiple of the idle p95."""
CANCEL_GOAL = 0.1
"""Issue 10: a search given up on stops within this many seconds."""

DEFAULT_KEYS, DEFAULT_CANCELS = 30, 15
QUICK_KEYS, QUICK_CANCELS = 3, 2


@dataclass
class Variant:
    """One way the game is run, and what its keys took."""

    name: str
    launcher: list[str]
    env: dict[str, str] = field(default_factory=dict)
    idle: bool = False
    """The baseline: nothing searches (the coach switched off)."""
    keys: list[Seconds] = field(default_factory=list)

    @property
    def threaded(self) -> bool:
        """Whether the game searches in a thread of its own (`THREAD_SEARCH_ENV`)."""
        return THREAD_SEARCH_ENV in self.env


def three_variants(idle: str, doing: str) -> list[Variant]:
    """The baseline named ``idle``; then the game ``doing`` its work in the search
    process, as it does; then in a thread of the app, as it did before the process."""
    game = ["-m", "ttt_tui"]
    threaded = ["-m", "ttt_tui.devtools.launch", "ttt-tui"]
    return [
        Variant(idle, game, idle=True),
        Variant(f"{doing} in the search process", game),
        Variant(f"{doing} in a thread of the app", threaded, {THREAD_SEARCH_ENV: "1"}),
    ]


def cursor_at(square: int) -> Callable[[Sequence[str]], bool]:
    """Whether the screen shows the cursor on an empty ``square``: ``▶ 18 ◀``."""
    marks = (f"▶ {square} ◀", f"▶{square}◀")
    return lambda lines: any(mark in line for line in lines for mark in marks)


def searching(lines: Sequence[str]) -> bool:
    """Whether the coach is still working on some square (``proving…``, or ``…``)."""
    return any("…" in line for line in lines[1:-1])


def launch(variant: Variant, directory: Path, coach: bool) -> Terminal:
    """Start the game on an empty 5x5 board, two players, the coach on or off."""
    data = directory / "data"
    data.mkdir()
    settings = {"version": 2, "mode": "two_players", "board": 5, "coach": coach}
    (data / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    env = {**child_env(data), **variant.env}
    command = [sys.executable, *variant.launcher, "--ai-delay", "0"]
    terminal = Terminal(variant.name, command, env, cwd=directory)
    terminal.wait_for(cursor_at(13), "the empty 5x5 board", START_TIMEOUT)
    return terminal


def start(variant: Variant, directory: Path) -> Terminal:
    """Start the game on 5x5, two players, coach on; bring it to `LONG`."""
    terminal = launch(variant, directory, coach=True)
    for key in SETUP:
        terminal.press(key)
    terminal.wait_for(lambda lines: any("O to move" in line for line in lines), "O to move", 10)
    if variant.idle:
        terminal.press(b"c")
    terminal.press(b"\x1b[A")
    terminal.wait_for(cursor_at(18), "the cursor on 18", KEY_TIMEOUT)
    terminal.settle()
    return terminal


def measure_keys(variants: Sequence[Variant], keys: int) -> None:
    """Cursor moves to each variant in turn; raises if a search ended before the last."""
    with contextlib.ExitStack() as stack:
        terminals = []
        for variant in variants:
            directory = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            terminal = start(variant, directory)
            stack.callback(terminal.close)
            terminals.append(terminal)
        for index in range(keys):
            key, square = CYCLE[index % len(CYCLE)]
            for variant, terminal in zip(variants, terminals, strict=True):
                pressed = terminal.press(key)
                seen = terminal.wait_for(cursor_at(square), f"the cursor on {square}", KEY_TIMEOUT)
                variant.keys.append(seen - pressed)
                terminal.settle()
        for variant, terminal in zip(variants, terminals, strict=True):
            if not variant.idle and not searching(terminal.lines()):
                raise BenchError(f"{variant.name}: the search ended before the last key")


async def measure_cancels(trials: int) -> tuple[list[Seconds], list[Seconds]]:
    """(cancel to the next result, the next job alone) over ``trials``, in one process."""
    from ttt_tui.searcher import SearchProcess

    searcher = SearchProcess()
    searcher.start()
    stopped, alone = [], []
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
            stopped.append(time.perf_counter() - began)
            with contextlib.suppress(asyncio.CancelledError):
                await task
    finally:
        searcher.close()
    return stopped, alone


def p95(values: Sequence[Seconds]) -> Seconds:
    """The 95th percentile (inclusive method; the value itself for one sample)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def key_table(variants: Sequence[Variant]) -> tuple[str, float]:
    """The variants' key to screen, median and p95, each p95 against the idle one's; and
    the search process's p95 as a multiple of idle, for the goal."""
    base = p95(next(v for v in variants if v.idle).keys)
    body = [
        [
            v.name,
            format_time(statistics.median(v.keys)),
            format_time(p95(v.keys)),
            f"{p95(v.keys) / base:.2f}x",
        ]
        for v in variants
    ]
    table = markdown_table(["variant", "median", "p95", "p95 vs idle"], body, right={1, 2, 3})
    process = next(v for v in variants if not v.idle and not v.threaded)
    return table, p95(process.keys) / base


def build_parser() -> argparse.ArgumentParser:
    """The parser for ``python -m ttt_tui.devtools.bench --search``."""
    parser = argparse.ArgumentParser(
        prog="python -m ttt_tui.devtools.bench --search",
        description="Time keys while the computer searches a 5x5 position, and cancelling.",
    )
    parser.add_argument("--keys", type=int, metavar="N", help="cursor moves per variant")
    parser.add_argument("--cancels", type=int, metavar="N", help="searches cancelled")
    parser.add_argument("--quick", action="store_true", help="one short run, for tests")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables; returns the exit status."""
    args = build_parser().parse_args(argv)
    keys = args.keys or (QUICK_KEYS if args.quick else DEFAULT_KEYS)
    cancels = args.cancels or (QUICK_CANCELS if args.quick else DEFAULT_CANCELS)
    variants = three_variants("idle (coach off, no search)", "searching")
    try:
        measure_keys(variants, keys)
    except BenchError as error:
        print(f"search benchmark failed: {error}", file=sys.stderr)
        return 1
    stopped, alone = asyncio.run(measure_cancels(cancels))

    print(
        f"ttt-tui search benchmark: {platform.python_implementation()}"
        f" {platform.python_version()} on {platform.system()}, {os.cpu_count()} CPUs."
    )
    print(
        f"Key to screen for {keys} cursor moves a variant, interleaved, on 5x5 ({LONG})"
        " with the coach valuing every move:"
    )
    print()
    table, ratio = key_table(variants)
    print(table)
    verdict = "met" if ratio <= GOAL else "not met"
    print(f"\nGoal (issue 10): p95 while searching within {GOAL}x idle: {ratio:.2f}x, {verdict}")
    print()
    print(f"A search given up on, {cancels} times: a tiny analysis asked for right behind it")
    print()
    extra = [s - a for s, a in zip(stopped, alone, strict=True)]
    rows = [
        [what, format_time(statistics.median(values)), format_time(p95(values))]
        for what, values in (
            ("tiny analysis, process idle", alone),
            ("tiny analysis, behind a cancel", stopped),
            ("time the cancelled search went on", extra),
        )
    ]
    print(markdown_table(["what", "median", "p95"], rows, right={1, 2}))
    worst = max(extra)
    verdict = "met" if worst <= CANCEL_GOAL else "not met"
    limit = f"{CANCEL_GOAL * 1000:.0f} ms"
    print(
        f"\nGoal (issue 10): a search stops within {limit}: worst {format_time(worst)}, {verdict}"
    )
    return 0
