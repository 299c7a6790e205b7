"""The puzzles: find the only move, on a board of the game's, over the game, which waits.

The screen turns clicks, digits and the move box into `Run` calls
(`ttt_tui.teach.puzzle_run`), has the analyses a move off the solution line needs
run in the app's searcher (a process of its own), and keeps each first attempt and
the rating through the app's saver (a thread of its own): the event loop never waits
for a proof or for the disk. Its workers only await and post what they found.
"""

from __future__ import annotations

import asyncio
import datetime
import enum
import random
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static

from ttt_tui.engine import Analysis, Board, Cell, SearchCancelled, coordinate, read_square
from ttt_tui.play.rating import Attempt, Rating
from ttt_tui.play.view import BoardState
from ttt_tui.screens.base import BaseScreen
from ttt_tui.search.client import Searcher
from ttt_tui.storage.saver import Saver
from ttt_tui.teach.explain import Ply, best_ply
from ttt_tui.teach.puzzle_run import (
    BOARDS,
    Phase,
    Run,
    announcement,
    for_streak,
    miss_words,
    near_rating,
    of_the_day,
    solution_words,
    themes_on,
)
from ttt_tui.teach.puzzles import Puzzle, Theme, from_record, record
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.explorer_board import ExplorerBoard
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.title_bar import TitleBar

MIN_WIDTH, MIN_HEIGHT = 60, 20
"""The smallest terminal the puzzles lay out in."""

RECENT = 50
"""Puzzles remembered so as not to offer them again soon."""

RULES = (
    "Each puzzle has exactly one move that reaches its goal, proven by the engine: win"
    " (force a win; after the first move any winning move counts) or hold (keep the draw;"
    " every other move loses). Play it on the board by click, by its number or in the move"
    " box (b2 or 5). The engine answers with its best defence. A wrong move is shown at"
    " once with why it fails and the line that refutes it.\n\n"
    "Your first try at each puzzle changes your rating (Glicko-2). Streak mode: solve in a"
    " row until the first miss; the best streak is kept. The puzzle of the day is the same"
    " for everyone on a date."
)
"""The puzzles' help, above their keys."""


class Mode(enum.Enum):
    """How the next puzzle is chosen."""

    RATED = "rated"
    """Near the player's rating."""
    STREAK = "streak"
    """Harder as the streak grows, until the first miss."""
    DAILY = "daily"
    """The puzzle of the day."""
    OWN = "own"
    """The player's own puzzles, made by the review of their mistakes, in turn."""


class PuzzleScreen(BaseScreen[None]):
    """A puzzle's position, its goal in a sentence, the verdict and the player's standing."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Game", key_display="esc", tooltip="back to the game"),
        *(
            Binding(str(d), f"digit({d})", f"Square {d}", show=False, tooltip="play a square")
            for d in range(10)
        ),
        Binding("enter", "play_typed", show=False),
        Binding(
            "colon", "move_box", "Move box", key_display=":", show=False, tooltip="type a square"
        ),
        Binding("r", "retry", "Retry", tooltip="try the puzzle again"),
        Binding("l", "solution", "Solution", tooltip="see the solution"),
        Binding("n", "next", "Next", tooltip="the next puzzle"),
        Binding("t", "streak", "Streak", tooltip="streak mode on or off"),
        Binding("y", "daily", "Daily", tooltip="the puzzle of the day"),
        # Out of the footer, which has no room for every key; the help lists them.
        Binding("b", "board", "Board", show=False, tooltip="next puzzles: every board, or one"),
        Binding("h", "theme", "Theme", show=False, tooltip="next puzzles: every theme, or one"),
        Binding("o", "own", "Yours", tooltip="your own puzzles, from your mistakes, in turn"),
        Binding("e", "explore", "Explore", tooltip="the explorer, on the position shown"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]
    TOO_SMALL_ACTIONS: ClassVar[frozenset[str]] = frozenset({"close", "help"})
    """The keys that work while the terminal is too small."""
    AUTO_FOCUS = ""
    """Nothing has the focus until the move box opens: the screen's keys are the puzzle's."""

    DEFAULT_CSS = """
    PuzzleScreen #puzzle-top {
        height: 1fr;
    }
    PuzzleScreen ExplorerBoard {
        width: 1fr;
        height: 1fr;
        margin: 0 1;
    }
    PuzzleScreen #puzzle-side {
        width: 40%;
        max-width: 48;
        padding: 0 1;
    }
    PuzzleScreen #puzzle-goal {
        text-style: bold;
        height: auto;
        margin-bottom: 1;
    }
    PuzzleScreen #puzzle-standing, PuzzleScreen #puzzle-verdict {
        height: auto;
        margin-bottom: 1;
    }
    PuzzleScreen #puzzle-box {
        display: none;
    }
    PuzzleScreen.-too-small #puzzle-top {
        display: none;
    }
    """

    class Standing(Message):
        """The player's rating and best streak, read from the store."""

        def __init__(self, rating: Rating, best_streak: int, own: list[str] | None = None) -> None:
            self.rating = rating
            self.best_streak = best_streak
            self.own = own
            """The player's own puzzles' records, where they were read too."""
            super().__init__()

    class Analysed(Message):
        """The analysis a move or a reply off the line needed has come."""

        def __init__(self, run: Run, analysis: Analysis, cell: Cell | None) -> None:
            self.run = run
            self.analysis = analysis
            self.cell = cell
            """The player's move it judges; None for the defender's reply."""
            super().__init__()

    class Explained(Message):
        """Why a miss fails, in words, with its refutation."""

        def __init__(self, run: Run, words: str) -> None:
            self.run = run
            self.words = words
            super().__init__()

    def __init__(
        self,
        searcher: Searcher,
        saver: Saver,
        rng: random.Random,
        *,
        screen_reader: bool = False,
        today: datetime.date | None = None,
        first: Puzzle | None = None,
    ) -> None:
        """``rng`` chooses the puzzles; ``today`` is the puzzle of the day's date (the
        local date if None); ``first``, one of the player's own (from the review), is
        kept with them and shown first."""
        super().__init__()
        self.sub_title = "puzzles"
        self.searcher = searcher
        self.saver = saver
        self.screen_reader = screen_reader
        """Whether each puzzle and verdict is said in sentences, for a screen reader."""
        self.rng = rng
        self.today = today or datetime.date.today()
        self.mode = Mode.RATED if first is None else Mode.OWN
        self.first = first
        """The puzzle to show first, made of the player's own mistake."""
        self.own: list[str] = []
        """The player's own puzzles' records, oldest first."""
        self.rating = Rating()
        self.best_streak = 0
        self.streak = 0
        self.run: Run | None = None
        """The attempt in play; None until the standing is read."""
        self.rated = False
        """Whether this puzzle's first attempt has been kept (retries are not rated)."""
        self.busy = False
        """Whether the engine is working out something the next move waits for."""
        self.recent: list[str] = []
        self.boards: tuple[int, ...] = BOARDS
        """The boards the next puzzles are on."""
        self.theme: Theme | None = None
        """The theme the next puzzles have, if one is asked for."""
        self.typed = ""
        """A square's first digit, waiting for the second (on 4x4 and 5x5)."""
        self.verdict_words = ""
        self.board_view = ExplorerBoard()
        self.goal = Static(id="puzzle-goal", markup=False)
        self.standing = Static(id="puzzle-standing", markup=False)
        self.verdict = Static(id="puzzle-verdict", markup=False)
        # In screen-reader mode the verdict line has the focus, so that the terminal's
        # cursor, which a screen reader follows, sits on it.
        self.verdict.can_focus = screen_reader
        self.box = Input(placeholder="a square: b2 or 5; Esc closes", compact=True, id="puzzle-box")

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="puzzle-top"):
            yield self.board_view
            with Vertical(id="puzzle-side"):
                # In screen-reader mode the verdict comes first: the terminal's cursor is
                # on it, and there it stays put however long the lines below grow.
                if self.screen_reader:
                    yield self.verdict
                yield self.goal
                yield self.standing
                if not self.screen_reader:
                    yield self.verdict
                yield self.box
        yield Static(id="too-small")
        yield GameFooter()

    def on_mount(self) -> None:
        self.check_size()
        self.goal.update("Choosing a puzzle…")
        if self.screen_reader:
            self.verdict.focus()
        self._read_standing()

    @work(group="puzzle-store", exit_on_error=False)
    async def _read_standing(self) -> None:
        if self.first is not None:
            self.saver.add_own_puzzle(record(self.first))
        rating, best = await asyncio.wrap_future(self.saver.puzzle_standing())
        own = await asyncio.wrap_future(self.saver.own_puzzles())
        self.post_message(self.Standing(rating, best, own))

    @on(Standing)
    def _standing_read(self, message: Standing) -> None:
        self.rating, self.best_streak = message.rating, message.best_streak
        if message.own is not None:
            self.own = message.own
        if self.run is None:
            self._start(self.first or self._choose())
        else:
            self._show()

    # Choosing and showing.

    def _choose(self) -> Puzzle:
        if self.mode is Mode.DAILY:
            return of_the_day(self.today)
        if self.mode is Mode.OWN and self.own:
            shown = record(self.run.puzzle) if self.run is not None else ""
            index = self.own.index(shown) + 1 if shown in self.own else 0
            return from_record(self.own[index % len(self.own)])
        if self.mode is Mode.STREAK:
            return for_streak(self.streak, self.rng, self.recent, self.boards, self.theme)
        return near_rating(self.rating.rating, self.rng, self.boards, self.recent, self.theme)

    def _start(self, puzzle: Puzzle) -> None:
        self.workers.cancel_group(self, "puzzle-search")
        self.run = Run(puzzle)
        self.rated = False
        self.busy = False
        self.typed = ""
        self.recent = [*self.recent, record(puzzle)][-RECENT:]
        self.verdict_words = "Your move."
        if self.screen_reader:
            self.verdict_words = f"{announcement(puzzle)} Your move."
        self._show()

    def _show(self) -> None:
        run = self.run
        if run is None:
            return
        puzzle = run.puzzle
        n = puzzle.board.n
        heading = {
            Mode.RATED: "Puzzle",
            Mode.STREAK: "Streak",
            Mode.DAILY: "Puzzle of the day",
            Mode.OWN: f"Your puzzle {self._own_number()}",
        }
        self.goal.update(f"{heading[self.mode]}, {n}x{n}: {puzzle.goal_words()}")
        streak = f" · streak {self.streak}" if self.mode is Mode.STREAK else ""
        boards = "every board" if len(self.boards) > 1 else f"{self.boards[0]}x{self.boards[0]}"
        theme = "every theme" if self.theme is None else self.theme.words
        self.standing.update(
            f"Rating {self.rating.rating:.0f} (±{2 * self.rating.deviation:.0f})"
            f" · difficulty {puzzle.difficulty}{streak} · best streak {self.best_streak}"
            f"\nNext: {boards}, {theme}"
        )
        self.verdict.update(self.verdict_words)
        last = run.played[-1] if run.played else None
        self.board_view.state = BoardState(run.board, last, False, {}, frozenset())
        self.refresh_bindings()

    # Moves.

    def _play(self, cell: Cell) -> None:
        self.typed = ""
        run = self.run
        if run is None or self.busy or run.phase is not Phase.SOLVER:
            return
        if cell not in run.board.legal_moves():
            self._say(f"{coordinate(cell, run.board.n)} is taken. Your move.")
            return
        if run.needs_analysis(cell):
            self.busy = True
            self._say(f"{run.board.to_move.value} {coordinate(cell, run.board.n)}: checking…")
            self._analyse(run, run.board, cell)
            return
        self._after(run.play(cell))

    def _after(self, phase: Phase) -> None:
        run = self.run
        assert run is not None
        if phase is Phase.DEFENDER:
            if run.reply_needs_analysis():
                self.busy = True
                self._analyse(run, run.board, None)
                return
            self._replied(run.reply())
            return
        if phase is Phase.SOLVED:
            self._finish(True)
            self._say(f"Solved! {solution_words(run.puzzle)}")
        elif phase is Phase.MISSED:
            self._finish(False)
            assert run.wrong is not None
            name = coordinate(run.wrong, run.puzzle.board.n)
            self._say(f"{name} fails the goal. Working out why…")
            self.busy = True
            self._explain(run)
        else:
            self._show()

    def _replied(self, cell: Cell) -> None:
        run = self.run
        assert run is not None
        defender = run.puzzle.solver.other.value
        self._say(f"{defender} answers {coordinate(cell, run.board.n)}. Your move.")

    def _finish(self, solved: bool) -> None:
        """Keep the first attempt at a puzzle, and count the streak."""
        run = self.run
        assert run is not None
        streak: int | None = None
        if self.mode is Mode.STREAK and not self.rated:
            self.streak = self.streak + 1 if solved else 0
            streak = self.streak
            if solved:
                self.best_streak = max(self.best_streak, self.streak)
        if not self.rated:
            self.rated = True
            puzzle = run.puzzle
            attempt = Attempt(record(puzzle), puzzle.board.n, puzzle.difficulty, solved, streak)
            self._keep(attempt)

    @work(group="puzzle-store", exit_on_error=False)
    async def _keep(self, attempt: Attempt) -> None:
        rating = await asyncio.wrap_future(self.saver.record_attempt(attempt))
        self.post_message(self.Standing(rating, self.best_streak))

    @work(group="puzzle-search", exit_on_error=False)
    async def _analyse(self, run: Run, board: Board, cell: Cell | None) -> None:
        try:
            analysis = await self.searcher.analyze(board, None)
        except SearchCancelled:
            return
        self.post_message(self.Analysed(run, analysis, cell))

    @on(Analysed)
    def _analysed(self, message: Analysed) -> None:
        if message.run is not self.run or message.analysis.board != message.run.board:
            return
        run = message.run
        self.busy = False
        if message.cell is None:
            self._replied(run.reply(message.analysis))
        else:
            self._after(run.play(message.cell, message.analysis))

    @work(group="puzzle-search", exit_on_error=False)
    async def _explain(self, run: Run) -> None:
        assert run.wrong is not None
        try:
            before = await self.searcher.analyze(run.before_wrong, None)
            line: list[Ply] = []
            position = run.board
            while not position.is_game_over():
                ply = best_ply(await self.searcher.analyze(position, None))
                line.append(ply)
                position = ply.after
        except SearchCancelled:
            return
        self.post_message(self.Explained(run, miss_words(before, run.wrong, line)))

    @on(Explained)
    def _explained(self, message: Explained) -> None:
        if message.run is not self.run:
            return
        self.busy = False
        ending = "Streak over. " if self.mode is Mode.STREAK else ""
        self._say(f"{message.words} {ending}r retries, l shows the solution, n the next.")

    def _say(self, words: str) -> None:
        self.verdict_words = words
        self._show()

    # Keys.

    def action_digit(self, digit: int) -> None:
        """A square by its number: at once on 3x3; on 4x4 and 5x5 a digit that can
        begin a two-digit square waits for the second (or Enter)."""
        run = self.run
        if run is None:
            return
        squares = run.board.size
        typed = self.typed + str(digit)
        if int(typed) * 10 <= squares and len(typed) == 1:
            self.typed = typed
            self._say(f"Square {typed}… (a second digit, or Enter)")
            return
        self.typed = ""
        self._number(typed)

    def action_play_typed(self) -> None:
        """Enter plays a digit waiting for its second."""
        typed, self.typed = self.typed, ""
        if typed:
            self._number(typed)

    def _number(self, text: str) -> None:
        run = self.run
        assert run is not None
        found = read_square(text, run.board.n)
        if isinstance(found, int):
            self._play(found)
        else:
            self._say(f"There is no square {text}: they are 1 to {run.board.size}.")

    @on(BoardView.CellChosen)
    def _cell_chosen(self, message: BoardView.CellChosen) -> None:
        self._play(message.cell)

    def action_move_box(self) -> None:
        """Open the move box."""
        self.box.display = True
        self.box.focus()

    @on(Input.Submitted, "#puzzle-box")
    def _typed(self, message: Input.Submitted) -> None:
        run = self.run
        text = message.value.strip().removeprefix(":").strip()
        self._close_box()
        if run is None or not text:
            return
        found = read_square(text, run.board.n)
        if isinstance(found, int):
            self._play(found)
        else:
            last = coordinate(run.board.size - 1, run.board.n)
            self._say(
                f"There is no square {text}: they are a1 to {last}, or 1 to {run.board.size}."
            )

    def action_retry(self) -> None:
        """Back to the puzzle's position."""
        if self.run is not None and self.run.phase is Phase.MISSED and not self.busy:
            self.run.retry()
            self._say("Try again. Your move.")

    def action_solution(self) -> None:
        """Show the solution on the board and in words."""
        run = self.run
        if run is None or self.busy or run.phase in (Phase.SOLVED, Phase.SHOWN):
            return
        if not self.rated:
            self._finish(False)
        run.reveal()
        self._say(f"{solution_words(run.puzzle)} n for the next puzzle.")

    def action_next(self) -> None:
        """The next puzzle (in streak mode, a skipped puzzle ends the streak)."""
        run = self.run
        if run is None:
            return
        if self.mode is Mode.STREAK and not self.rated:
            self._finish(False)
        if self.mode is Mode.DAILY or (self.mode is Mode.OWN and not self.own):
            self.mode = Mode.RATED
        self._start(self._choose())

    def action_streak(self) -> None:
        """Streak mode on or off; either way a new puzzle."""
        self.mode = Mode.RATED if self.mode is Mode.STREAK else Mode.STREAK
        self.streak = 0
        if self.run is not None:
            self._start(self._choose())

    def _own_number(self) -> str:
        """``2 of 5``: where the puzzle shown is among the player's own."""
        shown = record(self.run.puzzle) if self.run is not None else ""
        if shown not in self.own:
            return ""
        return f"{self.own.index(shown) + 1} of {len(self.own)}"

    def action_own(self) -> None:
        """The player's own puzzles, in turn; with none, say how they are made."""
        if not self.own:
            self._say(
                "You have no puzzles of your own yet: after a game you lost or drew,"
                " the review's t (Try it again) makes one of a mistake."
            )
            return
        self.mode = Mode.OWN
        if self.run is not None:
            self._start(self._choose())

    def action_daily(self) -> None:
        """The puzzle of the day."""
        self.mode = Mode.DAILY
        if self.run is not None:
            self._start(self._choose())

    def action_explore(self) -> None:
        """Open the explorer on the position shown (the puzzle's, or where play stands)."""
        from ttt_tui.screens.explorer import ExplorerScreen

        run = self.run
        if run is None or self.busy or run.board.is_game_over():
            board = None if run is None else run.puzzle.board
        else:
            board = run.board
        if board is not None and not isinstance(self.app.screen, ExplorerScreen):
            self.app.push_screen(ExplorerScreen(board, self.searcher))

    def action_board(self) -> None:
        """The next puzzles on every board, then on 3x3, 4x4, 5x5 alone, in turn; a theme
        no puzzle on the new boards has is dropped."""
        cycle: list[tuple[int, ...]] = [BOARDS, *((n,) for n in BOARDS)]
        self.boards = cycle[(cycle.index(self.boards) + 1) % len(cycle)]
        if self.theme is not None and self.theme not in themes_on(self.boards):
            self.theme = None
        self._show()

    def action_theme(self) -> None:
        """The next puzzles of every theme, then of each theme the boards have, in turn."""
        cycle: list[Theme | None] = [None, *themes_on(self.boards)]
        self.theme = cycle[(cycle.index(self.theme) + 1) % len(cycle)]
        self._show()

    def action_help(self) -> None:
        """The puzzles' keys, and what they are."""
        from ttt_tui.screens.help import HelpScreen

        if not isinstance(self.app.screen, HelpScreen):
            self.app.push_screen(
                HelpScreen(
                    PuzzleScreen,
                    app=type(self.app),
                    rules=RULES,
                    mouse=("left click", "play a square"),
                )
            )

    def action_close(self) -> None:
        """Back to the game (Escape first closes the move box)."""
        if self.box.display:
            self._close_box()
            return
        self.dismiss()

    def _close_box(self) -> None:
        """Empty the move box, hide it and take the focus from it."""
        self.box.display = False
        self.box.value = ""
        self.set_focus(self.focus_target())

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close, giving up the searches still running for the puzzle."""
        if self.app.screen is self:
            self.workers.cancel_group(self, "puzzle-search")
        return super().dismiss(result)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys work, and show in the footer, now."""
        if self.has_class("-too-small") and action not in self.TOO_SMALL_ACTIONS:
            return False
        run = self.run
        if action == "retry":
            return run is not None and run.phase is Phase.MISSED
        if action == "solution":
            return run is not None and run.phase not in (Phase.SOLVED, Phase.SHOWN)
        if action == "play_typed":
            return bool(self.typed)
        return True

    def focus_target(self) -> Widget | None:
        """The verdict line in screen-reader mode (the terminal's cursor goes there),
        else nothing: the screen's keys are the puzzle's."""
        return self.verdict if self.screen_reader else None

    def too_small(self, width: int, height: int) -> str | None:
        """The "too small" message, below `MIN_WIDTH` x `MIN_HEIGHT`."""
        if width >= MIN_WIDTH and height >= MIN_HEIGHT:
            return None
        return (
            f"Terminal too small: {width}x{height}.\n"
            f"The puzzles need at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
            "Enlarge the window;\nEsc goes back to the game, q quits."
        )
