"""The bigger boards in the app: choosing them, naming squares, their sizes, records and stats."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import DataTable, Static

from tests.support import (
    SIZE,
    Notes,
    ScriptedAI,
    board_view,
    click_square,
    looks,
    make_app,
    marks,
    play,
    settle,
    start,
)
from ttt_tui.engine import Board, Difficulty, analyze
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.game import MIN_SIZES, GameScreen
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import Store
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.history import History


async def test_typed_numbers_name_the_squares_of_a_4x4_board() -> None:
    """2-9 play at once; 1 waits for a second digit (16 is 1 then 6) or for Enter; a
    number past the last square is refused and plays nothing."""
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS, board=BoardSize.FOUR))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.board == Board.empty(4)
        board = board_view(pilot)
        assert board.cursor == 10  # the middle of 4x4: c3

        await play(pilot, "2")
        assert screen.session.game.moves == [1]
        assert board.cursor == 10  # a one-digit play leaves the cursor where it was

        await play(pilot, "1")
        assert screen.session.game.moves == [1]  # waiting: 1, or 10 to 16?
        assert board.cursor == 0
        await play(pilot, "6")
        assert screen.session.game.moves == [1, 15]
        assert board.cursor == 15

        await play(pilot, "1", "enter")
        assert screen.session.game.moves == [1, 15, 0]

        await play(pilot, "1", "7")
        await play(pilot, "0")
        assert screen.session.game.moves == [1, 15, 0]
        assert notes.messages[-2:] == [
            "There is no square 17: they are 1 to 16.",
            "There is no square 0: they are 1 to 16.",
        ]


async def test_a_5x5_game_by_mouse_with_undo_redo_and_squares_named_to_e5() -> None:
    app = make_app(ScriptedAI(24, 0), settings=Settings(board=BoardSize.FIVE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert await click_square(pilot, 12)
        await settle(pilot)
        assert screen.session.game.moves == [12, 24]
        history = screen.query_one(History)
        assert [history.describe(ply, cell) for ply, cell in enumerate(history.moves)] == [
            " 1. X c3",
            " 2. O e5",
        ]
        assert [look.mark for look in looks(pilot)].count(None) == 23

        await play(pilot, "u")
        assert screen.session.game.moves == []
        await play(pilot, "r")
        assert screen.session.game.moves == [12, 24]
        assert len(looks(pilot)) == 25


async def test_choosing_a_board_starts_a_new_game_and_keeps_the_choice(tmp_path: Path) -> None:
    """From the sidebar and from the palette's command alike; the game left behind is
    recorded as abandoned, with its board."""
    store = Store(tmp_path / "data")
    app = make_app(ScriptedAI(8), store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        choice = screen.query_one("#board-size", Choice)
        region = choice.option_region(2).translate(choice.content_offset)
        assert await pilot.click("#board-size", offset=(region.x + 1, region.y))
        await settle(pilot)
        assert screen.session.game.board == Board.empty(5)
        assert screen.session.settings.board is BoardSize.FIVE
        assert choice.value is BoardSize.FIVE
        assert "5x5, four in a row" in str(screen.sub_title)

        screen.action_board(4)
        await settle(pilot)
        assert screen.session.game.board == Board.empty(4)
    assert Store(tmp_path / "data").load_settings().board is BoardSize.FOUR
    lines = (tmp_path / "data" / "games.jsonl").read_text().splitlines()
    [abandoned] = [json.loads(line) for line in lines]
    assert (abandoned["n"], abandoned["k"], abandoned["result"]) == (3, 3, "abandoned")


async def test_each_board_has_its_minimum_and_3_goes_back_to_3x3_where_it_fits() -> None:
    """Between 3x3's minimum and 5x5's, a 5x5 game asks for a larger window or offers 3x3."""
    five_min = MIN_SIZES[BoardSize.FIVE]
    width, height = five_min[0] - 8, five_min[1] - 4
    app = make_app(settings=Settings(board=BoardSize.FIVE))
    async with app.run_test(size=(width, height)) as pilot:
        screen = await start(pilot)
        assert screen.has_class("-too-small")
        message = str(screen.query_one("#too-small", Static).render())
        assert message == (
            f"Terminal too small: {width}x{height}.\n"
            f"The 5x5 board needs at least {five_min[0]}x{five_min[1]}.\n\n"
            "Enlarge the window to play; q quits.\n"
            "Or press 3 or 4 to play on 3x3 or 4x4 instead."
        )
        await play(pilot, "5", "enter")
        assert screen.session.game.moves == []
        await play(pilot, "3")
        assert screen.session.game.board == Board.empty(3)
        assert not screen.has_class("-too-small")
        await play(pilot, "3")  # now a square
        assert screen.session.game.moves[0] == 2


async def test_the_coach_on_4x4_shows_the_engine_s_exact_verdicts() -> None:
    app = make_app(ScriptedAI(0), settings=Settings(board=BoardSize.FOUR, coach=True))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "6")
        board = screen.session.game.board
        expected = analyze(board).moves
        shown = {cell: look.verdict for cell, look in enumerate(looks(pilot)) if look.verdict}
        assert shown == expected
        assert not any(look.pending for look in looks(pilot))


async def test_hard_against_hard_on_4x4_is_a_draw() -> None:
    settings = Settings(
        mode=Mode.AI_VS_AI,
        board=BoardSize.FOUR,
        ai_x_difficulty=Difficulty.HARD,
        ai_o_difficulty=Difficulty.HARD,
    )
    app = make_app(settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        for _ in range(40):
            if screen.session.game.is_over:
                break
            await settle(pilot)
        assert screen.session.game.is_over
        assert screen.session.game.board.status.value == "draw"
        assert len(marks(screen)) == 16


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
