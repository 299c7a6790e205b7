"""Terminal sizes: below each board's minimum a message and nothing else works; at
the advertised sizes every key and label is whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.widgets import Checkbox, Static

from tests.support import (
    SIZE,
    GatedAI,
    ScriptedAI,
    Toast,
    click_square,
    footer_keys,
    make_app,
    marks,
    play,
    play_a_game,
    resize,
    score_total,
    settle,
    shown_marks,
    start,
    start_blocked,
    until,
)
from ttt_tui.engine import (
    Board,
)
from ttt_tui.play.settings import PLAYABLE_MODES, BoardSize, Mode, Settings
from ttt_tui.screens.game import MIN_HEIGHT, MIN_SIZES, MIN_WIDTH, GameScreen
from ttt_tui.storage import Store
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.score import Score


async def test_a_tiny_terminal_shows_a_message_and_the_game_survives_it() -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert not screen.has_class("-too-small")

        for width, height in [(20, 8), (1, 1), (0, 0), (MIN_WIDTH - 1, MIN_HEIGHT)]:
            await resize(pilot, width, height)
            assert screen.has_class("-too-small"), (width, height)
            message = str(screen.query_one("#too-small", Static).render())
            assert f"{width}x{height}" in message
            assert f"{MIN_WIDTH}x{MIN_HEIGHT}" in message
            assert not screen.query_one("#main").display

        await resize(pilot, MIN_WIDTH, MIN_HEIGHT)
        assert not screen.has_class("-too-small")

        await resize(pilot, *SIZE)
        assert not screen.has_class("-too-small")
        assert screen.query_one("#main").display
        assert not screen.query_one("#too-small").display
        assert marks(screen) == "X...O...."
        assert shown_marks(pilot) == "X...O...."
        # The layout is back: a click lands on its square again.
        assert await click_square(pilot, 8)
        await settle(pilot)
        assert marks(screen)[8] == "X"


@pytest.mark.parametrize("width", [4, 6, MIN_WIDTH - 1])
async def test_the_palette_stays_shut_below_the_minimum_size(width: int) -> None:
    """Textual 8.2's palette crashes laid out a few columns wide (found by the fuzzer):
    it neither opens in a tiny terminal nor survives the terminal shrinking under it."""
    app = make_app(seed=1, search_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await resize(pilot, width, 24)
        assert not isinstance(app.screen, CommandPalette)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette)
        await resize(pilot, *SIZE)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
    assert app.return_code in (None, 0)


async def test_q_quits_even_when_the_terminal_is_too_small() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await resize(pilot, 20, 8)
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0
        assert not app.is_running


async def test_game_keys_do_nothing_while_the_terminal_is_too_small() -> None:
    """Every key bound on the game screen is ignored while the board is hidden,
    and works again once the terminal is big enough."""
    app = make_app(ScriptedAI(4, 8))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert marks(screen) == "X...O...."
        board_view = screen.query_one(BoardView)
        settings, moves = screen.session.settings, list(screen.session.game.moves)
        cursor = board_view.cursor

        await resize(pilot, MIN_WIDTH - 16, MIN_HEIGHT - 6)
        assert screen.has_class("-too-small")
        game_keys = [
            *"123456789",
            *("up", "down", "left", "right", "h", "j", "k", "l", "enter", "space"),
            *"ndurcips",
        ]
        for key in game_keys:
            await play(pilot, key)
            assert app.screen is screen, key
            assert screen.session.game.moves == moves, key
            assert screen.session.settings == settings, key
            assert board_view.cursor == cursor, key
            assert not screen.session.hint_requested, key
        assert screen.session.game.redo_stack == []

        await resize(pilot, *SIZE)
        assert not screen.has_class("-too-small")
        assert shown_marks(pilot) == "X...O...."
        await play(pilot, "3")
        assert marks(screen) == "X.X.O...O"


@pytest.mark.parametrize("size", [(80, 24), (MIN_WIDTH, MIN_HEIGHT)], ids=["80x24", "minimum"])
@pytest.mark.parametrize("mode", PLAYABLE_MODES, ids=[mode.value for mode in PLAYABLE_MODES])
async def test_every_footer_key_and_the_score_are_whole_at_advertised_sizes(
    size: tuple[int, int], mode: Mode
) -> None:
    """At 80x24 "Quit" (and in AI vs AI "Help") fell off the footer; at the minimum
    labels were cut mid-word and the score wrapped."""
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=mode))
    async with app.run_test(size=size) as pilot:
        screen = await (start_blocked(pilot, ai) if mode is Mode.AI_VS_AI else start(pilot))
        width = size[0]
        assert (await footer_keys(pilot))[-2:] == ["? Help", "q Quit"]
        for item, _start, end in screen.query_one(GameFooter).placed():
            assert end <= width, f"{item.description} is cut at column {end}"
        score = screen.query_one(Score)
        for line in str(score.render()).splitlines():
            assert len(line) <= score.content_size.width, line
        # The sidebar's controls, scrolled into view: "Alternate who start" lost its s.
        controls = screen.query_one("#sidebar-scroll", VerticalScroll)
        for control in controls.query(Checkbox):
            assert control.outer_size.width <= controls.content_size.width, control.label


async def test_notices_do_not_cover_the_too_small_message() -> None:
    """A notice shown at 10x6 (here "Paused") wrapped a letter a line down the middle
    of the "too small" message, hiding it (found by the real-terminal fuzz)."""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        await resize(pilot, MIN_WIDTH - 1, MIN_HEIGHT)
        # Up for longer than a loaded machine takes to get to the end (the default is 5 s).
        app.notify("Paused: the computer waits for you.", timeout=60)
        # A toast has no region before its first layout either: wait until it is
        # mounted, and let the pause after that lay it out.

        def mounted() -> bool:
            toasts = list(screen.query(Toast))
            return bool(toasts) and all(toast.is_mounted for toast in toasts)

        await until(pilot, mounted, "the notice was mounted")
        await pilot.pause()
        toasts = list(screen.query(Toast))
        assert toasts
        assert all(not toast.region for toast in toasts)
        await resize(pilot, *SIZE)
        await until(pilot, lambda: all(toast.region for toast in toasts), "the notice shows")
        assert all(toast.is_attached for toast in toasts)


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


async def test_terminal_too_small(tmp_path: Path) -> None:
    """The minimum is named instead of a broken layout; keys do no harm; enlarging resumes."""
    app = make_app(store=Store(tmp_path / "data"), seed=1)
    width, height = MIN_WIDTH - 16, MIN_HEIGHT - 6
    async with app.run_test(size=(width, height), notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.has_class("-too-small")
        assert not screen.query_one("#main").display
        message = str(screen.query_one("#too-small", Static).render())
        assert message == (
            f"Terminal too small: {width}x{height}.\n"
            f"The 3x3 board needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
            "Enlarge the window to play; q quits."
        )
        for key in ["5", "up", "left", "enter", "space", "tab", "question_mark", "escape"]:
            await pilot.press(key)
            await settle(pilot)
        assert app.is_running
        assert isinstance(app.screen, GameScreen)
        assert screen.session.game.moves == []  # the game keys did nothing

        await resize(pilot, *SIZE)
        assert not screen.has_class("-too-small")
        assert screen.query_one("#main").display
        # What is drawn is what is played.
        assert shown_marks(pilot) == str(screen.session.game.board)
        await play_a_game(pilot, screen)
        assert score_total(screen) == 1
    assert app.return_code in (None, 0)
