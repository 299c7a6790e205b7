"""The status line: whose turn it is, a spinner while the computer thinks, the result."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from ttt_tui.play.view import StatusView

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
"""Frames of the thinking spinner."""

QUIET = StatusView("", "", thinking=False, won=False, lost=False, drawn=False)
"""Nothing to say yet."""


class StatusLine(Widget):
    """One line of status, and what to do next; a spinner turns while the computer thinks.

    It is always as tall as its longest message (a long search's: the message and
    three lines of progress), each line cut rather than wrapped: what is below it
    stays put whatever it says. (It grew by two lines when a game ended, and the
    sidebar's controls moved under a pointer aimed a moment before.)
    """

    DEFAULT_CSS = """
    StatusLine {
        height: 4;
        width: 1fr;
        text-style: bold;
    }
    StatusLine.-won { color: $text-success; }
    StatusLine.-lost { color: $text-error; }
    StatusLine.-drawn { color: $text-warning; }
    StatusLine > .status--detail {
        color: $text;
        text-style: not bold;
    }
    """

    COMPONENT_CLASSES = {"status--detail"}

    status: reactive[StatusView] = reactive(QUIET, repaint=False)
    """What to say, what to do next, whether the computer is thinking, and the result."""

    _frame = 0
    _timer: Timer | None = None

    @property
    def message(self) -> str:
        """What the line says."""
        return self.status.message

    @property
    def detail(self) -> str:
        """The lines under the message, in a plainer style: what to do next."""
        return self.status.detail

    @property
    def thinking(self) -> bool:
        """Whether the spinner turns before the message."""
        return self.status.thinking

    def watch_status(self, old: StatusView, new: StatusView) -> None:
        self.set_class(new.won, "-won")
        self.set_class(new.lost, "-lost")
        self.set_class(new.drawn, "-drawn")
        if new.thinking and self._timer is None:
            self._frame = 0
            self._timer = self.set_interval(0.08, self._advance)
        elif not new.thinking and self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.refresh()

    def _advance(self) -> None:
        self._frame = (self._frame + 1) % len(SPINNER)
        self.refresh()

    def render(self) -> Text:
        status = self.status
        text = Text(
            f"{SPINNER[self._frame]} {status.message}" if status.thinking else status.message,
            no_wrap=True,
            overflow="ellipsis",
        )
        if status.detail:
            text.append("\n" + status.detail, style=self.get_component_rich_style("status--detail"))
        return text
