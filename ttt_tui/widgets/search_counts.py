"""The explorer's Search tab: positions visited by plain minimax, alpha-beta and the engine."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ttt_tui.teach.explorer import CountRow
from ttt_tui.widgets.relayout import relayout_if_resized

STATE_CLASSES = {
    "done": "search-counts--done",
    "counting…": "search-counts--counting",
    "stopped": "search-counts--stopped",
}
"""The component class that colours each row's state (any other state is dim)."""


class SearchCounts(Widget):
    """The three searches side by side: positions visited, state, and what each found."""

    DEFAULT_CSS = """
    SearchCounts {
        height: auto;
        padding: 0 1;
    }
    SearchCounts > .search-counts--done {
        color: $text-success;
    }
    SearchCounts > .search-counts--counting {
        color: $text-warning;
    }
    SearchCounts > .search-counts--stopped {
        color: $text-error;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = set(STATE_CLASSES.values())

    rows: reactive[tuple[CountRow, ...]] = reactive(())
    """One row a search. A count's progress (ten a second) repaints the table; the
    screen is laid out again only if the table's height changes (`watch_rows`)."""
    note: reactive[str] = reactive("", layout=True)
    """The comparison under the table, or what to press."""

    def watch_rows(self) -> None:
        relayout_if_resized(self)

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
            kind = STATE_CLASSES.get(row.state)
            style = "dim" if kind is None else self.get_component_rich_style(kind, partial=True)
            state = Text(row.state, style=style)
            table.add_row(row.search.label, row.nodes, state, row.detail)
        return Group(table, Text(""), Text(self.note, style="italic"))
