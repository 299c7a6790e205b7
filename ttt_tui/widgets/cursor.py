"""Where the terminal's cursor goes: on what has the focus, for screen readers.

A focused widget that knows its spot (the board's cursor square's number, a
control's option under its cursor) says so with `cursor_spot`; any other is
pointed at its content's top-left corner. The cursor is hidden unless the game
is in screen-reader mode (`ttt_tui.compat.cursor`), so for everyone else this
changes nothing on screen.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual.geometry import Offset
from textual.widget import Widget


@runtime_checkable
class HasCursorSpot(Protocol):
    """A widget that knows where the terminal's cursor belongs while it has the focus."""

    def cursor_spot(self) -> Offset:
        """The spot, on the screen."""
        ...


def spot_of(widget: Widget) -> Offset:
    """Where the terminal's cursor belongs while ``widget`` has the focus, on the screen."""
    if isinstance(widget, HasCursorSpot):
        return widget.cursor_spot()
    return widget.content_region.offset


def has_the_cursor(widget: Widget) -> bool:
    """Whether the terminal's cursor is ``widget``'s: it has the focus, on the screen on
    top (a screen under a dialog keeps its own focus, but not the cursor)."""
    return widget.has_focus and widget.is_attached and widget.screen is widget.app.screen


def follow_focus(widget: Widget) -> None:
    """Put the terminal's cursor on ``widget``'s spot, if it has it (`has_the_cursor`)."""
    if has_the_cursor(widget):
        widget.app.cursor_position = spot_of(widget)
