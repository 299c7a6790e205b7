"""The UI benchmark's baseline: about the least a Textual app can be.

A Header, a Footer and one Static. The arrow keys move a cursor over squares 1-9 and
the digits "play" a square; every such key rewrites the Static's text, numbered
(``key 3: cursor 6``), so each key changes the screen and the benchmark can tell which
key a frame answers. ``python -m tools.bare_app`` runs it.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Header, Static

TITLE = "bare Textual"
"""The header's title, which the benchmark looks for in the first frame."""


def text_for(key_count: int, what: str) -> str:
    """The Static's text after ``key_count`` keys, the last of which did ``what``."""
    return f"key {key_count}: {what}"


INITIAL_TEXT = text_for(0, "cursor 5")
"""The Static's text before any key: the cursor on the centre square, as in the game."""


class BareApp(App[None]):
    """Header, Footer, one Static; arrows and digits change the Static's text."""

    TITLE = TITLE
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-3)", "Move", key_display="↑↓←→"),
        Binding("down", "move(3)", "Move", show=False),
        Binding("left", "move(-1)", "Move", show=False),
        Binding("right", "move(1)", "Move", show=False),
        *(
            Binding(str(n), f"play({n})", "Play", show=n == 1, key_display="1-9")
            for n in range(1, 10)
        ),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.keys, self.cursor = 0, 5
        self.text = Static(INITIAL_TEXT)

    def compose(self) -> ComposeResult:
        yield Header()
        yield self.text
        yield Footer()

    def action_move(self, step: int) -> None:
        """Move the cursor within the 3x3 grid (it stops at the edges)."""
        row, column = divmod(self.cursor - 1, 3)
        if abs(step) == 1:
            column = min(max(column + step, 0), 2)
        else:
            row = min(max(row + step // 3, 0), 2)
        self.cursor = row * 3 + column + 1
        self.show(f"cursor {self.cursor}")

    def action_play(self, square: int) -> None:
        """Say which square was played."""
        self.show(f"played {square}")

    def show(self, what: str) -> None:
        """Count the key and say what it did."""
        self.keys += 1
        self.text.update(text_for(self.keys, what))


if __name__ == "__main__":
    BareApp().run()
