"""The move box: one line where a square is typed by name or number, or a command."""

from __future__ import annotations

from textual.widgets import Input


class MoveBox(Input):
    """Takes ``c3``, ``5``, ``board``, ``undo`` ... (`ttt_tui.play.speech.read_command`);
    Enter sends the line (`Input.Submitted`). Escape, the game screen's, closes it."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(
            placeholder="a square (b2 or 5) or a command (board, threats, help); Esc closes",
            compact=True,
            id=id,
        )
