"""The explorer's Search tab: positions visited by plain minimax, alpha-beta and the engine."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ttt_tui.teach.explorer import CountRow

STATE_STYLES = {"done": "green", "counting…": "yellow", "stopped": "red"}
"""How each row's state is coloured."""


class SearchCounts(Widget):
    """The three searches side by side: positions visited, state, and what each found."""

    DEFAULT_CSS = """
    SearchCounts {
        height: auto;
        padding: 0 1;
    }
    """

    rows: reactive[tuple[CountRow, ...]] = reactive((), layout=True)
    """One row a search."""
    note: reactive[str] = reactive("", layout=True)
    """The comparison under the table, or what to press."""

    def render(self) -> Group:
        if not self.rows:
            # A finished position: no search runs, and the note says so.
            return Group(Text(self.note, style="italic"))
        table = Table(box=None, padding=(0, 1), show_edge=False, expand=True)
        table.add_column("search", no_wrap=True, style="bold")
        table.add_column("positions", justify="right", no_wrap=True)
        table.add_column("", no_wrap=True)
        table.add_column("", ratio=1)
        for row in self.rows:
            state = Text(row.state, style=STATE_STYLES.get(row.state, "dim"))
            table.add_row(row.search.label, row.nodes, state, row.detail)
        return Group(table, Text(""), Text(self.note, style="italic"))
