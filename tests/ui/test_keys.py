"""Keys that end or cross screens: q, ctrl+c, Escape read together with a letter, and
keys typed right after quitting."""

from __future__ import annotations

import pytest
from textual import events

from tests.support import (
    SIZE,
    Notes,
    make_app,
    settle,
    start,
    until,
)
from ttt_tui.app import escape_then
from ttt_tui.screens.help import HelpScreen
from ttt_tui.screens.stats import StatsScreen


async def test_q_quits() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        assert app.return_code is None
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0
        assert not app.is_running


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


@pytest.mark.parametrize(
    ("key", "letter"),
    [("alt+q", "q"), ("alt+s", "s"), ("alt+shift+r", "R"), ("alt+up", None), ("ctrl+q", None)],
)
def test_an_alt_letter_is_escape_then_the_letter(key: str, letter: str | None) -> None:
    assert escape_then(key) == letter


@pytest.mark.parametrize(
    ("key", "character", "digit"),
    [
        ("º", "º", "0"),
        ("inverted_exclamation_mark", "¡", "1"),
        ("infinity", "∞", "5"),
        ("ª", "ª", "9"),
        ("a", "a", None),
    ],
)
def test_escape_and_a_digit_read_as_one_key_are_the_digit(
    key: str, character: str, digit: str | None
) -> None:
    assert escape_then(key, character) == digit


async def test_escape_and_q_read_together_close_the_help_and_quit() -> None:
    """Escape then q typed quickly in tmux (within its escape-time) reaches the app as
    one read, which Textual parses as alt+q: the help stayed open and q was lost."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help is open")
        app.post_message(events.Key("alt+q", "q"))  # as the driver parses b"\x1bq"
        await until(pilot, lambda: not app.is_running, "the app has quit")
    assert app.return_code == 0


async def test_escape_and_a_letter_read_together_act_in_turn() -> None:
    """Escape then s read together on the stats screen: it closes, then s opens it again."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the stats are open")
        first = app.screen
        app.post_message(events.Key("alt+s", "s"))
        await until(
            pilot,
            lambda: isinstance(app.screen, StatsScreen) and app.screen is not first,
            "the stats screen closed and opened again",
        )
        assert len(app.screen_stack) == 2


async def test_ctrl_c_names_the_quit_key_that_works_where_it_is_pressed() -> None:
    """ctrl+c named Textual's hidden ctrl+q, never the game's q; where q closes a
    dialog, ctrl+q is the one to name."""
    app = make_app()
    notes = Notes(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await start(pilot)
        await pilot.press("ctrl+c")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the stats are open")
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert notes.messages[-2:] == [
            "Press [b]q[/b] to quit the app",
            "Press [b]^q[/b] to quit the app",
        ]
        assert app.is_running
