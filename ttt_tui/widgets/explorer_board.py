"""The explorer's small board: the game's board drawing, without a cursor or keys."""

from __future__ import annotations

from textual.geometry import Size

from ttt_tui.play.view import BoardState
from ttt_tui.widgets.board import EMPTY, GUTTER, BoardView, even_spans
from ttt_tui.widgets.square import VerdictForm

NO_CURSOR = -1
"""A cursor on no square."""

LEGENDS = ("W3 win in 3 · L2 loss in 2 · D draw", "W win · L loss · D draw")
"""What the letters on the squares stand for, when the squares are too narrow for words;
longest first (the board's frame shows the longest that fits)."""
FRAME = 6
"""Columns of the frame's bottom edge that its text cannot take (corners, a line and a
space each side)."""


class ExplorerBoard(BoardView, can_focus=False):
    """Shows a position the explorer is looking at: its marks, the last move, each move's
    value and the best ones. A click on a square posts `BoardView.CellChosen`, as on the
    game's board; there is no cursor, since the tree has the keys.

    Its rows of squares are all as tall as one another: in the room a 5x5 board had at
    100x30 they alternated between one line and two, and the one-line rows lost their
    numbers and stars. Where its squares say ``W3``, ``D`` or ``L8``, its frame says what
    the letters mean.
    """

    DEFAULT_CSS = """
    ExplorerBoard {
        min-width: 17;
        min-height: 7;
        border-subtitle-color: $text-muted;
        border-subtitle-background: $foreground 25%;
        border-subtitle-style: not bold;
    }
    """

    def __init__(self, state: BoardState = EMPTY) -> None:
        """A board showing ``state``; the explorer never changes its size, so the
        cursor stays on no square."""
        super().__init__(state)
        self.set_reactive(BoardView.cursor, NO_CURSOR)

    def _rows(self, size: Size | None = None) -> tuple[tuple[int, int], ...]:
        return even_spans((size or self.content_size).height, self.n, GUTTER.height)

    def watch_state(self, old: BoardState, new: BoardState) -> None:
        super().watch_state(old, new)
        self._explain_letters()

    def on_resize(self) -> None:
        self._explain_letters()

    def _explain_letters(self) -> None:
        if self.words.verdicts is not VerdictForm.LETTER or not self.state.verdicts:
            self.border_subtitle = ""
            return
        room = self.outer_size.width - FRAME
        self.border_subtitle = next((text for text in LEGENDS if len(text) <= room), "")
