"""What the tools share: their options; and a benchmark's progress and failures, its
figures' statistics and formats, its tables, its goals' verdicts, and the fresh
interpreters it measures in."""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

Seconds = float
"""A duration in seconds."""

ROOT = Path(__file__).resolve().parents[1]
"""The top of the clone, holding ``ttt_tui`` and ``tools``."""

DROPPED_ENV = (
    "NO_COLOR", "FORCE_COLOR", "COLORTERM", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS",
    "LINES", "JUPYTER_COLUMNS", "JUPYTER_LINES", "ESCDELAY", "PYTHONDONTWRITEBYTECODE",
)  # fmt: skip
"""Variables that would change a child's colours, size or key timing (every ``TEXTUAL_*``
one goes too), or make every start compile from source, which an installed game never
does."""


class BenchError(Exception):
    """A measured program did not start, did not answer, or exited."""


def progress(message: str) -> None:
    """Say on standard error how far a benchmark has got."""
    print(f"  {message}", file=sys.stderr, flush=True)


class Count(NamedTuple):
    """An option saying how many times a tool measures something: its flag, what it
    counts, its default, its value in a ``--quick`` run (None when the tool has no
    ``--quick``), and the least value it takes (0 leaves what it counts out)."""

    flag: str
    what: str
    default: int
    quick: int | None = None
    least: int = 1


class Options(argparse.ArgumentParser):
    """A tool's parser: an ``N`` option for each of its `Count`, ``--quick`` if any has
    a quick value, and whatever else the tool adds. Its description is the docstring of
    the tool's ``main``, which says what the tool does. With ``output``, a tool that
    writes a data module takes ``--output FILE``, ``output`` by default."""

    def __init__(
        self, prog: str, description: str | None, *counts: Count, output: Path | None = None
    ) -> None:
        super().__init__(prog=prog, description=description)
        self.counts = counts
        if output is not None:
            where = f"the file to write (default: {output})"
            self.add_argument("--output", type=Path, default=output, metavar="FILE", help=where)
        for count in counts:
            quick = "" if count.quick is None else f"; {count.quick} with --quick"
            described = f"{count.what} (default: {count.default}{quick})"
            self.add_argument(count.flag, type=int, metavar="N", help=described)
        if any(count.quick is not None for count in counts):
            self.add_argument("--quick", action="store_true", help="a short run, for tests")

    def parse(self, argv: Sequence[str] | None) -> argparse.Namespace:
        """The arguments, each count given, else its quick value with ``--quick``, else
        its default."""
        args = self.parse_args(argv)
        for count in self.counts:
            name = count.flag.removeprefix("--").replace("-", "_")
            value = getattr(args, name)
            if value is None:
                quick = getattr(args, "quick", False) and count.quick is not None
                value = count.quick if quick else count.default
            if value < count.least:
                self.error(f"{count.flag}: expected at least {count.least}, got {value}")
            setattr(args, name, value)
        return args


def child_env(data: Path | None = None) -> dict[str, str]:
    """A measured child's environment: this clone first on the path, a plain xterm, and
    ``data`` as the game's data directory if given."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV and "TEXTUAL" not in k}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env["TERM"] = "xterm-256color"
    if data is not None:
        env["TTT_TUI_DATA_DIR"] = str(data)
    return env


def run_child(script: str, *args: str) -> dict[str, Any]:
    """Run a measuring script in a fresh interpreter and read the JSON line it prints."""
    command = [sys.executable, "-c", script, *args]
    done = subprocess.run(command, env=child_env(), capture_output=True, text=True, check=True)
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def machine() -> str:
    """The interpreter, the system and its CPUs, for a benchmark's first line."""
    return (
        f"{platform.python_implementation()} {platform.python_version()} on"
        f" {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
    )


def p95(values: Sequence[float]) -> float:
    """The nearest-rank 95th percentile: the smallest value with 95% of them at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def spread(values: Sequence[Seconds]) -> list[str]:
    """Durations' median and 95th percentile, formatted."""
    return [format_time(statistics.median(values)), format_time(p95(values))]


def format_time(seconds: Seconds) -> str:
    """A duration in s, ms or µs with three significant figures."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3)):
        if seconds >= scale:
            return f"{_sig3(seconds / scale)} {unit}"
    return f"{_sig3(seconds / 1e-6)} µs"


def _sig3(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def format_mib(size: float) -> str:
    """Bytes as MiB with one decimal."""
    return f"{size / 2**20:.1f} MiB"


def format_speedup(baseline: Seconds, seconds: Seconds) -> str:
    """How many times faster than the baseline, three significant figures: ``143x faster``."""
    if seconds == baseline:
        return "1x (baseline)"
    ratio = baseline / seconds
    word = "faster" if ratio >= 1 else "slower"
    ratio = max(ratio, 1 / ratio)
    if ratio < 10:
        return f"{ratio:.1f}x {word}"
    return f"{round(ratio, 3 - len(str(int(ratio)))):,.0f}x {word}"


def verdict(met: bool) -> str:
    """A goal's verdict."""
    return "met" if met else "not met"


def compared(
    label: str, value: Seconds, base: Seconds, goal: float | None = None, baseline: str = ""
) -> list[str]:
    """A table's row for a figure against its baseline from the same run, named after
    the cells: the two figures, their ratio (``1.32x``; ``—`` for a baseline of 0, such
    as CPU under one clock tick) and, for a ``goal`` ratio, the goal and its verdict."""
    ratio = value / base if base else None
    cells = [label, format_time(value), format_time(base) + (f" ({baseline})" if baseline else "")]
    cells.append("—" if ratio is None else f"{ratio:.2f}x")
    if goal is None:
        return [*cells, ""]
    return [*cells, f"{goal:g}x: " + ("not measured" if ratio is None else verdict(ratio <= goal))]


def markdown_table(header: Sequence[str], body: Sequence[Sequence[str]], right: set[int]) -> str:
    """A Markdown table whose columns are as wide as their widest cell; the columns in
    ``right`` are aligned right, the others left."""
    widths = [max(len(r[i]) for r in (header, *body)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        padded = [
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(padded) + " |"

    rule = "|".join(
        "-" * (w + 1) + ":" if i in right else "-" * (w + 2) for i, w in enumerate(widths)
    )
    return "\n".join([line(header), f"|{rule}|", *(line(r) for r in body)])


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 run``, ``2 runs``; ``many`` for an irregular plural."""
    return f"{count} {one if count == 1 else many or one + 's'}"
