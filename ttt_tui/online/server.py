"""The room server: rooms (`ttt_tui.online.room`) spoken to over aiohttp's websockets.

Needs aiohttp (the ``web`` extra); only a running server or client imports this.

Each connection is on its own: a frame that is not the protocol's, a flood, a huge
message or a plain HTTP request closes that connection with a reason and touches no
other. The first message must be ``hello`` with the secret, within `HELLO_TIMEOUT`.
A ticker ends the games of players away past their grace period, and the rooms
nobody has played in for the idle time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import ssl
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from socket import AF_INET, AF_INET6, create_server

from aiohttp import WSCloseCode, WSMsgType, web

from ttt_tui import __version__
from ttt_tui.engine import Player
from ttt_tui.online import protocol
from ttt_tui.online.limits import DEFAULT_MAX_ROOMS, DEFAULT_PER_ADDRESS
from ttt_tui.online.protocol import (
    MAX_FRAME,
    PROTOCOL,
    ROOM_PATH,
    SOCKET_PATH,
    Hello,
    Invite,
    Leave,
    Move,
    Ping,
    ProtocolError,
    Rematch,
)
from ttt_tui.online.room import (
    DEFAULT_GRACE,
    ConnectionId,
    Joined,
    MoveRefused,
    Refusal,
    Room,
    Seat,
)

DEFAULT_IDLE = 30 * 60.0
"""Seconds without a move (or a join, a rematch, a leave) before a room ends."""

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to send its ``hello``."""

RATE = 10.0
"""Messages a second a connection may send on average..."""

BURST = 30.0
"""...and at most this many at once."""

TICK = 1.0
"""Seconds between the ticker's looks at the grace periods and the idle rooms."""

CLOSE_TIMEOUT = 2.0
"""Seconds a closing socket waits for the other end to agree before it is cut."""

CUT_TIMEOUT = 1.0
"""Seconds a connection cut off for not reading is given to take the reason."""

OUTBOX = 64
"""Messages waiting to be written to one connection before it counts as not reading."""

REFUSED_CODE = 4000
"""The websocket close code of a refusal; its reason is the `Refusal`'s value."""


class RoomsFull(RuntimeError):
    """No room can be made: the server holds its most already."""


@dataclass
class Bucket:
    """A connection's rate limit: a token bucket of `BURST`, refilled at `RATE`."""

    tokens: float = BURST
    at: float = 0.0

    def take(self, now: float) -> bool:
        """Spend one token if there is one."""
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


Outgoing = str | Refusal | None
"""What a connection's writer is handed: a message's text, a refusal to say and close
with, or None to stop."""


@dataclass
class Connection:
    """A socket that has joined a room, and what is still to be sent on it.

    Everything sent to a joined connection goes through its `outbox`, written by a task
    of its own, in order: a peer that stops reading fills its own outbox and is cut off
    (`Refusal.TOO_SLOW`), and never holds up what the others in its room are sent."""

    socket: web.WebSocketResponse
    room: str
    transport: asyncio.Transport | None
    bucket: Bucket = field(default_factory=Bucket)
    outbox: asyncio.Queue[Outgoing] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    writer: asyncio.Task[None] | None = None
    cut: bool = False
    """Whether it is being cut off for not reading."""


class RoomServer:
    """Rooms served over websockets at `SOCKET_PATH`, on one aiohttp application."""

    def __init__(
        self,
        *,
        max_rooms: int = DEFAULT_MAX_ROOMS,
        per_address: int = DEFAULT_PER_ADDRESS,
        idle: float = DEFAULT_IDLE,
        clock: Callable[[], float] = time.monotonic,
        hello_timeout: float = HELLO_TIMEOUT,
        token: Callable[[int], str] = secrets.token_urlsafe,
    ) -> None:
        self.max_rooms = max_rooms
        self.per_address = per_address
        self.idle = idle
        self.clock = clock
        self.hello_timeout = hello_timeout
        self.token = token
        """Makes the rooms' names and secrets (a fixed one only for the screenshots)."""
        self.rooms: dict[str, Room] = {}
        self.connections: dict[ConnectionId, Connection] = {}
        self.addresses: Counter[str] = Counter()
        self._numbers = itertools.count(1)
        self._ticker: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()
        """Other connections being closed, each on its own (a dead one takes a while)."""
        self._runner: web.AppRunner | None = None
        self.host = ""
        """Where the server listens, once started."""
        self.tls = False
        """Whether it serves over TLS (its invites are ``https``)."""
        self.port = 0
        self.ended: asyncio.Event = asyncio.Event()
        """Set when a room ends (for `ttt-tui host`, whose one room is its reason to run)."""

    # Rooms ------------------------------------------------------------------------------

    def create_room(
        self,
        *,
        n: int = 3,
        host_mark: Player = Player.X,
        host_name: str = "Host",
        grace: float = DEFAULT_GRACE,
    ) -> str:
        """Make a room and give its name; raises `RoomsFull` at the limit."""
        if len(self.rooms) >= self.max_rooms:
            raise RoomsFull(f"the server holds its most rooms ({self.max_rooms}) already")
        name = self.token(9)
        self.rooms[name] = Room(
            n=n,
            host_mark=host_mark,
            host_name=host_name,
            grace=grace,
            now=self.clock(),
            token=self.token,
        )
        return name

    def invites(self, name: str, host: str, port: int) -> dict[Seat | None, Invite]:
        """The room's three invites at ``host:port``: each seat's, and the watchers' (None)."""
        room = self.rooms[name]
        found: dict[Seat | None, Invite] = {
            seat: Invite(host, port, name, state.secret, self.tls)
            for seat, state in room.seats.items()
        }
        found[None] = Invite(host, port, name, room.watch_secret, self.tls)
        return found

    async def end_room(self, name: str, reason: Refusal = Refusal.ROOM_ENDED) -> None:
        """End a room: each of its connections told why and closed, the room forgotten."""
        room = self.rooms.pop(name, None)
        if room is None:
            return
        for number in room.connections():
            connection = self.connections.get(number)
            if connection is not None:
                self._post(connection, reason)
        self.ended.set()

    # Running ----------------------------------------------------------------------------

    def application(self) -> web.Application:
        """The aiohttp application: the socket, and plain pages for a browser that
        comes to an invite's or the socket's address."""
        app = web.Application()
        self.add_socket(app)
        app.router.add_get(ROOM_PATH + "{room}", self._room_page)
        app.router.add_get("/", self._room_page)
        return app

    def add_socket(self, app: web.Application, *, limited: bool = True) -> None:
        """Serve the game socket at `SOCKET_PATH` on ``app`` (another server's, as
        `ttt-tui serve` mounts the rooms on its own); with ``limited`` False its
        connections are not counted against `per_address` (the games of `serve`'s own
        tabs, which reach it on a socket of the server's alone)."""

        async def socket(request: web.Request) -> web.StreamResponse:
            return await self._socket(request, limited=limited)

        app.router.add_get(SOCKET_PATH, socket)

    def start_ticker(self) -> None:
        """Start ending the rooms idle too long and the games of players away too long
        (`start` does it; a server mounted on another's application calls it)."""
        if self._ticker is None:
            self._ticker = asyncio.create_task(self._tick_forever())

    async def start(self, host: str, port: int, tls: ssl.SSLContext | None = None) -> int:
        """Listen on ``host:port`` (0: a free port), over TLS with a ``tls`` context, and
        start the ticker; the port."""
        self._runner = web.AppRunner(self.application(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        family = AF_INET6 if ":" in host else AF_INET
        try:
            listening = create_server((host, port), family=family)
        except BaseException:
            await self._runner.cleanup()
            raise
        site = web.SockSite(self._runner, listening, ssl_context=tls)
        await site.start()
        self.tls = tls is not None
        self.host = host
        self.port = int(listening.getsockname()[1])
        self.start_ticker()
        return self.port

    async def stop(self) -> None:
        """End every room, close every connection, stop listening."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        for name in list(self.rooms):
            await self.end_room(name)
        await asyncio.sleep(0)  # the writers take up the rooms' ends
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            await self.tick()

    async def tick(self) -> None:
        """End the games of players away too long, and the rooms idle too long."""
        now = self.clock()
        for name, room in list(self.rooms.items()):
            if room.idle_for(now) >= self.idle:
                await self.end_room(name)
            elif room.tick(now):
                self._broadcast(room)

    # Pages --------------------------------------------------------------------------------

    async def _room_page(self, request: web.Request) -> web.Response:
        return web.Response(
            text="This is a ttt-tui game server. To play or watch, run:\n"
            "  ttt-tui join 'INVITE'\n"
            "with the whole invite you were given, the part after # included.\n",
            headers={"Cache-Control": "no-store"},
        )

    # The socket ---------------------------------------------------------------------------

    async def _socket(self, request: web.Request, *, limited: bool) -> web.StreamResponse:
        socket = web.WebSocketResponse(max_msg_size=MAX_FRAME, autoping=True, timeout=CLOSE_TIMEOUT)
        if not socket.can_prepare(request).ok:
            return web.Response(
                status=426,
                text="This is a ttt-tui game socket: join with `ttt-tui join INVITE`.\n",
                headers={"Connection": "close", "Upgrade": "websocket"},
            )
        address = (request.remote or "?") if limited else ""
        await socket.prepare(request)
        if limited and self.addresses[address] >= self.per_address:
            await self._refuse(socket, Refusal.TOO_MANY)
            return socket
        self.addresses[address] += 1
        number = next(self._numbers)
        held: list[Connection] = []
        try:
            await self._serve(socket, number, request.transport, held)
        finally:
            self.addresses[address] -= 1
            if self.addresses[address] <= 0:
                del self.addresses[address]
            if self.connections.pop(number, None) is not None:
                room = self.rooms.get(held[0].room)
                if room is not None:
                    room.drop(number, self.clock())
                    self._broadcast(room)
            if held:
                await self._finish(held[0])
            elif not socket.closed:
                await self._close(socket, request.transport)
        return socket

    async def _serve(
        self,
        socket: web.WebSocketResponse,
        number: ConnectionId,
        transport: asyncio.Transport | None,
        held: list[Connection],
    ) -> None:
        try:
            first = await asyncio.wait_for(socket.receive(), self.hello_timeout)
        except TimeoutError:
            await self._refuse(socket, Refusal.NO_HELLO)
            return
        refusal = self._frame_refusal(first.type)
        if refusal is not None:
            await self._refuse(socket, refusal)
            return
        try:
            hello = protocol.read_client(first.data)
        except ProtocolError:
            await self._refuse(socket, Refusal.BAD_MESSAGE)
            return
        if not isinstance(hello, Hello):
            await self._refuse(socket, Refusal.BAD_MESSAGE)
            return
        if hello.protocol != PROTOCOL:
            await self._refuse(socket, Refusal.VERSION)
            return
        room = self.rooms.get(hello.room)
        if room is None:
            await self._refuse(socket, Refusal.WRONG_INVITE)
            return
        joined = room.join(hello.secret, number, self.clock(), hello.name)
        if isinstance(joined, Refusal):
            await self._refuse(socket, joined)
            return
        connection = Connection(socket, hello.room, transport)
        connection.bucket.at = self.clock()
        connection.writer = asyncio.create_task(self._write(connection))
        held.append(connection)
        self.connections[number] = connection
        if joined.replaced is not None:
            old = self.connections.pop(joined.replaced, None)
            if old is not None:
                self._post(old, Refusal.REPLACED)
        self._welcome(connection, joined)
        self._broadcast(room)
        await self._listen(socket, number, connection)

    def _welcome(self, connection: Connection, joined: Joined) -> None:
        role = "watcher" if joined.seat is None else joined.seat.value
        self._post(
            connection,
            {"type": "welcome", "protocol": PROTOCOL, "version": __version__, "role": role},
        )

    async def _listen(
        self, socket: web.WebSocketResponse, number: ConnectionId, connection: Connection
    ) -> None:
        while True:
            frame = await socket.receive()
            if frame.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            refusal = self._frame_refusal(frame.type)
            if refusal is None and not connection.bucket.take(self.clock()):
                refusal = Refusal.TOO_FAST
            message = None
            if refusal is None:
                try:
                    message = protocol.read_client(frame.data)
                except ProtocolError:
                    refusal = Refusal.BAD_MESSAGE
            room = self.rooms.get(connection.room)
            if room is None:
                return
            if refusal is not None or message is None or isinstance(message, Hello):
                self._post(connection, refusal or Refusal.BAD_MESSAGE)
                return
            now = self.clock()
            room.heard(number, now)
            if isinstance(message, Ping):
                self._post(connection, {"type": "pong"})
            elif isinstance(message, Move):
                self._move(connection, room, number, message)
            elif isinstance(message, Rematch):
                room.rematch(number, now)
                self._broadcast(room)
            elif isinstance(message, Leave):
                room.leave(number, now)
                self.connections.pop(number, None)
                self._broadcast(room)
                self._post(connection, Refusal.LEFT)
                return

    def _move(self, connection: Connection, room: Room, number: ConnectionId, move: Move) -> None:
        try:
            room.move(number, move.game, move.seq, move.cell, self.clock())
        except MoveRefused as refused:
            self._post(
                connection,
                {"type": "error", "reason": refused.reason.value, "message": str(refused)},
            )
            self._post(connection, room.state(number, self.clock()))
            return
        self._broadcast(room)

    @staticmethod
    def _frame_refusal(kind: WSMsgType) -> Refusal | None:
        if kind is WSMsgType.TEXT:
            return None
        if kind is WSMsgType.ERROR:
            return Refusal.TOO_BIG  # aiohttp reports a frame above max_msg_size so
        return Refusal.BAD_MESSAGE

    # Sending ------------------------------------------------------------------------------

    def _broadcast(self, room: Room) -> None:
        now = self.clock()
        for number in sorted(room.connections()):
            connection = self.connections.get(number)
            if connection is not None:
                self._post(connection, room.state(number, now))

    def _post(self, connection: Connection, message: dict[str, object] | Refusal) -> None:
        """Hand a message (or a refusal, which closes) to a joined connection's writer; one
        whose outbox is full has stopped reading, and is cut off."""
        if connection.cut:
            return
        item = message if isinstance(message, Refusal) else protocol.write(message)
        try:
            connection.outbox.put_nowait(item)
        except asyncio.QueueFull:
            connection.cut = True
            task = asyncio.create_task(self._finish(connection, cut=True))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _write(self, connection: Connection) -> None:
        """A joined connection's writer: its outbox, in order, until a refusal or None."""
        socket = connection.socket
        while True:
            item = await connection.outbox.get()
            if item is None:
                return
            if isinstance(item, Refusal):
                await self._refuse(socket, item)
                return
            if socket.closed:
                continue
            with contextlib.suppress(ConnectionError):
                await socket.send_str(item)

    async def _finish(self, connection: Connection, *, cut: bool = False) -> None:
        """Let a joined connection's writer finish what it was handed (at most
        `CLOSE_TIMEOUT` twice over), then close the socket; a connection being cut off
        for not reading is told so if it can be, and its transport aborted if not."""
        writer = connection.writer
        if writer is not None and not writer.done():
            if cut:
                writer.cancel()
            else:
                with contextlib.suppress(asyncio.QueueFull):
                    connection.outbox.put_nowait(None)
            try:
                await asyncio.wait_for(asyncio.shield(writer), 2 * CLOSE_TIMEOUT)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()
        if cut and not connection.socket.closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._refuse(connection.socket, Refusal.TOO_SLOW), CUT_TIMEOUT
                )
        await self._close(connection.socket, connection.transport, abort=cut)

    @staticmethod
    async def _close(
        socket: web.WebSocketResponse, transport: asyncio.Transport | None, *, abort: bool = False
    ) -> None:
        """Close a socket; abort its transport if the other end would not let it close,
        or (``abort``) whatever happened, for a peer that stopped reading."""
        closed = socket.closed
        if not closed:
            try:
                await asyncio.wait_for(socket.close(), 2 * CLOSE_TIMEOUT)
                closed = True
            except (TimeoutError, ConnectionError):
                pass
        if transport is not None and (abort or not closed):
            transport.abort()

    async def _refuse(self, socket: web.WebSocketResponse, reason: Refusal) -> None:
        """Say why, then close: the reason in a message and in the close frame."""
        if not socket.closed:
            with contextlib.suppress(ConnectionError):
                await socket.send_str(
                    protocol.write(
                        {"type": "refused", "reason": reason.value, "message": reason.message}
                    )
                )
        if not socket.closed:
            code = WSCloseCode.MESSAGE_TOO_BIG if reason is Refusal.TOO_BIG else REFUSED_CODE
            with contextlib.suppress(ConnectionError):
                await socket.close(code=code, message=reason.value.encode())
