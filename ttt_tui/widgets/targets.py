"""Widgets drawn as several things to click: a click counts on the one it began on."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.events import Click, MouseDown
from textual.geometry import Offset
from textual.widget import Widget

T = TypeVar("T")


class ClickTargets(Widget, Generic[T]):
    """A widget of several targets to click: the board's squares, a control's options.

    Textual makes a `Click` of a release over the widget the press was on, wherever
    in it. As with a button, a target is clicked only if the left button went down on
    it too: a press that slides to another target (or a drag that meant nothing)
    clicks nothing, and so do the other buttons.
    """

    _pressed: T | None = None
    """The target the left button went down on, until the click it begins."""

    def target_at(self, offset: Offset) -> T | None:
        """The target at an offset in the content area, if any."""
        raise NotImplementedError

    def _target_under(self, event: MouseDown | Click) -> T | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.target_at(offset)

    def on_mouse_down(self, event: MouseDown) -> None:
        self._pressed = self._target_under(event) if event.button == 1 else None

    def clicked(self, event: Click) -> T | None:
        """The target a click clicks, if any; the click goes no further."""
        event.stop()
        pressed, self._pressed = self._pressed, None
        if event.button == 1 and pressed is not None and pressed == self._target_under(event):
            return pressed
        return None
