"""The app's share of Textual's bugs: unexpected errors, resizes out of order, expiring toasts.

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

**An unexpected error.** Textual prints a traceback after the terminal is back and
offers no public hook to do anything else. `AppFixes.unexpected_error` is that
hook: the game writes a crash report there, and Textual's traceback is dropped
(``App._exit_renderables``) so that one short message names the report instead.
Can go when Textual offers a public hook for unhandled errors (asked for in
Textualize/textual#2818 and #5931).

**Resizes out of order.** Textual 8.2's Linux driver reads the size in its
SIGWINCH handler, and a handler can be interrupted by the next signal's: the
later size is then posted first, and the app stayed drawn for an earlier size
until the window changed again (the real-terminal fuzz found it after bursts of
resizes). A resize that is not the terminal's size now is followed by one that
is. No upstream report was found. Can go when the driver reads the size outside
its signal handler; `tests/compat` reproduces the overtaken resize.

**A toast that hangs the app.** `notify` posts a `Notice`
(`ttt_tui.compat.notification`), whose toast timer can never be negative.
"""

from __future__ import annotations

import shutil
from typing import TypeVar

from textual.app import App
from textual.events import Resize
from textual.geometry import Size
from textual.notifications import Notify, SeverityLevel

from ttt_tui.compat import Private
from ttt_tui.compat.notification import Notice

ReturnT = TypeVar("ReturnT")

RELIES_ON = (
    Private("textual.app.App._handle_exception", "(self, error: 'Exception') -> 'None'"),
    Private("textual.app.App.__init__", attributes=("_exit_renderables",)),
)
"""What of Textual's this module depends on, as it was checked."""


class AppFixes(App[ReturnT]):
    """Textual's app, with an unexpected error handed to `unexpected_error` and no
    traceback printed, resizes put back in order, and toasts that cannot hang it.

    Name it as the app's base (``class Game(AppFixes[None])``).
    """

    _size_put_right: Size | None = None
    """The terminal size last posted because a resize had arrived out of order."""

    def unexpected_error(self, error: Exception) -> bool:
        """Called with an error nothing handled, before Textual ends the app for it.

        Return True when the error has been dealt with (the app then goes on, or
        ends as it chose); False to let Textual end the app, printing no traceback.
        """
        return False

    def _handle_exception(self, error: Exception) -> None:
        if self.unexpected_error(error):
            return
        super()._handle_exception(error)
        self._exit_renderables.clear()

    def on_resize(self, event: Resize) -> None:
        """End on the terminal's own size, whatever order the resizes came in."""
        size = self.terminal_size()
        if size is None or size == event.size:
            self._size_put_right = None
        elif size != self._size_put_right:
            self._size_put_right = size
            self.post_message(Resize(size, size))

    def terminal_size(self) -> Size | None:
        """The terminal's size now, read as Textual's terminal driver reads it; None
        when no terminal is read (under test, or in a browser)."""
        if self.is_headless or self.is_web:
            return None
        width, height = shutil.get_terminal_size()
        return Size(width or 80, height or 25)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's, with a `Notice`, whose toast cannot hang the app as it expires."""
        timeout = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self.post_message(Notify(Notice(message, title, severity, timeout, markup=markup)))
