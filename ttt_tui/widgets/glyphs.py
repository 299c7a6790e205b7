"""Large X and O glyphs drawn in block characters, scaled to a cell's size."""

from __future__ import annotations

import functools
import math

ASPECT = 2.0
"""Terminal cells are about twice as tall as wide: columns per row for a round O."""

SOLID = "█"

SMALL_ROWS = 3
"""The fewest rows a drawn glyph needs; smaller cells show the letter itself."""

SMALL = {
    "X": ("▀▄ ▄▀", "  █  ", "▄▀ ▀▄"),
    "O": ("▄▀▀▀▄", "█   █", "▀▄▄▄▀"),
}
"""Hand-drawn glyphs for cells of three or four rows, where scaling looks ragged."""


def glyph_box(width: int, height: int) -> tuple[int, int]:
    """The glyph's columns and rows inside a cell, leaving a margin when there is room."""
    rows = height - 2 if height >= 6 else height
    cols = width - 4 if width >= 12 else width
    rows = min(rows, int(cols / ASPECT))
    return round(rows * ASPECT), rows


@functools.lru_cache(maxsize=64)
def draw(mark: str, width: int, height: int) -> tuple[str, ...]:
    """The lines of a mark ("X" or "O") drawn to fit width x height, worked out once
    per size.

    Cells too small for a drawn glyph get the letter itself.
    """
    cols, rows = glyph_box(width, height)
    if rows < SMALL_ROWS:
        return (mark,)
    if rows < 5:
        return SMALL[mark]
    return tuple(_draw_x(cols, rows) if mark == "X" else _draw_o(cols, rows))


def _draw_x(cols: int, rows: int) -> list[str]:
    # Distances in integer units of 1/(2 * rows) columns keep both strokes exactly
    # mirror images of each other.
    reach = max(2 * rows, round(cols * 1.5))
    lines = []
    for y in range(rows):
        down, up = (2 * y + 1) * cols, (2 * rows - 2 * y - 1) * cols
        lines.append(
            "".join(
                SOLID
                if min(abs((2 * x + 1) * rows - down), abs((2 * x + 1) * rows - up)) <= reach
                else " "
                for x in range(cols)
            )
        )
    return lines


def _draw_o(cols: int, rows: int) -> list[str]:
    radius_y = rows / 2
    radius_x = cols / 2
    thickness = min(0.5, max(0.22, 1.2 / radius_y))
    lines = []
    for y in range(rows):
        dy = (y + 0.5 - radius_y) / radius_y
        lines.append(
            "".join(
                SOLID
                if 1 - thickness <= math.hypot((x + 0.5 - radius_x) / radius_x, dy) <= 1.02
                else " "
                for x in range(cols)
            )
        )
    return lines
