"""The game review: a game's moves graded one by one, the board at any move, and the
turning points in words (`ttt_tui.teach.review`).

The positions are analysed in the app's searcher (a process of its own), one after
another, by a worker that only awaits it and posts what it found; the list fills in
as they come, and closing the screen gives the work up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ttt_tui.engine import (
    Analysis,
    Cell,
    Outcome,
    Player,
    Progress,
    SearchCancelled,
    coordinate,
    mover_of,
)
from ttt_tui.play.view import BoardState
from ttt_tui.screens.base import BaseScreen
from ttt_tui.search.client import Searcher
from ttt_tui.teach.puzzles import Puzzle
from ttt_tui.teach.review import RESULT_WORDS, Label, positions, result_of, review
from ttt_tui.widgets.explorer_board import ExplorerBoard
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.move_list import MoveList
from ttt_tui.widgets.title_bar import TitleBar

MIN_WIDTH, MIN_HEIGHT = 60, 20
"""The smallest terminal the review lays out in."""

LABEL_STYLES = {
    Label.BEST: "bold $text-success",
    Label.GOOD: "$text-success",
    Label.INACCURACY: "$text-warning",
    Label.MISTAKE: "bold $text-warning",
    Label.BLUNDER: "bold $text-error",
}
"""Each label's colour; the label's word is always shown too."""

RULES = (
    "The review grades every move of a game from proven values, for the player who made"
    " it: best (the result kept, as quickly as possible), inaccuracy (a slower win or a"
    " quicker loss), mistake (a win thrown to a draw, or a draw to a loss), blunder (a win"
    " thrown to a loss); good where a 5x5 length cannot be proven. The turning points"
    " are the mistakes and blunders. Select a move to see the board after it, and what"
    " the best moves would have kept."
)
"""The review's help, above its keys."""


class ReviewScreen(BaseScreen[None]):
    """A game's moves, each with its label; the board after the selected one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,v", "close", "Close", key_display="esc", tooltip="close the review"),
        # Before the move list's own left and right, which would scroll it sideways.
        *(
            Binding(key, f"step({step})", label, key_display=shown, tooltip=tip, priority=True)
            for key, step, label, shown, tip in (
                ("left", -1, "Prev", "←", "the move before"),
                ("right", 1, "Next", "→", "the move after"),
            )
        ),
        Binding("e", "explore", "Explore", tooltip="the explorer, on the position shown"),
        Binding(
            "t",
            "try_again",
            "Try it again",
            tooltip="try it again: the position before this mistake, as a puzzle",
        ),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]
    TOO_SMALL_ACTIONS: ClassVar[frozenset[str]] = frozenset({"close", "help"})

    DEFAULT_CSS = """
    ReviewScreen #review-main {
        height: 1fr;
    }
    ReviewScreen ExplorerBoard {
        width: 1fr;
        margin: 0 1;
    }
    ReviewScreen #review-side {
        width: 48%;
        max-width: 60;
    }
    ReviewScreen #review-heading {
        height: auto;
        text-style: bold;
        padding: 0 1;
    }
    /* The move list takes the room left (not its content's height: an OptionList
       measured at no width, in a terminal a few columns wide, raised in Rich). */
    ReviewScreen OptionList {
        height: 1fr;
        min-height: 4;
    }
    ReviewScreen #review-detail {
        height: auto;
        padding: 0 1;
    }
    ReviewScreen #review-summary {
        height: auto;
        max-height: 45%;
        padding: 0 1;
        border-top: solid $primary 40%;
    }
    ReviewScreen #review-summary > Static {
        height: auto;
    }
    ReviewScreen.-too-small #review-main {
        display: none;
    }
    """

    class Analysed(Message):
        """The position before move ``index`` (0-based) has been analysed."""

        def __init__(self, index: int, analysis: Analysis) -> None:
            self.index = index
            self.analysis = analysis
            super().__init__()

    class PuzzleMade(Message):
        """A mistake's position made a puzzle (None: its lengths could not be timed)."""

        def __init__(self, puzzle: Puzzle | None) -> None:
            self.puzzle = puzzle
            super().__init__()

    class Proving(Message):
        """Progress on the position before move ``index``."""

        def __init__(self, index: int, progress: Progress) -> None:
            self.index = index
            self.progress = progress
            super().__init__()

    def __init__(
        self,
        n: int,
        cells: tuple[Cell, ...],
        searcher: Searcher,
        *,
        title: str = "",
        result: str | None = None,
        person: Player | None = None,
        try_again: Callable[[Puzzle], None] | None = None,
    ) -> None:
        """Review the game of ``cells`` on an ``n`` x ``n`` board; ``result`` is what was
        recorded for a game left unfinished (``abandoned``); ``person`` is the mark a
        person played against the computer (You vs AI), whose loss the board shows in
        the game's colour for a loss. ``try_again``, if given, opens a puzzle: the review
        offers the position of a mistake that threw a result away as one (`t`)."""
        super().__init__()
        self.person = person
        """The person's mark in a game against the computer; None in the other modes."""
        self.try_again = try_again
        """Opens a puzzle made of a mistake, where the review may offer one."""
        self.n = n
        self.cells = cells
        self.searcher = searcher
        self.title_text = title
        self.boards = positions(n, cells)
        """The position before each move."""
        self.result = result_of(n, cells, result)
        self.review = review(n, cells, [], self.result)
        """The moves graded so far, from the analyses come so far."""
        self.ply = len(cells)
        """Moves shown played on the board (0: the empty board)."""
        self.progress: Progress | None = None
        self.board_view = ExplorerBoard(self._board_state())
        self.sub_title = f"review of a {n}x{n} game"

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="review-main"):
            yield self.board_view
            with Vertical(id="review-side"):
                yield Static(id="review-heading", markup=False)
                yield MoveList(id="review-moves")
                yield Static(id="review-detail", markup=False)
                with VerticalScroll(id="review-summary", can_focus=False):
                    yield Static(id="review-summary-text", markup=False)
        yield Static(id="too-small")
        yield GameFooter()

    def on_mount(self) -> None:
        self.check_size()
        self._fill_list()
        self._show()
        if self.boards:
            self._analyse()

    # Closing.

    def action_close(self) -> None:
        """Back to where the review was opened; the analyses still running are given up."""
        self.dismiss()

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close, giving up the work (once: see `BaseScreen.dismiss`)."""
        if self.app.screen is self:
            self.workers.cancel_all()
        return super().dismiss(result)

    # Moving through the game.

    def action_step(self, delta: int) -> None:
        """The move before or after the one shown."""
        self._go(self.ply + delta)

    def _go(self, ply: int) -> None:
        ply = max(0, min(len(self.cells), ply))
        if ply != self.ply:
            self.ply = ply
            moves = self.query_one(OptionList)
            moves.highlighted = ply
            self._show()

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, message: OptionList.OptionHighlighted) -> None:
        if message.option_index != self.ply:
            self.ply = message.option_index
            self._show()

    def action_explore(self) -> None:
        """The explorer on the position shown (the game over: nothing to explore)."""
        from ttt_tui.screens.explorer import ExplorerScreen

        board = self.review.board(self.ply)
        if board.is_game_over():
            self.notify("The game is over here: there is nothing to explore.", timeout=2)
            return
        self.app.push_screen(ExplorerScreen(board, self.searcher))

    def action_help(self) -> None:
        """The review's keys, and what it shows."""
        from ttt_tui.screens.help import HelpScreen

        if not isinstance(self.app.screen, HelpScreen):
            self.app.push_screen(
                HelpScreen(
                    OptionList,
                    ReviewScreen,
                    app=type(self.app),
                    rules=RULES,
                    mouse=("left click", "a move in the list shows the board after it"),
                )
            )

    # The analyses, in the app's searcher.

    @work(exclusive=True, group="review", exit_on_error=False)
    async def _analyse(self) -> None:
        """Analyse the position before each move, in order."""
        for index, board in enumerate(self.boards):

            def proving(progress: Progress, index: int = index) -> None:
                self.post_message(self.Proving(index, progress))

            try:
                analysis = await self.searcher.analyze(board, proving)
            except SearchCancelled:
                return
            self.post_message(self.Analysed(index, analysis))

    @on(Analysed)
    def _analysed(self, message: Analysed) -> None:
        analyses = self.review.analyses
        if message.index != len(analyses):
            return
        self.progress = None
        self.review = review(self.n, self.cells, [*analyses, message.analysis], self.result)
        self._update_option(message.index + 1)
        self._show()

    @on(Proving)
    def _proving(self, message: Proving) -> None:
        if message.index == len(self.review.analyses):
            self.progress = message.progress
            self._show_heading()

    # The view.

    def _board_state(self) -> BoardState:
        board = self.review.board(self.ply)
        last = self.cells[self.ply - 1] if self.ply else None
        winner = board.status.winner
        lost = self.person is not None and winner is not None and winner is not self.person
        return BoardState(board, last, lost, {}, frozenset())

    def _fill_list(self) -> None:
        moves = self.query_one(OptionList)
        moves.add_options([Option(self._option_text(ply)) for ply in range(len(self.cells) + 1)])
        moves.highlighted = self.ply

    def _update_option(self, ply: int) -> None:
        moves = self.query_one(OptionList)
        moves.replace_option_prompt_at_index(ply, self._option_text(ply))

    def _option_text(self, ply: int) -> Content:
        if ply == 0:
            return Content("    start")
        text = Content(f"{ply:>3}. {self._move_name(ply):<5} ")
        if ply <= len(self.review.moves):
            label = self.review.moves[ply - 1].label
            return text + Content.styled(label.value, LABEL_STYLES[label])
        return text + Content.styled("…", "$text-muted")

    def _show(self) -> None:
        self.board_view.state = self._board_state()
        self._show_heading()
        self.query_one("#review-detail", Static).update(self._detail())
        self.query_one("#review-summary-text", Static).update(self._summary())
        self.refresh_bindings()

    def _show_heading(self) -> None:
        done, total = len(self.review.moves), len(self.boards)
        heading = f"{self.title_text or f'{self.n}x{self.n}'}: {RESULT_WORDS[self.result]}"
        if done < total:
            proving = ""
            if self.progress is not None:
                proving = f", {self.progress.nodes:,} positions searched"
            heading += f"\nReviewing: {done} of {total} moves graded{proving}…"
        self.query_one("#review-heading", Static).update(heading)

    def _detail(self) -> str:
        if self.ply == 0:
            return "The empty board. → steps through the game."
        if self.ply > len(self.review.moves):
            return f"Move {self.ply}: {self._move_name(self.ply)}, being graded…"
        return self.review.moves[self.ply - 1].detail()

    def _move_name(self, ply: int) -> str:
        return f"{mover_of(ply - 1).value} {coordinate(self.cells[ply - 1], self.n)}"

    def _summary(self) -> str:
        if len(self.review.moves) < len(self.cells):
            return ""
        found = self.review
        return "\n".join([*found.turning_texts(), *(found.summary(p) for p in Player)])

    # Size, and which keys work.

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only closing and the help while the terminal is too small; "Try it again" only
        on a move whose position it makes a puzzle of (`retry_offered`)."""
        if self.has_class("-too-small") and action not in self.TOO_SMALL_ACTIONS:
            return False
        if action == "try_again":
            return self._retry_position() is not None
        return True

    # Mistakes as puzzles.

    def _retry_position(self) -> Analysis | None:
        """The analysis of the position before the move shown, if the review offers it as
        a puzzle."""
        from ttt_tui.teach.puzzle_run import retry_offered

        index = self.ply - 1
        if self.try_again is None or not 0 <= index < len(self.review.moves):
            return None
        before = self.review.analyses[index]
        move = self.review.moves[index]
        return before if retry_offered(move, before, self.result, self.person) else None

    def action_try_again(self) -> None:
        """Make the position before the mistake shown a puzzle, and open it."""
        before = self._retry_position()
        if before is not None:
            self._make_puzzle(before)

    @work(exclusive=True, group="review-puzzle", exit_on_error=False)
    async def _make_puzzle(self, before: Analysis) -> None:
        """The puzzle's solution line, from the searcher's analyses along it."""
        from ttt_tui.teach.puzzles import from_analysis

        line: list[Cell] = []
        analysis = before
        if before.value.outcome is Outcome.WIN:
            while True:
                cell = min(analysis.best)
                line.append(cell)
                board = analysis.board.play(cell)
                if board.is_game_over():
                    break
                try:
                    analysis = await self.searcher.analyze(board, None)
                except SearchCancelled:
                    return
        self.post_message(self.PuzzleMade(from_analysis(before, line)))

    @on(PuzzleMade)
    def _puzzle_made(self, message: PuzzleMade) -> None:
        if message.puzzle is None:
            self.notify("Its win is too long to time here: no puzzle made.", timeout=3)
        elif self.try_again is not None and self.app.screen is self:
            self.try_again(message.puzzle)

    def too_small(self, width: int, height: int) -> str | None:
        """The "too small" message, below `MIN_WIDTH` x `MIN_HEIGHT`."""
        if width >= MIN_WIDTH and height >= MIN_HEIGHT:
            return None
        return (
            f"Terminal too small: {width}x{height}.\n"
            f"The review needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
            "Enlarge the window;\nEsc goes back, q quits."
        )

    def focus_target(self) -> OptionList:
        """The move list: its keys need the focus."""
        return self.query_one(OptionList)
