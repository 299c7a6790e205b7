"""The sidebar: difficulty, mark, new game, status and score."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Button, Label, Static

from ttt_tui.engine import Difficulty, Player
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.status import StatusLine

DIFFICULTY_OPTIONS = [(d.value, d.value.capitalize()) for d in Difficulty]
MARK_OPTIONS = [(Player.X.value, "X (first)"), (Player.O.value, "O (second)")]


class Sidebar(VerticalScroll):
    """Controls and information beside the board.

    The controls report through their own messages (`Choice.Changed`,
    `Button.Pressed`), which bubble to the screen; the screen writes what
    the sidebar shows.
    """

    DEFAULT_CSS = """
    Sidebar {
        width: 34;
        height: 1fr;
        padding: 0 1;
        background: $panel;
        scrollbar-size-vertical: 1;
    }
    Sidebar > Label {
        margin-top: 1;
        color: $text-muted;
    }
    Sidebar > Button {
        width: 1fr;
        margin-top: 1;
    }
    Sidebar > #status {
        margin-top: 1;
    }
    """

    def __init__(self, difficulty: Difficulty, mark: Player) -> None:
        super().__init__(id="sidebar")
        self._difficulty = difficulty
        self._mark = mark

    def compose(self) -> ComposeResult:
        yield Label("Difficulty  [dim](d)[/]")
        yield Choice(
            DIFFICULTY_OPTIONS,
            self._difficulty.value,
            id="difficulty",
            tooltip="How strongly the computer plays: click, or press d",
        )
        yield Label("You play")
        yield Choice(
            MARK_OPTIONS,
            self._mark.value,
            id="mark",
            tooltip="X moves first; changing starts a new game",
        )
        yield Button("New game  (n)", id="new-game", variant="primary", compact=True)
        yield StatusLine(id="status")
        yield Label("Score this session")
        yield Static(id="score")
