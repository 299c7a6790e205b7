"""A yes-or-no question over the current screen."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ttt_tui.screens.dialog import Dialog


class ConfirmScreen(Dialog[bool]):
    """Asks a question; dismisses with True for yes and False for no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
        background: $background 60%;
    }
    ConfirmScreen > Vertical {
        width: 52;
        max-width: 100%;
        height: auto;
        border: round $warning;
        background: $surface;
        padding: 1 2;
    }
    ConfirmScreen Horizontal {
        height: auto;
        margin-top: 1;
        align-horizontal: center;
    }
    ConfirmScreen Button {
        margin: 0 1;
    }
    """

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        """What is asked."""
        self._labels = (yes, no)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            with Horizontal():
                yield Button(f"{self._labels[0]} (y)", id="yes", variant="error", compact=True)
                yield Button(f"{self._labels[1]} (n)", id="no", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ResumeQuestion(ConfirmScreen):
    """Whether to resume a game an earlier run left unfinished, asked as the game starts:
    ``y`` resumes it, ``n`` (or Escape) records it as abandoned, and ``q`` quits at once,
    leaving it to be asked about next time (dismissed with None)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "leave", "Quit")]

    async def action_leave(self) -> None:
        """Quit, leaving the question unanswered."""
        self.dismiss(None)
        await self.app.action_quit()
