"""The board's colours in a theme: every text it draws readable on every ground it is
drawn on, a contrast of at least `MIN_CONTRAST` (WCAG's ratio), in every theme.

Textual's text colours (``$text-accent``, ``$text-muted`` ...) are made to read on a
theme's background, not on the tinted grounds of the board's cursor, hint and winning
line; some light themes drew the square numbers white on cream. Here each of the board's
colours starts from the theme's own and is moved towards black or white only as far as it
must to read on its grounds; the app adds them to the theme's CSS variables
(``$board-x``, ``$board-cursor`` ...), and ``app.tcss`` paints the board with them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from textual.color import BLACK, WHITE, Color, ColorParseError

MIN_CONTRAST = 4.5
"""The least contrast between a text and its ground: WCAG 2's level AA for normal text."""

_MARGIN = 0.1
"""Aimed above `MIN_CONTRAST`, for the rounding of a colour to whole numbers."""

GROUNDS: Mapping[str, tuple[str, float]] = {
    "square": ("surface", 0.0),
    "hover": ("surface-lighten-1", 0.0),
    "cursor": ("primary", 0.2),
    "hint": ("success", 0.15),
    "cursor-hint": ("success", 0.25),
    "line": ("success", 0.25),
    "line-lost": ("error", 0.25),
}
"""Each ground a square is painted on: a theme colour at that strength over ``$surface``
(the hover's, the square under the mouse, is its own colour)."""

EMPTY_SQUARE = ("square", "hover", "cursor", "hint", "cursor-hint")
"""The grounds an empty square's number, verdict and hint are drawn on."""
TAKEN_SQUARE = ("square", "hover", "cursor", "line", "line-lost")
"""The grounds a mark and its tag (``last move``, ``win line``) are drawn on."""

TEXTS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "number": ("foreground", EMPTY_SQUARE),
    "x": ("accent", TAKEN_SQUARE),
    "o": ("primary", TAKEN_SQUARE),
    "last": ("text-warning", TAKEN_SQUARE),
    "win": ("text-success", EMPTY_SQUARE),
    "draw": ("text-warning", EMPTY_SQUARE),
    "loss": ("text-error", EMPTY_SQUARE),
    "best": ("text-success", EMPTY_SQUARE),
}
"""Each text the board draws: the theme colour it starts from, and the grounds it is
drawn on."""

X_INSTEAD = ("warning", "error", "secondary", "success")
"""What X's colour starts from where the theme's accent, made readable, comes out close
to O's (`MIN_DIFFERENCE`): the first of these that does not."""

MIN_DIFFERENCE = 25.0
"""The least difference between X's colour and O's, as CIE76's delta E (the distance of
the two in CIELAB: about 2 is the least an eye tells apart; 25 is plainly different)."""


def contrast(first: Color, second: Color) -> float:
    """WCAG 2's contrast ratio of two opaque colours, from 1 to 21."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(color: Color) -> float:
    red, green, blue = (_linear(channel) for channel in color.rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def difference(first: Color, second: Color) -> float:
    """CIE76's delta E of two opaque colours: their distance in CIELAB (D65 white)."""
    return math.dist(_lab(first), _lab(second))


def _lab(color: Color) -> tuple[float, float, float]:
    red, green, blue = (_linear(channel) for channel in color.rgb)
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def readable(color: Color, grounds: Iterable[Color]) -> Color:
    """``color``, or the least blend of it towards black or white (whichever needs less)
    that reads on every one of ``grounds``."""
    grounds = list(grounds)

    def worst(candidate: Color) -> float:
        return min(contrast(candidate, ground) for ground in grounds)

    if worst(color) >= MIN_CONTRAST + _MARGIN:
        return color
    for step in range(1, 21):
        for towards in (BLACK, WHITE):
            candidate = color.blend(towards, step / 20, alpha=1.0).clamped
            if worst(candidate) >= MIN_CONTRAST + _MARGIN:
                return candidate
    return max((BLACK, WHITE), key=worst)


def board_colours(variables: Mapping[str, str]) -> dict[str, str]:
    """The board's CSS variables (``board-x``, ``board-cursor`` ...) for a theme's
    ``variables``; none for a theme whose colours are the terminal's own (ANSI), which
    cannot be known."""
    try:
        surface = Color.parse(variables["surface"])
        grounds = {
            name: surface + Color.parse(variables[base]).with_alpha(strength)
            if strength
            else Color.parse(variables[base])
            for name, (base, strength) in GROUNDS.items()
        }
        theirs = {name: Color.parse(variables[base]) for name, (base, _) in TEXTS.items()}
        instead = [Color.parse(variables[base]) for base in X_INSTEAD]
    except (KeyError, ColorParseError):
        return {}
    if any(color.ansi is not None for color in (*grounds.values(), *theirs.values())):
        return {}
    colours = {f"board-{name}": ground.hex for name, ground in grounds.items()}
    made = {
        name: readable(theirs[name], [grounds[ground] for ground in on])
        for name, (_, on) in TEXTS.items()
    }
    on_marks = [grounds[ground] for ground in TAKEN_SQUARE]
    xs = [made["x"], *(readable(color, on_marks) for color in instead)]
    made["x"] = next(
        (x for x in xs if difference(x, made["o"]) >= MIN_DIFFERENCE),
        max(xs, key=lambda x: difference(x, made["o"])),
    )
    colours.update({f"board-{name}": colour.hex for name, colour in made.items()})
    return colours
