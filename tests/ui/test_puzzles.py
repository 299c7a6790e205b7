"""The puzzles in the app: opened from the palette and with z, solved and missed with the reason,
retried and shown, a streak that counts and ends, the rating moving, the puzzle of the
day in screen-reader mode, and the game waiting underneath."""

from __future__ import annotations

import datetime

from textual.pilot import Pilot

from tests.support import (
    SIZE,
    ScriptedAI,
    footer_keys,
    make_app,
    resize,
    settle,
    start,
    until,
)
from ttt_tui.engine import coordinate
from ttt_tui.play.rating import Rating
from ttt_tui.screens.game_keys import PUZZLES_KEY_WIDTH
from ttt_tui.screens.puzzles import Mode, PuzzleScreen
from ttt_tui.teach.puzzle_run import Phase, of_the_day, themes_on
from ttt_tui.teach.puzzles import Puzzle, record
from ttt_tui.widgets.footer import GameFooter


async def open_puzzles(pilot: Pilot[None]) -> PuzzleScreen:
    """The palette's Puzzles, with its first puzzle shown."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"Puzzles", "enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, PuzzleScreen), "puzzles open")
    screen = pilot.app.screen
    assert isinstance(screen, PuzzleScreen)
    await until(pilot, lambda: screen.run is not None, "a puzzle shown")
    return screen


async def play_line(pilot: Pilot[None], screen: PuzzleScreen, puzzle: Puzzle) -> None:
    """Play the solver's moves of the solution in the move box, the engine replying."""
    board = puzzle.board
    for index, cell in enumerate(puzzle.line):
        if index % 2 == 0:
            await pilot.press("colon", *coordinate(cell, board.n), "enter")
            await settle(pilot)
        board = board.play(cell)


def words(screen: PuzzleScreen) -> str:
    return str(screen.verdict.render())


async def test_solve_miss_explain_retry_and_see_the_solution() -> None:
    app = make_app(ScriptedAI(0), screen_reader=True)
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        screen = await open_puzzles(pilot)
        assert screen.run is not None
        puzzle = screen.run.puzzle
        assert str(screen.goal.render()).endswith(puzzle.goal_words())
        # In screen-reader mode the puzzle is said, where the terminal's cursor is.
        n = puzzle.board.n
        assert words(screen).startswith(f"Puzzle, {n}x{n}: {puzzle.goal_words()}. Board: Row 1:")
        await until(pilot, lambda: app.focused is screen.verdict, "the verdict has the focus")
        await until(
            pilot,
            lambda: app.cursor_position == screen.verdict.content_region.offset,
            "the terminal's cursor on the verdict",
        )
        assert screen.board_view.state.board == puzzle.board

        # Solved with the right moves: the rating rises once the store has kept it.
        await play_line(pilot, screen, puzzle)
        assert screen.run.phase is Phase.SOLVED
        assert words(screen).startswith("Solved!")
        await until(pilot, lambda: screen.rating.rating > Rating().rating, "rating rose")
        solved_rating = screen.rating.rating
        shown = str(screen.standing.render())
        assert shown.startswith(f"Rating {solved_rating:.0f} ("), shown

        # The next puzzle, missed with a wrong first move: why, and the refutation.
        await pilot.press("n")
        await settle(pilot)
        puzzle = screen.run.puzzle
        wrong = next(c for c in puzzle.board.legal_moves() if c != puzzle.first)
        await pilot.press("colon", *coordinate(wrong, puzzle.board.n), "enter")
        await settle(pilot)
        assert screen.run.phase is Phase.MISSED
        said = words(screen)
        name = f"{puzzle.solver.value} {coordinate(wrong, puzzle.board.n)}"
        assert said.startswith(name), said
        assert "The refutation:" in said
        await until(pilot, lambda: screen.rating.rating < solved_rating, "rating fell")

        # Retry puts the position back; the solution plays the whole line.
        await pilot.press("r")
        assert screen.run.phase is Phase.SOLVER
        assert screen.board_view.state.board == puzzle.board
        await pilot.press("l")
        assert screen.run.phase is Phase.SHOWN
        assert words(screen).startswith("Solution: ")

        # The next puzzles on one board, with one theme.
        await pilot.press("b", "b", "h")
        assert (screen.boards, screen.theme) == ((4,), themes_on((4,))[0])
        assert str(screen.standing.render()).endswith(f"Next: 4x4, {screen.theme.words}")
        await pilot.press("n")
        assert screen.run.puzzle.board.n == 4 and screen.theme in screen.run.puzzle.themes

        # The puzzle of the day, said in sentences in screen-reader mode.
        screen.today = datetime.date(2026, 1, 2)  # a 3x3 puzzle: the explorer's work is small
        await pilot.press("y")
        daily = screen.run.puzzle
        assert daily == of_the_day(screen.today)
        n = daily.board.n
        assert words(screen).startswith(f"Puzzle, {n}x{n}: {daily.goal_words()}. Board: Row 1:")

        # The explorer opens on the puzzle's position, and closes back to it.
        from ttt_tui.screens.explorer import ExplorerScreen

        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "explorer open")
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        assert explorer.model.root == daily.board
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back to the puzzle")

        # Back to the game, as it was.
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game


async def test_z_where_the_footer_has_room_and_a_streak_that_counts_and_ends() -> None:
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=(PUZZLES_KEY_WIDTH - 1, 30)) as pilot:
        game = await start(pilot)
        assert "z Puzzles" not in await footer_keys(pilot)
        await resize(pilot, PUZZLES_KEY_WIDTH, 30)
        assert "z Puzzles" in await footer_keys(pilot)
        for item, _start, end in game.query_one(GameFooter).placed():
            assert end <= PUZZLES_KEY_WIDTH, f"{item.description} is cut"
        await pilot.press("z")
        await until(pilot, lambda: isinstance(app.screen, PuzzleScreen), "z opens puzzles")
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        await until(pilot, lambda: screen.run is not None, "a puzzle shown")
        await pilot.press("t")
        assert screen.mode is Mode.STREAK and screen.streak == 0
        for solved in (1, 2):
            assert screen.run is not None
            await play_line(pilot, screen, screen.run.puzzle)
            assert screen.run.phase is Phase.SOLVED
            assert screen.streak == solved
            await pilot.press("n")
            await settle(pilot)
        assert "streak 2" in str(screen.standing.render())
        assert screen.run is not None
        puzzle = screen.run.puzzle
        wrong = next(c for c in puzzle.board.legal_moves() if c != puzzle.first)
        await pilot.press("colon", *coordinate(wrong, puzzle.board.n), "enter")
        await settle(pilot)
        assert screen.streak == 0 and screen.best_streak == 2
        assert "Streak over." in words(screen)

        # The puzzles' own help, from their keys.
        from ttt_tui.screens.help import HelpScreen

        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help open")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back to the puzzle")


async def test_the_review_makes_a_mistake_a_puzzle_of_your_own() -> None:
    from ttt_tui.engine import Board
    from ttt_tui.screens.review import ReviewScreen

    # X a3, O a1, X b2, O c1, X a2 (only b1 held the draw), O b1: O won.
    app = make_app(ScriptedAI(0, 2, 1))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        for key in ("7", "5", "4"):
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review open")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await settle(pilot)
        await pilot.press("t")  # on O's winning move: nothing to try again
        await pilot.pause()
        assert app.screen is review
        await pilot.press("left")  # X a2, the mistake
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the puzzle open")
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        await until(pilot, lambda: screen.run is not None, "a puzzle shown")
        assert screen.run is not None
        puzzle = screen.run.puzzle
        assert puzzle.board == Board.parse("O.O/.X./X..")
        assert puzzle.first == 1 and screen.mode is Mode.OWN
        assert str(screen.goal.render()).startswith("Your puzzle 1 of 1, 3x3: X to play and hold")
        await pilot.press("2")
        assert screen.run.phase is Phase.SOLVED
        # Kept with the player's own puzzles, which o goes through.
        await pilot.press("o")
        assert screen.run.puzzle == puzzle and screen.own == [record(puzzle)]
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is review, "back to the review")
