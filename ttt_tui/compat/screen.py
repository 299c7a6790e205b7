"""Screens that start no text selection, and whose changes show through the dialogs above.

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

**A selection that crashed the app.** Textual looks up the text under every
mouse-down to start a selection, before it checks whether selection is allowed
(``App.ALLOW_SELECT``, False in the game), and the look-up renders the line
under the pointer. Over a widget being removed (a toast leaving, the footer's
keys recomposed) that render asks for the widget's screen, which it no longer
has, and the app crashed (`NoScreen`, found by the real-terminal fuzz).
`ScreenFixes.get_widget_and_offset_at` finds nothing to select. Upstream:
Textualize/textual#5629 (closed, but ``Screen._forward_event`` still looks up
before it checks in 8.2.8). Can go when Textual checks ``ALLOW_SELECT`` first.

**Dialogs that showed an old game.** A dialog's translucent background is the
screen under it, drawn and kept by the dialog. Textual tells only the top screen
when a screen under it changes, so with two dialogs up (the reset question over
the stats, help or the palette over a dialog) the middle one went on showing the
game as it was: after a resize the game's footer stayed blank, its old layout
round the dialogs, until something else redrew them (found by the real-terminal
fuzz). `ScreenFixes._compositor_refresh` has every screen between a changed one
and the top redraw what changed. Textualize/textual#3055 (0.33.0) mended the
case of two screens only. Can go when Textual refreshes every screen above the
one that changed.
"""

from __future__ import annotations

from typing import TypeVar

from textual.geometry import Offset
from textual.screen import Screen
from textual.widget import Widget

from ttt_tui.compat import Private

ResultT = TypeVar("ResultT")

RELIES_ON = (
    Private(
        "textual.screen.Screen.get_widget_and_offset_at",
        "(self, x: 'int', y: 'int') -> 'tuple[Widget | None, Offset | None]'",
    ),
    Private("textual.screen.Screen._compositor_refresh", "(self) -> 'None'"),
    Private("textual.app.App._background_screens"),
    Private("textual.screen.Screen.__init__", attributes=("_compositor",)),
    Private("textual._compositor.Compositor.__init__", attributes=("_dirty_regions",)),
)
"""What of Textual's this module depends on, as it was checked."""


class ScreenFixes(Screen[ResultT]):
    """Textual's screen, starting no text selection and redrawing through dialogs above it.

    Name it after a screen's own base class (``class Dialog(ModalScreen[T],
    ScreenFixes[T])``): Textual takes default CSS and component classes from the
    first base only.
    """

    def get_widget_and_offset_at(self, x: int, y: int) -> tuple[Widget | None, Offset | None]:
        """Nothing here is selectable: no widget, no offset."""
        return None, None

    def _compositor_refresh(self) -> None:
        """Draw what changed, and have every screen between this one and the top redraw
        it too."""
        app = self.app
        below_top = self is not app.screen and self in app._background_screens
        changed = set(self._compositor._dirty_regions) if below_top else set()
        super()._compositor_refresh()
        if changed:
            stack = app.screen_stack
            for screen in stack[stack.index(self) + 1 : -1]:
                screen.refresh(*changed)
