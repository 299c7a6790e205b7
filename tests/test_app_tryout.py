"""Regressions from a new user's tryout in a real terminal (issue 8).

Each test here failed before its fix: crashes the real terminal found (a
mouse-down over a widget being removed, keys after ``q``, paths read as
markup) and behaviour that was wrong (modes, buttons, endings, labels).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.widgets import Static

from tests.support import SIZE, make_app, start
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import Store

# Crashes ---------------------------------------------------------------------


def mouse_down(x: int, y: int, button: int = 1) -> events.MouseDown:
    """A mouse-down as the terminal driver posts it, at a screen cell."""
    return events.MouseDown(None, x, y, 0, 0, button, False, False, False, screen_x=x, screen_y=y)


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
        app.post_message(mouse_down(region.x + 1, region.y + 1))
        await pilot.pause()
        assert app.is_running
    assert app.return_code is None or app.return_code == 0


async def test_keys_right_after_quit_open_nothing() -> None:
    """``q`` then ``s`` (or ``?``) arriving together: the stats screen was pushed while the
    app was shutting down, and its mount crashed. Quitting wins; nothing else opens."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        for key in ("q", "s", "question_mark", "n", "5"):
            app.post_message(events.Key(key, None))
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.parametrize("name", ["data-[/x]", "data-[old]", "data-[bold]x[/bold]"])
async def test_stats_screen_shows_the_data_directory_as_written(tmp_path: Path, name: str) -> None:
    """The "Kept in" line quotes the path; ``[/x]`` crashed it and ``[old]`` vanished."""
    data = tmp_path / name
    app = make_app(store=Store(data))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        where = app.screen.query_one("#where", Static)
        assert str(where.render()) == f"Kept in {data}"
