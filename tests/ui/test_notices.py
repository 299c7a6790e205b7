"""Where notices are shown: in screen-reader mode on the announcement line, the one
line a screen reader follows, with no toast drawn over it; otherwise as toasts that
never cover the board."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tests.support import (
    ScriptedAI,
    Toast,
    board_view,
    make_app,
    play,
    settle,
    start,
    until,
)
from ttt_tui.app import TicTacToeApp
from ttt_tui.play.settings import BoardSize, Settings
from ttt_tui.screens.game import MIN_SIZES, GameScreen
from ttt_tui.storage import Notice, NoticeKind, Store

LONG_NOTICE = Notice(
    NoticeKind.DAMAGED,
    "settings.json was unreadable (not valid JSON (Expecting value: line 1 column 1"
    " (char 0))); moved it to settings.json.corrupt-20261127T101500Z and started with"
    " defaults.",
)
"""A notice as long as the store's, which wraps over several lines of a toast."""


def said(screen: GameScreen) -> str:
    return str(screen.query_one("#announcement", Static).render())


async def test_in_screen_reader_mode_every_notice_is_said_on_the_announcement_line(
    tmp_path: Path,
) -> None:
    """A warning, a change, the data's notices and the app's own: each on the line the
    screen reader follows, and no toast over it or the move box (a toast ran two
    messages together on a braille display and hid the end of the new one)."""
    occupied = tmp_path / "data"
    occupied.write_bytes(b"not a directory\n")
    app = make_app(ScriptedAI(0), settings=Settings(screen_reader=True), store=Store(occupied))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await start(pilot)
        await until(pilot, lambda: "Saving is off" in said(screen), "the data's notice said")
        assert said(screen).startswith(f"Saving: Could not create {occupied} (File exists).")
        await play(pilot, "5")
        await play(pilot, "5")
        assert said(screen) == "Square 5 is taken."
        await pilot.press("colon")
        for key in "fly":
            await pilot.press(key)
        await pilot.press("enter")
        await settle(pilot)
        assert said(screen).startswith("Unknown command: fly.")
        app.post_message(TicTacToeApp.StorageNotice([LONG_NOTICE]))
        await until(pilot, lambda: "settings.json" in said(screen), "the long notice said")
        assert said(screen) == f"Data damaged: {LONG_NOTICE.text}"
        app.action_help_quit()  # ctrl+c: how to quit, with markup
        await pilot.pause()
        assert said(screen) == "Do you want to quit?: Press ^q to quit the app"
        await pilot.pause()
        assert list(screen.query(Toast)) == []


@pytest.mark.parametrize(
    ("board", "size"),
    [(board, size) for board, size in MIN_SIZES.items()] + [(BoardSize.THREE, (100, 30))],
    ids=lambda value: f"{value[0]}x{value[1]}" if isinstance(value, tuple) else value.label,
)
async def test_toasts_never_cover_the_board(board: BoardSize, size: tuple[int, int]) -> None:
    """At each board's smallest terminal, and at 100x30, a warning and a long notice are
    drawn clear of the board (they covered its right-hand squares)."""
    app = make_app(ScriptedAI(0), settings=Settings(board=board))
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = await start(pilot)
        await play(pilot, "enter", "enter")  # the middle square, taken: a warning
        app.post_message(TicTacToeApp.StorageNotice([LONG_NOTICE]))
        await until(pilot, lambda: len(screen.query(Toast)) == 2, "two toasts")
        await pilot.pause()
        board_region = board_view(pilot).region
        for toast in screen.query(Toast):
            assert not toast.region.overlaps(board_region), (toast.region, board_region)
