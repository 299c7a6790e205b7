"""The Stats screen: one board at a time, every column, where the figures are kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from tests.support import (
    SIZE,
    ScriptedAI,
    click_square,
    make_app,
    play,
    settle,
    start,
)
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH, GameScreen
from ttt_tui.screens.stats import COLUMNS, SHORT_COLUMNS, StatsScreen
from ttt_tui.storage import Store


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


@pytest.mark.parametrize(
    ("size", "headings"),
    [((100, 30), COLUMNS), ((80, 24), COLUMNS), ((MIN_WIDTH, MIN_HEIGHT), SHORT_COLUMNS)],
    ids=["100x30", "80x24", "minimum"],
)
async def test_the_stats_table_shows_every_column(
    size: tuple[int, int], headings: tuple[str, ...]
) -> None:
    """At the minimum the X wins / O wins columns were cut off: narrow screens get
    short headings (explained under the table) instead."""
    app = make_app(ScriptedAI(8, 7))
    async with app.run_test(size=size) as pilot:
        await start(pilot)
        await play(pilot, "1", "2", "3", "s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        table = stats.query_one(DataTable)
        assert tuple(str(column.label) for column in table.columns.values()) == headings
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert stats.query_one("#short-key").display is (headings == SHORT_COLUMNS)
        wins = headings.index("Wins" if headings == COLUMNS else "W")
        assert table.get_row("human_vs_ai/medium")[wins] == "1"


async def test_the_stats_screen_shows_one_board_at_a_time(tmp_path: Path) -> None:
    settings = Settings(mode=Mode.TWO_PLAYERS, board=BoardSize.FIVE)
    app = make_app(settings=settings, store=Store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        for cell in (0, 5, 1, 6, 2, 7, 3):  # X takes four in the top row
            assert await click_square(pilot, cell)
            await settle(pilot)
        assert screen.session.game.is_over
        await play(pilot, "s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        assert stats.board is BoardSize.FIVE
        table = stats.query_one("#stats-table", DataTable)
        assert "5x5/two_players" in [key.value for key in table.rows]
        await play(pilot, "3")
        assert stats.board is BoardSize.THREE
        assert "5x5/two_players" not in [key.value for key in table.rows]
        await play(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
