"""Every theme the game offers draws the board readably: the square numbers, the marks,
the cursor and the coach's words at a contrast of at least 4.5:1 (WCAG's ratio) on the
ground they are drawn on, read off the screen as the terminal gets it; and X and O in
colours plainly apart."""

from __future__ import annotations

import math

import pytest
from rich.color import Color as RichColor
from textual.pilot import Pilot

from tests.support import (
    SIZE,
    ScriptedAI,
    board_view,
    drawn_strips,
    make_app,
    play,
    settle,
    start,
)
from ttt_tui.app import TicTacToeApp
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.game import GameScreen

BLOCKS = set("█▀▄ ")
"""What a mark's glyph is drawn with."""

Drawn = dict[tuple[str, str, str], float]
"""The lowest contrast seen of each (theme, what, ground)."""

Marks = dict[tuple[str, str], RichColor]
"""The colour of each (theme, mark)."""


def luminance(color: RichColor) -> float:
    """WCAG 2's relative luminance of the colour as the terminal shows it."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = color.get_truecolor()
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(first: RichColor, second: RichColor) -> float:
    """WCAG 2's contrast ratio, from 1 to 21."""
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def lab(color: RichColor) -> tuple[float, float, float]:
    """CIELAB (D65 white) of the colour as the terminal shows it."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in color.get_truecolor())
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def read_board(app: TicTacToeApp, pilot: Pilot[None], drawn: Drawn, marks: Marks) -> None:
    """Every text on the board as the screen draws it, with its contrast on its ground."""
    board = board_view(pilot)
    strips = drawn_strips(app)
    content = board.content_region
    for index, look in enumerate(board.looks):
        square = board.square_region(index).translate(content.offset)
        if look.win:
            ground = "the losing line" if look.lost else "the winning line"
        elif look.cursor:
            ground = "the cursor on a hint" if look.hint else "the cursor"
        else:
            ground = "a hint" if look.hint else "a square"
        for y in range(square.y, square.bottom):
            x = 0
            for segment in strips[y]:
                text, style = segment.text, segment.style
                inside = square.x <= x < square.right
                x += len(text)
                if not inside or not text.strip() or style is None:
                    continue
                assert style.color is not None and style.bgcolor is not None, text
                if look.mark is not None and set(text) <= BLOCKS:
                    what = f"the mark {look.mark.value}"
                    marks[app.theme, look.mark.value] = style.color
                else:
                    what = "a number" if text.strip("▶◀ ").isdigit() else repr(text.strip())
                key = (app.theme, what, ground)
                drawn[key] = min(drawn.get(key, 21.0), contrast(style.color, style.bgcolor))


OFFERED = sorted(make_app().available_themes)
"""Every theme the game offers, one test each."""

QUICK = ("textual-light", "solarized-light")
"""The themes the default run checks: the two light ones a player found unreadable. The
long run checks every theme."""


def test_the_themes_checked_are_the_ones_offered() -> None:
    assert {"textual-light", "solarized-light", "ttt-high-contrast"} <= set(OFFERED)
    assert set(QUICK) <= set(OFFERED)
    assert not {"ansi-dark", "ansi-light"} & set(OFFERED)  # the terminal's own colours


@pytest.mark.parametrize(
    "theme", [pytest.param(t, marks=() if t in QUICK else pytest.mark.long) for t in OFFERED]
)
async def test_the_board_is_drawn_readably_in_every_theme(theme: str) -> None:
    drawn: Drawn = {}
    marks: Marks = {}
    # The coach's verdicts (win, draw, loss) and a hint, with the cursor on each square.
    app = make_app(ScriptedAI(2), settings=Settings(coach=True, theme=theme))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        assert app.theme == theme
        await play(pilot, "1", "i")
        # From the middle (a draw): a loss, X, O, then down to a hinted win.
        for key in ("up", "left", "right", "right", "down", "down"):
            await pilot.press(key)
            await pilot.pause()
            read_board(app, pilot, drawn, marks)
    # A winning line, and a losing one.
    for settings, ai, keys in (
        (Settings(mode=Mode.TWO_PLAYERS, theme=theme), ScriptedAI(), ("1", "4", "2", "5", "3")),
        (Settings(theme=theme), ScriptedAI(3, 4, 5), ("1", "2", "9")),
    ):
        app = make_app(ai, settings=settings)
        async with app.run_test(size=SIZE) as pilot:
            screen = await start(pilot)
            await play(pilot, *keys)
            await settle(pilot)
            assert isinstance(screen, GameScreen) and screen.session.game.is_over
            read_board(app, pilot, drawn, marks)

    grounds = {ground for _, _, ground in drawn}
    assert grounds == {
        "a square",
        "a hint",
        "the cursor",
        "the cursor on a hint",
        "the winning line",
        "the losing line",
    }
    whats = {what for _, what, _ in drawn}
    assert {"a number", "the mark X", "the mark O", "'draw'", "'★ best'"} <= whats
    assert any(what.startswith("'win in") for what in whats)
    assert any(what.startswith("'loss in") for what in whats)
    unreadable = {key: round(ratio, 2) for key, ratio in drawn.items() if ratio < 4.5}
    assert unreadable == {}
    # X and O apart: CIE76's delta E (distance in CIELAB) of at least 25, where about 2
    # is the least an eye tells apart.
    assert math.dist(lab(marks[theme, "X"]), lab(marks[theme, "O"])) >= 25
