"""The footer: Textual's, never blank behind a dialog, and rebuilt only when its keys change.

Checked with Textual 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

**Blank behind a dialog.** Textual's footer stays empty until its screen first
says its bindings have changed (``Footer._bindings_ready``); a dialog opened
before that (a key typed as the game starts) kept the game's footer blank
behind it. The screen's bindings are there from the start, so `SteadyFooter`
shows them (textual#4550 and #4565 were reports of the same kind). Can go when
Textual's footer draws its screen's bindings on mount.

**Rebuilt for nothing.** Textual's footer rebuilds every key (a widget each,
restyled three times as it mounts) whenever the bindings may have changed: on
every focus change and every refresh of the bindings, though the keys shown are
usually the same. `SteadyFooter` rebuilds only when what it shows changes, and
builds each key already as compact as the footer: Textual's keys are born
compact, then bound to the footer's compactness as they mount, and each change
restyled the key again.

**Not redrawn when the palette's key is turned off.** Setting
``show_command_palette`` does not rebuild Textual's footer; `SteadyFooter` does.

**Not redrawn while the terminal has lost focus.** Textual's footer skips every
rebuild while the app is unfocused (after a focus-out report), so a terminal
resized then (a tiling window manager does it to windows nobody is typing in)
kept the palette's key and cut "q Quit" until it was focused again; the
real-terminal fuzz found it. `SteadyFooter` rebuilds whenever what it shows
changes, and a lost focus alone changes nothing it shows.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from ttt_tui.compat import Private

RELIES_ON = (
    Private("textual.widgets._footer.FooterKey.compact"),
    Private("textual.widgets._footer.Footer._bindings_ready"),
    Private(
        "textual.widgets._footer.Footer.bindings_changed", "(self, screen: 'Screen') -> 'None'"
    ),
)
"""What of Textual's this module depends on, as it was checked."""

ShownKeys = tuple[object, ...]
"""What the footer shows: each shown binding's key, label and state, and the palette key."""


class SteadyFooter(Footer):
    """Textual's footer, shown from the start and rebuilt only when its keys change."""

    def __init__(self) -> None:
        super().__init__()
        self.set_reactive(Footer._bindings_ready, True)
        self._shown: ShownKeys | None = None
        self._rebuilding = False
        """Whether a rebuild is on its way: it will read the bindings as they are then."""

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
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # Born as compact as the footer, so that binding it to the footer's
                # compactness changes nothing, and restyles nothing, as it mounts
                # (the palette's key is not bound: Textual leaves it as it is).
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
        # Textual's footer draws nothing until the screen's bindings are ready.
        self._shown = keys if shown else None

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Rebuild the keys, unless a rebuild is on its way or they would come out as they are."""
        if self._rebuilding or (
            self._shown is not None and screen is self.screen and self._keys(screen) == self._shown
        ):
            return
        # Textual's footer would skip the rebuild while the terminal has lost focus.
        self._bindings_ready = True
        if self.is_attached and screen is self.screen:
            self._rebuilding = True
            self.call_after_refresh(self.recompose)

    def watch_show_command_palette(self) -> None:
        if self.is_attached:
            self.bindings_changed(self.screen)
