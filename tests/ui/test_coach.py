"""The coach and hints: every square's proven value, worded the same way everywhere,
and the best moves highlighted."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
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
    hinted,
    looks,
    make_app,
    marks,
    play,
    settle,
    shown_marks,
    start,
    status,
)
from ttt_tui.engine import Board, CancelCheck, Difficulty, Outcome, Player, Verdict, analyze
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.game import GameScreen
from ttt_tui.widgets.square import VerdictForm, Wording, verdict_text, wording


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


def assert_coach_matches_engine(pilot: Pilot[None], screen: GameScreen) -> None:
    """Every empty square holds and draws minimax's verdict for the side to move."""
    board = screen.session.game.board
    expected = analyze(board).moves
    assert set(expected) == {i for i in range(9) if board[i] is None}
    assert shown_verdicts(pilot) == expected
    for cell in expected:
        assert str(expected[cell]) in drawn(pilot, cell).split("\n"), cell


WIN_3, LOSS_10, DRAW = Verdict(Outcome.WIN, 3), Verdict(Outcome.LOSS, 10), Verdict(Outcome.DRAW, 9)


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
        ([WIN_3, DRAW], 10, Wording(VerdictForm.FULL, "★ best", "proving…", "")),
        ([WIN_3, DRAW], 9, Wording(VerdictForm.SHORT, "★ best", "…")),
        ([WIN_3, LOSS_10], 11, Wording(VerdictForm.SHORT, "★ best", "proving…")),
        ([WIN_3, DRAW], 7, Wording(VerdictForm.SHORT, "★", "…", "")),
        ([WIN_3, LOSS_10], 7, Wording(VerdictForm.LETTER, "★", "…")),
        ([DRAW], 6, Wording(VerdictForm.FULL, "★", "…", "")),
        ([WIN_3, DRAW], 1, Wording(VerdictForm.LETTER, "★", "…", "")),
        ([], 10, Wording(VerdictForm.FULL, "★ best", "proving…")),
    ],
)
def test_a_board_words_its_squares_as_its_narrowest_and_longest_allow(
    verdicts: list[Verdict], width: int, expected: Wording
) -> None:
    """The longest form every verdict fits with a column to spare at each side (the
    longest verdict decides for all); the shortest when nothing fits."""
    assert wording(verdicts, width) == expected


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
    so every value shows its shortest form and every best move a "★" after it, on the
    line under the square's number."""
    app = make_app(ScriptedAI(0, 24, 4), board=BoardSize.FIVE)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "3", "7", "1", "9", "e")
        board = board_view(pilot)
        best = sorted(board.state.hints)
        assert len(best) == 6
        for cell in board.state.verdicts:
            [value] = words(pilot, cell)
            star = r" ?★" if cell in best else ""
            assert re.fullmatch(rf"[WDL]\d*{star}", value.strip()), (cell, value)
        assert_clear_of_the_edges(pilot, sorted(board.state.verdicts))


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
