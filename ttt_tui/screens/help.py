"""The help screen: the rules and every key binding."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ttt_tui.results import MODE_LABELS
from ttt_tui.screens.dialog import Dialog
from ttt_tui.settings import Mode

RULES = (
    "Take turns marking squares; X moves first. Three in a row, column or diagonal"
    " wins; a full board with no line is a draw. Play with the mouse or the keyboard:"
    " the computer thinks in the background, so you can change difficulty or start"
    " a new game at any moment. Easy looks one move ahead, Medium two, and Hard"
    " searches to the end of the game: it never loses.\n\n"
    "The coach shows what each empty square leads to under perfect play from both"
    ' sides, for the player to move: "win in 3" is a forced win three moves (both'
    " sides' counted) from now. Squares are named by column a–c and row 1–3, so a1"
    " is the top-left square; the numbers 1–9 read the same way."
)

KEYS: list[tuple[str, str]] = [
    ("left click", "play a square"),
    ("↑ ↓ ← → or h j k l", "move the cursor"),
    ("Enter or Space", "play at the cursor"),
    ("1 – 9", "play a square (1 top-left, 9 bottom-right)"),
    ("n", "new game"),
    ("d", f"next difficulty ({MODE_LABELS[Mode.HUMAN_VS_AI].long})"),
    ("u / r", "undo to your last turn / redo"),
    ("c", "coach: minimax's verdict on each square"),
    ("i", "hint: highlight the best moves (your turn)"),
    ("p", f"pause or resume {MODE_LABELS[Mode.AI_VS_AI].long}"),
    ("s", "all-time stats"),
    ("Tab", "board and sidebar controls in turn"),
    ("ctrl+p", "command palette"),
    ("?", "this help"),
    ("q", "quit (an unfinished game is recorded as abandoned)"),
]
"""Every binding, in the order a newcomer needs them."""


class HelpScreen(Dialog[None]):
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
        width: 96;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $surface;
        padding: 0 2;
        scrollbar-size-vertical: 1;
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
            scroll.border_title = "How to play"
            scroll.border_subtitle = "Esc to close"
            yield Static(RULES)
            yield Static(Text("Keys", style="bold"))
            yield Static(keys)

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        """Close the help."""
        self.dismiss(result)
