"""The help screen: the rules and every key binding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.widgets import Static

from ttt_tui.screens.dialog import Dialog

RULES = (
    "Take turns marking squares; X moves first. Three in a row, column or diagonal"
    " wins on 3x3, four in a row on 4x4 and 5x5; a full board with no line is a"
    " draw. The computer thinks in the background (in a process of its own), so"
    " you can change difficulty or start a new game at any moment. Easy looks one"
    " move ahead, Medium two, and Hard searches to the end: it never loses.\n\n"
    "The coach shows what each empty square leads to under perfect play from both"
    ' sides: "win in 3" is a forced win three moves (both sides\' counted) from now.'
    " Squares are named by column a–e and row 1–5 (a1 top-left) and numbered in the"
    " same order: on 4x4 and 5x5 type 1 then 6 for square 16.\n\n"
    "When a game ends, v reviews it: every move graded (best, inaccuracy, mistake,"
    " blunder) from proven values, and the moves where the game turned named. The"
    " stats screen's g lists every recorded game, each with its review.\n\n"
    "Press : to type a square by name (c3) or number, or to ask for the board, the last"
    " move or the threats in words (type help there). The palette's Screen-reader mode"
    " (or ttt-tui --screen-reader) shows the terminal's cursor on the focused square and"
    " says every move in one line, for a screen reader or a braille display."
)

MOUSE = ("left click", "play a square")
"""The one thing the mouse does that no binding says."""

TEXTUAL_KEYS = [
    ("Tab", "board and sidebar controls in turn; in a control ← → move, Enter or Space chooses"),
    ("ctrl+p", "command palette"),
]
"""Textual's own bindings the game relies on."""

KEY_NAMES = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "enter": "Enter",
    "space": "Space",
    "question_mark": "?",
    "escape": "Esc",
    "colon": ":",
    "comma": ",",
    "full_stop": ".",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
}
"""How keys whose binding name is a word are written."""


def keys_text(bindings: Sequence[Binding]) -> str:
    """The keys of bindings that share a row: ``1 – 9``, ``↑ ↓ ← → or h j k l``,
    ``u / r`` (two keys, each doing half of what the row says)."""
    firsts: list[str] = []
    others: list[str] = []
    for binding in bindings:
        first, *rest = binding.key.split(",")
        firsts += [first] if first not in firsts else []
        others += [key for key in rest if key not in others]
    if len(firsts) > 2 and all(key.isdigit() for key in firsts):
        return f"{firsts[0]} – {firsts[-1]}"
    shown = (" / " if len(firsts) == 2 else " ").join(KEY_NAMES.get(key, key) for key in firsts)
    if others:
        shown += " or " + " ".join(KEY_NAMES.get(key, key) for key in sorted(others))
    return shown


def key_rows(*owners: type[DOMNode]) -> list[tuple[str, str]]:
    """What each key does, from the owners' bindings: every binding with a tooltip,
    in order, those with the same tooltip on one row."""
    rows: dict[str, list[Binding]] = {}
    for owner in owners:
        for binding in owner.BINDINGS:
            if isinstance(binding, Binding) and binding.tooltip:
                rows.setdefault(binding.tooltip, []).append(binding)
    return [(keys_text(bindings), tooltip) for tooltip, bindings in rows.items()]


class HelpScreen(Dialog[None]):
    """Rules and bindings over the game; any of Escape, ? or q closes it.

    The keys are read from the bindings of the classes given (the board, the
    game screen, the app), so the help cannot drift from what the keys do.
    """

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

    def __init__(
        self,
        *board: type[DOMNode],
        app: type[DOMNode],
        rules: str = RULES,
        mouse: tuple[str, str] = MOUSE,
    ) -> None:
        """``board`` are the classes whose keys play (the board, the game screen);
        ``app`` is the app's class, whose keys come after Textual's. ``rules`` and
        ``mouse`` are the game's unless another screen (the explorer) has its own."""
        super().__init__()
        self.rules = rules
        """The paragraph above the keys."""
        self.rows = [mouse, *key_rows(*board), *TEXTUAL_KEYS, *key_rows(app)]
        """Each key or group of keys and what it does, in the order a newcomer needs them."""

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column()
        for key, action in self.rows:
            keys.add_row(key, action)
        with VerticalScroll() as scroll:
            scroll.border_title = "How to play"
            scroll.border_subtitle = "Esc to close"
            yield Static(self.rules)
            yield Static(Text("Keys", style="bold"))
            yield Static(keys)

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        """Close the help."""
        self.dismiss(result)
