"""The stats screen: all-time results by board, mode and difficulty, with a guarded reset."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.widgets import Button, DataTable, Static

from ttt_tui.play.results import MODE_LABELS, OUTCOME_LABELS, StatsOutcome
from ttt_tui.play.settings import BoardSize, level_name, short_level_name
from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.screens.dialog import Dialog
from ttt_tui.search.client import Searcher
from ttt_tui.storage import Stats, StatsRow
from ttt_tui.storage.saver import Saver
from ttt_tui.widgets.choice import Choice

OUTCOME_COLUMNS = tuple(StatsOutcome)
"""Outcomes in column order; a mode counts only some of them."""
COLUMNS = ("Mode", "Difficulty", "Games", *(OUTCOME_LABELS[o].long for o in OUTCOME_COLUMNS))
SHORT_COLUMNS = ("Mode", "Level", "Games", *(OUTCOME_LABELS[o].short for o in OUTCOME_COLUMNS))
"""The headings when the full ones do not fit (`WIDE_ENOUGH`); the screen's foot explains them."""
WIDE_ENOUGH = 80
"""Narrowest screen on which the table fits with its full headings and labels."""
SHORT_KEY = "W/D/L: your wins, draws, losses · X/O: X won, O won"
"""What the short headings stand for, shown with them."""
MIXED_NOTE = "Mixed: the computer's level changed during the game."
"""Shown under the table when it has a Mixed row."""


BOARD_OPTIONS = [(size, size.label) for size in BoardSize]
"""The boards the stats are kept for, each with its own table."""


class StatsScreen(Dialog[None]):
    """All-time stats kept between runs, one board at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s,q", "close", "Close", key_display="esc"),
        Binding("R", "reset", "Reset stats"),
        Binding("g", "games", "Past games", tooltip="every recorded game, each with its review"),
        *(
            Binding(str(size.n), f"show_board({size.n})", size.label, show=False)
            for size in BoardSize
        ),
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
    StatsScreen #mixed-note, StatsScreen #short-key {
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
        min-width: 0;
    }
    """

    class Read(Message):
        """The stats have been read (in the saver's thread)."""

        def __init__(self, stats: Stats) -> None:
            self.stats = stats
            """The all-time stats, every board's."""
            super().__init__()

    def __init__(
        self, saver: Saver, searcher: Searcher, board: BoardSize = BoardSize.THREE
    ) -> None:
        """Show the stats ``saver`` keeps, first those of the ``board`` in play; a past
        game's review is worked out in ``searcher``."""
        super().__init__()
        self.saver = saver
        """Where the stats are read and reset, off the event loop."""
        self.searcher = searcher
        self._stats: Stats | None = None
        """The stats as last read; None until they are."""
        self._board = Choice(
            BOARD_OPTIONS, board, title="Board", key="3 4 5", inline=True, id="stats-board"
        )
        self._rows: list[StatsRow] = []
        self._short: bool | None = None

    @property
    def board(self) -> BoardSize:
        """The board whose stats are shown."""
        return self._board.value

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "All-time stats"
            yield self._board
            yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
            yield Static(SHORT_KEY, id="short-key", markup=False)
            yield Static(MIXED_NOTE, id="mixed-note", markup=False)
            yield Static(id="where", markup=False)
            with Horizontal():
                yield Button("Games (g)", id="games", compact=True)
                yield Button("Reset stats… (R)", id="reset", variant="error", compact=True)
                yield Button("Close (esc)", id="close", variant="primary", compact=True)

    def on_mount(self) -> None:
        self._fill()
        self._read()

    @work(exclusive=True, group="stats", exit_on_error=False)
    async def _read(self) -> None:
        """Have the stats read, after every save handed in before."""
        self.post_message(self.Read(await asyncio.wrap_future(self.saver.load_stats())))

    @on(Read)
    def _stats_read(self, message: Read) -> None:
        self._stats = message.stats
        self._fill()

    def _fill(self) -> None:
        """Show the stats of the board chosen, and where they are kept."""
        store = self.saver.store
        directory = store.directory
        if self._stats is None:
            where = "Reading the stats…"
        elif store.saving and directory is not None:
            where = f"Kept in {directory}"
        else:
            where = "Saving is off: these figures are for this session only."
        self.query_one("#where", Static).update(where)
        stats = self._stats or Stats()
        self._rows = stats.rows(self.board.n, include_empty=True)
        self.query_one("#mixed-note", Static).display = any(row.mixed for row in self._rows)
        self._show(short=self.app.size.width < WIDE_ENOUGH)

    def on_resize(self, event: Resize) -> None:
        short = self.app.size.width < WIDE_ENOUGH
        if short != self._short:
            self._show(short=short)

    def _show(self, *, short: bool) -> None:
        """Lay the rows out with full or short headings and labels, so every column fits."""
        self._short = short
        self.query_one("#short-key", Static).display = short
        named = short_level_name if short else level_name
        rows = []
        for row in self._rows:
            difficulty = " vs ".join(named(d) for d in row.difficulties) or "-"
            if row.mixed:
                difficulty = "Mixed"
            counts = dict(row.counts)
            mode = MODE_LABELS[row.mode]
            cells = [mode.short if short else mode.long, difficulty, str(row.total)]
            cells += [str(counts[o]) if o in counts else "-" for o in OUTCOME_COLUMNS]
            rows.append((cells, row.key))
        table = self.query_one(DataTable)
        table.clear(columns=True)
        # Each column as wide as its widest cell, given rather than left to the table to
        # work out: laid out afresh twice in a row (the stats read just after the screen
        # opened), the table could keep the first layout's narrower widths.
        for index, label in enumerate(SHORT_COLUMNS if short else COLUMNS):
            width = max([cell_len(label), *(cell_len(cells[index]) for cells, _ in rows)])
            table.add_column(label, width=width)
        for cells, key in rows:
            table.add_row(*cells, key=key)

    def action_show_board(self, n: int) -> None:
        """Show the stats of another board."""
        self._board.value = BoardSize(n)
        self._fill()

    @on(Choice.Changed, "#stats-board")
    def _board_chosen(self, message: Choice.Changed) -> None:
        message.stop()
        if isinstance(message.value, BoardSize):
            self.action_show_board(message.value.n)

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss()

    def action_reset(self) -> None:
        """Ask, then set every count to zero."""

        def answered(yes: bool | None) -> None:
            if yes:
                self.saver.reset_stats()
                self._read()
                self.notify("Stats reset.", timeout=2)

        self.app.push_screen(
            ConfirmScreen("Reset all-time stats to zero? Game records are kept.", "Reset", "Keep"),
            answered,
        )

    def action_games(self) -> None:
        """Every recorded game, newest first, each opening its review."""
        from ttt_tui.screens.games import GamesScreen

        self.app.push_screen(GamesScreen(self.saver, self.searcher))

    @on(Button.Pressed, "#games")
    def _games_pressed(self) -> None:
        self.action_games()

    @on(Button.Pressed, "#reset")
    def _reset_pressed(self) -> None:
        self.action_reset()

    @on(Button.Pressed, "#close")
    def _close_pressed(self) -> None:
        self.action_close()
