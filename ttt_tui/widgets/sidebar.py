"""The sidebar: mode, difficulty, mark, switches, status, score and history."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Button, Checkbox, Label, Static

from ttt_tui.engine import Difficulty, Player
from ttt_tui.results import MODE_LABELS
from ttt_tui.settings import Mode, Settings
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.history import History
from ttt_tui.widgets.score import Score
from ttt_tui.widgets.status import StatusLine

DIFFICULTY_OPTIONS = [(d.value, d.value.capitalize()) for d in Difficulty]
MARK_OPTIONS = [(Player.X.value, "X (first)", "X"), (Player.O.value, "O (second)", "O")]
MODE_OPTIONS = [(mode.value, *MODE_LABELS[mode]) for mode in Mode]


class SidebarButton(Button):
    """A button that leaves focus on the board when clicked, so Enter keeps playing."""

    FOCUS_ON_CLICK = False


class SidebarCheckbox(Checkbox):
    """A checkbox that leaves focus on the board when clicked."""

    FOCUS_ON_CLICK = False


class Sidebar(VerticalScroll, can_focus=False):
    """Controls and information beside the board.

    The controls report through their own messages (`Choice.Changed`,
    `Checkbox.Changed`, `Button.Pressed`), which bubble to the screen; the
    screen writes what the sidebar shows. Controls that do not apply to the
    current mode are hidden. Clicking a control leaves focus on the board;
    Tab reaches the controls.
    """

    DEFAULT_CSS = """
    Sidebar {
        width: 40%;
        min-width: 26;
        max-width: 36;
        height: 1fr;
        padding: 0 1;
        background: $panel;
        scrollbar-size-vertical: 1;
    }
    Sidebar > Label {
        margin-top: 1;
        color: $text-muted;
    }
    Sidebar > #switches {
        height: auto;
        margin-top: 1;
    }
    Sidebar Checkbox {
        background: $panel;
    }
    /* An unticked box is an empty box, not a dim X that reads as ticked. */
    Sidebar Checkbox > .toggle--button {
        background: $surface-darken-1;
        color: $surface-darken-1;
    }
    Sidebar Checkbox.-on > .toggle--button {
        background: $surface-darken-1;
        color: $text-success;
    }
    Sidebar > Button {
        width: 1fr;
        margin-top: 1;
    }
    Sidebar > #status {
        margin-top: 1;
        padding: 0 1;
        background: $boost;
    }
    Sidebar.-human_vs_ai .ai-only,
    Sidebar.-two_players .ai-only,
    Sidebar.-two_players .vs-ai-only,
    Sidebar.-ai_vs_ai .vs-ai-only,
    Sidebar.-ai_vs_ai .human-only {
        display: none;
    }
    """

    mode: reactive[Mode] = reactive(Mode.HUMAN_VS_AI)
    """The mode whose controls are shown."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(id="sidebar")
        self._settings = settings

    def compose(self) -> ComposeResult:
        settings = self._settings
        yield StatusLine(id="status")
        yield Score(id="score")
        yield Static(id="hints-used", classes="human-only")
        yield Label("Moves")
        yield History(id="history")
        yield Label("Mode")
        yield Choice(
            MODE_OPTIONS,
            settings.mode.value,
            id="mode",
            tooltip="Who plays each side; changing starts a new game",
        )
        yield Label("Difficulty  [dim](d)[/]", classes="vs-ai-only")
        yield Choice(
            DIFFICULTY_OPTIONS,
            settings.difficulty.value,
            id="difficulty",
            classes="vs-ai-only",
            tooltip="How strongly the computer plays: click, or press d",
        )
        yield Label("You play", classes="vs-ai-only")
        yield Choice(
            MARK_OPTIONS,
            settings.mark.value,
            id="mark",
            classes="vs-ai-only",
            tooltip="X moves first; changing starts a new game",
        )
        yield Label("X engine", classes="ai-only")
        yield Choice(
            DIFFICULTY_OPTIONS,
            settings.ai_x_difficulty.value,
            id="ai-x-difficulty",
            classes="ai-only",
        )
        yield Label("O engine", classes="ai-only")
        yield Choice(
            DIFFICULTY_OPTIONS,
            settings.ai_o_difficulty.value,
            id="ai-o-difficulty",
            classes="ai-only",
        )
        with Vertical(id="switches"):
            yield SidebarCheckbox(
                "Coach  [dim](c)[/]",
                settings.coach,
                id="coach",
                compact=True,
                tooltip="Show what minimax thinks of every empty square",
            )
            yield SidebarCheckbox(
                "Alternate who starts",
                settings.alternate_start,
                id="alternate",
                compact=True,
                tooltip="Swap sides at each new game",
            )
        yield SidebarButton("New game  (n)", id="new-game", variant="primary", compact=True)

    def watch_mode(self, old: Mode, new: Mode) -> None:
        self.remove_class(f"-{old.value}")
        self.add_class(f"-{new.value}")

    def on_mount(self) -> None:
        self.add_class(f"-{self.mode.value}")
