"""Screens that never look for text to select: the app has text selection off."""

from __future__ import annotations

from typing import TypeVar

from textual.geometry import Offset
from textual.screen import Screen
from textual.widget import Widget

ResultT = TypeVar("ResultT")


class Unselectable(Screen[ResultT]):
    """A screen whose mouse-down never starts a text selection.

    Textual 8.2.8 looks up the text under every mouse-down to start a selection,
    before it checks whether selection is allowed, and the look-up renders the
    line under the pointer. Over a widget being removed (a toast leaving, the
    footer's keys recomposed) that render asks for the widget's screen, which it
    no longer has, and the app crashed (`NoScreen`, found by the real-terminal
    fuzz). The app allows no selection (`TicTacToeApp.ALLOW_SELECT`), so there is
    nothing to look up.

    Name it after a screen's own base class (``class Dialog(ModalScreen[T],
    Unselectable[T])``): Textual takes default CSS and component classes from the
    first base only.
    """

    def get_widget_and_offset_at(self, x: int, y: int) -> tuple[Widget | None, Offset | None]:
        """Nothing here is selectable: no widget, no offset."""
        return None, None
