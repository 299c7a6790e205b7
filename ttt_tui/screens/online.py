"""The online game: the room's board as the server holds it, played from this terminal.

The screen holds no game of its own: it draws each state the server sends
(`ttt_tui.online.seen` reads it), sends the squares chosen, and says in words what
changed (the friend's moves, who is away and for how long). The network is awaited
on the event loop by an async worker, which never blocks it; finished games are
handed to ``record``, which saves them off the loop. Hints and the coach are not
offered here: the server decides, and the players play.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ttt_tui.engine import Player
from ttt_tui.online.client import JoinRefused, RoomClient
from ttt_tui.online.protocol import ProtocolError, RoomView, read_state
from ttt_tui.online.seen import board_of, changes, record_of_view, status
from ttt_tui.play.view import BoardState
from ttt_tui.screens.base import BaseScreen
from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.storage.model import GameRecord
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.footer import GameFooter

RETRY_SECONDS = 2.0
"""The pause between two tries at reconnecting after the connection was lost."""

ERROR_WORDS = {
    "not-your-turn": "It is not your turn.",
    "illegal": "That square is taken.",
    "stale": "The board had moved on; it is shown as it is now.",
    "game-over": "The game is over: press n for another.",
    "waiting": "Your friend has not joined yet.",
    "not-a-player": "Watchers cannot move.",
}
"""What a refused move's reason means, in words."""


class OnlineScreen(BaseScreen[None]):
    """A game against a friend on another computer, through the room server."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # A square by its number, as in the game: the board plays it once complete.
        *(Binding(str(digit), f"digit({digit})", show=False) for digit in range(10)),
        # A number waiting for its second digit (1 on 4x4) is played by Enter or Space.
        Binding("enter,space", "play_typed", show=False, priority=True),
        Binding("n", "rematch", "Another game"),
        Binding("q", "leave", "Quit"),
    ]

    DEFAULT_CSS = """
    OnlineScreen {
        layout: vertical;
    }
    OnlineScreen #online-title {
        height: 1;
        background: $panel;
        text-style: bold;
        padding: 0 1;
    }
    OnlineScreen #online-main {
        height: 1fr;
    }
    OnlineScreen #online-side {
        width: 40;
        height: 1fr;
        padding: 0 1;
    }
    OnlineScreen #online-status {
        margin-top: 1;
        text-style: bold;
    }
    OnlineScreen #online-invites {
        height: auto;
        padding: 0 1;
        border-top: solid $primary;
    }
    OnlineScreen #online-line {
        height: auto;
        padding: 0 1;
    }
    """

    def __init__(
        self,
        client: RoomClient,
        *,
        record: Callable[[GameRecord], object],
        invites: tuple[str, str] | None = None,
        screen_reader: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.client = client
        self.record = record
        """Saves a finished game's record (off the event loop)."""
        self.invites = invites
        """The play invite and the watch invite, shown to the host."""
        self.screen_reader = screen_reader
        self.clock = clock
        self.view: RoomView | None = None
        """The room as the server last showed it."""
        self.connected = True
        self.ended_words = ""
        """Why the room is closed to this screen, once it is (`refused`)."""
        self.said = ""
        """What the line last said."""
        self._deadlines: dict[str, float] = {}
        """By mark, when an away player's grace period ends, on `clock`."""
        self._started: dict[int, datetime] = {}
        """When each game (by number) was first seen in play."""
        self._recorded: set[int] = set()
        self._pending: tuple[int, int, int] | None = None
        """A move sent and not yet seen on the board: resent after a reconnect."""
        self._resend = False
        """Whether the next state is the first after a reconnect."""
        self._leaving = False

    def compose(self) -> ComposeResult:
        yield Static(id="online-title", markup=False)
        with Horizontal(id="online-main"):
            yield BoardView(id="board")
            with Vertical(id="online-side"):
                yield Static(id="online-players", markup=False)
                yield Static(id="online-status", markup=False)
        if self.invites is not None:
            play, watch = self.invites
            yield Static(
                f"Invite your friend to play: {play}\nTo watch: {watch}",
                id="online-invites",
                markup=False,
            )
        yield Static(id="online-line", markup=False)
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one(BoardView).focus()
        self._show()
        self.set_interval(1.0, self._show)
        self._listen()

    # The server ------------------------------------------------------------------------

    @work(exclusive=True, group="online-listen", exit_on_error=False)
    async def _listen(self) -> None:
        while True:
            message = await self.client.receive()
            if message is None:
                if self.ended_words or self._leaving:
                    return
                if not await self._reconnect():
                    return
                continue
            self.arrived(message)

    async def _reconnect(self) -> bool:
        """Join again with the same invite until the server lets us in, or says no."""
        self.connected = False
        self._show()
        self._say("Connection lost: reconnecting.")
        while not self._leaving:
            try:
                await self.client.connect()
            except JoinRefused as refused:
                if refused.reason not in ("unreachable", "seat-taken"):
                    self.ended_words = str(refused)
                    self._show()
                    self._say(self.ended_words)
                    return False
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.connected = True
            self._resend = True
            self._say("Connected again.")
            return True
        return False

    def arrived(self, message: dict[str, object]) -> None:
        """Take in one message from the server."""
        kind = message.get("type")
        if kind == "state":
            try:
                view = read_state(message)
            except ProtocolError:
                return
            self._take(view)
        elif kind == "error":
            words = ERROR_WORDS.get(str(message.get("reason")), str(message.get("message")))
            self._say(words)
            self.notify(words, severity="warning", timeout=3)
        elif kind == "refused":
            self.ended_words = f"Closed: {message.get('message')}."
            self._show()
            self._say(self.ended_words)

    def _take(self, view: RoomView) -> None:
        now = self.clock()
        self._deadlines = {
            mark: now + seat.away_left
            for mark, seat in view.seats.items()
            if seat.away_left is not None
        }
        before, self.view = self.view, view
        if view.started and view.game not in self._started:
            self._started[view.game] = datetime.now(UTC)
        pending, resend, self._resend = self._pending, self._resend, False
        if pending is not None:
            game, seq, cell = pending
            if view.game != game or len(view.moves) > seq or view.ending is not None:
                self._pending = None
            elif resend:
                # Sent just before the connection went, perhaps never received: the
                # server applies it once whether or not it had it.
                self.run_worker(self.client.move(game, seq, cell), group="online-send")
        if (before is None or before.ending is None) != (view.ending is None):
            self.refresh_bindings()
        said = changes(before, view, self._left())
        if said:
            self._say(said)
        self._show()
        self._keep(view)

    def _keep(self, view: RoomView) -> None:
        if view.ending is None or view.game in self._recorded:
            return
        self._recorded.add(view.game)
        started = self._started.get(view.game, datetime.now(UTC))
        record = record_of_view(view, started, datetime.now(UTC))
        if record is not None:
            self.record(record)

    # Drawing ---------------------------------------------------------------------------

    def _left(self) -> dict[str, float | None]:
        now = self.clock()
        return {mark: max(0.0, end - now) for mark, end in self._deadlines.items()}

    def _show(self) -> None:
        view = self.view
        title = self.query_one("#online-title", Static)
        players = self.query_one("#online-players", Static)
        line = self.query_one("#online-status", Static)
        if view is None:
            title.update("ttt-tui online")
            line.update(self.ended_words or "Joining the room…")
            return
        x, o = view.seats["X"], view.seats["O"]
        if view.you is None:
            title.update(f"Watching {x.name} (X) vs {o.name} (O), game {view.game}")
        else:
            them = view.seats["O" if view.you == "X" else "X"]
            title.update(f"Online: you play {view.you} against {them.name}, game {view.game}")
        players.update(
            "\n".join(
                f"{mark}: {seat.name}{'' if seat.present or not view.started else ' (away)'}"
                for mark, seat in sorted(view.seats.items(), reverse=True)
            )
            + (f"\nWatching: {view.watchers}" if view.watchers else "")
        )
        line.update(self.ended_words or status(view, self._left(), self.connected))
        board = board_of(view)
        winner = board.status.winner
        self.query_one(BoardView).state = BoardState(
            board=board,
            last_move=view.moves[-1] if view.moves else None,
            line_lost=winner is not None and view.you is not None and winner.value != view.you,
            verdicts={},
            hints=frozenset(),
            named=self.screen_reader,
        )

    def _say(self, words: str) -> None:
        self.said = words
        self.query_one("#online-line", Static).update(words)

    # What the person does -------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter plays a typed number only while one waits; else the board has the key."""
        if action == "play_typed":
            return bool(self.query_one(BoardView).typed)
        if action == "rematch":  # the footer offers it once a game has ended
            view = self.view
            return view is not None and view.you is not None and view.ending is not None
        return True

    def action_digit(self, digit: int) -> None:
        """Name a square by its number, digit by digit."""
        self.query_one(BoardView).type_digit(digit)

    def action_play_typed(self) -> None:
        """Play the square whose number waits for a second digit."""
        self.query_one(BoardView).play_typed()

    @on(BoardView.NoSuchSquare)
    def _no_such_square(self, message: BoardView.NoSuchSquare) -> None:
        self._say(f"There is no square {message.number}: the squares are 1 to {message.squares}.")

    @on(BoardView.CellChosen)
    def _chosen(self, message: BoardView.CellChosen) -> None:
        view = self.view
        if view is None or not self.connected or self.ended_words:
            return
        if view.you is None:
            self._say("Watchers cannot move.")
            return
        if not view.started or view.ending is not None:
            self._say(ERROR_WORDS["waiting" if not view.started else "game-over"])
            return
        board = board_of(view)
        if board.to_move is not Player(view.you):
            self._say(ERROR_WORDS["not-your-turn"])
            return
        if board[message.cell] is not None:
            self._say(ERROR_WORDS["illegal"])
            return
        self._pending = (view.game, len(view.moves), message.cell)
        self.run_worker(
            self.client.move(view.game, len(view.moves), message.cell), group="online-send"
        )

    def action_rematch(self) -> None:
        """Ask for another game, once this one has ended."""
        view = self.view
        if view is None or view.you is None or view.ending is None:
            self._say("Another game can be asked for once this one has ended.")
            return
        self.run_worker(self.client.send('{"type":"rematch"}'), group="online-send")

    def action_leave(self) -> None:
        """Quit; mid-game, ask first, as the friend then wins."""
        view = self.view
        in_play = (
            view is not None
            and view.you is not None
            and view.started
            and view.ending is None
            and self.connected
            and not self.ended_words
        )
        if not in_play:
            self.leave_now()
            return
        assert view is not None and view.you is not None
        them = view.seats["O" if view.you == "X" else "X"].name

        def answered(leave: bool | None) -> None:
            if leave:
                self.leave_now()

        self.app.push_screen(
            ConfirmScreen(f"Leave the game? {them} is told, and wins it.", "Leave", "Stay"),
            answered,
        )

    @work(exclusive=True, group="online-quit", exit_on_error=False)
    async def leave_now(self) -> None:
        """Leave without asking: the friend is told (mid-game, they win), the screen
        dismissed."""
        self._leaving = True
        view = self.view
        if view is not None and view.you is not None and view.started and view.ending is None:
            # Left mid-game: the server ends it so, and this player's record says so
            # too, as no state will come to say it once the screen has gone.
            them = "O" if view.you == "X" else "X"
            self._keep(replace(view, ending={"kind": "left", "winner": them, "by": view.you}))
        if self.connected and not self.ended_words:
            await self.client.send('{"type":"leave"}')
        # The question asked over this screen (ctrl+q asks it, and answers it when asked
        # again) goes with it.
        while self.app.screen is not self and self in self.app.screen_stack:
            await self.app.pop_screen()
        self.dismiss()

    async def on_unmount(self) -> None:
        """The connection closes with the screen, however the screen went (the app
        quitting under it included)."""
        await self.client.close()
