"""The explorer's Best line tab: best play from both sides, a move a line, the step shown marked."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ttt_tui.teach.explorer import LineState

EMPTY = LineState((), 0, False, "")
"""What the tab shows before it is given a line."""


class BestLine(Widget):
    """The principal variation from the selected position: each move, its value and what
    it does, with the moves the board shows played marked."""

    DEFAULT_CSS = """
    BestLine {
        height: auto;
        padding: 0 1;
    }
    """

    state: reactive[LineState] = reactive(EMPTY, layout=True)
    """The line, how far it is stepped, and how it ends."""

    def render(self) -> Table:
        state = self.state
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column()
        start = "▶" if state.step == 0 else " "
        table.add_row(start, "", Text("the position itself", style="dim"), "")
        for index, row in enumerate(state.rows, start=1):
            played = index <= state.step
            marker = "▶" if index == state.step else ""
            style = "" if played else "dim"
            table.add_row(
                marker,
                Text(f"{index}.", style=style),
                Text(f"{row.name}: {row.value}", style="bold" if played else style),
                Text(row.tag, style=style),
            )
        table.add_row("", "", Text(state.note, style="italic"), "")
        return table
