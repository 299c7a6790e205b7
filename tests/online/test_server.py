"""The room server on loopback, spoken to with aiohttp's client: whole games, seats
that nobody else takes, reconnects, and every kind of bad input closing only its own
connection. Each test takes milliseconds: one server, a few sockets, a fake clock."""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from ttt_tui.engine import Player
from ttt_tui.online import protocol
from ttt_tui.online import server as server_module
from ttt_tui.online.client import JoinRefused, RoomClient
from ttt_tui.online.protocol import MAX_FRAME, Invite, read_state
from ttt_tui.online.room import LIVE_WINDOW, Seat
from ttt_tui.online.server import OUTBOX, REFUSED_CODE, Connection, RoomServer, RoomsFull


@dataclass
class Clock:
    """A clock the test moves by hand."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Served:
    server: RoomServer
    clock: Clock
    room: str
    invites: dict[Seat | None, Invite]
    session: aiohttp.ClientSession
    """For bare sockets (`raw`), closed after the test."""


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    clock = Clock()
    server = RoomServer(clock=clock, max_rooms=3, per_address=8, idle=600.0, hello_timeout=0.2)
    port = await server.start("127.0.0.1", 0)
    room = server.create_room(host_name="Ann", grace=60.0)
    async with aiohttp.ClientSession() as session:
        yield Served(server, clock, room, server.invites(room, "127.0.0.1", port), session)
        await server.stop()


async def join(invite: Invite, name: str = "") -> RoomClient:
    client = RoomClient(invite, name)
    await client.connect()
    return client


async def next_of(client: RoomClient, kind: str) -> dict[str, object]:
    """The client's next message of a type, those before it skipped."""
    while True:
        message = await asyncio.wait_for(client.receive(), 2.0)
        assert message is not None, f"closed while waiting for {kind}"
        if message["type"] == kind:
            return message


async def state_after(client: RoomClient, moves: int) -> protocol.RoomView:
    """The first state the client is sent with at least ``moves`` moves."""
    while True:
        view = read_state(await next_of(client, "state"))
        if len(view.moves) >= moves:
            return view


async def play(host: RoomClient, guest: RoomClient, *cells: int) -> protocol.RoomView:
    """Play ``cells`` in game 1, host first, each seen by both before the next is sent
    (two connections' messages have no order between them)."""
    view = await state_after(host, 0)
    for seq, cell in enumerate(cells, start=len(view.moves)):
        assert await (host if seq % 2 == 0 else guest).move(1, seq, cell)
        view = await state_after(host, seq + 1)
        await state_after(guest, seq + 1)
    return view


async def players(served: Served) -> tuple[RoomClient, RoomClient]:
    host = await join(served.invites[Seat.HOST], "Ann")
    guest = await join(served.invites[Seat.GUEST], "Bob")
    return host, guest


async def raw(served: Served) -> aiohttp.ClientWebSocketResponse:
    """A bare socket to the server, to send it anything."""
    return await served.session.ws_connect(served.invites[None].socket_url)


async def refused_reason(socket: aiohttp.ClientWebSocketResponse) -> str:
    """The reason the server closed a socket: the ``refused`` message's, checked against
    the close frame's code and reason; ``too-big`` for a frame above the limit, which
    aiohttp itself closes with the standard code for it (1009) and no message."""
    reason, code = "", None
    while code is None:
        frame = await asyncio.wait_for(socket.receive(), 2.0)
        if frame.type is aiohttp.WSMsgType.TEXT:
            message = json.loads(frame.data)
            if message["type"] == "refused":
                reason = message["reason"]
        elif frame.type is aiohttp.WSMsgType.CLOSE:
            code = frame.data
            if code == REFUSED_CODE:
                assert frame.extra == reason
        else:
            raise AssertionError(f"closed without a reason: {frame}")
    if code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG:
        assert reason == ""
        return "too-big"
    assert code == REFUSED_CODE
    return reason


async def test_two_players_and_a_watcher_see_a_whole_game(served: Served) -> None:
    host, guest = await players(served)
    watcher = await join(served.invites[None])
    assert (host.role, guest.role, watcher.role) == ("host", "guest", "watcher")
    for seq, cell in enumerate((0, 3, 1, 4, 2)):
        mover = host if seq % 2 == 0 else guest
        assert await mover.move(1, seq, cell)
        for client in (host, guest, watcher):
            view = await state_after(client, seq + 1)
            assert view.moves[seq] == cell
    assert view.ending == {"kind": "won", "winner": "X", "by": None}
    assert view.seats["X"].name == "Ann" and view.seats["O"].name == "Bob"
    # The watcher cannot move, and is told why.
    await watcher.move(1, 5, 8)
    error = await next_of(watcher, "error")
    assert error["reason"] == "not-a-player"
    for client in (host, guest, watcher):
        await client.close()


async def test_a_move_out_of_turn_is_refused_with_a_reason_and_the_state(served: Served) -> None:
    host, guest = await players(served)
    await guest.move(1, 0, 4)
    assert (await next_of(guest, "error"))["reason"] == "not-your-turn"
    await host.move(1, 0, 4)
    await host.move(1, 0, 4)  # a resend: applied once
    view = await state_after(guest, 1)
    assert view.moves == (4,)
    await guest.move(1, 1, 4)
    assert (await next_of(guest, "error"))["reason"] == "illegal"
    assert served.server.rooms[served.room].moves == [4]
    await host.close()
    await guest.close()


async def test_a_third_connection_with_a_held_seat_s_invite_is_refused(served: Served) -> None:
    host, guest = await players(served)
    with pytest.raises(JoinRefused) as refused:
        await join(served.invites[Seat.GUEST])
    assert refused.value.reason == "seat-taken"
    assert "already being played" in str(refused.value)
    # The seat's own connection plays on.
    await host.move(1, 0, 4)
    assert (await state_after(guest, 1)).moves == (4,)
    await host.close()
    await guest.close()


async def test_a_silent_connection_is_replaced_by_the_same_invite(served: Served) -> None:
    host, guest = await players(served)
    served.clock.now += LIVE_WINDOW + 1
    again = await join(served.invites[Seat.GUEST])
    refused = await next_of(guest, "refused")
    assert refused["reason"] == "replaced"
    assert await guest.receive() is None
    await host.move(1, 0, 4)
    assert (await state_after(again, 1)).moves == (4,)
    for client in (host, guest, again):
        await client.close()


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"secret": "A" * 24}, "wrong-invite"),
        ({"room": "B" * 12}, "wrong-invite"),
        ({"protocol": 99}, "version"),
    ],
)
async def test_a_wrong_invite_or_version_is_refused(
    served: Served, change: dict[str, object], reason: str
) -> None:
    invite = served.invites[Seat.GUEST]
    hello = json.loads(protocol.hello(invite.room, invite.secret, "Eve")) | change
    socket = await raw(served)
    await socket.send_str(json.dumps(hello))
    assert await refused_reason(socket) == reason


async def test_no_server_there_is_a_refusal_in_words(served: Served) -> None:
    invite = served.invites[Seat.GUEST]
    port = served.server.port
    await served.server.stop()
    with pytest.raises(JoinRefused) as refused:
        await join(Invite("127.0.0.1", port, invite.room, invite.secret))
    assert refused.value.reason == "unreachable"
    assert f"127.0.0.1:{port}" in str(refused.value)


BAD_FRAMES: list[tuple[str, str | bytes, str]] = [
    ("binary", b"\x00\x01", "bad-message"),
    ("not json", "{move", "bad-message"),
    ("an array", "[1,2]", "bad-message"),
    ("unknown type", '{"type":"teleport"}', "bad-message"),
    ("extra field", '{"type":"ping","x":1}', "bad-message"),
    ("a bool for a number", '{"type":"move","game":1,"seq":true,"cell":4}', "bad-message"),
    ("NaN", '{"type":"move","game":1,"seq":NaN,"cell":4}', "bad-message"),
    ("a field twice", '{"type":"move","game":1,"seq":0,"seq":0,"cell":4}', "bad-message"),
    ("a second hello", "HELLO", "bad-message"),
    ("huge", "x" * (MAX_FRAME * 4), "too-big"),
]


@pytest.mark.parametrize(
    ("frame", "reason"), [case[1:] for case in BAD_FRAMES], ids=[case[0] for case in BAD_FRAMES]
)
async def test_a_bad_frame_closes_its_own_connection_alone(
    served: Served, frame: str | bytes, reason: str
) -> None:
    host = await join(served.invites[Seat.HOST])
    watcher = await join(served.invites[None])
    socket = await raw(served)
    guest = served.invites[Seat.GUEST]
    await socket.send_str(protocol.hello(guest.room, guest.secret, "Bob"))
    if frame == "HELLO":
        frame = protocol.hello(guest.room, guest.secret, "Bob")
    if isinstance(frame, bytes):
        await socket.send_bytes(frame)
    else:
        await socket.send_str(frame)
    assert await refused_reason(socket) == reason
    # The seat is free again, and the room plays on with whoever takes it.
    guest_client = await join(guest)
    await host.move(1, 0, 4)
    assert (await state_after(watcher, 1)).moves == (4,)
    for client in (host, watcher, guest_client):
        await client.close()


async def test_a_first_frame_that_is_no_hello_is_refused(served: Served) -> None:
    socket = await raw(served)
    await socket.send_str('{"type":"ping"}')
    assert await refused_reason(socket) == "bad-message"


async def test_a_connection_that_says_nothing_is_closed(served: Served) -> None:
    socket = await raw(served)
    assert await refused_reason(socket) == "no-hello"


async def test_a_flood_is_closed_by_the_rate_limit(served: Served) -> None:
    socket = await raw(served)
    guest = served.invites[Seat.GUEST]
    await socket.send_str(protocol.hello(guest.room, guest.secret, "Bob"))
    for _ in range(100):
        await socket.send_str('{"type":"ping"}')
    assert await refused_reason(socket) == "too-fast"


async def test_too_many_connections_from_one_address_are_refused(served: Served) -> None:
    sockets = [await raw(served) for _ in range(8)]
    extra = await raw(served)
    assert await refused_reason(extra) == "too-many"
    for socket in sockets:
        await socket.close()


async def test_plain_http_to_the_socket_and_the_invite_get_words_not_a_crash(
    served: Served,
) -> None:
    invite = served.invites[Seat.GUEST]
    async with aiohttp.ClientSession() as session:
        base = f"http://{invite.netloc}"
        async with session.get(base + protocol.SOCKET_PATH) as response:
            assert response.status == 426
            assert "ttt-tui join" in await response.text()
        async with session.get(base + protocol.ROOM_PATH + invite.room) as response:
            assert response.status == 200
            assert "ttt-tui join" in await response.text()
    # Raw bytes that are not HTTP at all are answered and closed.
    reader, writer = await asyncio.open_connection("127.0.0.1", served.server.port)
    writer.write(b"\x16\x03\x01 not http at all\r\n\r\n")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 2.0)
    assert answer.startswith(b"HTTP/1.") and b" 400 " in answer.split(b"\r\n")[0]
    writer.close()
    # The server still plays.
    host, guest = await players(served)
    await host.move(1, 0, 0)
    assert (await state_after(guest, 1)).moves == (0,)
    await host.close()
    await guest.close()


async def test_a_dropped_player_comes_back_to_the_same_position(served: Served) -> None:
    host, guest = await players(served)
    await host.move(1, 0, 4)
    await state_after(guest, 1)
    await guest.close()
    served.clock.now += 20
    view = await state_after(host, 1)
    while view.seats["O"].present:
        view = await state_after(host, 1)
    assert view.seats["O"].away_left == 60.0
    back = await join(served.invites[Seat.GUEST])
    view = await state_after(back, 1)
    assert view.moves == (4,) and view.you == "O" and view.ending is None
    await back.move(1, 1, 0)
    assert (await state_after(host, 2)).moves == (4, 0)
    await host.close()
    await back.close()


async def test_past_the_grace_both_sides_are_told_the_game_is_abandoned(served: Served) -> None:
    host, guest = await players(served)
    await host.move(1, 0, 4)
    await state_after(guest, 1)
    await guest.close()
    served.clock.now += 61
    await served.server.tick()
    while True:
        view = await state_after(host, 1)
        if view.ending is not None:
            break
    assert view.ending == {"kind": "abandoned", "winner": "X", "by": "O"}
    await host.close()


async def test_a_rematch_when_both_ask_swaps_the_marks(served: Served) -> None:
    host, guest = await players(served)
    await play(host, guest, 0, 3, 1, 4, 2)
    await host.send('{"type":"rematch"}')
    await guest.send('{"type":"rematch"}')
    while True:
        view = read_state(await next_of(guest, "state"))
        if view.game == 2:
            break
    assert view.you == "X" and view.moves == () and view.seats["O"].name == "Ann"
    await guest.move(2, 0, 4)
    while True:
        view = read_state(await next_of(host, "state"))
        if view.game == 2 and view.moves:
            break
    assert view.moves == (4,) and view.you == "O"
    await host.close()
    await guest.close()


async def test_leaving_tells_the_friend(served: Served) -> None:
    host, guest = await players(served)
    await play(host, guest, 4)
    await guest.send('{"type":"leave"}')
    assert (await next_of(guest, "refused"))["reason"] == "left"
    while True:
        view = await state_after(host, 1)
        if view.ending is not None:
            break
    assert view.ending == {"kind": "left", "winner": "X", "by": "O"}
    assert not view.seats["O"].present
    await host.close()
    await guest.close()


async def test_an_idle_room_ends_and_says_so(served: Served) -> None:
    host = await join(served.invites[Seat.HOST])
    served.clock.now += 601
    await served.server.tick()
    assert (await next_of(host, "refused"))["reason"] == "room-ended"
    assert served.room not in served.server.rooms and served.server.ended.is_set()
    with pytest.raises(JoinRefused) as refused:
        await join(served.invites[Seat.GUEST])
    assert refused.value.reason == "wrong-invite"
    await host.close()


async def test_the_rooms_are_capped(served: Served) -> None:
    served.server.create_room()
    served.server.create_room(n=5, host_mark=Player.O)
    with pytest.raises(RoomsFull, match="3"):
        served.server.create_room()


class StuckSocket:
    """A socket whose peer has stopped reading: every send waits for ever."""

    closed = False

    def __init__(self) -> None:
        self.sent = 0

    async def send_str(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, **_: object) -> bool:
        self.closed = True
        return True


class Transport:
    aborted = False

    def abort(self) -> None:
        self.aborted = True


async def test_a_connection_that_stops_reading_is_cut_off_and_holds_up_nobody(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Everything a joined connection is sent goes through its own writer: one whose
    peer stopped reading fills its own outbox, is cut off, and the room plays on."""
    monkeypatch.setattr(server_module, "CUT_TIMEOUT", 0.01)
    host, guest = await players(served)
    server = served.server
    stuck, transport = StuckSocket(), Transport()
    watcher = Connection(stuck, served.room, transport)  # type: ignore[arg-type]
    watcher.writer = asyncio.create_task(server._write(watcher))
    room = server.rooms[served.room]
    room.join(room.watch_secret, 999, served.clock.now)
    server.connections[999] = watcher
    for seq, cell in enumerate((0, 3, 1, 4, 2)):
        await (host if seq % 2 == 0 else guest).move(1, seq, cell)
        await state_after(host, seq + 1)
        await state_after(guest, seq + 1)
    assert stuck.sent == 1 and not watcher.cut  # the first state, and it hangs there
    for _ in range(OUTBOX):
        server._broadcast(room)
    assert watcher.cut
    for _ in range(50):
        if transport.aborted:
            break
        await asyncio.sleep(0.01)
    assert transport.aborted and stuck.closed and watcher.writer.done()
    await host.send('{"type":"rematch"}')
    await guest.send('{"type":"rematch"}')
    while read_state(await next_of(host, "state")).game != 2:
        pass
    await host.close()
    await guest.close()


TLS = Path(__file__).parent / "tls"
"""A self-signed certificate for 127.0.0.1, for the tests alone (tls/README.md)."""


async def test_over_tls_a_trusted_certificate_plays_and_others_are_refused() -> None:
    served_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served_tls.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
    server = RoomServer()
    port = await server.start("127.0.0.1", 0, served_tls)
    try:
        name = server.create_room()
        invites = server.invites(name, "127.0.0.1", port)
        assert invites[Seat.GUEST].url.startswith("https://")
        assert invites[Seat.GUEST].socket_url.startswith("wss://")
        with pytest.raises(JoinRefused) as refused:
            await RoomClient(invites[Seat.GUEST], "Bob").connect()
        assert refused.value.reason == "certificate"
        assert "self-signed certificate" in str(refused.value)
        assert "--cafile" in str(refused.value)
        plain = Invite("127.0.0.1", port, name, invites[Seat.GUEST].secret)
        with pytest.raises(JoinRefused) as refused:
            await RoomClient(plain, "Bob").connect()
        assert "the invite starts with https" in str(refused.value)
        trusted = ssl.create_default_context(cafile=str(TLS / "cert.pem"))
        host = RoomClient(invites[Seat.HOST], "Ann", trusted)
        guest = RoomClient(invites[Seat.GUEST], "Bob", trusted)
        assert (await host.connect(), await guest.connect()) == ("host", "guest")
        await host.move(1, 0, 4)
        assert (await state_after(guest, 1)).moves == (4,)
        await host.close()
        await guest.close()
    finally:
        await server.stop()
