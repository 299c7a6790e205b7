"""The header: Textual's, with a title that cannot crash an app closing as it starts."""

from __future__ import annotations

from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount
from textual.widgets import Header, Static


class GameHeader(Header):
    """Textual's header, which shows the app's and the screen's titles as they change.

    Textual's own watches the titles with a coroutine that the app or the screen
    runs later. When the app closed before its first frame (``q`` straight after
    start, or a browser tab closed at once under `ttt-tui serve`), the app ran
    that coroutine while shutting down, after the header's title had been
    removed, and crashed with ``NoMatches`` for ``HeaderTitle``. This one sets
    the title at once, and not at all once it has gone.
    """

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
