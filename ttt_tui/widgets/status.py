"""The status line: whose turn it is, a spinner while the computer thinks, the result."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
"""Frames of the thinking spinner."""


class StatusLine(Widget):
    """One line of status; animates a spinner while `thinking` is set."""

    DEFAULT_CSS = """
    StatusLine {
        height: auto;
        min-height: 1;
        width: 1fr;
        text-style: bold;
    }
    StatusLine.-won { color: $text-success; }
    StatusLine.-lost { color: $text-error; }
    StatusLine.-drawn { color: $text-warning; }
    StatusLine.-notice { color: $text-warning; }
    StatusLine > .status--detail {
        color: $text;
        text-style: not bold;
    }
    """

    COMPONENT_CLASSES = {"status--detail"}

    message: reactive[str] = reactive("", layout=True)
    """What to say."""
    detail: reactive[str] = reactive("", layout=True)
    """Lines under the message, in a plainer style: what to do next."""
    thinking: reactive[bool] = reactive(False)
    """Whether to show the spinner before the message."""

    _frame = 0
    _timer: Timer | None = None

    def watch_thinking(self, thinking: bool) -> None:
        if thinking and self._timer is None:
            self._frame = 0
            self._timer = self.set_interval(0.08, self._advance)
        elif not thinking and self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _advance(self) -> None:
        self._frame = (self._frame + 1) % len(SPINNER)
        self.refresh()

    def render(self) -> Text:
        text = Text(f"{SPINNER[self._frame]} {self.message}" if self.thinking else self.message)
        if self.detail:
            text.append("\n" + self.detail, style=self.get_component_rich_style("status--detail"))
        return text
