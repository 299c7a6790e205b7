"""The stats screen: all-time results by mode and difficulty, with a guarded reset."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Static

from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.screens.notices import show_store_notices
from ttt_tui.storage import Store

OUTCOME_COLUMNS = ("win", "draw", "loss", "x_won", "o_won")
"""Outcomes in column order; a mode counts only some of them."""
COLUMNS = ("Mode", "Difficulty", "Games", "Wins", "Draws", "Losses", "X wins", "O wins")
MIXED_NOTE = "Mixed: the computer's level changed during the game."
"""Shown under the table when it has a Mixed row."""


class StatsScreen(ModalScreen[None]):
    """All-time stats kept between runs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s,q", "close", "Close", key_display="esc"),
        Binding("R", "reset", "Reset stats"),
    ]

    DEFAULT_CSS = """
    StatsScreen {
        align: center middle;
        background: $background 60%;
    }
    StatsScreen > Vertical {
        width: 84;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    StatsScreen DataTable {
        height: auto;
        max-height: 16;
    }
    StatsScreen #mixed-note {
        color: $text-muted;
    }
    StatsScreen #where {
        color: $text-muted;
        margin-top: 1;
    }
    StatsScreen Horizontal {
        height: auto;
        margin-top: 1;
        align-horizontal: right;
    }
    StatsScreen Button {
        margin-left: 2;
    }
    """

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        """Where the stats are kept."""

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "All-time stats"
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
            yield Static(MIXED_NOTE, id="mixed-note", markup=False)
            yield Static(id="where", markup=False)
            with Horizontal():
                yield Button("Reset stats… (R)", id="reset", variant="error", compact=True)
                yield Button("Close (esc)", id="close", variant="primary", compact=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        self._fill()
        directory = self.store.directory
        where = (
            f"Kept in {directory}"
            if self.store.saving and directory is not None
            else "Saving is off: these figures are for this session only."
        )
        self.query_one("#where", Static).update(where)

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        stats = self.store.load_stats()
        show_store_notices(self, self.store)
        rows = stats.rows(include_empty=True)
        self.query_one("#mixed-note", Static).display = any(row.mixed for row in rows)
        for row in rows:
            difficulty = " vs ".join(d.value.capitalize() for d in row.difficulties) or "-"
            if row.mixed:
                difficulty = "Mixed"
            counts = dict(row.counts)
            cells = [row.mode.label, difficulty, str(row.total)]
            cells += [str(counts[o]) if o in counts else "-" for o in OUTCOME_COLUMNS]
            table.add_row(*cells, key=row.key)

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss()

    def action_reset(self) -> None:
        """Ask, then set every count to zero."""

        def answered(yes: bool | None) -> None:
            if yes:
                self.store.reset_stats()
                self._fill()
                self.notify("Stats reset.", timeout=2)

        self.app.push_screen(
            ConfirmScreen("Reset all-time stats to zero? Game records are kept.", "Reset", "Keep"),
            answered,
        )

    @on(Button.Pressed, "#reset")
    def _reset_pressed(self) -> None:
        self.action_reset()

    @on(Button.Pressed, "#close")
    def _close_pressed(self) -> None:
        self.action_close()
