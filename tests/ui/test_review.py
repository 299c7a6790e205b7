"""The review screen: opened from a finished game (v, the palette) and from the list of
past games, stepped through, worked out off the event loop and given up on close."""

from __future__ import annotations

import threading
from pathlib import Path

from textual.widgets import OptionList, Static

from tests.support import (
    SIZE,
    ScriptedAI,
    drawn_text,
    looks,
    make_app,
    play,
    resize,
    settle,
    start,
    until,
)
from ttt_tui.engine import Analysis, Board, CancelCheck, SearchCancelled, analyze
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.explorer import ExplorerScreen
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.games import GamesScreen
from ttt_tui.screens.review import ReviewScreen
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import Store
from ttt_tui.teach.review import Label
from ttt_tui.widgets.square import background


def listed(screen: ReviewScreen) -> list[str]:
    moves = screen.query_one(OptionList)
    return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]


def shown(screen: ReviewScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_v_reviews_the_game_just_won_and_the_arrows_step_through_it() -> None:
    app = make_app(ScriptedAI(8, 7))
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        await pilot.press("v")  # the game is not over: nothing happens
        assert app.screen is game
        await play(pilot, "1", "2", "3")
        assert game.session.game.is_over
        assert "Review" in [b.binding.description for b in game.active_bindings.values()]
        await pilot.press("v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await until(pilot, lambda: len(review.review.moves) == 5, "every move graded")
        await pilot.pause()
        assert [line.split() for line in listed(review)] == [
            ["start"],
            ["1.", "X", "a1", "best"],
            ["2.", "O", "c3", "mistake"],
            ["3.", "X", "b1", "blunder"],
            ["4.", "O", "b3", "blunder"],
            ["5.", "X", "c1", "best"],
        ]
        assert review.ply == 5 and str(review.board_view.state.board) == "XXX....OO"
        await pilot.press("left", "left", "left")
        assert review.ply == 2
        assert str(review.board_view.state.board) == "X.......O"
        assert shown(review, "#review-detail").startswith("Move 2: O c3, mistake.")
        assert "Instead, b2 held the draw." in shown(review, "#review-detail")
        summary = shown(review, "#review-summary-text")
        assert "O gave the draw away at move 2" in summary
        assert "X: 2 best, 1 blunder" in summary and "O: 1 mistake, 1 blunder" in summary
        await pilot.press("up")  # the list itself moves the board too
        assert review.ply == 1 and review.board_view.state.last_move == 0
        await pilot.press("right", "escape")
        await pilot.pause()
        assert app.screen is game


async def test_e_explores_the_position_shown_and_the_game_end_is_not_explored() -> None:
    app = make_app(ScriptedAI(8, 7))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "2", "3", "v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.press("e")  # after X's winning move: nothing to explore
        await pilot.pause()
        assert app.screen is review
        await pilot.press("left", "e")
        await settle(pilot)
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        assert str(explorer.model.root) == "XX.....OO"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is review


async def test_the_palette_offers_the_review_once_the_game_is_over() -> None:
    app = make_app(ScriptedAI(8, 7))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Review" not in titles
        await play(pilot, "1", "2", "3")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Review" in titles


class GatedAnalyzer:
    """Analyses once the test lets it; records whether the search was told to stop."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.stopped: list[bool] = []

    def __call__(self, board: Board, cancelled: CancelCheck | None = None) -> Analysis:
        self.started.set()
        while not self.gate.wait(0.01):
            if cancelled is not None and cancelled():
                self.stopped.append(True)
                raise SearchCancelled
        return analyze(board, cancelled)


async def test_the_review_works_off_the_event_loop_and_closing_gives_the_work_up() -> None:
    analyzer = GatedAnalyzer()
    app = make_app(ScriptedAI(8, 7), analyzer=analyzer)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "2", "3")
        analyzer.gate.clear()
        await pilot.press("v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await until(pilot, analyzer.started.is_set, "the first analysis began")
        # The screen answers while the search waits.
        await pilot.press("left")
        assert review.ply == 4
        assert "Reviewing: 0 of 5 moves graded" in shown(review, "#review-heading")
        assert "being graded" in shown(review, "#review-detail")
        await pilot.press("escape")
        await until(pilot, lambda: analyzer.stopped == [True], "the search told to stop")
        assert isinstance(app.screen, GameScreen)


async def test_past_games_newest_first_each_opening_its_review(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    app = make_app(ScriptedAI(8, 7, 6, 5), store=store)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "2", "3", "n", "5")
        await pilot.press("n")  # the second game is recorded as abandoned
        await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("g")
        games = app.screen
        assert isinstance(games, GamesScreen)
        await until(pilot, lambda: len(games.games) == 2, "the games read")
        await pilot.pause()
        lines = [str(games.query_one(OptionList).get_option_at_index(i).prompt) for i in range(2)]
        assert "3x3  You (X) vs Medium" in lines[0] and "abandoned, 2 moves" in lines[0]
        assert "X won, 5 moves" in lines[1]
        await pilot.press("down", "enter")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.cells == (0, 8, 1, 7, 2)
        assert shown(review, "#review-heading").startswith("3x3, You (X) vs Medium: X won")
        await until(pilot, lambda: len(review.review.moves) == 5, "every move graded")
        assert review.review.moves[1].label is Label.MISTAKE
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)


async def test_an_ai_vs_ai_game_is_reviewed_too() -> None:
    app = make_app(settings=Settings(mode=Mode.AI_VS_AI))
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        await until(pilot, lambda: game.session.game.is_over, "the game played out", 30)
        await settle(pilot)
        await pilot.press("v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        count = len(game.session.game.moves)
        await until(pilot, lambda: len(review.review.moves) == count, "every move graded")


async def test_tiny_terminals_under_the_help_break_neither_the_review_nor_the_games(
    tmp_path: Path,
) -> None:
    """The fuzz's seed 2: at 7x8, with the help over the review over the list of
    games, laying the review's move list out at no width raised in Rich."""
    store = Store(tmp_path / "data")
    app = make_app(ScriptedAI(8, 7), store=store)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "2", "3", "s", "g")
        await until(pilot, lambda: isinstance(app.screen, GamesScreen), "the games listed")
        games = app.screen
        assert isinstance(games, GamesScreen)
        await until(pilot, lambda: len(games.games) == 1, "the games read")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review open")
        await pilot.press("question_mark")
        for width, height in ((7, 8), (1, 1), (3, 30), (70, 22), (2, 5), (100, 30)):
            await resize(pilot, width, height)
            await settle(pilot)
        await pilot.press("escape")
        for width, height in ((7, 8), (1, 1), (100, 30)):
            await resize(pilot, width, height)
            await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)


DRAWN_5X5 = (
    3,
    14,
    2,
    1,
    10,
    23,
    15,
    20,
    21,
    8,
    4,
    18,
    24,
    9,
    13,
    11,
    12,
    22,
    19,
    17,
    6,
    0,
    7,
    16,
    5,
)
"""A 5x5 game that fills the board without four in a row: 25 moves."""


async def test_a_long_game_opens_with_its_selected_move_in_view() -> None:
    """A 25-move 5x5 game at 100x30 opened on moves 5 to 22 while move 25 was selected."""
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS, board=BoardSize.FIVE))
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        for cell in DRAWN_5X5:
            game.apply(game.session.play(cell))
        await settle(pilot)
        assert game.session.game.is_over and len(game.session.game.moves) == 25
        await pilot.press("v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.pause()
        assert review.query_one(OptionList).highlighted == 25
        assert " 25. X a2" in drawn_text(app)
        # Graded, the summary comes under the list, which shrinks.
        # A 25-move 5x5 game takes seconds of CPU to grade, many more beside the long
        # run's other workers on 2 cores (10 s were once too few).
        await until(pilot, lambda: len(review.review.moves) == 25, "every move graded", seconds=120)
        await until(pilot, lambda: bool(shown(review, "#review-summary-text")), "the summary")
        await pilot.pause()
        assert " 25. X a2" in drawn_text(app)
        await pilot.press("home")
        await pilot.pause()
        assert review.ply == 0 and "start" in drawn_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert review.ply == 25 and " 25. X a2" in drawn_text(app)


async def test_the_review_draws_a_lost_games_line_as_the_game_does() -> None:
    """The game paints the line the computer won with in the loss's colour; so does the
    review (it drew it in the win's)."""
    app = make_app(ScriptedAI(3, 4, 5))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "2", "9")
        assert app.session.game.person_lost
        in_game = [background(look) for look in looks(pilot)]
        assert in_game.count("board--line-lost") == 3
        await pilot.press("v")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.pause()
        assert [background(look) for look in review.board_view.looks] == in_game
