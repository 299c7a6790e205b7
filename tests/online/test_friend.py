"""Playing a friend from the game in a tab of `ttt-tui serve`, through Pilot: the tab's
server (its rooms and what its tabs ask on its private socket) runs in the test, and the
friend is a scripted client. A room made by "Play a friend" shows invites at the
browser's address, a whole game is played and recorded, and leaving returns to the game;
an invite a page brought is joined at once; "Join a friend's game" joins a room another
server holds (as `ttt-tui host`'s), and says each refusal in one sentence. In a
terminal's game, the same keys say to use `ttt-tui host` and `ttt-tui join`."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp import web
from textual.pilot import Pilot
from textual.widgets import Input

from tests.support import Toast, drawn_text, make_app, start, stored, until
from tests.support.serving import game_server, socket_path
from ttt_tui.app import TicTacToeApp
from ttt_tui.commands.serve import GameServer, Tab
from ttt_tui.online.client import RoomClient
from ttt_tui.online.protocol import Invite, RoomView, read_invite, read_state
from ttt_tui.online.room import Refusal, Seat
from ttt_tui.online.server import RoomServer
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode
from ttt_tui.screens.friend import OUTSIDE_SERVE, JoinScreen, ServedTab
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.help import key_rows
from ttt_tui.screens.online import OnlineScreen
from ttt_tui.storage import Store
from ttt_tui.widgets.board import BoardView

BROWSER = "http://games.example:8000"
"""The address the tab's browser used: what its invites name."""


@dataclass
class Served:
    """A `ttt-tui serve`'s rooms and private socket, with one tab."""

    server: GameServer
    tab: ServedTab

    def join_tab(self) -> ServedTab:
        """The same tab, its page having brought an invite."""
        return ServedTab(self.tab.socket, self.tab.ticket, joining=True)


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    with socket_path() as socket:
        server = game_server(socket)
        server.tabs["ticket"] = Tab(BROWSER)
        runner = web.AppRunner(server.tabs_app())
        await runner.setup()
        await web.UnixSite(runner, socket).start()
        try:
            yield Served(server, ServedTab(socket, "ticket"))
        finally:
            await server.rooms.stop()
            await runner.cleanup()


async def sees(client: RoomClient, moves: int) -> RoomView:
    """The first state ``client`` is sent with at least ``moves`` moves."""
    while True:
        message = await asyncio.wait_for(client.receive(), 5.0)
        assert message is not None
        if message["type"] == "state" and len((view := read_state(message)).moves) >= moves:
            return view


def toasts(app: TicTacToeApp) -> str:
    """What the toasts over the screen say, their lines run together."""
    return " ".join(" ".join(str(toast.render()).split()) for toast in app.screen.query(Toast))


def moves(screen: OnlineScreen) -> int:
    """How many moves the screen has been shown."""
    return 0 if screen.view is None else len(screen.view.moves)


def has_moves(screen: OnlineScreen, count: int) -> bool:
    return moves(screen) == count


def online(app: TicTacToeApp) -> OnlineScreen:
    screen = app.screen
    assert isinstance(screen, OnlineScreen), type(screen)
    return screen


async def test_play_a_friend_makes_a_room_its_invites_at_the_browser_s_address(
    served: Served, tmp_path: Path
) -> None:
    """f makes a room with this player as X; a friend joins with the play invite; the
    whole game is drawn on both sides, recorded here, and q returns to the game."""
    store = Store(tmp_path / "data")
    app = make_app(tab=served.tab, store=store)
    async with app.run_test(size=(110, 36)) as pilot:
        game = await start(pilot)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, OnlineScreen), "the online screen")
        screen = online(app)
        assert screen.invites is not None
        play, watch = screen.invites
        assert play.startswith(f"{BROWSER}/room/") and watch.startswith(f"{BROWSER}/room/")
        assert play != watch
        shown = drawn_text(app)
        assert f"Invite your friend to play: {play}" in shown and f"To watch: {watch}" in shown
        [room] = served.server.rooms.rooms.values()
        assert room.n == 3
        # Over an online game the palette offers nothing of the game waiting under it.
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert not titles & {"Hint", "Coach on/off", "New game", "Play a friend"}, titles

        # The friend, as `ttt-tui join` or a browser tab would, with the play invite.
        friend = RoomClient(read_invite(play), "Bob", unix=served.tab.socket)
        assert await friend.connect() == "guest"
        await until(pilot, lambda: screen.view is not None and screen.view.started, "started")
        for turn, (mine, theirs) in enumerate(((0, 3), (1, 4))):  # X a1, b1; O a2, b2
            await pilot.press(str(mine + 1))
            await sees(friend, 2 * turn + 1)  # the friend sees X's move...
            await friend.move(1, 2 * turn + 1, theirs)
            arrived = functools.partial(has_moves, screen, 2 * turn + 2)
            await until(pilot, arrived, "the friend's move")
        await pilot.press("3")  # c1: three in a row
        view = await sees(friend, 5)
        assert view.ending is not None and view.ending["winner"] == "X"
        await until(pilot, lambda: moves(screen) == 5, "the end")
        assert screen.view is not None and screen.view.ending == view.ending
        assert screen.view.moves == view.moves == (0, 3, 1, 4, 2)
        assert "You won" in drawn_text(app)
        await friend.close()
        await pilot.press("q")
        await until(pilot, lambda: app.screen is game, "back to the game")
    [record] = stored(store)
    assert record.mode is Mode.ONLINE and record.result is Result.X_WON
    assert record.moves == (0, 3, 1, 4, 2)


async def test_an_invite_a_page_brought_is_joined_at_once(served: Served) -> None:
    """A tab opened at an invite joins its room as the seat (or watcher) it opens."""
    rooms = served.server.rooms
    name = rooms.create_room(host_name="Ann")
    invites = rooms.invites(name, "games.example", 8000)
    host = RoomClient(invites[Seat.HOST], "Ann", unix=served.tab.socket)
    await host.connect()
    served.server.tabs["ticket"].brought = invites[Seat.GUEST]
    app = make_app(tab=served.join_tab())
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, OnlineScreen), "the online screen")
        screen = online(app)
        await until(pilot, lambda: screen.view is not None, "a first state")
        assert screen.view is not None and screen.view.you == "O"
        assert "you play O against Ann" in drawn_text(app)
        assert served.server.tabs["ticket"].brought is None  # taken once
    await host.close()


async def test_a_used_up_invite_a_page_brought_is_one_sentence_over_the_game(
    served: Served,
) -> None:
    rooms = served.server.rooms
    name = rooms.create_room(host_name="Ann")
    invite = rooms.invites(name, "games.example", 8000)[Seat.GUEST]
    taken = RoomClient(invite, "Bob", unix=served.tab.socket)
    await taken.connect()
    served.server.tabs["ticket"].brought = invite
    app = make_app(tab=served.join_tab())
    async with app.run_test(size=(110, 36), notifications=True) as pilot:
        await start(pilot)
        await until(pilot, lambda: "Could not join" in toasts(app), "the refusal")
        assert isinstance(app.screen, GameScreen)
        assert toasts(app) == f"Could not join: {Refusal.SEAT_TAKEN.message}."
    await taken.close()


async def ask_to_join(pilot: Pilot[None], app: TicTacToeApp, text: str) -> JoinScreen:
    if not isinstance(app.screen, JoinScreen):
        await app.run_action("screen.join_friend")
        await until(pilot, lambda: isinstance(app.screen, JoinScreen), "the dialog")
    dialog = app.screen
    assert isinstance(dialog, JoinScreen)
    await until(pilot, lambda: bool(dialog.query(Input)), "the dialog's input")
    dialog.query_one(Input).value = text
    await pilot.press("enter")
    return dialog


def said(dialog: JoinScreen) -> str:
    return str(dialog.query_one("#join-problem").render())


@pytest.fixture
async def elsewhere() -> AsyncIterator[tuple[RoomServer, dict[Seat | None, Invite]]]:
    """A room on another server, over the network, as `ttt-tui host` serves it."""
    server = RoomServer()
    port = await server.start("127.0.0.1", 0)
    name = server.create_room(host_name="Ann")
    yield server, server.invites(name, "127.0.0.1", port)
    await server.stop()


async def test_join_a_friend_s_game_joins_another_server_s_room_and_says_each_refusal(
    served: Served, elsewhere: tuple[RoomServer, dict[Seat | None, Invite]]
) -> None:
    _, invites = elsewhere
    play = invites[Seat.GUEST]
    app = make_app(tab=served.tab)
    async with app.run_test(size=(110, 36)) as pilot:
        game = await start(pilot)
        dialog = await ask_to_join(pilot, app, "not an invite")
        assert said(dialog) == "That is not an invite: an invite starts with http:// or https://."
        wrong = Invite(play.host, play.port, play.room, "x" * len(play.secret))
        await ask_to_join(pilot, app, wrong.url)
        await until(pilot, lambda: said(dialog).startswith("Could not join"), "a refusal")
        assert said(dialog) == (
            "Could not join: that invite opens no seat: it is mistyped, or its room has ended."
        )
        nobody = Invite("127.0.0.1", 9, play.room, play.secret)  # the discard port
        await ask_to_join(pilot, app, nobody.url)
        await until(pilot, lambda: said(dialog).startswith("Could not join: no"), "no server")
        await ask_to_join(pilot, app, play.url)
        await until(pilot, lambda: isinstance(app.screen, OnlineScreen), "the online screen")
        screen = online(app)
        await until(pilot, lambda: screen.view is not None, "a first state")
        assert screen.view is not None and screen.view.you == "O"
        await pilot.press("q")
        await until(pilot, lambda: app.screen is game, "back to the game")


async def test_a_held_seat_is_refused_in_the_join_dialog(
    served: Served, elsewhere: tuple[RoomServer, dict[Seat | None, Invite]]
) -> None:
    _, invites = elsewhere
    holder = RoomClient(invites[Seat.GUEST], "Bob")
    await holder.connect()
    app = make_app(tab=served.tab)
    async with app.run_test(size=(110, 36)) as pilot:
        await start(pilot)
        dialog = await ask_to_join(pilot, app, invites[Seat.GUEST].url)
        await until(pilot, lambda: said(dialog).startswith("Could not join"), "a refusal")
        assert said(dialog) == f"Could not join: {Refusal.SEAT_TAKEN.message}."
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game again")
    await holder.close()


async def test_in_a_terminal_s_game_play_a_friend_says_to_use_host_and_join() -> None:
    app = make_app()
    async with app.run_test(size=(110, 36), notifications=True) as pilot:
        await start(pilot)
        await pilot.press("f")
        await until(pilot, lambda: bool(toasts(app)), "the sentence")
        assert toasts(app) == OUTSIDE_SERVE
        app.clear_notifications()
        await until(pilot, lambda: not toasts(app), "the toast gone")
        await app.run_action("screen.join_friend")
        await until(pilot, lambda: bool(toasts(app)), "the sentence")
        assert toasts(app) == OUTSIDE_SERVE
        assert isinstance(app.screen, GameScreen)


async def test_the_palette_offers_both_and_the_help_lists_the_key() -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await start(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Play a friend" in titles and "Join a friend's game" in titles
    rows = dict(key_rows(BoardView, GameScreen, TicTacToeApp))
    assert rows["f"].startswith("play a friend")
