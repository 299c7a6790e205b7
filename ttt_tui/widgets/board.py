"""The board: a grid of cells drawn from an immutable `Board`."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widget import Widget

from ttt_tui.engine import Board, Verdict, cells_of
from ttt_tui.engine import Cell as CellIndex
from ttt_tui.widgets.cell import Cell


class BoardView(Widget, can_focus=True):
    """Shows a position, the cursor, the last move, the winning line and coach verdicts.

    It holds no game state of its own: the screen assigns these reactives and
    the cells report clicks as `Cell.Selected` messages.
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

    board: reactive[Board] = reactive(Board.empty, always_update=True)
    """The position to show."""
    cursor: reactive[CellIndex] = reactive(4)
    """The cell under the keyboard cursor."""
    last_move: reactive[CellIndex | None] = reactive(None)
    """The most recent cell played."""
    verdicts: reactive[dict[CellIndex, Verdict]] = reactive(dict, always_update=True)
    """Coach verdicts for the empty cells (empty when the coach is off)."""
    hints: reactive[frozenset[CellIndex]] = reactive(frozenset)
    """Cells a hint points at."""
    line_lost: reactive[bool] = reactive(False)
    """Whether the winning line is the person's loss (drawn in the losing colour)."""

    def compose(self) -> ComposeResult:
        for index in range(self.board.size):
            yield Cell(index, id=f"cell-{index}")

    def on_mount(self) -> None:
        self._refresh_cells()

    def _cells(self) -> list[Cell]:
        return list(self.query(Cell))

    def _refresh_cells(self) -> None:
        if not self.is_mounted:
            return
        winning = set(cells_of(self.board.winning_cells()))
        for cell in self._cells():
            index = cell.index
            cell.mark = self.board[index]
            cell.last = index == self.last_move
            cell.verdict = self.verdicts.get(index)
            cell.hint = index in self.hints
            cell.set_class(index == self.cursor, "-cursor")
            cell.set_class(index in winning, "-win")
            cell.set_class(index in winning and self.line_lost, "-lost")
            cell.refresh()

    def watch_board(self) -> None:
        self._refresh_cells()

    def watch_cursor(self) -> None:
        self._refresh_cells()

    def watch_last_move(self) -> None:
        self._refresh_cells()

    def watch_verdicts(self) -> None:
        self._refresh_cells()

    def watch_hints(self) -> None:
        self._refresh_cells()

    def watch_line_lost(self) -> None:
        self._refresh_cells()
