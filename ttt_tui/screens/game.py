"""The game screen: owns the game, turns input into moves and runs the AI worker."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static
from textual.worker import get_current_worker

from ttt_tui.engine import (
    Board,
    CancelCheck,
    Cell,
    Difficulty,
    IllegalMoveError,
    Player,
    SearchCancelled,
    Status,
    choose_move,
)
from ttt_tui.game import Game
from ttt_tui.messages import AIMoved
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.cell import Cell as CellWidget
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.sidebar import Sidebar
from ttt_tui.widgets.status import StatusLine

MIN_WIDTH = 56
"""Narrowest terminal the layout fits."""
MIN_HEIGHT = 16
"""Shortest terminal the layout fits."""

MoveChooser = Callable[[Board, Difficulty, random.Random, CancelCheck | None], Cell]
"""Picks the computer's move; `choose_move` unless a test slows it down."""


@dataclass
class Score:
    """Results this session, from the person's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __str__(self) -> str:
        return f"Wins {self.wins} · Draws {self.draws} · Losses {self.losses}"


class GameScreen(Screen[None]):
    """The board, the sidebar and the game flow."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move_cursor(-1, 0)", "Up", show=False),
        Binding("down,j", "move_cursor(1, 0)", "Down", show=False),
        Binding("left,h", "move_cursor(0, -1)", "Left", show=False),
        Binding("right,l", "move_cursor(0, 1)", "Right", show=False),
        Binding("enter,space", "play_cursor", "Play", key_display="⏎"),
        *(
            Binding(str(cell + 1), f"play({cell})", f"Play square {cell + 1}", show=False)
            for cell in range(9)
        ),
        Binding("n", "new_game", "New game"),
        Binding("d", "cycle_difficulty", "Difficulty"),
    ]

    def __init__(
        self,
        difficulty: Difficulty,
        mark: Player,
        ai_delay: float,
        rng: random.Random,
        move_chooser: MoveChooser = choose_move,
    ) -> None:
        super().__init__()
        self.difficulty = difficulty
        """The computer's strength for its next move."""
        self.ai_delay = ai_delay
        """Least seconds the computer appears to think."""
        self.rng = rng
        """Source of every random choice the computer makes."""
        self.move_chooser = move_chooser
        self.game = Game(human=mark)
        """The game in play."""
        self.score = Score()
        """Results this session."""
        self.token = 0
        """Names the current turn; an AI result for any other token is stale."""
        self.stale_results = 0
        """AI results dropped because the game had moved on (for tests)."""
        self.thinking = False
        """Whether an AI move is being computed for the current token."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield BoardView(id="board")
            yield Sidebar(self.difficulty, self.game.human)
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(BoardView).focus()
        self._check_size(self.app.size.width, self.app.size.height)
        self._changed()

    # The flow: every change to the game goes through _changed.

    def _changed(self) -> None:
        """Invalidate any AI move in flight, redraw, and let the AI move if it is its turn."""
        self.token += 1
        self.thinking = False
        self.workers.cancel_group(self, "ai")
        self._record_result_once()
        self._sync()
        if self.game.ai_to_move:
            self._start_thinking()

    def _start_thinking(self) -> None:
        self.thinking = True
        self._sync_status()
        self._think(
            self.game.board,
            self.difficulty,
            random.Random(self.rng.getrandbits(64)),
            self.token,
        )

    @work(thread=True, exclusive=True, group="ai", exit_on_error=False)
    def _think(self, board: Board, difficulty: Difficulty, rng: random.Random, token: int) -> None:
        """Compute a move off the UI thread; never touches widgets."""
        worker = get_current_worker()
        started = time.monotonic()
        try:
            cell = self.move_chooser(board, difficulty, rng, lambda: worker.is_cancelled)
        except SearchCancelled:
            return
        while not worker.is_cancelled:
            remaining = self.ai_delay - (time.monotonic() - started)
            if remaining <= 0:
                break
            time.sleep(min(remaining, 0.02))
        if not worker.is_cancelled:
            self.post_message(AIMoved(token, cell))

    @on(AIMoved)
    def _apply_ai_move(self, message: AIMoved) -> None:
        if message.token != self.token or not self.game.ai_to_move:
            self.stale_results += 1
            return
        self.game.play(message.cell)
        self._changed()

    def _record_result_once(self) -> None:
        game = self.game
        if not game.is_over or game.result_recorded:
            return
        game.result_recorded = True
        winner = game.status.winner
        if winner is None:
            self.score.draws += 1
        elif game.is_human(winner):
            self.score.wins += 1
        else:
            self.score.losses += 1

    # Drawing: data flows down into the widgets.

    def _sync(self) -> None:
        board_view = self.query_one(BoardView)
        board_view.board = self.game.board
        board_view.last_move = self.game.last_move
        self.query_one("#difficulty", Choice).value = self.difficulty.value
        self.query_one("#mark", Choice).value = self.game.human.value
        self.query_one("#score", Static).update(str(self.score))
        self._sync_status()

    def _sync_status(self) -> None:
        status = self.query_one(StatusLine)
        status.thinking = self.thinking
        status.message = self.status_text()
        result = self.game.status
        winner = result.winner
        status.set_class(winner is not None and self.game.is_human(winner), "-won")
        status.set_class(winner is not None and not self.game.is_human(winner), "-lost")
        status.set_class(result is Status.DRAW, "-drawn")

    def status_text(self) -> str:
        """What the status line says about the game now."""
        game = self.game
        result = game.status
        if result is Status.DRAW:
            return "Draw"
        if result.winner is not None:
            return "You win!" if game.is_human(result.winner) else "AI wins"
        if game.ai_to_move:
            return f"Thinking… ({self.difficulty.value.capitalize()})"
        return f"Your move ({game.board.to_move.value})"

    # Input.

    def _try_play(self, cell: Cell) -> None:
        game = self.game
        if game.is_over:
            self.notify("The game is over: press n for a new one.", severity="warning", timeout=2)
            return
        if game.ai_to_move:
            self.notify("Wait for the AI to move.", severity="warning", timeout=2)
            return
        try:
            game.play(cell)
        except IllegalMoveError:
            self.notify(f"Square {cell + 1} is taken.", severity="warning", timeout=2)
            return
        self._changed()

    @on(CellWidget.Selected)
    def _cell_clicked(self, message: CellWidget.Selected) -> None:
        self.query_one(BoardView).cursor = message.index
        self._try_play(message.index)

    def action_play(self, cell: int) -> None:
        """Play a square by number."""
        self.query_one(BoardView).cursor = cell
        self._try_play(cell)

    def action_play_cursor(self) -> None:
        """Play the square under the cursor."""
        self._try_play(self.query_one(BoardView).cursor)

    def action_move_cursor(self, rows: int, cols: int) -> None:
        """Move the cursor, wrapping at the edges."""
        board_view = self.query_one(BoardView)
        n = self.game.board.n
        row, col = divmod(board_view.cursor, n)
        board_view.cursor = ((row + rows) % n) * n + (col + cols) % n

    def action_new_game(self) -> None:
        """Start a new game with the same settings."""
        self.game = Game(mode=self.game.mode, human=self.game.human)
        self._changed()

    def action_cycle_difficulty(self) -> None:
        """Switch to the next difficulty."""
        self.set_difficulty(self.difficulty.next)

    def set_difficulty(self, difficulty: Difficulty) -> None:
        """Use a new difficulty from the computer's next move on."""
        if difficulty is self.difficulty:
            return
        self.difficulty = difficulty
        self.notify(f"Difficulty: {difficulty.value.capitalize()}", timeout=1.5)
        self._changed()

    def set_mark(self, mark: Player) -> None:
        """Play the other mark: starts a new game."""
        if mark is self.game.human:
            return
        self.game = Game(mode=self.game.mode, human=mark)
        self._changed()

    @on(Choice.Changed, "#difficulty")
    def _difficulty_chosen(self, message: Choice.Changed) -> None:
        self.set_difficulty(Difficulty(message.value))

    @on(Choice.Changed, "#mark")
    def _mark_chosen(self, message: Choice.Changed) -> None:
        self.set_mark(Player(message.value))

    @on(Button.Pressed, "#new-game")
    def _new_game_pressed(self) -> None:
        self.action_new_game()

    # Size.

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(too_small, "-too-small")
        if too_small:
            self.query_one("#too-small", Static).update(
                f"Terminal too small: {width}x{height}.\n"
                f"ttt-tui needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
                "Enlarge the window to play; q quits."
            )
