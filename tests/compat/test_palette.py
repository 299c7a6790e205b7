"""`ttt_tui.compat.palette`: the command palette against input that races its
closing, each race the real-terminal fuzz found."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual import events
from textual.command import CommandList, CommandPalette
from textual.geometry import Size
from textual.pilot import Pilot

from tests.support import (
    SIZE,
    key,
    make_app,
    press_and_release,
    race,
    resize,
    start,
    until,
)
from ttt_tui.app import TicTacToeApp
from ttt_tui.compat.palette import GamePalette, SafeCommandList
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH, GameScreen


async def open_palette(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)


def outside_the_palette(app: TicTacToeApp) -> tuple[int, int]:
    """A cell under every part of the open palette (its list grows with its commands)."""
    bottom = max(widget.region.bottom for widget in app.screen.query("*") if widget.display)
    assert bottom < app.size.height, "the palette leaves no row below it"
    return app.size.width // 2, bottom


async def test_a_double_click_outside_the_palette_closes_it_once() -> None:
    """The second click closed it again, popping the game screen: ScreenStackError."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await open_palette(pilot)
        x, y = outside_the_palette(app)
        await race(pilot, *press_and_release(x, y), *press_and_release(x, y))
        assert app.screen is screen
    assert app.return_code in (None, 0)


async def test_a_double_click_outside_the_theme_picker_closes_it_once() -> None:
    """The palette's Theme command opened Textual's own palette, not the game's: a double
    click on its background closed it twice and popped the game screen (the
    real-terminal fuzz: ScreenStackError, seed 22)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        await commands["Theme"].callback()
        await pilot.pause()
        assert isinstance(app.screen, GamePalette)
        x, y = outside_the_palette(app)
        await race(pilot, *press_and_release(x, y), *press_and_release(x, y))
        assert app.screen is screen
        await resize(pilot, MIN_WIDTH - 1, MIN_HEIGHT)
        await commands["Theme"].callback()
        await pilot.pause()
        assert app.screen is screen  # no picker below the minimum size, as no palette
    assert app.return_code in (None, 0)


async def test_the_palette_closed_by_a_shrink_before_it_mounted() -> None:
    """ctrl+p, then a shrink below the minimum size before the palette had mounted: the
    app closed it (as it does below the minimum), and its mount then looked for the
    screen under it one place too far down the stack (IndexError; the real-terminal
    fuzz, seed 13)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        app.action_command_palette()
        assert isinstance(app.screen, GamePalette)  # pushed, not yet mounted
        small = Size(MIN_WIDTH - 1, MIN_HEIGHT)
        app.on_resize(events.Resize(small, small))
        await pilot.pause()
        await pilot.pause()
        assert app.screen is screen
        await open_palette(pilot)  # and it opens as ever afterwards
        await pilot.press("escape")
    assert app.return_code in (None, 0)


async def test_closing_the_palette_while_it_gathers_commands() -> None:
    """Typing then clicking outside at once: the gatherer found its list gone (NoMatches)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await race(pilot, key("ctrl+p"), key("a"), *press_and_release(50, 25))
        await until(pilot, lambda: app.screen is screen, "the palette closed")
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("page", ["pageup", "pagedown"])
async def test_page_keys_before_the_palette_list_is_shown(page: str) -> None:
    """Page up/down with the list still hidden looked up a line that was not there (KeyError)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await race(pilot, key("ctrl+p"), key(page))
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("name", ["down", "up", "pagedown", "ctrl+end"])
async def test_list_keys_while_the_palette_has_no_list(name: str) -> None:
    """An arrow key that reached the palette while its list was not there (the
    real-terminal fuzz met it) looked the list up all the same (NoMatches)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await open_palette(pilot)
        await app.screen.query_one(CommandList).remove()
        await race(pilot, key(name))
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
    assert app.return_code in (None, 0)


async def test_a_click_where_no_widget_is() -> None:
    """A click off the screen, as when the terminal shrinks between a press and its
    release: Textual's palette looked the widget there up, and there was none
    (`NoWidget`; the long real-terminal fuzz, seed 11). It does nothing; a click on
    the background still closes the palette."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await open_palette(pilot)
        width, height = app.size
        off = (width + 8, height + 1)
        app.screen.post_message(events.Click(None, *off, 0, 0, 1, False, False, False, *off))
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        x, y = outside_the_palette(app)
        await race(pilot, *press_and_release(x, y))
        assert app.screen is screen
    assert app.return_code in (None, 0)


async def test_a_click_on_a_palette_line_that_has_just_gone() -> None:
    """A click whose line was drawn before the list shrank picked a missing option
    (IndexError); it is ignored, and a click on a real option still runs it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await open_palette(pilot)
        await pilot.press(*"new game")
        commands = app.screen.query_one(CommandList)
        assert isinstance(commands, SafeCommandList)
        await until(pilot, lambda: commands.option_count >= 1, "the commands found")
        x, y = commands.region.x + 2, commands.region.y
        stale = events.Click(
            commands, 2, 0, 0, 0, 1, False, False, False, x, y, style=Style(meta={"option": 99})
        )
        commands.post_message(stale)
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert await pilot.click(SafeCommandList, offset=(4, 1))
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the command run")
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("countdown", [0.001, 0.005, 0.01])
async def test_the_palette_closing_while_it_waits_to_say_no_matches(
    countdown: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search with no match, then a shrink below the minimum: the "No matches found"
    countdown fired while the palette was closing, at a list already gone (NoMatches).
    Under load the close took longer than Textual's 0.5 s countdown; here the
    countdown is shortened instead, so it ends while the palette closes."""
    monkeypatch.setattr(GamePalette, "_NO_MATCHES_COUNTDOWN", countdown)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await open_palette(pilot)
        await race(pilot, key("z"), key("z"))
        await resize(pilot, MIN_WIDTH - 1, MIN_HEIGHT)
        await until(pilot, lambda: app.screen is screen, "the palette closed")
        await pilot.pause(0.02)  # the countdown (at most 10 ms) has fired, as it closed
        assert app.is_running
    assert app.return_code in (None, 0)


async def test_the_palette_reopened_while_the_last_one_is_still_closing() -> None:
    """Ctrl+P right after the palette closed: the new palette took the id of the one
    still being removed (DuplicateIds), found by the real-terminal fuzz."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await open_palette(pilot)
        closing = app.screen
        assert isinstance(closing, GamePalette)
        closing.dismiss()  # as Escape does; its removal is still under way below
        app.action_command_palette()
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the new palette")
        assert app.is_running
        await pilot.press("escape")
    assert app.return_code in (None, 0)
