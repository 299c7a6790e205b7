"""Undo, redo and the move history."""

from __future__ import annotations

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from tests.support import (
    SIZE,
    GatedAI,
    Notes,
    ScriptedAI,
    calls_begun,
    make_app,
    marks,
    play,
    settle,
    shown_marks,
    start,
    start_blocked,
    status,
    until,
)
from ttt_tui.engine import Player
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.widgets.history import History


def history_text(pilot: Pilot[None]) -> Text:
    """The history panel's text, with its styles."""
    content = pilot.app.screen.query_one("#history-lines", Static).content
    assert isinstance(content, Text)
    return content


def history_lines(pilot: Pilot[None]) -> list[str]:
    """The history panel's lines, stripped."""
    return [line.strip() for line in history_text(pilot).plain.split("\n")]


async def test_the_move_list_grows_with_a_tall_terminal() -> None:
    """At 200x60 the Moves box stayed 6 rows high above 30 empty rows."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await start(pilot)
        assert screen.query_one(History).size.height >= 20


async def test_undo_takes_back_your_move_and_the_ai_s_reply_and_redo_replays_them() -> None:
    ai = ScriptedAI(4, 8)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2")
        assert screen.session.game.moves == [0, 4, 1, 8]

        await play(pilot, "u")
        assert screen.session.game.moves == [0, 4]
        assert marks(screen) == "X...O...."
        assert shown_marks(pilot) == "X...O...."
        assert status(pilot).message == "Your move (X)"
        assert screen.session.game.undo_used

        await play(pilot, "u")
        assert screen.session.game.moves == []
        assert shown_marks(pilot) == "........."

        await play(pilot, "r")
        assert screen.session.game.moves == [0, 4]
        await play(pilot, "r")
        assert screen.session.game.moves == [0, 4, 1, 8]
        assert shown_marks(pilot) == "XX..O...O"
        assert len(ai.calls) == 2  # redo replayed the AI's moves; it was not asked again


async def test_a_new_move_clears_what_redo_would_replay() -> None:
    app = make_app(ScriptedAI(4, 8))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "u")
        assert screen.session.game.redo_stack == [[1, 8]]
        await play(pilot, "3")
        assert screen.session.game.moves == [0, 4, 2, 8]
        assert screen.session.game.redo_stack == []
        before = len(notes.messages)
        await play(pilot, "r")
        assert notes.since(before) == ["Nothing to redo."]
        assert screen.session.game.moves == [0, 4, 2, 8]


async def test_undo_while_the_ai_thinks_cancels_it_and_its_late_answer_never_lands() -> None:
    ai = GatedAI(4, stubborn=True)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("1")
        await calls_begun(ai, 1)
        assert screen.session.thinking
        assert status(pilot).message == "Thinking… (Medium)"

        await pilot.press("u")
        await pilot.pause()
        assert screen.session.game.moves == []
        assert not screen.session.thinking
        assert status(pilot).message == "Your move (X)"

        ai.allow()  # the blocked worker now returns square 4 for a turn that is gone
        await settle(pilot)
        assert screen.session.game.moves == []
        assert shown_marks(pilot) == "........."
        assert len(ai.calls) == 1

        # Redo puts your move back and the AI answers afresh.
        await play(pilot, "r")
        assert screen.session.game.moves == [0, 4]
        assert len(ai.calls) == 2


async def test_undo_and_redo_work_after_the_game_has_ended_and_it_counts_once() -> None:
    app = make_app(ScriptedAI(8, 7))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "3")
        assert status(pilot).message == "You win!"
        assert screen.session.score[BoardSize.THREE, Mode.HUMAN_VS_AI]["win"] == 1

        await play(pilot, "u")
        assert screen.session.game.moves == [0, 8, 1, 7]
        assert not screen.session.game.is_over
        assert status(pilot).message == "Your move (X)"

        await play(pilot, "r")
        assert screen.session.game.moves == [0, 8, 1, 7, 2]
        assert status(pilot).message == "You win!"
        assert screen.session.score[BoardSize.THREE, Mode.HUMAN_VS_AI]["win"] == 1


async def test_undo_after_the_ai_wins_takes_back_your_move_and_its_winning_reply() -> None:
    app = make_app(ScriptedAI(0, 1, 2))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "4", "5", "9")
        assert status(pilot).message == "AI wins"
        await play(pilot, "u")
        assert screen.session.game.moves == [3, 0, 4, 1]
        assert status(pilot).message == "Your move (X)"


async def test_in_two_players_mode_undo_takes_back_one_move() -> None:
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "5", "9")
        await play(pilot, "u")
        assert screen.session.game.moves == [0, 4]
        assert status(pilot).message == "X to move"
        await play(pilot, "u")
        assert screen.session.game.moves == [0]
        assert status(pilot).message == "O to move"
        await play(pilot, "r", "r")
        assert screen.session.game.moves == [0, 4, 8]


async def test_playing_o_undo_never_removes_the_ai_s_opening_move_alone() -> None:
    app = make_app(ScriptedAI(4, 8), settings=Settings(mark=Player.O))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.moves == [4]
        before = len(notes.messages)
        await play(pilot, "u")
        assert notes.since(before) == ["Nothing to undo."]
        assert screen.session.game.moves == [4]

        await play(pilot, "1")
        assert screen.session.game.moves == [4, 0, 8]
        await play(pilot, "u")
        assert screen.session.game.moves == [4]
        assert status(pilot).message == "Your move (O)"
        await play(pilot, "u")
        assert screen.session.game.moves == [4]
        assert shown_marks(pilot) == "....X...."


async def test_history_lists_moves_with_coordinates_and_highlights_the_latest() -> None:
    app = make_app(ScriptedAI(0, 8))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        assert history_lines(pilot) == ["No moves yet"]
        await play(pilot, "5", "3")
        assert history_lines(pilot) == ["1. X b2", "2. O a1", "3. X c1", "4. O c3"]

        text = history_text(pilot)
        history = pilot.app.screen.query_one(History)
        latest = history.get_component_rich_style("history--latest")
        styled = [text.plain[s.start : s.end].strip() for s in text.spans if s.style == latest]
        assert styled == ["4. O c3"]


async def test_history_lists_undone_moves_until_redone() -> None:
    app = make_app(ScriptedAI(0, 8))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "5", "3", "u")
        assert history_lines(pilot) == [
            "1. X b2",
            "2. O a1",
            "3. X c1  undone",
            "4. O c3  undone",
        ]
        text = history_text(pilot)
        history = pilot.app.screen.query_one(History)
        undone = history.get_component_rich_style("history--undone")
        latest = history.get_component_rich_style("history--latest")
        assert [text.plain[s.start : s.end].strip() for s in text.spans if s.style == undone] == [
            "3. X c1  undone",
            "4. O c3  undone",
        ]
        assert [text.plain[s.start : s.end].strip() for s in text.spans if s.style == latest] == [
            "2. O a1"
        ]
        await play(pilot, "r")
        assert history_lines(pilot) == ["1. X b2", "2. O a1", "3. X c1", "4. O c3"]


async def test_history_scrolls_to_the_latest_move_in_a_short_terminal() -> None:
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=(100, 16)) as pilot:
        await start(pilot)
        history = pilot.app.screen.query_one(History)
        assert history.max_scroll_y == 0
        await play(pilot, "1", "2", "3", "5", "4", "7", "8", "9")
        await pilot.pause()
        assert len(history_lines(pilot)) == 8
        assert history.size.height < 8
        assert history.max_scroll_y > 0
        assert history.scroll_y == history.max_scroll_y  # the latest move is in view
        await play(pilot, "n")
        await pilot.pause()
        assert history_lines(pilot) == ["No moves yet"]
        assert history.scroll_y == 0


async def test_the_latest_move_is_on_screen_in_a_short_terminal() -> None:
    """At 80x24 the list has two lines under the controls, the latest move in view."""
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "3", "5", "4")
        history = screen.query_one(History)
        row = history.region.y + len(screen.session.game.moves) - 1 - round(history.scroll_y)
        sidebar = screen.query_one("#sidebar").region
        assert sidebar.y <= row < sidebar.bottom, (row, sidebar)
        widget, _ = screen.get_widget_at(history.region.x + 2, row)
        assert widget is screen.query_one("#history-lines")


async def test_moves_made_under_a_dialog_leave_the_latest_in_view() -> None:
    """AI vs AI plays on under the help (or the palette, as when it was chosen there):
    the list scrolled once after a refresh, which under a dialog came before the layout
    that made room for the new lines, and stopped short of them (a real terminal showed
    moves 1 to 6 of 8, now and then, after AI vs AI was picked in the palette)."""
    ai = GatedAI(0, 2, 1, 5, 3, 4, 8, 7, 6)
    app = make_app(ai, Settings(mode=Mode.AI_VS_AI))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_blocked(pilot, ai)
        await pilot.press("question_mark")
        ai.release_all()
        await until(pilot, lambda: screen.session.game.is_over, "the game to end")
        await pilot.press("escape")
        await settle(pilot)
        history = screen.query_one(History)
        assert len(screen.session.game.moves) > history.size.height  # the list must scroll
        await until(
            pilot, lambda: history.scroll_y == history.max_scroll_y > 0, "the latest move in view"
        )
