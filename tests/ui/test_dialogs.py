"""Dialogs close once, however many closing keys or clicks arrive together."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from tests.support import (
    SIZE,
    make_app,
    start,
)
from ttt_tui.screens.help import HelpScreen


@pytest.mark.parametrize(
    ("opening", "button"),
    [(["s"], "#close"), (["s", "R"], "#yes"), (["s", "R"], "#no")],
    ids=["stats-close", "confirm-yes", "confirm-no"],
)
async def test_two_presses_of_a_closing_button_close_the_dialog_once(
    opening: list[str], button: str
) -> None:
    """Two presses queued on a dialog (a double click, in one read) closed it twice:
    the second close popped the screen beneath (ScreenStackError) or set the
    dialog's result again (InvalidStateError)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.press(*opening)
        await pilot.pause()
        dialog = app.screen
        below = app.screen_stack[-2]
        pressed = dialog.query_one(button, Button)
        dialog.post_message(Button.Pressed(pressed))
        dialog.post_message(Button.Pressed(pressed))
        await pilot.pause()
        await pilot.pause()
        assert app.screen is below
    assert app.return_code in (None, 0)


async def test_help_closed_twice_in_a_row_closes_once() -> None:
    """Escape and q handled back to back by the help screen."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        help_screen.action_dismiss()
        help_screen.action_dismiss()
        await pilot.pause()
        assert app.screen is screen
    assert app.return_code in (None, 0)
