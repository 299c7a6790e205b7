"""The sidebar: status, score and history, then mode, difficulty, mark and switches."""

from __future__ import annotations

from typing import Any, Self

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Checkbox, Label, Static

from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import MODE_LABELS
from ttt_tui.play.settings import (
    PLAYABLE_MODES,
    BoardSize,
    BotLevel,
    Level,
    Mode,
    level_name,
    short_level_name,
)
from ttt_tui.play.view import View
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.history import History, MoveList
from ttt_tui.widgets.score import Score
from ttt_tui.widgets.status import StatusLine


def level_options(levels: tuple[Level, ...]) -> list[tuple[Level, str, str]]:
    """The options of a difficulty control offering ``levels``."""
    return [(level, level_name(level), short_level_name(level)) for level in levels]


MARK_OPTIONS = [(Player.X, "X (first)", "X"), (Player.O, "O (second)", "O")]
MODE_OPTIONS = [(mode, *MODE_LABELS[mode]) for mode in PLAYABLE_MODES]
BOARD_OPTIONS = [(size, size.label) for size in BoardSize]


class SidebarButton(Button, inherit_css=False):
    """A button that leaves focus on the board when clicked, so Enter keeps playing.

    Styled as Textual's compact primary button, by its own few rules: Textual's
    button brings rules for every style and variant (7 KB of CSS, a tenth of what the
    game's first frame parsed), of which the sidebar uses one."""

    DEFAULT_CSS = """
    SidebarButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;
        text-style: bold;
        color: $button-color-foreground;
        background: $primary;
        &:disabled {
            text-opacity: 0.6;
            pointer: not-allowed;
        }
        &:focus {
            text-style: $button-focus-text-style;
            background-tint: $foreground 5%;
        }
        &:hover {
            background: $primary-darken-2;
        }
        &.-active {
            background: $primary;
            tint: $background 30%;
        }
    }
    """

    FOCUS_ON_CLICK = False


class SidebarCheckbox(Checkbox):
    """A checkbox that leaves focus on the board when clicked, and that shows its short
    label when the long one would not fit."""

    FOCUS_ON_CLICK = False

    def __init__(self, label: str, value: bool, short_label: str | None = None, **options: Any):
        super().__init__(label, value, **options)
        self.labels = (label, short_label or label)
        """The label, and the one to show where it would be cut."""

    def toggle(self) -> Self:
        """Ask for the other value (a click, Enter or Space): post `Checkbox.Changed`
        with it, and leave the box as it is until the setting comes back through
        `show`, as a `Choice` does. The box never shows what the setting is not.

        Textual's checkbox ticks itself first and tells the sidebar after; the long
        Pilot fuzz (seed 2, clicks while the terminal shrank to 20x9) found it ticked
        with the setting off, its message never having led to the setting.
        """
        self.post_message(self.Changed(self, not self.value))
        return self

    def show(self, value: bool) -> None:
        """Show a setting's value (without posting `Checkbox.Changed`, which would read
        as the person asking for it)."""
        if value != self.value:
            self.set_reactive(Checkbox.value, value)
            self.set_class(value, "-on")
            self.refresh()

    def fit(self, width: int) -> None:
        """Show the long label if the checkbox fits ``width`` columns with it."""
        long, short = (Content.from_markup(label) for label in self.labels)
        room = Size(width, 1)
        grows = long.cell_length - self.label.cell_length
        label = long if self.get_content_width(room, room) + grows <= width else short
        if label.plain != self.label.plain:
            self.label = label


ROOMY_HEIGHT = 34
"""The shortest terminal whose sidebar has room for a blank line above each control
(and a move list a few moves long); a shorter one packs its controls."""
SPACED_HEIGHT = 25
"""The shortest terminal whose sidebar has room for a blank line between the score and
the packed controls (and two moves); a shorter one (80x24) has none."""
HEIGHTS = [(0, "-tight"), (SPACED_HEIGHT, "-compact"), (ROOMY_HEIGHT, "-roomy")]
"""The screen's class for its height (Textual's vertical breakpoints), which the
sidebar's spacing follows (``app.tcss``). Textual sets it when the screen is resized,
which comes after the first frame: `spacing_for` gives it to the screen as it mounts."""


def spacing_for(height: int) -> str:
    """The class of `HEIGHTS` for a screen ``height`` lines tall."""
    return [name for least, name in HEIGHTS if height >= least][-1]


class SidebarScroll(VerticalScroll, can_focus=False):
    """The sidebar's part that scrolls in a short terminal: by the wheel, never by focus,
    which stays on the board."""

    def on_resize(self) -> None:
        for checkbox in self.query(SidebarCheckbox):
            checkbox.fit(self.content_size.width)


class Sidebar(Vertical):
    """Controls and information beside the board.

    The screen gives it one `View`; it shows its parts and hides the controls
    that do not apply to the view's mode. What the person picks goes up as
    the sidebar's own typed messages (`ModeChosen`, `DifficultyChosen`, ...).
    Clicking a control leaves focus on the board; Tab reaches the controls.

    The status, the score and the hints stay at the top; below them the controls,
    then the move list, which takes the room left. The status is always as tall as
    it can get, so the controls stay where they are whatever it says; in a short
    terminal they close up (no blank line between them) and the move list
    shrinks, so at 80x24 every control shows under a few moves; shorter still,
    the controls and the moves scroll, and the status (and a game's result) is
    never scrolled out of sight. Notices, in the bottom right corner, cover the
    move list rather than a control.
    """

    DEFAULT_CSS = """
    Sidebar {
        width: 40%;
        min-width: 26;
        max-width: 36;
        height: 1fr;
        background: $panel;
    }
    /* The top part lines up with the controls below, clear of their scrollbar. */
    Sidebar > #score, Sidebar > #hints-used {
        margin: 0 2 0 1;
    }
    Sidebar > #sidebar-scroll {
        width: 100%;
        height: 1fr;
        padding: 0 1;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
    }
    #sidebar-scroll > Label {
        margin-top: 1;
        color: $text-muted;
    }
    #sidebar-scroll > #coach {
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
    #sidebar-scroll > SidebarButton {
        width: 1fr;
        margin-top: 1;
    }
    Sidebar > #status {
        margin: 1 2 0 1;
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

    view: reactive[View | None] = reactive(None, repaint=False)
    """What to show; the parts that change redraw themselves."""

    class ModeChosen(Message):
        """The person picked who plays each side."""

        def __init__(self, mode: Mode) -> None:
            self.mode = mode
            super().__init__()

    class BoardChosen(Message):
        """The person picked the board to play on."""

        def __init__(self, board: BoardSize) -> None:
            self.board = board
            super().__init__()

    class MarkChosen(Message):
        """The person picked the mark to play."""

        def __init__(self, mark: Player) -> None:
            self.mark = mark
            super().__init__()

    class DifficultyChosen(Message):
        """The person picked a level: the computer's (``side`` None), or an engine's
        in AI vs AI."""

        def __init__(self, side: Player | None, difficulty: Level) -> None:
            self.side = side
            self.difficulty = difficulty
            super().__init__()

    class CoachSwitched(Message):
        """The person switched the coach on or off."""

        def __init__(self, on: bool) -> None:
            self.on = on
            super().__init__()

    class AlternateSwitched(Message):
        """The person switched "Alternate who starts" on or off."""

        def __init__(self, on: bool) -> None:
            self.on = on
            super().__init__()

    class NewGamePressed(Message):
        """The person pressed "New game"."""

    def __init__(self, view: View) -> None:
        # The mode's class from the start: adding it once mounted would restyle
        # every control in the sidebar.
        self._mode_class = f"-{view.mode.value}"
        super().__init__(id="sidebar", classes=self._mode_class)
        self.set_reactive(Sidebar.view, view)
        settings = view.settings
        self._status = StatusLine(id="status")
        self._score = Score(id="score")
        self._hints_used = Static(id="hints-used", classes="human-only")
        self._history = History(id="history")
        self._mode = Choice(
            MODE_OPTIONS,
            view.mode,
            title="Mode",
            id="mode",
            tooltip="Who plays each side; changing starts a new game",
        )
        self._board = Choice(
            BOARD_OPTIONS,
            BoardSize(view.n),
            title="Board",
            id="board-size",
            tooltip="3x3 three in a row; 4x4 and 5x5 four in a row; changing starts a new game",
        )
        levels = level_options(view.level_choices)
        self._difficulty = Choice(
            levels,
            view.levels[0],
            title="Difficulty",
            key="d",
            id="difficulty",
            classes="vs-ai-only",
            tooltip="How strongly the computer plays: click, or press d",
        )
        self._mark = Choice(
            MARK_OPTIONS,
            view.human,
            title="You play",
            id="mark",
            classes="vs-ai-only",
            tooltip="X moves first; changing starts a new game",
        )
        self._x_engine = Choice(
            levels,
            view.levels[1],
            title="X engine",
            id="ai-x-difficulty",
            classes="ai-only",
        )
        self._o_engine = Choice(
            levels,
            view.levels[2],
            title="O engine",
            id="ai-o-difficulty",
            classes="ai-only",
        )
        self._choices = (
            self._mode,
            self._board,
            self._difficulty,
            self._mark,
            self._x_engine,
            self._o_engine,
        )
        """The controls whose title goes on their options' line in screen-reader mode."""
        self._coach = SidebarCheckbox(
            "Coach  [dim](c)[/]",
            settings.coach,
            id="coach",
            compact=True,
            tooltip="Show what minimax thinks of every empty square",
        )
        self._alternate = SidebarCheckbox(
            "Alternate who starts",
            settings.alternate_start,
            "Alternate starts",
            id="alternate",
            compact=True,
            tooltip="Swap sides at each new game",
        )
        self._hints_used_text = ""

    def compose(self) -> ComposeResult:
        yield self._status
        yield self._score
        yield self._hints_used
        with SidebarScroll(id="sidebar-scroll"):
            yield self._mode
            yield self._board
            yield self._difficulty
            yield self._mark
            yield self._x_engine
            yield self._o_engine
            yield self._coach
            yield self._alternate
            yield SidebarButton("New game  (n)", id="new-game", variant="primary", compact=True)
            yield Label("Moves")
            yield self._history

    def on_mount(self) -> None:
        self._show(self.view)

    def watch_view(self, view: View | None) -> None:
        self._show(view)

    def revert(self) -> None:
        """Show the view again, undoing a choice the game did not take (a new game the
        person chose not to start)."""
        self._show(self.view)

    def _show(self, view: View | None) -> None:
        if view is None:
            return
        mode_class = f"-{view.mode.value}"
        if mode_class != self._mode_class:
            self.remove_class(self._mode_class)
            self.add_class(mode_class)
            self._mode_class = mode_class
        self._status.status = view.status
        self._score.counts = view.score
        self._score.board = BoardSize(view.n).label
        hints_used = f"Hints this game: {view.hints_used}"
        if hints_used != self._hints_used_text:
            self._hints_used.update(hints_used)
            self._hints_used_text = hints_used
        self._history.record = MoveList(view.moves, view.undone, view.n)
        settings = view.settings
        self._mode.value = view.mode
        self._board.value = BoardSize(view.n)
        self._difficulty.value, self._x_engine.value, self._o_engine.value = view.levels
        self._mark.value = view.human
        self._coach.show(settings.coach)
        self._alternate.show(settings.alternate_start)
        for choice in self._choices:
            choice.set_inline(settings.screen_reader)

    @on(Choice.Changed)
    def _chosen(self, message: Choice.Changed) -> None:
        message.stop()
        choice: Choice[Any] = message.choice
        value = message.value
        if choice is self._mode and isinstance(value, Mode):
            self.post_message(self.ModeChosen(value))
        elif choice is self._board and isinstance(value, BoardSize):
            self.post_message(self.BoardChosen(value))
        elif choice is self._mark and isinstance(value, Player):
            self.post_message(self.MarkChosen(value))
        elif choice is self._difficulty and isinstance(value, Difficulty | BotLevel):
            self.post_message(self.DifficultyChosen(None, value))
        elif choice is self._x_engine and isinstance(value, Difficulty | BotLevel):
            self.post_message(self.DifficultyChosen(Player.X, value))
        elif choice is self._o_engine and isinstance(value, Difficulty | BotLevel):
            self.post_message(self.DifficultyChosen(Player.O, value))

    @on(Checkbox.Changed)
    def _switched(self, message: Checkbox.Changed) -> None:
        message.stop()
        if message.checkbox is self._coach:
            self.post_message(self.CoachSwitched(message.value))
        elif message.checkbox is self._alternate:
            self.post_message(self.AlternateSwitched(message.value))

    @on(Button.Pressed)
    def _pressed(self, message: Button.Pressed) -> None:
        message.stop()
        self.post_message(self.NewGamePressed())
