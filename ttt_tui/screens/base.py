"""The base of every screen of the game: what each would otherwise write again.

- **The size check.** A screen that names its smallest terminal (`too_small`)
  hides its content behind a message below it (the ``-too-small`` class shows
  its ``#too-small`` line, which says why; ``app.tcss`` lays that out), takes
  the focus from what it hid and gives it back after, and fits its footer to the
  terminal's width.
- **Closing once.** A real terminal can deliver two closing gestures in one read
  (a double click on Close, Escape and q together). Textual's `dismiss` pops
  whatever screen is on top, so the second one popped the game screen
  (`ScreenStackError`), or set the screen's result twice (`InvalidStateError`),
  and crashed the app; here a screen that has closed closes no more. (Textual
  0.25.0 had this guard, for Textualize/textual#2575; 8.0.0 removed it, and
  textual#4884 is open.)
- **A worker that failed** is a bug: it is raised again, so that the app's crash
  handling reports it.
- ctrl+c says how to quit, as there is nothing to copy.

Textual's own bugs that every screen meets are worked around below, in
`ttt_tui.compat.screen`.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ttt_tui.compat.screen import ScreenFixes
from ttt_tui.widgets.footer import GameFooter

ResultT = TypeVar("ResultT")


class BaseScreen(ScreenFixes[ResultT]):
    """A screen of the game: a size check, closing once, and failed workers reported.

    Name it after a screen's own base class (``class Dialog(ModalScreen[T],
    BaseScreen[T])``): Textual takes default CSS and component classes from the
    first base only.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Textual's screens copy the selected text on ctrl+c; with nothing to select,
        # say how to quit, as the game screen does (`TicTacToeApp.action_help_quit`).
        Binding("ctrl+c,super+c", "app.help_quit", show=False),
    ]

    # The size check.

    def too_small(self, width: int, height: int) -> str | None:
        """Why a terminal of this size is too small for the screen, in words; None if
        it is big enough (every screen is, unless it says otherwise)."""
        return None

    def focus_target(self) -> Widget | None:
        """What gets the focus back once the terminal is big enough again."""
        return None

    def check_size(self, size: Size | None = None) -> None:
        """Show the screen, or the message saying why it cannot be shown, for a terminal
        of ``size`` (the app's now, if not given); and fit the footer to its width."""
        width, height = size or self.app.size
        for footer in self.query(GameFooter):
            footer.fit(width)
        message = self.too_small(width, height)
        too_small = message is not None
        if too_small != self.has_class("-too-small"):
            self.set_class(too_small, "-too-small")
            self.refresh_bindings()
        if too_small and self.focused is not None:
            # The hidden widgets' own keys (arrows, Enter) must do nothing.
            self.set_focus(None)
        elif not too_small and self.focused is None and (target := self.focus_target()):
            target.focus()
        if message is not None:
            self.query_one("#too-small", Static).update(message)

    def on_resize(self, event: Resize) -> None:
        self.check_size(event.size)

    # Closing once.

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close with ``result``, unless this screen has already closed."""
        if self.app.screen is not self:
            return AwaitComplete()
        return super().dismiss(result)

    # Workers.

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that failed is a bug: raise it so the app's crash handling reports it."""
        error = event.worker.error
        if event.state is WorkerState.ERROR and error is not None:
            raise error
