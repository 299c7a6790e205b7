"""The review's list of moves: the selected move kept in view whatever the list's height."""

from __future__ import annotations

from ttt_tui.compat.option_list import SafeOptionList


class MoveList(SafeOptionList):
    """An option list that scrolls its highlighted option back into view when its height
    changes: it is first sized after it is filled, and shrinks as the lines under it
    grow (a move's detail, the summary), each of which left a long game's selected move
    out of view."""

    def on_resize(self) -> None:
        self.scroll_to_highlight()
