"""The explorer's small board: the game's board drawing, without a cursor or keys."""

from __future__ import annotations

from ttt_tui.play.view import BoardState
from ttt_tui.widgets.board import EMPTY, BoardView

NO_CURSOR = -1
"""A cursor on no square."""


class ExplorerBoard(BoardView, can_focus=False):
    """Shows a position the explorer is looking at: its marks, the last move, each move's
    value and the best ones. A click on a square posts `BoardView.CellChosen`, as on the
    game's board; there is no cursor, since the tree has the keys."""

    DEFAULT_CSS = """
    ExplorerBoard {
        min-width: 17;
        min-height: 7;
    }
    """

    def __init__(self, state: BoardState = EMPTY) -> None:
        """A board showing ``state``; the explorer never changes its size, so the
        cursor stays on no square."""
        super().__init__(state)
        self.set_reactive(BoardView.cursor, NO_CURSOR)
