"""`ttt-tui serve`'s rooms, in this process: the page opened at an invite (its secret
sent as the websocket's first message, never in a URL), what its websocket says to an
invite that cannot be used, the invites at the browser's address, the rooms' game socket
on the same port, and the limits' options. No game process is started here; a tab's
game that plays a friend is in `tests/online/test_friend.py`, and the whole thing in
processes and in a browser in the long tier (`test_serve.py`, `test_browser.py`)."""

from __future__ import annotations

import re
import shlex
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from tests.support.serving import Terminal, game_server, socket_path
from ttt_tui.__main__ import build_parser
from ttt_tui.commands.serve import JOIN_TIMEOUT, GameServer, invite_at
from ttt_tui.online.client import JoinRefused, RoomClient
from ttt_tui.online.limits import DEFAULT_MAX_ROOMS, DEFAULT_PER_ADDRESS
from ttt_tui.online.protocol import Invite
from ttt_tui.online.room import Seat
from ttt_tui.online.server import RoomServer


@pytest.fixture
async def server() -> AsyncIterator[tuple[GameServer, str]]:
    """The server's application on loopback (no tab's game is started), and its address."""
    with socket_path() as socket:
        game = game_server(socket)
        runner = web.AppRunner(await game.application())
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            yield game, f"http://127.0.0.1:{port}"
        finally:
            await game.rooms.stop()
            await runner.cleanup()


async def test_an_invite_s_page_sends_its_secret_first_and_keeps_it_out_of_urls(
    server: tuple[GameServer, str],
) -> None:
    _, url = server
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{url}/room/ROOM-name_1") as response:
            assert response.status == 200
            page = await response.text()
        async with http.get(f"{url}/room/no.such") as response:
            assert response.status == 404
        async with http.get(f"{url}/") as response:
            home = await response.text()
    assert 'data-session-websocket-url="ws://127.0.0.1:' in page
    [socket] = re.findall(r'data-session-websocket-url="([^"]+)"', page)
    assert socket.endswith("/ws/join")
    # The script sends the room and the page's #part as the socket's first message.
    assert 'room: "ROOM-name_1"' in page and "window.location.hash.slice(1)" in page
    assert "socket.send(join)" in page
    # The other mode's link is the same invite's page (its #part added by the script).
    assert f'href="{url}/room/ROOM-name_1?screen-reader=1"' in page
    assert "socket.send(join)" not in home and "/ws/join" not in home


async def said_on_joining(url: str, first: str | None) -> str:
    """What a page opened at an invite is shown after sending ``first`` (or nothing)."""
    terminal = Terminal((160, 24))
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(f"{url.replace('http', 'ws')}/ws/join?width=160&height=24") as socket,
    ):
        if first is not None:
            await socket.send_str(first)
        async for message in socket:
            if message.type is aiohttp.WSMsgType.BINARY:
                terminal.draw(message.data)
    return " ".join(terminal.text.split())


@pytest.mark.parametrize(
    ("first", "words"),
    [
        ('["stdin", "x"]', "This page did not send its invite: open the whole invite link again."),
        ("not json", "This page did not send its invite: open the whole invite link again."),
        (
            '["join", {"room": "abcdefghijkl", "secret": ""}]',
            "This invite cannot be used: the invite has no secret after its #: was it cut short?",
        ),
        (
            '["join", {"room": "a/b", "secret": "abcdefghijklmnop"}]',
            "This invite cannot be used: the invite's room name is not one ttt-tui makes.",
        ),
    ],
    ids=["not-a-join", "not-json", "no-secret", "bad-room"],
)
async def test_a_page_that_brings_no_usable_invite_is_told_in_a_sentence_and_gets_no_game(
    server: tuple[GameServer, str], first: str, words: str
) -> None:
    game, url = server
    assert await said_on_joining(url, first) == words
    assert game.games == {} and game.tabs == {}


async def test_a_page_that_sends_nothing_is_told_after_the_wait(
    server: tuple[GameServer, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ttt_tui.commands.serve.JOIN_TIMEOUT", 0.2)
    assert JOIN_TIMEOUT > 0.2
    _, url = server
    said = await said_on_joining(url, None)
    assert said == "This page did not send its invite: open the whole invite link again."


async def test_the_rooms_game_socket_is_on_the_same_port(server: tuple[GameServer, str]) -> None:
    """A terminal's `ttt-tui join` reaches a tab's room at the address the page has."""
    game, url = server
    name = game.rooms.create_room(host_name="Ann")
    port = int(url.rpartition(":")[2])
    invites = game.rooms.invites(name, "127.0.0.1", port)
    friend = RoomClient(invites[Seat.GUEST], "Bob")
    assert await friend.connect() == "guest"
    await friend.close()


def test_invites_name_the_address_the_browser_used() -> None:
    assert invite_at("http://192.0.2.7:8000", "room", "s" * 16) == Invite(
        "192.0.2.7", 8000, "room", "s" * 16, False
    )
    assert invite_at("https://games.example/ttt", "room", "secret").url == (
        "https://games.example:443/room/room#secret"
    )
    assert invite_at("http://[::1]:80", "r", "s").url == "http://[::1]:80/room/r#s"


def test_the_limits_options_of_serve_and_host() -> None:
    parser = build_parser()
    args = parser.parse_args(["serve", "--max-rooms", "3", "--per-address", "2"])
    assert (args.max_rooms, args.per_address) == (3, 2)
    args = parser.parse_args(["serve"])
    assert (args.max_rooms, args.per_address) == (DEFAULT_MAX_ROOMS, DEFAULT_PER_ADDRESS)
    assert parser.parse_args(["host", "--per-address", "4"]).per_address == 4
    for bad in (["serve", "--max-rooms", "0"], ["serve", "--per-address", "x"]):
        with pytest.raises(SystemExit):
            parser.parse_args(bad)


async def test_the_tabs_own_connections_are_not_counted_as_one_address() -> None:
    """Every tab's game reaches the rooms from this machine, on the server's own socket:
    the per-address limit holds for the network, and not for them."""
    with socket_path() as socket:
        game = game_server(socket, rooms=RoomServer(per_address=1))
        public = web.AppRunner(await game.application())
        tabs = web.AppRunner(game.tabs_app())
        clients: list[RoomClient] = []
        try:
            for runner in (public, tabs):
                await runner.setup()
            await web.UnixSite(tabs, socket).start()
            await web.TCPSite(public, "127.0.0.1", 0).start()
            port = public.addresses[0][1]
            invites = game.rooms.invites(game.rooms.create_room(), "127.0.0.1", port)
            for seat in (Seat.HOST, Seat.GUEST, None):
                clients.append(RoomClient(invites[seat], "", unix=socket))
                await clients[-1].connect()
            clients.append(RoomClient(invites[None], ""))
            await clients[-1].connect()  # the network's one
            clients.append(RoomClient(invites[None], ""))
            with pytest.raises(JoinRefused) as refused:
                await clients[-1].connect()
            assert refused.value.reason == "too-many"
        finally:
            for client in clients:
                await client.close()
            await game.rooms.stop()
            for runner in (public, tabs):
                await runner.cleanup()


@pytest.mark.parametrize("ticket", ["-Ab3_x", "--Ab3_x", "plain-ticket"])
def test_a_tab_s_ticket_reaches_its_game_whatever_its_first_character(ticket: str) -> None:
    """Tickets are `secrets.token_urlsafe`, which may begin with ``-``: given as an option's
    own word, such a ticket was taken for an option, and the tab's game did not start."""
    game = game_server("unused.sock", "--ai-delay", "0")
    argv = shlex.split(game.tab_command(False, ticket, joining=True))
    args = build_parser().parse_args(argv[argv.index("ttt_tui") + 1 :])
    assert (args.serve_tab, args.serve_join, args.ai_delay) == (ticket, True, 0)
