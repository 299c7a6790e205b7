"""Past games: every recorded game, newest first, each opening its review.

The records are read in the saver's thread (never on the event loop); the list draws
only the lines in view, so it stays quick with thousands of games.
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

from ttt_tui.engine import Player
from ttt_tui.play.results import MODE_LABELS
from ttt_tui.play.settings import Level, Mode, level_name
from ttt_tui.screens.dialog import Dialog
from ttt_tui.search.client import Searcher
from ttt_tui.storage import GameRecord, Mixed
from ttt_tui.storage.saver import Saver
from ttt_tui.teach.review import RESULT_WORDS, ReviewError


def _level(level: Level | Mixed | None) -> str:
    if level is None:
        return "?"
    return level.value.capitalize() if isinstance(level, Mixed) else level_name(level)


def players(record: GameRecord) -> str:
    """Who played: ``You (X) vs Hard``, ``2 players``, ``Easy vs Hard``."""
    if record.mode is Mode.HUMAN_VS_AI:
        mark = record.human_mark or Player.X
        return f"You ({mark.value}) vs {_level(record.computer_difficulty)}"
    if record.mode is Mode.AI_VS_AI:
        return f"{_level(record.x_difficulty)} vs {_level(record.o_difficulty)}"
    return MODE_LABELS[record.mode].long


def game_line(record: GameRecord) -> str:
    """One game in the list: ``2026-11-25 20:31  3x3  You (X) vs Hard  O won, 6 moves``."""
    when = record.ended.astimezone().strftime("%Y-%m-%d %H:%M")
    moves = len(record.moves)
    result = RESULT_WORDS[record.result.value]
    return (
        f"{when}  {record.n}x{record.n}  {players(record):<17}"
        f" {result}, {moves} move{'' if moves == 1 else 's'}"
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
        """The records have been read (in the saver's thread)."""

        def __init__(self, games: list[GameRecord]) -> None:
            self.games = games
            super().__init__()

    def __init__(self, saver: Saver, searcher: Searcher) -> None:
        super().__init__()
        self.saver = saver
        self.searcher = searcher
        self.games: list[GameRecord] = []
        """Newest first, as listed."""

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Past games"
            yield OptionList(id="games-list")
            yield Static("Reading the games…", id="games-note", markup=False)

    def on_mount(self) -> None:
        self._read()

    @work(exclusive=True, group="games", exit_on_error=False)
    async def _read(self) -> None:
        """Have the records read, after every save handed in before."""
        self.post_message(self.Read(await asyncio.wrap_future(self.saver.load_games())))

    @on(Read)
    def _games_read(self, message: Read) -> None:
        self.games = list(reversed(message.games))
        listing = self.query_one(OptionList)
        listing.clear_options()
        listing.add_options([Option(game_line(record)) for record in self.games])
        count = len(self.games)
        note = (
            f"{count} game{'' if count == 1 else 's'}, newest first. Enter: its review."
            if count
            else "No games recorded yet."
        )
        self.query_one("#games-note", Static).update(note)
        if count:
            listing.highlighted = 0
            listing.focus()

    @on(OptionList.OptionSelected, "#games-list")
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        from ttt_tui.screens.review import ReviewScreen

        record = self.games[message.option_index]
        title = f"{record.n}x{record.n}, {players(record)}"
        try:
            screen = ReviewScreen(
                record.n, record.moves, self.searcher, title=title, result=record.result.value
            )
        except ReviewError as exc:
            self.notify(f"This game cannot be reviewed: {exc}", severity="warning")
            return
        self.app.push_screen(screen)

    def action_close(self) -> None:
        """Back to the stats."""
        self.dismiss()
