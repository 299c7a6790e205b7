"""What the benchmarks print: durations with three significant figures, Markdown tables,
counted nouns. Shared by `tools.bench`, `uibench` and `searchbench`."""

from __future__ import annotations

from collections.abc import Sequence

Seconds = float
"""A duration in seconds."""


def format_time(seconds: Seconds) -> str:
    """A duration in s, ms or µs with three significant figures."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{_sig3(seconds / scale)} {unit}"
    return f"{_sig3(seconds / 1e-6)} µs"


def _sig3(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def markdown_table(header: Sequence[str], body: Sequence[Sequence[str]], right: set[int]) -> str:
    """A Markdown table whose columns are as wide as their widest cell; the columns
    in ``right`` are aligned right, the others left."""
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
    rule = f"|{rule}|"
    return "\n".join([line(header), rule, *(line(r) for r in body)])


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 run``, ``2 runs``; ``many`` for an irregular plural."""
    return f"{count} {one if count == 1 else many or one + 's'}"
