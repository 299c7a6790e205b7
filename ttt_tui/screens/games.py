"""Past games: the recorded games, newest first, a page at a time, each opening its review.

The records are read in the saver's thread (never on the event loop), `PAGE` at a
time: the list starts with the newest and reads the next page when its highlight
reaches the last game listed, so it opens as quickly at a million games as at ten.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ttt_tui.screens.dialog import Dialog
from ttt_tui.search.client import Searcher
from ttt_tui.storage import GameRecord, NumberedGame, Unreadable
from ttt_tui.storage.saver import Saver
from ttt_tui.teach.records import game_line, players
from ttt_tui.teach.review import ReviewError

PAGE = 100
"""How many games the list reads at a time."""


def _line(record: GameRecord | Unreadable) -> str:
    """A game as the list shows it, or why it cannot be read."""
    return (
        f"cannot be read ({record.reason})" if isinstance(record, Unreadable) else game_line(record)
    )


class GamesScreen(Dialog[None]):
    """The recorded games, newest first; Enter or a click opens one's review."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,g", "close", "Close", key_display="esc"),
    ]

    DEFAULT_CSS = """
    GamesScreen {
        align: center middle;
        background: $background 60%;
    }
    GamesScreen > Vertical {
        width: 84;
        max-width: 100%;
        height: 90%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    GamesScreen OptionList {
        height: 1fr;
    }
    GamesScreen #games-note {
        color: $text-muted;
        height: auto;
    }
    """

    class Read(Message):
        """A page of records has been read (in the saver's thread)."""

        def __init__(self, games: list[NumberedGame]) -> None:
            self.games = games
            """Up to `PAGE` games with their numbers, newest first."""
            super().__init__()

    def __init__(self, saver: Saver, searcher: Searcher) -> None:
        super().__init__()
        self.saver = saver
        self.searcher = searcher
        self.games: list[NumberedGame] = []
        """The games listed so far with their numbers, newest first."""
        self._more = True
        """Whether older games may remain to be read."""
        self._reading = False

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Past games"
            yield OptionList(id="games-list")
            yield Static("Reading the games…", id="games-note", markup=False)

    def on_mount(self) -> None:
        self._read_page()

    def _read_page(self) -> None:
        """Have the next page of older games read, unless one is on its way or none remain."""
        if self._reading or not self._more:
            return
        self._reading = True
        self._read(self.games[-1][0] if self.games else None)

    @work(group="games", exit_on_error=False)
    async def _read(self, before: int | None) -> None:
        """Have a page read, after every save handed in before."""
        page = await asyncio.wrap_future(self.saver.games_page(before, PAGE))
        self.post_message(self.Read(page))

    @on(Read)
    def _games_read(self, message: Read) -> None:
        self._reading = False
        self._more = len(message.games) == PAGE
        first = not self.games
        self.games += message.games
        listing = self.query_one(OptionList)
        listing.add_options(
            [Option(f"{number:>6}  {_line(record)}") for number, record in message.games]
        )
        count = len(self.games)
        if not count:
            note = "No games recorded yet."
        else:
            more = " Older ones load as you reach the end." if self._more else ""
            note = f"Newest first, numbered as `ttt-tui review N` takes them.{more} Enter: review."
        self.query_one("#games-note", Static).update(note)
        if first and count:
            listing.highlighted = 0
            listing.focus()

    @on(OptionList.OptionHighlighted, "#games-list")
    def _highlighted(self, message: OptionList.OptionHighlighted) -> None:
        """Read the next page when the highlight nears the last game listed."""
        if message.option_index >= len(self.games) - 10:
            self._read_page()

    @on(OptionList.OptionSelected, "#games-list")
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        from ttt_tui.screens.review import ReviewScreen

        _, record = self.games[message.option_index]
        if isinstance(record, Unreadable):
            self.notify(f"This game cannot be read: {record.reason}", severity="warning")
            return
        title = f"{record.n}x{record.n}, {players(record)}"
        try:
            screen = ReviewScreen(
                record.n,
                record.moves,
                self.searcher,
                title=title,
                result=record.result.value,
                person=record.human_mark,
            )
        except ReviewError as exc:
            self.notify(f"This game cannot be reviewed: {exc}", severity="warning")
            return
        self.app.push_screen(screen)

    def action_close(self) -> None:
        """Back to the stats."""
        self.dismiss()
