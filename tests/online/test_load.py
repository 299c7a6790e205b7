"""The room server under load and under attack, on loopback (long tier).

- Load: 200 rooms at once, each two scripted clients playing three whole games (the
  marks swapping at each rematch) with a watcher; every result must be right. The
  relay of a move (sent by one client, read by the other) is printed, p50 and p95.
- Fuzz: honest rooms play while attackers send random and mutated frames, wrong
  secrets, watch secrets trying to move, floods and raw bytes to the port; every
  honest game must finish right, and the server must log no error.

Every client here is a coroutine of this one process, so the relay times include the
clients' own work; they are figures to print, not limits to assert.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import statistics
import time

import aiohttp
import pytest

from ttt_tui.online import protocol
from ttt_tui.online.client import RoomClient
from ttt_tui.online.protocol import Invite, read_state
from ttt_tui.online.room import Seat
from ttt_tui.online.server import RoomServer

pytestmark = pytest.mark.long

GAMES = 3
"""Games each honest room plays."""

WIN = (0, 3, 1, 4, 2)
"""X takes the top row; O answers below."""


async def wait_for_moves(client: RoomClient, moves: int, game: int) -> float:
    """When the client read a state of ``game`` with at least ``moves`` moves."""
    while True:
        message = await asyncio.wait_for(client.receive(), 20.0)
        assert message is not None, "the connection closed"
        if message["type"] == "state":
            view = read_state(message)
            if view.game == game and len(view.moves) >= moves:
                return time.perf_counter()


async def honest_room(
    server: RoomServer, port: int, relays: list[float]
) -> list[dict[str, str | None] | None]:
    """Two players and a watcher; the endings of their games, as the watcher saw them."""
    name = server.create_room(grace=60.0)
    invites = server.invites(name, "127.0.0.1", port)
    host, guest = RoomClient(invites[Seat.HOST], "h"), RoomClient(invites[Seat.GUEST], "g")
    watcher = RoomClient(invites[None], "")
    for client in (host, guest, watcher):
        await client.connect()
    endings: list[dict[str, str | None] | None] = []
    try:
        for game in range(1, GAMES + 1):
            x, o = (host, guest) if game % 2 == 1 else (guest, host)
            for seq, cell in enumerate(WIN):
                mover, other = (x, o) if seq % 2 == 0 else (o, x)
                sent = time.perf_counter()
                await mover.move(game, seq, cell)
                relays.append(await wait_for_moves(other, seq + 1, game) - sent)
                await wait_for_moves(mover, seq + 1, game)
            while True:
                message = await asyncio.wait_for(watcher.receive(), 20.0)
                assert message is not None
                if message["type"] == "state":
                    view = read_state(message)
                    if view.game == game and view.ending is not None:
                        endings.append(view.ending)
                        break
            if game < GAMES:
                await host.send('{"type":"rematch"}')
                await guest.send('{"type":"rematch"}')
                await wait_for_moves(host, 0, game + 1)
                await wait_for_moves(guest, 0, game + 1)
    finally:
        for client in (host, guest, watcher):
            await client.close()
    return endings


RIGHT = [{"kind": "won", "winner": "X", "by": None}] * GAMES


async def test_200_rooms_at_once_each_game_right(capsys: pytest.CaptureFixture[str]) -> None:
    server = RoomServer(max_rooms=1000, per_address=10_000)
    port = await server.start("127.0.0.1", 0)
    relays: list[float] = []
    started = time.perf_counter()
    try:
        endings = await asyncio.gather(*(honest_room(server, port, relays) for _ in range(200)))
    finally:
        await server.stop()
    took = time.perf_counter() - started
    assert endings == [RIGHT] * 200
    q = statistics.quantiles(relays, n=100)
    with capsys.disabled():
        print(
            f"\n200 rooms, {200 * GAMES} games, 3 clients a room: {took:.1f} s;"
            f" a move's relay p50 {q[49] * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms"
        )


def mutated(rng: random.Random, room: str) -> str | bytes:
    """A frame an attacker sends: random bytes, random text, or a real message bent."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randbytes(rng.randrange(1, 300))
    if kind == 1:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(1, 200)))
    message: dict[str, object] = rng.choice(
        [
            json.loads(protocol.hello(room, "A" * 24, "x")),
            json.loads(protocol.move(1, rng.randrange(-2, 30), rng.randrange(-2, 30))),
            {"type": "rematch"},
            {"type": "leave"},
            {"type": "ping"},
        ]
    )
    if kind == 2 and message:
        del message[rng.choice(list(message))]
    elif kind == 3:
        message[rng.choice(list(message))] = rng.choice(
            [None, True, 1e300, -1, "x" * rng.randrange(5000), [], {}, 2**70]
        )
    elif kind == 4:
        message["extra"] = rng.random()
    text = json.dumps(message)
    if kind == 5:
        cut = rng.randrange(len(text))
        text = text[:cut] + rng.choice(["", "}", "{", '"', "\\", "\x00"]) + text[cut + 1 :]
    return text


async def attacker(seed: int, server: RoomServer, until: float) -> int:
    """Connect again and again, to any room of the server (the honest ones too), each
    time sending frames until closed, half the time let in as a watcher; the count sent."""
    port = server.port
    rng = random.Random(seed)
    sent = 0
    url = Invite("127.0.0.1", port, "r" * 12, "s" * 24).socket_url
    async with aiohttp.ClientSession() as session:
        while time.perf_counter() < until:
            if rng.random() < 0.2:  # raw bytes to the port, HTTP or not
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    writer.write(
                        rng.choice([b"GET /online HTTP/1.1\r\nHost: x\r\n\r\n", rng.randbytes(500)])
                    )
                    await writer.drain()
                    await asyncio.wait_for(reader.read(1000), 2.0)
                    writer.close()
                except (OSError, TimeoutError):
                    pass
                continue
            room, held = rng.choice(list(server.rooms.items()))
            watch = held.watch_secret
            try:
                socket = await session.ws_connect(url)
            except aiohttp.ClientError:
                continue
            try:
                if rng.random() < 0.5:  # as a watcher who tries everything
                    await socket.send_str(protocol.hello(room, watch, "eve"))
                for _ in range(rng.randrange(1, 60)):
                    frame = mutated(rng, room)
                    if isinstance(frame, bytes):
                        await socket.send_bytes(frame)
                    else:
                        await socket.send_str(frame)
                    sent += 1
                    if socket.closed:
                        break
                await socket.close()
            except (ConnectionError, aiohttp.ClientError):
                pass
    return sent


async def test_honest_games_finish_right_whatever_others_send(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR)
    server = RoomServer(max_rooms=1000, per_address=10_000)
    port = await server.start("127.0.0.1", 0)
    relays: list[float] = []
    try:
        bait = [server.create_room() for _ in range(5)]
        until = time.perf_counter() + 6.0
        attack = asyncio.gather(*(attacker(seed, server, until) for seed in range(20)))
        honest = asyncio.gather(*(honest_room(server, port, relays) for _ in range(20)))
        endings, sent = await honest, await attack
        assert endings == [RIGHT] * 20
        assert sum(sent) > 1000
        # Every room nobody played in is as it was: no watcher moved in it.
        assert all(server.rooms[name].moves == [] for name in bait)
        # And the server still lets a new room play.
        assert await honest_room(server, port, relays) == RIGHT
    finally:
        await server.stop()
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert errors == []
