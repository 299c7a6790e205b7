"""The help screen: the rules and every key binding."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

RULES = (
    "Take turns marking squares; X moves first. Three in a row, column or"
    " diagonal wins. A full board with no line is a draw.\n\n"
    "Play with the mouse (click a square) or the keyboard. The computer"
    " thinks in the background, so you can change difficulty or start a new"
    " game at any moment. Easy looks one move ahead, Medium two, and Hard"
    " searches to the end of the game: it never loses.\n\n"
    "The coach shows, for the player to move, what each empty square leads to"
    ' under perfect play from both sides: "win in 3" means three more moves'
    " (both sides' counted) to a forced win. Modes: you against the computer,"
    " two people on one keyboard, or two engines against each other."
)

KEYS: list[tuple[str, str]] = [
    ("click", "play a square"),
    ("↑ ↓ ← →  or  h j k l", "move the cursor"),
    ("Enter  or  Space", "play the square under the cursor"),
    ("1 – 9", "play a square directly (1 top-left, 9 bottom-right)"),
    ("n", "new game"),
    ("d", "next difficulty"),
    ("u  /  r", "undo to your previous turn / redo"),
    ("c", "coach: show minimax's verdict on every empty square"),
    ("i", "hint: highlight the best moves"),
    ("p", "pause or resume AI vs AI"),
    ("s", "all-time stats"),
    ("Tab", "move between the board and the sidebar controls"),
    ("ctrl+p", "command palette"),
    ("?", "this help"),
    ("q", "quit"),
]
"""Every binding, in the order a newcomer needs them."""


class HelpScreen(ModalScreen[None]):
    """Rules and bindings over the game; any of Escape, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "Close", key_display="esc"),
    ]

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        background: $background 60%;
    }
    HelpScreen > VerticalScroll {
        width: 72;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $surface;
        padding: 0 2;
    }
    HelpScreen Static {
        margin-bottom: 1;
    }
    """

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column()
        for key, action in KEYS:
            keys.add_row(key, action)
        with VerticalScroll() as scroll:
            scroll.border_title = "Help"
            scroll.border_subtitle = "Esc to close"
            yield Static(Text("How to play", style="bold"))
            yield Static(RULES)
            yield Static(Text("Keys", style="bold"))
            yield Static(keys)

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        """Close the help."""
        self.dismiss(result)
