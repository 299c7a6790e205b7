"""`ttt_tui.compat.screen`: no selection look-up over a widget being removed, and
dialogs redrawn when the screen under them changes."""

from __future__ import annotations

import traceback

from textual import events
from textual.dom import NoScreen
from textual.strip import Strip

from tests.support import (
    SIZE,
    GatedAI,
    drawn_text,
    from_the_driver,
    make_app,
    press_and_release,
    race,
    resize,
    start,
    start_blocked,
    until,
)
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.widgets.board import BoardView


async def test_mouse_down_over_a_toast_being_removed() -> None:
    """A press over a toast that has just left: Textual's text selection looked up
    the removed toast's parent (None) and crashed the app."""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        await pilot.press("5", "5")  # the second press is on a taken square: a warning toast
        await pilot.pause()
        [toast] = screen.query("Toast")
        region = toast.region
        await toast.remove()
        app.post_message(from_the_driver(events.MouseDown, region.offset + (1, 1)))
        await pilot.pause()
        assert app.is_running
    assert app.return_code is None or app.return_code == 0


async def test_the_game_goes_on_showing_under_two_dialogs() -> None:
    """AI vs AI with the stats and their reset question open: the computer's moves must
    show round the dialogs. The stats screen kept drawing the game as it was (Textual
    tells only the top screen of a change below), so the game looked frozen, and after
    a resize the footer stayed blank."""
    ai = GatedAI()  # plays the first free square
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI))
    async with app.run_test(size=(140, 44)) as pilot:
        screen = await start_blocked(pilot, ai)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the stats are open")
        await pilot.press("R")
        await until(pilot, lambda: len(app.screen_stack) == 3, "the question is open")
        assert "1. X a1" not in drawn_text(app)
        ai.allow(2)
        await until(pilot, lambda: len(screen.session.game.moves) == 2, "two moves")
        # The move list's latest line, beside the dialogs (the first is behind them).
        await until(pilot, lambda: "2. O b1" in drawn_text(app), "the moves drawn")

        await resize(pilot, 120, 40)
        await until(pilot, lambda: "q Quit" in drawn_text(app).splitlines()[-1], "the footer")


async def test_mouse_down_over_a_widget_that_has_lost_its_screen() -> None:
    """A press over a widget being removed, whose line needs drawing again: Textual looked
    up the text under the pointer (for a selection, before checking that selection is
    allowed), the widget asked for its screen, had none, and the app crashed (NoScreen)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        board = screen.query_one(BoardView)
        draw = board.render_line

        def screenless(y: int) -> Strip:
            # As a widget being removed does, but only for the selection look-up: the
            # paint after the press still draws the board.
            looking_up = any(
                frame.name == "get_widget_and_offset_at" for frame in traceback.extract_stack()
            )
            if looking_up:
                raise NoScreen("node has no screen")
            return draw(y)

        board.render_line = screenless  # type: ignore[method-assign]
        region = board.region
        await race(pilot, *press_and_release(region.x + 2, region.y + 2))
        assert app.is_running
    assert app.return_code in (None, 0)
