"""Pilot tests for the coach, hints, undo and redo, the move history and the modes.

The computer is a scripted chooser (first free square of a list) or the real
engine with a fixed seed; where a test needs the computer mid-thought, the
chooser blocks in its worker thread until the test lets it go. Nothing here
waits on the clock.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Checkbox, Static
from textual.worker import get_current_worker

from tests.support import (
    SIZE,
    GatedAI,
    Notes,
    ScriptedAI,
    board_view,
    calls_begun,
    click_option,
    hinted,
    looks,
    make_app,
    marks,
    play,
    selected,
    settle,
    shown_marks,
    start,
    start_blocked,
    status,
)
from ttt_tui.engine import Board, CancelCheck, Difficulty, Outcome, Player, Verdict, analyze
from ttt_tui.play.results import Result
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH, GameScreen
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.history import History
from ttt_tui.widgets.square import VerdictForm, Wording, verdict_text, wording
from ttt_tui.widgets.status import StatusLine

# Helpers ---------------------------------------------------------------------


def drawn(pilot: Pilot[None], cell: int) -> str:
    """What a square shows, as plain text: its lines, without the blank lines and the
    padding that fill the square."""
    lines = (line.strip() for line in board_view(pilot).square_text(cell).split("\n"))
    return "\n".join(line for line in lines if line)


def shown_verdicts(pilot: Pilot[None]) -> dict[int, Verdict]:
    """The coach verdicts the squares hold."""
    return {cell: look.verdict for cell, look in enumerate(looks(pilot)) if look.verdict}


def hints_line(pilot: Pilot[None]) -> str:
    """The sidebar's hint counter as drawn."""
    return str(pilot.app.screen.query_one("#hints-used", Static).render())


def history_text(pilot: Pilot[None]) -> Text:
    """The history panel's text, with its styles."""
    content = pilot.app.screen.query_one("#history-lines", Static).content
    assert isinstance(content, Text)
    return content


def history_lines(pilot: Pilot[None]) -> list[str]:
    """The history panel's lines, stripped."""
    return [line.strip() for line in history_text(pilot).plain.split("\n")]


# The coach -------------------------------------------------------------------


def assert_coach_matches_engine(pilot: Pilot[None], screen: GameScreen) -> None:
    """Every empty square holds and draws minimax's verdict for the side to move."""
    board = screen.session.game.board
    expected = analyze(board).moves
    assert set(expected) == {i for i in range(9) if board[i] is None}
    assert shown_verdicts(pilot) == expected
    for cell in expected:
        assert str(expected[cell]) in drawn(pilot, cell).split("\n"), cell


async def test_c_or_the_checkbox_shows_the_engine_s_verdict_on_every_empty_square() -> None:
    app = make_app(ScriptedAI(4, 8))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert shown_verdicts(pilot) == {}
        assert all(
            drawn(pilot, c) in {"X", "O"} or drawn(pilot, c).isdigit()
            for c, look in enumerate(looks(pilot))
            if look.mark is None
        )

        await play(pilot, "c")
        assert screen.session.settings.coach
        assert screen.query_one("#coach", Checkbox).value
        assert_coach_matches_engine(pilot, screen)
        # X . .  /  . O .  /  . . .  with X to move: a corner or edge draws, nothing wins.
        assert {str(v) for v in shown_verdicts(pilot).values()} == {"draw"}

        await play(pilot, "c")
        assert not screen.session.settings.coach
        assert not screen.query_one("#coach", Checkbox).value
        assert shown_verdicts(pilot) == {}
        assert not any("draw" in drawn(pilot, c) for c in range(9))

        # The sidebar checkbox does the same.
        assert await pilot.click("#coach")
        await settle(pilot)
        assert screen.session.settings.coach
        assert_coach_matches_engine(pilot, screen)
        assert await pilot.click("#coach")
        await settle(pilot)
        assert not screen.session.settings.coach
        assert shown_verdicts(pilot) == {}


async def test_the_coach_shows_wins_and_losses_with_their_distance() -> None:
    # X a1, O c3 (a corner reply to a corner loses): X wins with a3 or c1 or b2 ...
    app = make_app(ScriptedAI(1), settings=Settings(coach=True))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert marks(screen) == "XO......."
        assert_coach_matches_engine(pilot, screen)
        texts = {str(v) for v in shown_verdicts(pilot).values()}
        assert "win in 5" in texts
        assert "draw" in texts
        # The square that wins in 5 draws those words.
        winning = [i for i, v in shown_verdicts(pilot).items() if v == Verdict(Outcome.WIN, 5)]
        assert winning
        assert drawn(pilot, winning[0]) == f"{winning[0] + 1}\nwin in 5"


async def test_the_coach_follows_every_move_including_the_ai_s() -> None:
    ai = ScriptedAI(4, 2, 6, 5)
    app = make_app(ai, settings=Settings(coach=True))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert_coach_matches_engine(pilot, screen)
        for key in "189":
            await play(pilot, key)
            if screen.session.game.is_over:
                break
            # The AI has replied; the verdicts are for the person again.
            assert screen.session.game.board.to_move is Player.X
            assert screen.session.analysis is not None
            assert screen.session.analysis.board == screen.session.game.board
            assert_coach_matches_engine(pilot, screen)
        assert len(ai.calls) == 3


async def test_the_coach_speaks_for_o_when_o_is_to_move() -> None:
    app = make_app(settings=Settings(coach=True, mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "2")
        assert screen.session.game.board.to_move is Player.O
        assert_coach_matches_engine(pilot, screen)
        # After X b1 the centre holds the draw for O; a far corner loses.
        assert str(shown_verdicts(pilot)[4]) == "draw"
        assert shown_verdicts(pilot)[8].outcome is Outcome.LOSS


async def test_coach_analysis_runs_in_an_analysis_worker_off_the_ui_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[bool, str]] = []
    real_analyze = analyze

    def spy(board: Board, cancelled: CancelCheck | None = None) -> Any:
        seen.append(
            (threading.current_thread() is threading.main_thread(), get_current_worker().group)
        )
        return real_analyze(board, cancelled)

    app = make_app(ScriptedAI(4), analyzer=spy)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert seen == []  # the coach is off: nothing analysed
        await play(pilot, "c")
        await play(pilot, "1")
        assert seen
        assert all(not on_main and group == "analysis" for on_main, group in seen)
        assert_coach_matches_engine(pilot, screen)


WIN_3, LOSS_10, DRAW = Verdict(Outcome.WIN, 3), Verdict(Outcome.LOSS, 10), Verdict(Outcome.DRAW, 9)


@pytest.mark.parametrize(
    ("verdict", "full", "short", "letter"),
    [
        (WIN_3, "win in 3", "win 3", "W3"),
        (LOSS_10, "loss in 10", "loss 10", "L10"),
        (DRAW, "draw", "draw", "D"),
        (Verdict(Outcome.WIN, None), "win", "win", "W"),  # a 5x5 win of unknown length
    ],
)
def test_a_verdict_has_three_forms(verdict: Verdict, full: str, short: str, letter: str) -> None:
    forms = [verdict_text(verdict, form) for form in VerdictForm]
    assert forms == [full, short, letter]


@pytest.mark.parametrize(
    ("verdicts", "width", "expected"),
    [
        ([WIN_3, DRAW], 12, Wording(VerdictForm.FULL, "★ best", "proving…")),
        ([WIN_3, DRAW], 10, Wording(VerdictForm.FULL, "★ best", "proving…")),
        ([WIN_3, DRAW], 9, Wording(VerdictForm.SHORT, "★ best", "…")),
        ([WIN_3, LOSS_10], 11, Wording(VerdictForm.SHORT, "★ best", "proving…")),
        ([WIN_3, DRAW], 7, Wording(VerdictForm.SHORT, "★", "…")),
        ([WIN_3, LOSS_10], 7, Wording(VerdictForm.LETTER, "★", "…")),
        ([DRAW], 6, Wording(VerdictForm.FULL, "★", "…")),
        ([WIN_3, DRAW], 1, Wording(VerdictForm.LETTER, "★", "…")),
        ([], 10, Wording(VerdictForm.FULL, "★ best", "proving…")),
    ],
)
def test_a_board_words_its_squares_as_its_narrowest_and_longest_allow(
    verdicts: list[Verdict], width: int, expected: Wording
) -> None:
    """The longest form every verdict fits with a column to spare at each side (the
    longest verdict decides for all); the shortest when nothing fits."""
    assert wording(verdicts, width) == expected


def words(pilot: Pilot[None], cell: int) -> list[str]:
    """A square's lines of words (its verdict, its hint) as drawn, padding and all:
    its lines less the blank ones and its number (with the cursor's marks, if there)."""
    number = str(cell + 1)
    lines = board_view(pilot).square_text(cell).split("\n")
    return [line for line in lines if line.strip() not in ("", number) and "▶" not in line]


def assert_clear_of_the_edges(pilot: Pilot[None], cells: list[int]) -> None:
    """Every word on those squares has a blank column between it and the square's edges."""
    for cell in cells:
        for line in words(pilot, cell):
            assert line.startswith(" ") and line.endswith(" "), (cell, line)


async def test_every_square_words_its_verdict_the_same_way() -> None:
    """X b2, O a2 at 56x16: the squares are 7, 7 and 8 columns wide; "win in 5" fits the
    widest only, so every square says "win 5", one column clear of each edge."""
    app = make_app(settings=Settings(coach=True, mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=(56, 16)) as pilot:
        await start(pilot)
        await play(pilot, "5", "4")
        cells = sorted(shown_verdicts(pilot))
        shown = {cell: [line.strip() for line in words(pilot, cell)] for cell in cells}
        assert shown == {cell: ["draw" if cell == 5 else "win 5"] for cell in cells}
        assert_clear_of_the_edges(pilot, cells)


async def test_a_5x5_board_words_every_verdict_the_same_way() -> None:
    """At 72x24 the 5x5 squares are 6 or 7 columns wide: only the shortest form (W7, D,
    L10) leaves a column clear at each edge of every square."""
    app = make_app(settings=Settings(coach=True, mode=Mode.TWO_PLAYERS, board=BoardSize.FIVE))
    async with app.run_test(size=(72, 24)) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", *"3456789")  # 1 then 2 is square 12
        cells = sorted(shown_verdicts(pilot))
        board = screen.session.game.board
        assert cells == [cell for cell in range(board.size) if board[cell] is None]
        for cell in cells:
            [line] = words(pilot, cell)
            assert re.fullmatch(r"[WDL]\d*", line.strip()), (cell, line)
        assert_clear_of_the_edges(pilot, cells)


async def test_the_explorer_s_small_board_words_every_hint_the_same_way() -> None:
    """Its 5x5 squares are 5 or 6 columns wide: "★ best" fits none with room to spare,
    so every best move that has a line for it shows "★", and every value its shortest
    form (a row of squares one line high shows the value only)."""
    app = make_app(ScriptedAI(0, 24, 4), board=BoardSize.FIVE)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "3", "7", "1", "9", "e")
        board = board_view(pilot)
        best = sorted(board.state.hints)
        assert len(best) == 6
        hints = [line.strip() for cell in best for line in words(pilot, cell)[1:]]
        assert hints and set(hints) == {"★"}
        for cell in board.state.verdicts:
            assert re.fullmatch(r"[WDL]\d*", words(pilot, cell)[0].strip()), cell
        assert_clear_of_the_edges(pilot, sorted(board.state.verdicts))


# Hints -----------------------------------------------------------------------


async def test_i_highlights_the_best_moves_without_playing_and_counts_once_a_position() -> None:
    ai = ScriptedAI(1, 5)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert marks(screen) == "XO......."
        assert hints_line(pilot) == "Hints this game: 0"
        assert hinted(pilot) == set()

        await play(pilot, "i")
        best = set(analyze(screen.session.game.board).best)
        assert hinted(pilot) == best
        assert best < {2, 3, 4, 6, 7, 8}  # a real choice, not every square
        assert all("★" in drawn(pilot, i) for i in best)
        assert not any("★" in drawn(pilot, c) for c in range(9) if c not in best)
        assert marks(screen) == "XO......."
        assert shown_marks(pilot) == "XO......."
        assert screen.session.game.moves == [0, 1]
        assert len(ai.calls) == 1  # asking for a hint did not hand the AI a turn
        assert screen.session.game.hints_used == 1
        assert hints_line(pilot) == "Hints this game: 1"

        await play(pilot, "i")
        assert hinted(pilot) == best
        assert hints_line(pilot) == "Hints this game: 1"

        move = min(best)
        await play(pilot, str(move + 1))
        assert hinted(pilot) == set()  # the hint was for the last position
        assert hints_line(pilot) == "Hints this game: 1"
        await play(pilot, "i")
        assert hinted(pilot) == set(analyze(screen.session.game.board).best)
        assert hints_line(pilot) == "Hints this game: 2"

        await play(pilot, "n")
        assert hints_line(pilot) == "Hints this game: 0"


@pytest.mark.parametrize("key", ["c", "d"])
async def test_a_hint_survives_coach_and_difficulty_changes_in_the_same_position(key: str) -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "i")
        best = set(analyze(screen.session.game.board).best)
        assert hinted(pilot) == best
        await play(pilot, key)
        assert hinted(pilot) == best
        await play(pilot, "i")
        assert hints_line(pilot) == "Hints this game: 1"


async def test_hints_work_at_every_difficulty_after_the_ai_opens() -> None:
    app = make_app(settings=Settings(difficulty=Difficulty.EASY, mark=Player.O))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        for difficulty in Difficulty:
            if difficulty is not Difficulty.EASY:
                await play(pilot, "d", "n")
            assert screen.session.settings.difficulty is difficulty
            assert len(screen.session.game.moves) == 1  # the AI opened as X
            await play(pilot, "i")
            assert screen.session.game.board.to_move is Player.O
            assert len(screen.session.game.moves) == 1
            assert hinted(pilot) == set(analyze(screen.session.game.board).best)
            assert hinted(pilot)
            assert hints_line(pilot) == "Hints this game: 1"


async def test_in_two_players_mode_both_sides_can_ask_for_hints() -> None:
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "i")
        assert hinted(pilot) == set(range(9))  # every opening draws
        await play(pilot, "1")
        assert screen.session.game.board.to_move is Player.O
        await play(pilot, "i")
        assert hinted(pilot) == {4}  # only the centre saves O after a corner
        assert marks(screen) == "X........"
        assert hints_line(pilot) == "Hints this game: 2"


async def test_no_hint_on_the_ai_s_turn_or_after_the_game_ends() -> None:
    ai = GatedAI(7, 8)
    app = make_app(ai)
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("1")
        await calls_begun(ai, 1)
        before = len(notes.messages)
        await pilot.press("i")
        await pilot.pause()
        assert notes.since(before) == ["Hints are for your turn."]
        assert screen.session.game.hints_used == 0
        assert hints_line(pilot) == "Hints this game: 0"
        assert hinted(pilot) == set()

        ai.allow()
        await settle(pilot)
        await play(pilot, "2", "3")
        assert status(pilot).message == "You win!"
        before = len(notes.messages)
        await play(pilot, "i")
        assert notes.since(before) == ["The game is over: no hint needed."]
        assert hints_line(pilot) == "Hints this game: 0"
        assert hinted(pilot) == set()


# Undo and redo ---------------------------------------------------------------


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


async def test_in_ai_vs_ai_undo_and_hints_are_refused() -> None:
    app = make_app(settings=Settings(mode=Mode.AI_VS_AI))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.is_over
        moves = list(screen.session.game.moves)
        before = len(notes.messages)
        await play(pilot, "u")
        assert notes.since(before) == ["AI vs AI is over: press n for a new game."]
        assert screen.session.game.moves == moves
        assert not screen.session.game.undo_used
        before = len(notes.messages)
        await play(pilot, "i")
        assert notes.since(before) == []  # the same words are still on screen
        assert screen.session.game.hints_used == 0


async def test_in_ai_vs_ai_a_hint_is_refused_and_not_counted() -> None:
    """Hints are for a person's turn: in AI vs AI ``i`` says why it does nothing,
    shows nothing and counts nothing (the record's hints_used stays 0)."""
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_blocked(pilot, ai)
        await pilot.press("i")
        await pilot.pause()
        assert notes.messages == ["AI vs AI: the computer plays both sides; p pauses."]
        assert screen.session.game.hints_used == 0
        assert not screen.session.hint_requested
        assert hinted(pilot) == set()
        assert not screen.query_one("#hints-used").display


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


# History ---------------------------------------------------------------------


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
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=(100, 16)) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "3", "5", "4")
        history = screen.query_one(History)
        row = history.region.y + len(screen.session.game.moves) - 1 - round(history.scroll_y)
        sidebar = screen.query_one("#sidebar").region
        assert sidebar.y <= row < sidebar.bottom, (row, sidebar)
        widget, _ = screen.get_widget_at(history.region.x + 2, row)
        assert widget is screen.query_one("#history-lines")


# Modes -----------------------------------------------------------------------


async def test_two_players_by_clicking_the_mode_control() -> None:
    ai = ScriptedAI()
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await click_option(pilot, "#mode", "2 players")
        await settle(pilot)
        assert screen.session.game.mode is Mode.TWO_PLAYERS
        assert selected(pilot, "#mode") == "2 players"
        assert status(pilot).message == "X to move"
        assert not screen.query_one("#difficulty").display  # no computer, no difficulty

        await play(pilot, "1")
        assert status(pilot).message == "O to move"
        await play(pilot, "5", "2", "9", "3")
        assert marks(screen) == "XXX.O...O"
        assert status(pilot).message == "X wins!"
        assert ai.calls == []


async def test_ai_vs_ai_plays_to_the_end_each_side_at_its_own_difficulty() -> None:
    ai = ScriptedAI(4, 0, 8, 2, 6, 3, 5, 7, 1)
    settings = Settings(ai_x_difficulty=Difficulty.EASY, ai_o_difficulty=Difficulty.HARD)
    app = make_app(ai, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await click_option(pilot, "#mode", "AI vs AI")
        await settle(pilot)
        assert screen.session.game.mode is Mode.AI_VS_AI
        assert screen.session.game.is_over
        assert ai.calls
        assert len(ai.calls) == len(screen.session.game.moves)
        for side, difficulty in ai.calls:
            assert difficulty is (Difficulty.EASY if side is Player.X else Difficulty.HARD)
        assert {side for side, _ in ai.calls} == {Player.X, Player.O}
        assert status(pilot).message in {"X wins!", "O wins!", "Draw"}


async def test_ai_vs_ai_with_the_real_engine_at_hard_draws() -> None:
    settings = Settings(
        mode=Mode.AI_VS_AI, ai_x_difficulty=Difficulty.HARD, ai_o_difficulty=Difficulty.HARD
    )
    app = make_app(settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.is_over
        assert status(pilot).message == "Draw"
        assert len(screen.session.game.moves) == 9


async def test_p_pauses_ai_vs_ai_and_no_move_is_made_until_p_again() -> None:
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_blocked(pilot, ai)
        ai.allow(3)
        await calls_begun(ai, 4)  # three moves landed; the fourth is being thought about
        await pilot.pause()
        assert screen.session.game.moves == [0, 1, 2]

        await pilot.press("p")
        await pilot.pause()
        assert screen.session.paused
        assert status(pilot).message == "Paused: p resumes"
        assert screen.query_one("#status", StatusLine).detail == "O (Medium) to move"
        ai.allow()
        await settle(pilot)
        await pilot.pause()
        assert screen.session.game.moves == [0, 1, 2]
        assert shown_marks(pilot) == "XOX......"
        assert len(ai.calls) == 4

        await play(pilot, "p")
        assert not screen.session.paused
        assert screen.session.game.is_over
        assert screen.session.game.moves[:3] == [0, 1, 2]
        # First free square each time: X takes a1 c1 b2 a3 and wins on the diagonal.
        assert screen.session.game.moves == [0, 1, 2, 3, 4, 5, 6]
        assert status(pilot).message == "X wins!"


async def test_switching_mode_starts_a_new_game_and_records_the_abandoned_one() -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        await click_option(pilot, "#mode", "2 players")
        await settle(pilot)
        assert screen.session.game.moves == []
        assert screen.session.game.mode is Mode.TWO_PLAYERS
        records = app.store.load_games()
        assert [(r.mode, r.moves, r.result) for r in records] == [
            (Mode.HUMAN_VS_AI, (0, 4), Result.ABANDONED)
        ]
        # The control follows the arrow keys too; an empty game is not worth a record.
        screen.query_one("#mode", Choice).focus()
        await play(pilot, "left")
        assert screen.session.game.mode is Mode.HUMAN_VS_AI
        assert selected(pilot, "#mode") == "You vs AI"
        await play(pilot, "right", "right")
        assert screen.session.game.mode is Mode.AI_VS_AI
        assert screen.session.game.is_over  # the engines played it out by themselves
        records = app.store.load_games()
        assert [(r.mode, r.result) for r in records] == [
            (Mode.HUMAN_VS_AI, Result.ABANDONED),
            (Mode.AI_VS_AI, Result.from_status(screen.session.game.status)),
        ]
        assert sum(screen.session.score[BoardSize.THREE, Mode.HUMAN_VS_AI].values()) == 0
        assert sum(screen.session.score[BoardSize.THREE, Mode.AI_VS_AI].values()) == 1


async def test_alternate_start_swaps_your_mark_so_the_ai_opens_the_next_game() -> None:
    ai = ScriptedAI(8, 7, 4)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert await pilot.click("#alternate")
        await pilot.pause()
        assert screen.session.settings.alternate_start
        assert screen.query_one("#alternate", Checkbox).value

        await play(pilot, "1", "2", "3")
        assert status(pilot).message == "You win!"
        await play(pilot, "n")
        assert screen.session.game.human is Player.O
        assert selected(pilot, "#mark") == "O (second)"
        assert screen.session.game.moves == [8]  # the AI opened as X
        assert marks(screen) == "........X"
        assert status(pilot).message == "Your move (O)"

        await play(pilot, "n")
        assert screen.session.game.human is Player.X
        assert screen.session.game.moves == []
        assert status(pilot).message == "Your move (X)"


async def test_alternate_start_swaps_the_engines_difficulties_in_ai_vs_ai() -> None:
    ai = ScriptedAI()
    settings = Settings(
        mode=Mode.AI_VS_AI,
        alternate_start=True,
        ai_x_difficulty=Difficulty.EASY,
        ai_o_difficulty=Difficulty.HARD,
    )
    app = make_app(ai, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.is_over
        assert ai.calls[0] == (Player.X, Difficulty.EASY)
        assert ai.calls[1] == (Player.O, Difficulty.HARD)
        first = len(ai.calls)

        await play(pilot, "n")
        assert screen.session.game.is_over
        assert selected(pilot, "#ai-x-difficulty") == "Hard"
        assert selected(pilot, "#ai-o-difficulty") == "Easy"
        for side, difficulty in ai.calls[first:]:
            assert difficulty is (Difficulty.HARD if side is Player.X else Difficulty.EASY)


@pytest.mark.parametrize("size", [SIZE, (MIN_WIDTH, MIN_HEIGHT)], ids=["100x30", "minimum"])
async def test_the_paused_message_breaks_between_phrases(size: tuple[int, int]) -> None:
    """Each phrase on its own line: a wrap in mid-phrase read "(X Medium to / move)"."""
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI, ai_x_difficulty=Difficulty.EASY))
    async with app.run_test(size=size) as pilot:
        screen = await start_blocked(pilot, ai)
        await pilot.press("p")
        ai.allow()
        await settle(pilot)
        line = screen.query_one("#status", StatusLine)
        assert (line.message, line.detail) == ("Paused: p resumes", "X (Easy) to move")
        width, height = line.content_size
        lines = str(line.render()).splitlines()
        assert lines == ["Paused: p resumes", "X (Easy) to move"]
        assert all(len(text) <= width for text in lines)  # so nothing wraps
        assert height == 2


async def test_pause_is_offered_in_the_footer_only_in_ai_vs_ai() -> None:
    """The footer shows live bindings: p appears when there is a game to pause."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert "p" not in screen.active_bindings
        screen.apply(screen.session.set_mode(Mode.AI_VS_AI))
        await settle(pilot)
        assert "p" in screen.active_bindings
        screen.apply(screen.session.set_mode(Mode.TWO_PLAYERS))
        await settle(pilot)
        assert "p" not in screen.active_bindings
