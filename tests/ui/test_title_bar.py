"""The title bar (`ttt_tui.widgets.title_bar`): the icon and the centred titles, the
palette's icon that opens the palette, and an app that quits before its first frame."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from textual import messages
from textual.app import App, ComposeResult
from textual.command import CommandPalette

from tests.support import SIZE, cell_look, make_app, settle, start
from ttt_tui.play.settings import BoardSize
from ttt_tui.screens.game import GameScreen
from ttt_tui.widgets.title_bar import ICON, ICON_TOOLTIP, ICON_WIDTH, RIGHT_WIDTH, TitleBar


class Titled(App[None]):
    """A title and a sub-title over the title bar."""

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title = title
        self.sub_title = "tic-tac-toe vs minimax"

    def compose(self) -> ComposeResult:
        yield TitleBar()


@pytest.mark.parametrize("width", [100, 61])
async def test_the_icon_is_at_the_left_and_the_titles_centred_in_the_rest(width: int) -> None:
    app = Titled("ttt-tui")
    async with app.run_test(size=(width, 5)) as pilot:
        await pilot.pause()
        line = app.screen.query_one(TitleBar).render().plain
    assert len(line) == width
    assert line[:ICON_WIDTH] == f" {ICON}".ljust(ICON_WIDTH)
    titles = "ttt-tui — tic-tac-toe vs minimax"
    start = line.index(titles)
    middle = width - ICON_WIDTH - RIGHT_WIDTH
    assert start == ICON_WIDTH + (middle - len(titles)) // 2
    assert line[start + len(titles) :].strip() == ""


async def test_a_title_too_long_for_the_line_ends_in_an_ellipsis() -> None:
    app = Titled("ttt-tui")
    async with app.run_test(size=(30, 5)) as pilot:
        await pilot.pause()
        line = app.screen.query_one(TitleBar).render().plain
        assert line.startswith(f" {ICON}")
        assert len(line) == 30
        assert line[8:20] == "ttt-tui — t…"  # 12 columns between the icon and the right


async def test_a_click_on_the_icon_opens_the_palette_and_on_the_title_nothing() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.click(TitleBar, offset=(40, 0))
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await pilot.click(TitleBar, offset=(1, 0))
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)


async def test_the_icon_under_the_pointer_is_lit_and_says_what_it_does() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        bar = app.screen.query_one(TitleBar)
        before = cell_look(app.screen.get_style_at(1, 0))
        await pilot.hover(TitleBar, offset=(2, 0))
        await settle(pilot)
        assert cell_look(app.screen.get_style_at(1, 0)) != before
        assert cell_look(app.screen.get_style_at(9, 0)) == before
        assert bar.tooltip == ICON_TOOLTIP
        await pilot.hover(TitleBar, offset=(40, 0))
        await settle(pilot)
        assert cell_look(app.screen.get_style_at(1, 0)) == before
        assert bar.tooltip is None


async def test_a_new_title_is_drawn() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        app.screen.sub_title = "another"
        await settle(pilot)
        assert "ttt-tui — another" in app.screen.query_one(TitleBar).render().plain


async def test_a_quit_before_the_first_frame_is_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app told to quit before anything is drawn, as Textual's web driver tells it
    when a browser tab closes straight after opening: Textual's header updated its
    title from a coroutine that the app ran while shutting down, after the title had
    gone (``NoMatches`` for ``HeaderTitle``, exit status 1 and a crash report)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where a crash report would go
    for board in (None, BoardSize.FIVE):  # 5x5's screen has a subtitle of its own
        app = make_app(board=board)
        run = asyncio.create_task(app.run_async(headless=True, size=SIZE))
        app.post_message(messages.ExitApp())  # the first message it reads
        await run
        assert app.crash_report is None
        assert app.return_code in (None, 0)  # an exit nobody asked for a code for
