"""A modal screen that closes once, however many closing keys or clicks arrive together."""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen

from ttt_tui.screens.base import BaseScreen

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT], BaseScreen[ResultT]):
    """A `ModalScreen` whose `dismiss` does nothing once it has closed.

    A real terminal can deliver two closing gestures in one read (a double click
    on Close, Escape and q together). Textual's `dismiss` pops whatever screen is
    on top, so the second one popped the game screen (`ScreenStackError`), or set
    the screen's result twice (`InvalidStateError`), and crashed the app.
    """

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close with ``result``, unless this screen has already closed."""
        if self.app.screen is not self:
            return AwaitComplete()
        return super().dismiss(result)
