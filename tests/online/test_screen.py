"""The online screen through Pilot, against a real room server on loopback: the friend's
moves drawn and said, the person's sent, the result shown and recorded once, the
friend's drop said with the time left, and leaving mid-game asked first."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest
from textual.pilot import Pilot

from ttt_tui.commands.online import OnlineApp
from ttt_tui.online.client import RoomClient
from ttt_tui.online.protocol import Invite, RoomView, read_state
from ttt_tui.online.room import Seat
from ttt_tui.online.server import RoomServer
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode
from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.screens.online import OnlineScreen
from ttt_tui.storage.model import GameRecord


@dataclass
class Room:
    server: RoomServer
    invites: dict[Seat | None, Invite]


@pytest.fixture
async def room() -> AsyncIterator[Room]:
    server = RoomServer()
    port = await server.start("127.0.0.1", 0)
    name = server.create_room(host_name="Ann", grace=100.0)
    yield Room(server, server.invites(name, "127.0.0.1", port))
    await server.stop()


@pytest.fixture
async def players(room: Room) -> AsyncIterator[tuple[RoomClient, RoomClient]]:
    """Ann in the host's seat and Bob in the guest's, both let in; closed after."""
    host = RoomClient(room.invites[Seat.HOST], "Ann")
    await host.connect()
    guest = RoomClient(room.invites[Seat.GUEST], "Bob")
    await guest.connect()
    yield host, guest
    await host.close()
    await guest.close()


async def until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    """Let the app run until ``done``, for at most 3 seconds."""
    for _ in range(300):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")


async def host_sees(host: RoomClient, moves: int) -> RoomView:
    while True:
        message = await asyncio.wait_for(host.receive(), 3.0)
        assert message is not None
        if message["type"] == "state" and len((view := read_state(message)).moves) >= moves:
            return view


def texts(screen: OnlineScreen) -> tuple[str, str]:
    """The status and the spoken line, as on screen."""
    status = str(screen.query_one("#online-status").render())
    return status, screen.said


async def test_a_whole_game_against_a_friend_drawn_said_and_recorded(
    players: tuple[RoomClient, RoomClient],
) -> None:
    host, guest = players
    records: list[GameRecord] = []
    screen = OnlineScreen(guest, record=records.append)
    app = OnlineApp(screen, "textual-dark")
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: screen.view is not None, "a first state")
        assert texts(screen)[0] == "Ann's move (X)."
        await host.move(1, 0, 4)
        await until(pilot, lambda: screen.view is not None and len(screen.view.moves) == 1, "b2")
        assert texts(screen) == ("Your move (O).", "X plays b2. Your move.")
        await pilot.press("5")  # taken: said, not sent
        assert screen.said == "That square is taken."
        await pilot.press("1")
        assert (await host_sees(host, 2)).moves == (4, 0)
        await host.move(1, 2, 2)
        await host_sees(host, 3)
        await until(pilot, lambda: screen.view is not None and len(screen.view.moves) == 3, "c1")
        await pilot.press("2")
        await host_sees(host, 4)
        await host.move(1, 4, 6)
        await until(pilot, lambda: bool(records), "the record")
        assert texts(screen)[0] == "Ann (X) won. Press n for another game (you swap marks)."
        assert screen.said == "X plays a3. Ann (X) won."
        [record] = records
        assert (record.mode, record.opponent, record.result) == (Mode.ONLINE, "Ann", Result.X_WON)
        assert record.moves == (4, 0, 2, 1, 6)
        await pilot.press("q")  # the game is over: no question
        await until(pilot, lambda: not app.is_running, "the app's end")
    assert len(records) == 1


@pytest.mark.long
async def test_the_friend_s_drop_is_said_and_leaving_mid_game_is_asked_first(
    players: tuple[RoomClient, RoomClient],
) -> None:
    host, guest = players
    records: list[GameRecord] = []
    screen = OnlineScreen(guest, record=records.append)
    app = OnlineApp(screen, "textual-dark")
    async with app.run_test(size=(100, 30)) as pilot:
        await host.move(1, 0, 4)
        await until(pilot, lambda: screen.view is not None and len(screen.view.moves) == 1, "b2")
        await host.close()
        await until(pilot, lambda: "reconnecting" in screen.said, "the drop said")
        assert screen.said in (
            "X is reconnecting, 1 minute 40 left.",
            "X is reconnecting, 1 minute 39 left.",
        )
        assert texts(screen)[0].startswith("Ann (X) is reconnecting, 1 minute ")
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.screen is screen and not records
        # ctrl+q, Textual's quit, asks the same; asked again, it is the answer yes.
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: not app.is_running, "the app's end")
    [record] = records
    assert record.result is Result.ABANDONED and record.opponent == "Ann"


@pytest.mark.long
async def test_a_lost_connection_is_joined_again_by_itself(
    room: Room, players: tuple[RoomClient, RoomClient]
) -> None:
    host, guest = players
    screen = OnlineScreen(guest, record=lambda record: None)
    app = OnlineApp(screen, "textual-dark")
    async with app.run_test(size=(100, 30)) as pilot:
        await host.move(1, 0, 4)
        await until(pilot, lambda: screen.view is not None and len(screen.view.moves) == 1, "b2")
        # The network goes: the server's side of the guest's connection is cut.
        held = room.server.rooms[room.invites[Seat.GUEST].room].seats[Seat.GUEST].connection
        assert held is not None
        transport = room.server.connections[held].transport
        assert transport is not None
        transport.abort()
        await until(pilot, lambda: screen.said == "Connected again.", "the reconnect")
        assert screen.connected and texts(screen)[0] == "Your move (O)."
        await pilot.press("1")
        assert (await host_sees(host, 2)).moves == (4, 0)
        await pilot.press("q", "y")
        await until(pilot, lambda: not app.is_running, "the app's end")
