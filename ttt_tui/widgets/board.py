"""The board: a grid of cells drawn from an immutable `BoardState`, and its cursor."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ttt_tui.engine import Board, cells_of
from ttt_tui.engine import Cell as CellIndex
from ttt_tui.session import BoardState
from ttt_tui.widgets.cell import Cell, CellLook

EMPTY = BoardState(Board.empty(), None, False, {}, frozenset())
"""What the board shows before it is given a state."""


class BoardView(Widget, can_focus=True):
    """Shows a position, the cursor, the last move, the winning line and coach verdicts.

    It holds no game state of its own: the screen assigns `state`. It owns the
    keyboard cursor and the keys that move it and play there, and reports a square
    chosen by click or key as `BoardView.CellChosen`. Each cell is given its
    look as one value, so a change redraws only the cells whose look changed.
    """

    DEFAULT_CSS = """
    BoardView {
        layout: grid;
        grid-size: 3 3;
        grid-gutter: 1 2;
        background: $foreground 25%;
        border: round $foreground 25%;
        width: 1fr;
        height: 1fr;
        min-width: 17;
        min-height: 8;
    }
    BoardView:focus {
        border: round $primary;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move_cursor(-1, 0)", "Up", show=False, tooltip="move the cursor"),
        Binding("down,j", "move_cursor(1, 0)", "Down", show=False, tooltip="move the cursor"),
        Binding("left,h", "move_cursor(0, -1)", "Left", show=False, tooltip="move the cursor"),
        Binding("right,l", "move_cursor(0, 1)", "Right", show=False, tooltip="move the cursor"),
        Binding("enter,space", "play_cursor", "Play", show=False, tooltip="play at the cursor"),
    ]

    # Neither repaints the board itself: the cells whose look changes redraw.
    state: reactive[BoardState] = reactive(EMPTY, repaint=False)
    """The position and what to mark on it."""
    cursor: reactive[CellIndex] = reactive(4, repaint=False)
    """The cell under the keyboard cursor."""

    class CellChosen(Message):
        """The person chose a square to play, by click or key."""

        def __init__(self, cell: CellIndex) -> None:
            self.cell = cell
            """The square's cell index, 0-based in reading order."""
            super().__init__()

    def compose(self) -> ComposeResult:
        for index, look in enumerate(self._looks()):
            yield Cell(index, look, id=f"cell-{index}")

    def watch_state(self) -> None:
        self._show()

    def watch_cursor(self) -> None:
        self._show()

    def _show(self) -> None:
        for cell, look in zip(self.query(Cell), self._looks(), strict=False):
            cell.look = look

    def _looks(self) -> list[CellLook]:
        """What each square should show, in cell order."""
        state = self.state
        board = state.board
        winning = set(cells_of(board.winning_cells()))
        return [
            CellLook(
                mark=board[index],
                last=index == state.last_move,
                verdict=state.verdicts.get(index),
                hint=index in state.hints,
                cursor=index == self.cursor,
                win=index in winning,
                lost=index in winning and state.line_lost,
            )
            for index in range(board.size)
        ]

    def on_cell_selected(self, message: Cell.Selected) -> None:
        message.stop()
        self.action_play(message.index)

    def action_play(self, cell: CellIndex) -> None:
        """Choose a square by number, moving the cursor there."""
        self.cursor = cell
        self.post_message(self.CellChosen(cell))

    def action_play_cursor(self) -> None:
        """Choose the square under the cursor."""
        self.post_message(self.CellChosen(self.cursor))

    def action_move_cursor(self, rows: int, cols: int) -> None:
        """Move the cursor, wrapping at the edges."""
        n = self.state.board.n
        row, col = divmod(self.cursor, n)
        self.cursor = ((row + rows) % n) * n + (col + cols) % n
