"""The top line: the command palette's icon, and the titles.

The game's own rather than Textual's ``Header``, for what a player met with
Textual's (8.2.8): it sets its title from a coroutine that the app may run
while shutting down, after the title has gone, so a game quit before its first
frame (``q`` at once, or a browser tab closed straight after opening) crashed
with ``NoMatches`` for ``HeaderTitle`` (Textualize/textual PR #4817 catches it;
not in 8.2.8). This one reads the titles when it draws, so it never looks for a
part that has gone. It draws the line Textual's header draws (an icon, the
titles centred, the clock's space), and its icon opens the palette; a click on
the titles does nothing, where Textual's header grows to three lines and takes
a row from the board. Can go when Textual's header survives a quit before its
first frame.
"""

from __future__ import annotations

from typing import ClassVar

from textual.content import Content
from textual.events import Click, Leave, MouseMove
from textual.widget import Widget

ICON = "≡"
"""The icon (a click on it opens the command palette): a menu's sign. Textual's, ⭘
(U+2B58), is in none of Roboto Mono (the font of textual-serve's page), DejaVu Sans
Mono or Liberation Mono, so a browser showed a missing-glyph box for it; this one is
in all of them, and in the WGL4 set nearly every font covers."""

ICON_WIDTH = 8
"""Columns of the icon's area at the left, the icon one column in (as Textual's)."""

RIGHT_WIDTH = 10
"""Columns kept blank at the right, where Textual's header has its clock."""

ICON_TOOLTIP = "Open the command palette"
"""What the icon says under the pointer."""


class TitleBar(Widget):
    """The palette's icon at the left, and the screen's title and sub-title (or the
    app's) centred in the rest of the line."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
        .title-bar--icon-hover {
            background: $foreground 10%;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"title-bar--icon-hover"}

    ALLOW_SELECT = False

    def __init__(self) -> None:
        super().__init__()
        self._over_icon = False
        """Whether the pointer is over the icon."""

    def on_mount(self) -> None:
        for node in (self.app, self.screen):
            self.watch(node, "title", self._retitle, init=False)
            self.watch(node, "sub_title", self._retitle, init=False)

    def _retitle(self) -> None:
        self.refresh()

    def title(self) -> Content:
        """The titles as shown: the screen's, else the app's, as the app formats them
        (Textual's ``App.format_title``: the sub-title dim after a dash)."""
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        return app.format_title(title, sub_title)

    def render(self) -> Content:
        width = self.size.width
        icon = f" {ICON}".ljust(ICON_WIDTH)[:width]
        middle = max(width - ICON_WIDTH - RIGHT_WIDTH, 0)
        title = self.title()
        if title.cell_length > middle:
            title = title.truncate(middle, ellipsis=True)
        left = (middle - title.cell_length) // 2
        lit = self.get_visual_style("title-bar--icon-hover") if self._over_icon else ""
        line = Content.assemble((icon, lit), " " * left, title)
        return line.pad_right(max(width - line.cell_length, 0))

    def on_mouse_move(self, event: MouseMove) -> None:
        self._hover_icon(event.x < ICON_WIDTH)

    def on_leave(self, event: Leave) -> None:
        self._hover_icon(False)

    def _hover_icon(self, over: bool) -> None:
        if over != self._over_icon:
            self._over_icon = over
            self.tooltip = ICON_TOOLTIP if over else None
            self.refresh()

    async def on_click(self, event: Click) -> None:
        """A click on the icon opens the command palette."""
        if event.x < ICON_WIDTH and self.app.ENABLE_COMMAND_PALETTE:
            event.stop()
            await self.run_action("app.command_palette")
