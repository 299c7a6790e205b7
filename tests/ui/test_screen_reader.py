"""Play without seeing: the move box (`:`), the announcement line, and the terminal's
cursor on the focus (`ttt-tui --screen-reader`), through Pilot."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.support import (
    ScriptedAI,
    drawn_text,
    make_app,
    marks,
    play,
    resize,
    settle,
    start,
    until,
)
from ttt_tui.engine import Difficulty
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.explorer import ExplorerScreen
from ttt_tui.screens.review import ReviewScreen
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.move_box import MoveBox

SIZE = (100, 30)


def said(pilot: object) -> str:
    app = pilot.app  # type: ignore[attr-defined]
    return str(app.screen.query_one("#announcement", Static).render())


async def type_line(pilot: object, text: str) -> None:
    for ch in text:
        await pilot.press("space" if ch == " " else ch)  # type: ignore[attr-defined]
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]


async def test_the_move_box_plays_squares_by_name_and_answers_in_words() -> None:
    ai = ScriptedAI(0)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("colon")
        box = screen.query_one(MoveBox)
        assert box.has_focus and box.display
        await type_line(pilot, "c3")
        assert marks(screen) == "O.......X"
        assert said(pilot) == "X plays c3. O plays a1. Your move."
        await type_line(pilot, "board")
        assert said(pilot) == (
            "Row 1: O, empty, empty. Row 2: empty, empty, empty. Row 3: empty, empty, X."
        )
        await type_line(pilot, "c3")
        assert said(pilot) == "Square 9 is taken."
        for bad, reason in [
            ("z9", "There is no square z9: they are a1 to c3, or 1 to 9."),
            ("", "Type a square such as b2, or help."),
            ("fly", "Unknown command: fly. Type a square such as b2, or help."),
        ]:
            await type_line(pilot, bad)
            assert said(pilot) == reason
        assert marks(screen) == "O.......X"  # nothing was played
        await type_line(pilot, "undo")
        assert marks(screen) == "........."
        assert said(pilot) == "Taken back: X c3, O a1. Your move."
        await type_line(pilot, "pause")
        assert said(pilot) == "Pause does nothing now."
        await pilot.press("escape")
        assert not box.display and screen.query_one(BoardView).has_focus


async def test_typed_commands_do_what_their_keys_do_where_the_footer_leaves_them_out() -> None:
    """Redo with nothing to redo, and the explorer and the review where the footer has no
    room for their keys: typed in the move box, each does what its key does (the box
    said they did nothing, as the footer did not list them)."""
    app = make_app(ScriptedAI(3, 4))
    async with app.run_test(size=(70, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("colon")
        await type_line(pilot, "redo")
        assert said(pilot) == "Nothing to redo."
        await type_line(pilot, "explore")
        assert isinstance(app.screen, ExplorerScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("escape")
        await play(pilot, "1", "2", "3")  # X takes the top row
        assert screen.session.game.is_over
        await pilot.press("colon")
        await type_line(pilot, "review")
        assert isinstance(app.screen, ReviewScreen)


async def test_the_announcement_line_shows_only_in_screen_reader_mode() -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        line = screen.query_one("#announcement", Static)
        assert not line.display
        await play(pilot, "1")
        assert "X plays a1. O plays b2. Your move." not in drawn_text(app)
        screen.action_toggle_screen_reader()
        await settle(pilot)
        assert line.display and screen.session.settings.screen_reader
        assert said(pilot) == "Screen-reader mode on. Your move."
        await play(pilot, "3")
        assert "X plays c1. O plays " in drawn_text(app)


async def test_the_hidden_announcement_line_lays_nothing_out() -> None:
    """Out of screen-reader mode the line is hidden, yet every move rewrote it and had
    Textual lay the whole screen out again; now only a shown line whose height changed
    does. Shown again, it has the latest words."""
    app = make_app(ScriptedAI(4, 2))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        line = screen.query_one("#announcement", Static)
        layouts: list[object] = []
        refresh = line.refresh

        def recording(*regions: object, **options: object) -> Static:
            if options.get("layout"):
                layouts.append(options)
            return refresh(*regions, **options)  # type: ignore[arg-type]

        line.refresh = recording  # type: ignore[method-assign]
        await play(pilot, "1")
        assert said(pilot).startswith("X plays a1. O plays b2.")
        assert layouts == []
        screen.action_toggle_screen_reader()
        await settle(pilot)
        assert line.display and said(pilot) == "Screen-reader mode on. Your move."
        assert "Screen-reader mode on. Your move." in drawn_text(app)


async def test_on_a_taken_square_the_cursor_sits_on_its_number_and_mark() -> None:
    """The cursor on a taken square sat on a blank inside the O's glyph, naming nothing:
    now it sits on the square's number, beside its mark, between the pointers."""
    app = make_app(ScriptedAI(0), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "5")  # X b2, the computer's O a1; the cursor stays on b2
        for key, shown in [(None, "▶ 5 X ◀"), ("left", "▶ 4 ◀"), ("up", "▶ 1 O ◀")]:
            if key is not None:
                await pilot.press(key)
                await pilot.pause()
            x, y = app.cursor_position
            row = drawn_text(app).split("\n")[y]
            assert row[x - 2 : x - 2 + len(shown)] == shown, (key, row)


@pytest.mark.parametrize("size", [(100, 30), (56, 16)])
async def test_on_a_control_the_cursor_is_on_the_chosen_option_and_its_line_names_it(
    size: tuple[int, int],
) -> None:
    """On the Difficulty control the cursor sat on the space before "Hard", and its line
    held only the options: now it is on the chosen option's first letter, on a line
    that starts with the control's name."""
    app = make_app(screen_reader=True, difficulty=Difficulty.HARD)
    async with app.run_test(size=size) as pilot:
        screen = await start(pilot)
        screen.query_one("#difficulty", Choice).focus()
        await pilot.pause()
        x, y = app.cursor_position
        row = drawn_text(app).split("\n")[y]
        assert row[x:].startswith("Hard"), row
        assert row.split("│")[-1].strip().startswith("Difficulty"), row


async def test_in_screen_reader_mode_the_cursor_sits_on_the_focused_square_s_number() -> None:
    app = make_app(ScriptedAI(), screen_reader=True, settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.has_class("-screen-reader")
        for key, number in [("right", "6"), ("up", "3"), ("left", "2"), ("left", "1")]:
            await pilot.press(key)
            await pilot.pause()
            x, y = app.cursor_position
            row = drawn_text(app).split("\n")[y]
            assert row[x] == number, (key, row)
            assert row[x - 2 : x + 3] == f"▶ {number} ◀"
        # On a sidebar control, the option under its cursor.
        await pilot.press("tab")
        await until(pilot, lambda: isinstance(app.focused, Choice), "a control's focus")
        await pilot.pause()
        x, y = app.cursor_position
        row = drawn_text(app).split("\n")[y]
        assert row[x:].startswith("2 players"), row  # the mode chosen


async def test_the_move_box_hides_while_the_terminal_is_too_small_and_comes_back() -> None:
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("colon")
        box = screen.query_one(MoveBox)
        await resize(pilot, 30, 10)
        assert not box.display and "Terminal too small" in drawn_text(app)
        await resize(pilot, *SIZE)
        assert box.display and box.has_focus
        await type_line(pilot, "b2")
        assert marks(screen)[4] == "X"


async def test_a_dialog_over_the_game_keeps_the_cursor() -> None:
    """The board keeps its focus under the palette, but not the terminal's cursor: that
    stays on the palette's line, where the typing goes."""
    app = make_app(ScriptedAI(), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        board_spot = screen.query_one(BoardView).cursor_spot()
        await pilot.press("ctrl+p")
        await until(pilot, lambda: screen is not app.screen, "the palette")
        await pilot.press("h")
        await resize(pilot, 110, 32)  # the board under the palette is drawn afresh
        typing_spot = app.screen.query_one(Input).cursor_screen_offset
        await until(pilot, lambda: app.cursor_position == typing_spot, "the cursor on the palette")
        assert app.cursor_position != board_spot
