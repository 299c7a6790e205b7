"""The header: Textual's, with a title that cannot crash an app closing as it starts,
and an icon every common font has.

Checked with Textual 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

Textual's header watches the titles with a coroutine that the app or the screen
runs later. When the app closed before its first frame (``q`` straight after
start, or a browser tab closed at once under `ttt-tui serve`), the app ran that
coroutine while shutting down, after the header's title had been removed, and
crashed with ``NoMatches`` for ``HeaderTitle``. `SafeHeader` sets the title at
once, and not at all once it has gone. Textualize/textual PR #4817 catches that
error, but is not in 8.2.8. Can go when Textual's ``Header`` checks that its title
is still there.

Textual's header icon, ⭘ (U+2B58), is in none of Roboto Mono (the font of
textual-serve's page), DejaVu Sans Mono or Liberation Mono, so a browser showed a
missing-glyph box for it. `ICON` is in all of them, and in the WGL4 set that nearly
every font covers. That part can go when Textual's default icon is such a character.
"""

from __future__ import annotations

from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount
from textual.widgets import Header, Static

from ttt_tui.compat import Private

RELIES_ON = (
    Private("textual.widgets._header.HeaderTitle"),
    Private("textual.widgets._header.Header.format_title", "(self) -> 'Content'"),
)
"""What of Textual's this module depends on, as it was checked."""


ICON = "≡"
"""The header's icon (a click on it opens the command palette): a menu's sign."""


class SafeHeader(Header):
    """Textual's header, which shows the app's and the screen's titles as they change,
    with `ICON` for its icon."""

    def __init__(self) -> None:
        super().__init__(icon=ICON)

    def on_mount(self, event: Mount) -> None:
        # Instead of Header's own handler (and Widget's, which sets up scrollbars,
        # of which a header has none).
        event.prevent_default()
        for node in (self.app, self.screen):
            self.watch(node, "title", self._show_title)
            self.watch(node, "sub_title", self._show_title)

    def _show_title(self) -> None:
        try:
            title = self.query_one("HeaderTitle", Static)
        except (NoMatches, NoScreen):
            return  # removed, with the app closing
        title.update(self.format_title())
