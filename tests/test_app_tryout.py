"""Regressions from a new user's tryout in a real terminal (issue 8).

Each test here failed before its fix: crashes the real terminal found (a
mouse-down over a widget being removed, keys after ``q``, paths read as
markup) and behaviour that was wrong (modes, buttons, endings, labels).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import ClassVar

import pytest
from rich.style import Style
from textual import events, messages
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette
from textual.containers import VerticalScroll
from textual.dom import NoScreen
from textual.geometry import Size
from textual.message import Message
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import Button, Checkbox, DataTable, Static

from tests.support import (
    SIZE,
    FooterKey,
    GatedAI,
    Notes,
    ScriptedAI,
    Toast,
    board_view,
    click_option,
    click_square,
    drawn_text,
    footer_keys,
    from_the_driver,
    key,
    make_app,
    play,
    press_and_release,
    race,
    resize,
    settle,
    start,
    start_blocked,
    until,
)
from ttt_tui.app import TicTacToeApp, escape_then
from ttt_tui.compat.app import AppFixes
from ttt_tui.compat.palette import GamePalette, SafeCommandList
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.explorer import ExplorerScreen
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH, GameScreen
from ttt_tui.screens.help import HelpScreen
from ttt_tui.screens.stats import COLUMNS, SHORT_COLUMNS, StatsScreen
from ttt_tui.storage import Store
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.history import History
from ttt_tui.widgets.score import Score
from ttt_tui.widgets.sidebar import MODE_OPTIONS

# Crashes ---------------------------------------------------------------------


TOAST_ON_ITS_WAY_OUT = """
import asyncio, time
from textual.widgets._toast import Toast, ToastHolder, ToastRack
from tests.support import SIZE, make_app, start


async def main():
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await start(pilot)
        app.notify("Square 5 is taken.", timeout=1)
        await pilot.pause()
        [notification] = list(app._notifications)
        time.sleep(1.1)  # it expires after the rack has checked it, before its toast is made
        rack = app.screen.query_one(ToastRack)
        await rack.mount(ToastHolder(Toast(notification)))
        await pilot.pause(0.2)
        print("turning" if app.is_running and not app.screen.query(Toast) else "stuck")


asyncio.run(main())
"""


def test_a_toast_whose_notification_expired_on_its_way_does_not_hang_the_app() -> None:
    """Textual's rack checks a notification has not expired, then makes its toast, which
    reads the time left again for its timer: expired in between, the timer was negative
    and Textual's timer loop spun on it for ever (the real-terminal fuzz hung the app
    once in about fifty runs of a seed). Run apart, so a hang fails the test."""
    root = Path(__file__).resolve().parents[1]
    try:
        result = subprocess.run(
            [sys.executable, "-c", TOAST_ON_ITS_WAY_OUT],
            capture_output=True,
            text=True,
            cwd=root,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the app hung on the toast of an expired notification")
    assert result.stdout.split() == ["turning"], result.stderr


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
        await until(pilot, lambda: "2. O b1" in drawn_text(app), "the moves drawn")
        assert "1. X a1" in drawn_text(app)

        await resize(pilot, 120, 40)
        await until(pilot, lambda: "q Quit" in drawn_text(app).splitlines()[-1], "the footer")


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


# Modes: keys and clicks that mean nothing there say why, and change nothing ------


async def test_d_changes_no_hidden_setting_outside_you_vs_ai() -> None:
    """In two players and AI vs AI ``d`` used to change the You-vs-AI difficulty and announce it."""
    for mode, said in [
        (Mode.TWO_PLAYERS, "2 players: there is no computer to set a difficulty for."),
        (Mode.AI_VS_AI, "AI vs AI: set each engine's level in the sidebar."),
    ]:
        ai = GatedAI()
        app = make_app(ai, settings=Settings(mode=mode))
        notes = Notes(app)
        async with app.run_test(size=SIZE) as pilot:
            screen = (
                await start(pilot) if mode is Mode.TWO_PLAYERS else await start_blocked(pilot, ai)
            )
            before = screen.session.settings
            await pilot.press("d")
            await pilot.pause()
            assert screen.session.settings == before
            assert notes.messages == [said]


async def test_only_the_left_button_plays_a_square_or_picks_an_option() -> None:
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        for button in (2, 3):  # middle, right
            assert await click_square(pilot, 4, button=button)
            await click_option(pilot, "#difficulty", "Hard", button=button)
            await settle(pilot)
        assert screen.session.game.moves == []
        assert screen.session.settings.difficulty is Difficulty.MEDIUM
        assert await click_square(pilot, 4, button=1)
        await settle(pilot)
        assert screen.session.game.moves == [4, 0]
        await click_option(pilot, "#difficulty", "Hard")
        assert screen.session.settings.difficulty is Difficulty.HARD


async def test_ai_vs_ai_offers_only_what_works_there() -> None:
    """No Play, Undo, Redo or Hint in the footer; Pause reads Resume while paused;
    a click says the game is paused; the hint counter is hidden."""
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_blocked(pilot, ai)
        assert (await footer_keys(pilot)) == [
            "n New",
            "c Coach",
            "p Pause",
            "s Stats",
            "? Help",
            "q Quit",
        ]
        assert not screen.query_one("#hints-used").display

        await pilot.press("p")
        await pilot.pause()
        assert screen.session.paused
        assert "p Resume" in (await footer_keys(pilot))
        assert await click_square(pilot, 8)
        await pilot.pause()
        assert notes.messages == ["Paused: the computer plays both sides here; p resumes."]
        assert screen.session.game.moves == []

        await pilot.press("p")
        ai.allow()
        await settle(pilot)
        assert screen.session.game.is_over
        shown = await footer_keys(pilot)
        assert "p Pause" not in shown and "p Resume" not in shown
        before = len(notes.messages)
        await pilot.press("p")
        await pilot.pause()
        assert notes.since(before) == ["AI vs AI is over: press n for a new game."]


async def test_you_vs_ai_footer_and_score_label() -> None:
    """The footer has the essential keys; the score says it counts this session."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert (await footer_keys(pilot)) == [
            "n New", "u Undo", "c Coach", "i Hint", "s Stats", "? Help", "q Quit",
        ]  # fmt: skip
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session",
            "Wins 0 · Draws 0 · Losses 0",
        ]


@pytest.mark.parametrize("size", [(80, 24), (MIN_WIDTH, MIN_HEIGHT)], ids=["80x24", "minimum"])
@pytest.mark.parametrize("mode", list(Mode), ids=[mode.value for mode in Mode])
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
        for key in screen.query(FooterKey):
            assert key.region.right <= width, f"{key.description} is cut at {key.region}"
        score = screen.query_one(Score)
        for line in str(score.render()).splitlines():
            assert len(line) <= score.content_size.width, line
        # The sidebar's controls, scrolled into view: "Alternate who start" lost its s.
        controls = screen.query_one("#sidebar-scroll", VerticalScroll)
        for control in controls.query(Checkbox):
            assert control.outer_size.width <= controls.content_size.width, control.label


@pytest.mark.parametrize("size", [(80, 24), (MIN_WIDTH, MIN_HEIGHT)], ids=["80x24", "minimum"])
async def test_the_result_shows_however_far_the_controls_are_scrolled(
    size: tuple[int, int],
) -> None:
    """The status line scrolled away with the sidebar's controls, so a person who had
    scrolled down to the Board or Coach controls never saw "AI wins"."""
    app = make_app(ScriptedAI(0, 1, 2))
    async with app.run_test(size=size) as pilot:
        screen = await start(pilot)
        controls = screen.query_one("#sidebar-scroll", VerticalScroll)
        assert controls.max_scroll_y > 0  # the controls do not all fit: they scroll
        controls.scroll_end(animate=False)
        await play(pilot, "4", "5", "9")  # the computer takes the top row
        await settle(pilot)
        assert screen.session.game.status.winner is Player.O
        status = screen.query_one("#status")
        assert "AI wins" in str(status.render())
        assert screen.region.contains_region(status.region)
        widget, _ = screen.get_widget_at(*status.region.offset)
        assert widget is status


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


async def test_a_resize_that_arrives_out_of_order_is_put_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two SIGWINCHes close together: Textual's handler for the first, interrupted by
    the second's, posted the earlier size last, and the app stayed drawn for it. The
    app now checks each resize against the terminal's size, and takes that."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        terminal = Size(120, 40)
        monkeypatch.setattr(app, "terminal_size", lambda: terminal)
        posted: list[Size] = []
        post = app.post_message

        def record(message: Message) -> bool:
            if isinstance(message, events.Resize):
                posted.append(message.size)
            return post(message)

        monkeypatch.setattr(app, "post_message", record)
        for _ in range(3):  # the overtaken size, as often as it comes
            AppFixes.on_resize(app, events.Resize(Size(60, 20), Size(60, 20)))
        assert posted == [terminal]  # one resize to put it right, not a stream of them
        await until(pilot, lambda: app.screen.size == terminal, "the terminal's size")
    assert app.return_code in (None, 0)


async def test_the_footer_shows_its_screen_s_keys_from_the_start() -> None:
    """Textual's footer stays empty until its screen first says its bindings changed:
    a dialog opened as the game started (a key typed at once) kept the game's footer
    blank behind it, which the real-terminal fuzz saw as a screen drawn for another
    size."""

    class Bare(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("n", "new", "New")]

        def compose(self) -> ComposeResult:
            yield Static("the screen")

    app = Bare()
    async with app.run_test() as pilot:
        await pilot.pause()
        footer = GameFooter()
        await app.screen.mount(footer)  # no bindings change follows
        await pilot.pause()
        assert "n New" in [str(key.render()).strip() for key in footer.query(FooterKey)]


# Endings ---------------------------------------------------------------------


async def test_alternate_who_starts_swaps_on_n_even_on_an_empty_board() -> None:
    """``n`` with the option on swapped only after a move, silently; now it always
    swaps and says so."""
    app = make_app(ScriptedAI(), settings=Settings(alternate_start=True))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.human is Player.X
        await play(pilot, "n")
        assert screen.session.game.human is Player.O
        assert notes.messages == ["Sides swapped: you play O."]
        await play(pilot, "n")
        assert screen.session.game.human is Player.X


async def test_the_palette_offers_undo_redo_hint_pause_and_marks() -> None:
    def titles(app: TicTacToeApp) -> set[str]:
        return {command.title for command in app.get_system_commands(app.screen)}

    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert {"Undo", "Redo", "Hint", "Play as X", "Play as O"} <= titles(app)
        screen.apply(screen.session.set_mode(Mode.AI_VS_AI))
        screen.action_pause()
        await pilot.pause()
        assert "Resume" in titles(app) and "Undo" not in titles(app)
        screen.action_resume()
        assert "Pause" in titles(app)


async def test_the_palette_offers_no_maximize() -> None:
    """Textual's Maximize, picked in the palette by typed keys (the real-terminal fuzz
    did), filled the screen with the board on a hatching: no status, no keys."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        assert app.screen.focused is not None and app.screen.focused.allow_maximize
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert "Maximize" not in titles
        assert {"Keys", "Quit", "Theme"} <= titles  # Textual's other commands stay


# Looks -----------------------------------------------------------------------


async def test_with_no_color_the_cursor_is_marked_in_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """In greys the cursor and a hinted square had the same background: the cursor
    square now shows its number between pointers, whatever the colours."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "5", "i", "right")
        board = board_view(pilot)
        assert board.cursor == 5
        hinted = [c for c, look in enumerate(board.looks) if look.hint and c != 5]
        assert hinted
        shown = [line.strip() for line in board.square_text(5).splitlines() if line.strip()]
        assert shown[0] == "▶ 6 ◀"
        for cell in hinted:
            assert "▶" not in board.square_text(cell)


async def test_the_move_list_grows_with_a_tall_terminal() -> None:
    """At 200x60 the Moves box stayed 6 rows high above 30 empty rows."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await start(pilot)
        assert screen.query_one(History).size.height >= 20


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


# The command palette against racing input (found by the real-terminal fuzz) ---


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
        await pilot.pause(0.2)
        assert app.screen is screen
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


async def test_a_click_on_a_palette_line_that_has_just_gone() -> None:
    """A click whose line was drawn before the list shrank picked a missing option
    (IndexError); it is ignored, and a click on a real option still runs it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await open_palette(pilot)
        await pilot.press(*"new game")
        await pilot.pause(0.3)
        commands = app.screen.query_one(CommandList)
        assert isinstance(commands, SafeCommandList) and commands.option_count >= 1
        x, y = commands.region.x + 2, commands.region.y
        stale = events.Click(
            commands, 2, 0, 0, 0, 1, False, False, False, x, y, style=Style(meta={"option": 99})
        )
        commands.post_message(stale)
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert await pilot.click(SafeCommandList, offset=(4, 1))
        await pilot.pause(0.2)
        assert isinstance(app.screen, GameScreen)
    assert app.return_code in (None, 0)


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


async def test_palette_commands_do_not_run_once_the_app_is_quitting() -> None:
    """The palette runs a chosen command after it has closed (``call_later``): Enter on
    a command and q in one read began the quit first, and the command then worked on
    a game screen that was gone (Textual's Keys command: MountError). A command that
    comes due after the quit has begun does nothing."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("5")
        await settle(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        await app.action_quit()
        for title in ("Keys", "New game", "Stats", "Help"):
            await commands[title].callback()
        assert app.screen is screen
        assert not screen.query("HelpPanel")
        assert screen.session.game.moves == [4, 0]  # no new game
    assert app.return_code == 0


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


async def test_the_palettes_keys_command_opens_the_games_help() -> None:
    """Textual's Keys command docked its keys panel beside the game, which squeezed the
    game below its minimum width (footer cut, title shortened: the real-terminal fuzz
    found it at 71x21) and stayed over the "too small" message. Keys opens the help,
    which lists every key and what it does: the game's, or the explorer's."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        await commands["Keys"].callback()
        await pilot.pause()
        game_help = app.screen
        assert isinstance(game_help, HelpScreen)
        assert game_help.rows == HelpScreen(BoardView, GameScreen, app=TicTacToeApp).rows
        assert not app.query("HelpPanel")
        await pilot.press("escape")
        await pilot.press("e")
        await pilot.pause()
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        await commands["Keys"].callback()
        await pilot.pause()
        explorer_help = app.screen
        assert isinstance(explorer_help, HelpScreen)
        assert "stop counting, or count again" in [what for _, what in explorer_help.rows]
        assert not app.query("HelpPanel")


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
        await pilot.pause(0.2)  # the countdown (at most 10 ms) fires as the palette closes
        await until(pilot, lambda: app.screen is screen, "the palette closed")
        assert app.is_running
    assert app.return_code in (None, 0)


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


class ChoiceHost(App[None]):
    """A lone mode control whose picks are noted and, unless told, not acted on."""

    def __init__(self, *, act: bool) -> None:
        super().__init__()
        self.act = act
        self.picked: list[Mode] = []

    def compose(self) -> ComposeResult:
        yield Choice(MODE_OPTIONS, Mode.HUMAN_VS_AI, id="mode")

    def on_choice_changed(self, message: Choice.Changed) -> None:
        assert isinstance(message.value, Mode)
        self.picked.append(message.value)
        if self.act:
            message.choice.value = message.value


@pytest.mark.parametrize("act", [False, True])
async def test_a_choice_shows_a_pick_only_once_it_takes_effect(act: bool) -> None:
    """The control showed a pick at once, so a pick that never took effect left it
    showing a mode that was not in force (CI's long Pilot fuzz, seed 194). It now
    asks, and shows what its parent then sets."""
    app = ChoiceHost(act=act)
    async with app.run_test(size=(60, 3)) as pilot:
        choice = app.query_one(Choice)
        await pilot.click(Choice, offset=(choice.size.width - 2, 0))
        await pilot.pause()
        assert app.picked == [Mode.AI_VS_AI]
        assert choice.value is (Mode.AI_VS_AI if act else Mode.HUMAN_VS_AI)


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
        await pilot.pause(0.1)
        assert app.is_running
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
    assert app.return_code in (None, 0)
