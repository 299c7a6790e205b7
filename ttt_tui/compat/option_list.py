"""Option lists (the palette's, the review's moves) that page and click safely while
their lines are being laid out.

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

Textual's ``OptionList`` looks its highlighted option's line up when page up or
down comes: before the list is laid out (just opened, or hidden while the palette
gathers) the line is not there yet, and the app crashed (`KeyError` in
``OptionList._move_page``; the real-terminal fuzz found it in the palette, then in
the review's list of moves, opened with ``v`` and paged at once). A click on a
line drawn just before the list changed picked an option that no longer existed
(`IndexError` in ``OptionList._on_click``). `OptionListFixes` ignores both: there
is no page to move by yet, and the clicked line is gone. No upstream report was
found. Can go when Textual's option list checks first: `tests/compat` reproduces both.
"""

from __future__ import annotations

from textual import events
from textual.widgets import OptionList

from ttt_tui.compat import Private

RELIES_ON = (
    Private(
        "textual.widgets._option_list.OptionList._move_page",
        "(self, direction: '_widget_navigation.Direction') -> 'None'",
    ),
    Private("textual.widgets._option_list.OptionList._update_lines", "(self) -> 'None'"),
    Private("textual.widgets._option_list.OptionList.__init__", attributes=("_line_cache",)),
    Private(
        "textual.widgets._option_list.OptionList._on_click",
        "(self, event: 'events.Click') -> 'None'",
    ),
)
"""What of Textual's this module depends on, as it was checked."""


class OptionListFixes(OptionList):
    """Textual's option list, ignoring page keys and clicks that race its layout.

    Name it after the list's own class (``class SafeCommandList(CommandList,
    OptionListFixes)``): Textual takes default CSS from the first base only."""

    def _move_page(self, direction: int) -> None:
        self._update_lines()
        if (self.highlighted or 0) not in self._line_cache.index_to_line:
            return  # not laid out yet: no page to move by
        super()._move_page(direction)  # type: ignore[arg-type]

    async def _on_click(self, event: events.Click) -> None:
        clicked = event.style.meta.get("option")
        if clicked is not None and clicked >= self.option_count:
            event.prevent_default()  # a line drawn before the list changed: not OptionList's


class SafeOptionList(OptionListFixes):
    """An option list that pages and clicks safely (`OptionListFixes`)."""
