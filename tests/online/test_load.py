"""The room server under load and under attack, on loopback (long tier).

- Load: 200 rooms at once on a server in a process of its own, each two scripted
  clients playing three whole games (the marks swapping at each rematch) with a
  watcher; every result must be right. The relay of a move (sent by one client, read
  by the other) is printed, p50 and p95, and the server's memory: idle, with the rooms
  made, and with every connection open.
- Fuzz: honest rooms play while attackers send random and mutated frames, wrong
  secrets, watch secrets trying to move, floods and raw bytes to the port; every
  honest game must finish right, and the server must log no error.

The clients are coroutines of this process, so the relay times include the clients'
own work; they are figures to print, not limits to assert.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import statistics
import sys
import time

import aiohttp
import pytest

from ttt_tui.online import protocol
from ttt_tui.online.client import RoomClient
from ttt_tui.online.protocol import Invite, read_invite, read_state
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


Invites = dict[Seat | None, Invite]
"""A room's invites: each seat's, and the watchers' (None)."""


def new_room(server: RoomServer) -> Invites:
    """A room made on ``server``, in this process, and its invites."""
    return server.invites(server.create_room(grace=60.0), "127.0.0.1", server.port)


async def honest_room(
    invites: Invites, relays: list[float], connected: asyncio.Barrier | None = None
) -> list[dict[str, str | None] | None]:
    """Two players and a watcher; the endings of their games, as the watcher saw them.
    With ``connected``, they wait there, let in, before the first move."""
    host, guest = RoomClient(invites[Seat.HOST], "h"), RoomClient(invites[Seat.GUEST], "g")
    watcher = RoomClient(invites[None], "")
    for client in (host, guest, watcher):
        await client.connect()
    if connected is not None:
        await connected.wait()
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


ROOMS = 200
"""Rooms played at once by the load test."""

SERVER = """
import asyncio, json, sys
from ttt_tui.online.server import RoomServer

def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))

async def main():
    server = RoomServer(max_rooms=1000, per_address=10_000)
    await server.start("127.0.0.1", 0)
    idle = rss()
    names = [server.create_room(grace=60.0) for _ in range(int(sys.argv[1]))]
    invites = [{seat.value if seat else "watch": invite.url
                for seat, invite in server.invites(name, "127.0.0.1", server.port).items()}
               for name in names]
    print(json.dumps({"idle": idle, "rooms": rss(), "invites": invites}), flush=True)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while await reader.readline():
        print(json.dumps({"rss": rss(), "connections": len(server.connections)}), flush=True)
    await server.stop()

asyncio.run(main())
"""
"""A room server in a process of its own: it makes the rooms, prints their invites and
its memory (resident bytes) idle and with the rooms made, then its memory and open
connections for each line read, until its input closes."""


async def test_200_rooms_at_once_each_game_right(capsys: pytest.CaptureFixture[str]) -> None:
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVER, str(ROOMS),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**22,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    try:
        made = json.loads(await asyncio.wait_for(server.stdout.readline(), 30.0))
        seats = {"host": Seat.HOST, "guest": Seat.GUEST, "watch": None}
        rooms: list[Invites] = [
            {seats[seat]: read_invite(url) for seat, url in urls.items()}
            for urls in made["invites"]
        ]
        relays: list[float] = []
        connected = asyncio.Barrier(ROOMS + 1)
        started = time.perf_counter()
        games = asyncio.gather(*(honest_room(invites, relays, connected) for invites in rooms))
        await asyncio.wait_for(connected.wait(), 60.0)
        server.stdin.write(b"rss\n")
        open_ = json.loads(await asyncio.wait_for(server.stdout.readline(), 30.0))
        endings = await games
        took = time.perf_counter() - started
    finally:
        server.stdin.close()
        try:
            await asyncio.wait_for(server.wait(), 30.0)
        finally:
            if server.returncode is None:
                server.kill()
    assert server.returncode == 0
    assert endings == [RIGHT] * ROOMS
    assert open_["connections"] == 3 * ROOMS
    q = statistics.quantiles(relays, n=100)
    per_room = (open_["rss"] - made["idle"]) / ROOMS
    with capsys.disabled():
        print(
            f"\n{ROOMS} rooms, {ROOMS * GAMES} games, 3 clients a room, the server in a process"
            f" of its own: {took:.1f} s; a move's relay p50 {q[49] * 1000:.1f} ms,"
            f" p95 {q[94] * 1000:.1f} ms; the server's memory {made['idle'] / 2**20:.1f} MiB"
            f" idle, {made['rooms'] / 2**20:.1f} MiB with the rooms made,"
            f" {open_['rss'] / 2**20:.1f} MiB with {open_['connections']} connections open:"
            f" {per_room / 1024:.0f} KiB a room"
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
    await server.start("127.0.0.1", 0)
    relays: list[float] = []
    try:
        bait = [server.create_room() for _ in range(5)]
        until = time.perf_counter() + 6.0
        attack = asyncio.gather(*(attacker(seed, server, until) for seed in range(20)))
        honest = asyncio.gather(*(honest_room(new_room(server), relays) for _ in range(20)))
        endings, sent = await honest, await attack
        assert endings == [RIGHT] * 20
        assert sum(sent) > 1000
        # Every room nobody played in is as it was: no watcher moved in it.
        assert all(server.rooms[name].moves == [] for name in bait)
        # And the server still lets a new room play.
        assert await honest_room(new_room(server), relays) == RIGHT
    finally:
        await server.stop()
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert errors == []
