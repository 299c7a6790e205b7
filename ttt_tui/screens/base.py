"""The base of every screen of the game: two of Textual 8.2.8's screen bugs worked around."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.geometry import Offset
from textual.screen import Screen
from textual.widget import Widget

ResultT = TypeVar("ResultT")


class BaseScreen(Screen[ResultT]):
    """A screen that starts no text selection, and whose changes show through every
    translucent screen stacked above it.

    Name it after a screen's own base class (``class Dialog(ModalScreen[T],
    BaseScreen[T])``): Textual takes default CSS and component classes from the
    first base only.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Textual's screens copy the selected text on ctrl+c; with nothing to select,
        # say how to quit, as the game screen does (`TicTacToeApp.action_help_quit`).
        Binding("ctrl+c,super+c", "app.help_quit", show=False),
    ]

    def get_widget_and_offset_at(self, x: int, y: int) -> tuple[Widget | None, Offset | None]:
        """Nothing here is selectable: no widget, no offset.

        Textual 8.2.8 looks up the text under every mouse-down to start a selection,
        before it checks whether selection is allowed, and the look-up renders the
        line under the pointer. Over a widget being removed (a toast leaving, the
        footer's keys recomposed) that render asks for the widget's screen, which it
        no longer has, and the app crashed (`NoScreen`, found by the real-terminal
        fuzz). The app allows no selection (`TicTacToeApp.ALLOW_SELECT`), so there is
        nothing to look up.
        """
        return None, None

    def _compositor_refresh(self) -> None:
        """Draw what changed, and have every screen between this one and the top redraw
        it too.

        A dialog's translucent background is the screen under it, drawn and kept by
        the dialog. Textual 8.2.8 tells only the top screen when a screen under it
        changes, so with two dialogs up (the reset question over the stats, help or
        the palette over a dialog) the middle one went on showing the game as it
        was: after a resize, the game's footer stayed blank and its old layout showed
        round the dialogs until something else redrew them (found by the
        real-terminal fuzz).
        """
        app = self.app
        below_top = self is not app.screen and self in app._background_screens
        changed = set(self._compositor._dirty_regions) if below_top else set()
        super()._compositor_refresh()
        if changed:
            stack = app.screen_stack
            for screen in stack[stack.index(self) + 1 : -1]:
                screen.refresh(*changed)
