"""Playing a friend from the game in a tab of `ttt-tui serve`: a room made on that server
with this player in its host seat ("Play a friend"), the invite a tab's page brought,
or one pasted ("Join a friend's game"); the online screen then opens over the game, which
waits under it and comes back when it closes.

A tab reaches its server through `ttt_tui.online.client.ServeTab`, loaded (with aiohttp)
only when a friend is played. In a terminal there is no server to make a room on:
`ttt-tui host` and `ttt-tui join` are the way, and the game says so (`OUTSIDE_SERVE`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from ttt_tui.play.session import Session
from ttt_tui.screens.dialog import Dialog
from ttt_tui.storage.saver import Saver

if TYPE_CHECKING:
    from ttt_tui.online.client import JoinRefused, RoomClient, ServeTab
    from ttt_tui.online.protocol import Invite
    from ttt_tui.screens.online import OnlineScreen

OUTSIDE_SERVE = (
    "To play a friend from a terminal, run ttt-tui host; to join one, ttt-tui join INVITE."
)
"""What "Play a friend" and "Join a friend's game" say in a terminal's game."""

REFUSED_SECONDS = 30.0
"""How long a refusal stays on the screen."""


@dataclass(frozen=True)
class ServedTab:
    """A tab's game under `ttt-tui serve`: where that server's own socket is, the tab's
    ticket there, and whether its page brought an invite to join."""

    socket: str
    ticket: str
    joining: bool = False

    def server(self) -> ServeTab:
        """The way to the server's rooms."""
        from ttt_tui.online.client import ServeTab

        return ServeTab(self.socket, self.ticket)


class JoinScreen(Dialog["RoomClient | None"]):
    """Asks for a friend's invite and joins it: the client let in, or None if closed. A
    refusal is said on the dialog, which stays open for another try."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    DEFAULT_CSS = """
    JoinScreen {
        align: center middle;
        background: $background 60%;
    }
    JoinScreen > Vertical {
        width: 72;
        max-width: 100%;
        height: auto;
        border: round $primary;
        background: $surface;
        padding: 1 2;
    }
    JoinScreen #join-problem {
        margin-top: 1;
        color: $text-warning;
    }
    """

    def __init__(self, tab: ServedTab) -> None:
        super().__init__()
        self.tab = tab

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Paste your friend's invite (to play or to watch), then Enter:")
            yield Input(placeholder="http://…/room/…#…", id="join-invite")
            yield Static("Escape closes.", id="join-problem", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        from ttt_tui.online.protocol import InviteError, read_invite

        try:
            invite = read_invite(event.value)
        except InviteError as error:
            self._say(f"That is not an invite: {error}.")
            return
        self._say("Joining…")
        self._join(invite)

    @work(exclusive=True, group="join", exit_on_error=False)
    async def _join(self, invite: Invite) -> None:
        from ttt_tui.online.client import JoinRefused

        try:
            client = await self.tab.server().join(invite, "")
        except JoinRefused as refused:
            self._say(refusal(refused))
            return
        self.dismiss(client)

    def _say(self, words: str) -> None:
        self.query_one("#join-problem", Static).update(words)

    def action_close(self) -> None:
        """Close without joining."""
        self.dismiss(None)


def refusal(refused: JoinRefused) -> str:
    """A refused join in one sentence."""
    said = str(refused).rstrip(".")
    return f"Could not join: {said[:1].lower()}{said[1:]}."


class Friends:
    """Play a friend from the game on ``screen``: through ``tab``'s server in a served
    tab, else a sentence that says how (`OUTSIDE_SERVE`). ``opened`` is handed the online
    screen, to show over the game (False if it cannot be, another screen being open
    there); its games are recorded by ``saver``."""

    def __init__(
        self,
        screen: Screen[None],
        session: Session,
        saver: Saver,
        tab: ServedTab | None,
        opened: Callable[[OnlineScreen], bool],
    ) -> None:
        self._screen = screen
        self._session = session
        self._saver = saver
        self.tab = tab
        self._opened = opened

    def host(self) -> None:
        """Make a room, this player in its host seat, and show its invites."""
        if self.tab is None:
            self._screen.notify(OUTSIDE_SERVE, timeout=REFUSED_SECONDS)
            return
        tab = self.tab
        n = self._session.game.board.n

        async def host() -> None:
            from ttt_tui.online.client import JoinRefused

            try:
                client, invites = await tab.server().host(n, "")
            except JoinRefused as refused:
                self._refused(f"No room was made: {refused}")
                return
            self._open(client, invites)

        self._screen.run_worker(host(), group="friend", exclusive=True, exit_on_error=False)

    def join_brought(self) -> None:
        """Join the invite the tab's page brought."""
        if self.tab is None:
            return
        server = self.tab.server()

        async def join() -> None:
            from ttt_tui.online.client import JoinRefused

            try:
                client = await server.join(await server.brought(), "")
            except JoinRefused as refused:
                self._refused(refusal(refused))
                return
            self._open(client, None)

        self._screen.run_worker(join(), group="friend", exclusive=True, exit_on_error=False)

    def ask(self) -> None:
        """Ask for a friend's invite, and join it."""
        if self.tab is None:
            self._screen.notify(OUTSIDE_SERVE, timeout=REFUSED_SECONDS)
            return

        def joined(client: RoomClient | None) -> None:
            if client is not None:
                self._open(client, None)

        self._screen.app.push_screen(JoinScreen(self.tab), joined)

    def _refused(self, words: str) -> None:
        self._screen.notify(words, severity="error", timeout=REFUSED_SECONDS)

    def _open(self, client: RoomClient, invites: tuple[str, str] | None) -> None:
        from ttt_tui.screens.online import OnlineScreen

        screen = OnlineScreen(
            client,
            record=self._saver.record_game,
            invites=invites,
            screen_reader=self._session.settings.screen_reader,
        )
        if not self._opened(screen):
            # Let in meanwhile, with another screen over the game: the seat is given back.
            self._screen.run_worker(client.close(), group="friend-close")
