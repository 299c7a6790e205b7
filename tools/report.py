"""What every benchmark shares: its figures' statistics and formats, its tables, its
goals' verdicts, and the fresh interpreters it measures in."""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data: dict[str, Any] = json.loads(out)
    return data


def machine() -> str:
    """The interpreter, the system and its CPUs, for a benchmark's first line."""
    return (
        f"{platform.python_implementation()} {platform.python_version()} on"
        f" {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
    )


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with ``fraction`` of them at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def p95(values: Sequence[float]) -> float:
    """The nearest-rank 95th percentile."""
    return percentile(values, 0.95)


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


def format_ratio(ratio: float | None) -> str:
    """A ratio to a baseline with two decimals, ``1.32x``; ``—`` without one."""
    return "—" if ratio is None else f"{ratio:.2f}x"


def verdict(met: bool) -> str:
    """A goal's verdict."""
    return "met" if met else "not met"


def within(ratio: float | None, goal: float) -> str:
    """A ratio's goal and verdict: ``1.5x: met``."""
    return f"{goal:g}x: " + ("not measured" if ratio is None else verdict(ratio <= goal))


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
