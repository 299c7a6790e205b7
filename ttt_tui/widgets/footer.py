"""The footer: Textual's, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

COMFORTABLE_WIDTH = 80
"""Narrowest terminal whose footer fits every key with room to spare."""

ShownKeys = tuple[object, ...]
"""What the footer shows: each shown binding's key, label and state, and the palette key."""


class GameFooter(Footer):
    """Textual's footer, which rebuilds its keys only when what it shows changes.

    Textual's own rebuilds every key (a widget each, restyled three times as it
    mounts) whenever the bindings may have changed: on every focus change and
    every refresh of the bindings, though the keys shown are usually the same.
    """

    def __init__(self) -> None:
        super().__init__()
        # Textual's footer stays empty until its screen first says its bindings have
        # changed; a dialog opened before that (a key typed as the game starts) kept
        # the game's footer blank behind it. The screen's bindings are there from the
        # start: show them.
        self.set_reactive(Footer._bindings_ready, True)
        self._shown: ShownKeys | None = None
        self._rebuilding = False
        """Whether a rebuild is on its way: it will read the bindings as they are then."""

    def fit(self, width: int) -> None:
        """Fit the keys to a terminal this wide: below `COMFORTABLE_WIDTH` every key
        keeps its label whole only without padding, and without the palette's key
        (the help and the palette still list it)."""
        self.compact = width < COMFORTABLE_WIDTH
        self.show_command_palette = width >= COMFORTABLE_WIDTH

    def _keys(self, screen: Screen[object]) -> ShownKeys:
        return (
            self.show_command_palette,
            *(
                (key, active.binding.description, active.enabled, active.tooltip)
                for key, active in screen.active_bindings.items()
                if active.binding.show
            ),
        )

    def compose(self) -> ComposeResult:
        self._rebuilding = False
        keys = self._keys(self.screen)
        shown = False
        for widget in super().compose():
            shown = True
            yield widget
        # Textual's footer draws nothing until the screen's bindings are ready.
        self._shown = keys if shown else None

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Rebuild the keys, unless a rebuild is on its way or they would come out as they are."""
        if self._rebuilding or (
            self._shown is not None and screen is self.screen and self._keys(screen) == self._shown
        ):
            return
        super().bindings_changed(screen)
        # As Textual's footer decides whether to rebuild.
        self._rebuilding = screen.app.app_focus and self.is_attached and screen is self.screen

    def watch_show_command_palette(self) -> None:
        if self.is_attached:
            self.bindings_changed(self.screen)
