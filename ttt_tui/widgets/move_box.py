"""The move box: one line where a square is typed by name or number, or a command."""

from __future__ import annotations

from textual.widgets import Input


class MoveBox(Input):
    """Takes ``c3``, ``5``, ``board``, ``undo`` ... (`ttt_tui.play.speech.read_command`);
    Enter sends the line (`Input.Submitted`). Escape, the game screen's, closes it.

    Hidden until opened (`open`); while open, shown only where its screen shows the
    game (`fit`): behind the "too small" message it is hidden but still open.
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(
            placeholder="a square (b2 or 5) or a command (board, threats, help); Esc closes",
            compact=True,
            id=id,
        )
        self.is_open = False
        """Whether the box is open, shown or not."""

    def open(self) -> None:
        """Show the box and give it the focus at once, not after the keys already waiting:
        ``:c3`` typed in one go is c3."""
        self.is_open = True
        self.display = True
        self.screen.set_focus(self)

    def close(self) -> None:
        """Empty the box and hide it."""
        self.is_open = False
        self.value = ""
        self.display = False

    def fit(self, game_shown: bool) -> None:
        """Show the box while it is open and its screen shows the game."""
        self.display = self.is_open and game_shown
