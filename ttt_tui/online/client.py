"""A client of the room server: joins with an invite, then sends what the person does
and hands back what the server says. Needs aiohttp (the ``web`` extra).

A join the server refuses, or one that reaches no server, raises `JoinRefused` with a
sentence for the person before anything is drawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import ssl

import aiohttp

from ttt_tui.online import protocol
from ttt_tui.online.protocol import (
    MAX_FRAME,
    SOCKET_PATH,
    Invite,
    InviteError,
    ProtocolError,
    read_invite,
)

PING_EVERY = 5.0
"""Seconds between a client's signs of life (the room's `LIVE_WINDOW` is well above)."""

CONNECT_TIMEOUT = 10.0
"""Seconds to reach the server and be let in."""


class JoinRefused(Exception):
    """The server refused the join, or none answered: `reason` names why (the protocol's
    refusal, or ``unreachable``, ``not-a-server``), and the message says it in words."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def cert_problem(error: aiohttp.ClientConnectorCertificateError) -> str:
    """Why a certificate was not trusted, as the TLS library says it."""
    problem = error.certificate_error
    said = getattr(problem, "verify_message", None) or getattr(problem, "reason", None)
    return str(said or problem)


def why(error: BaseException) -> str:
    """A failed connection's reason in a few words: ``Connection refused``."""
    if isinstance(error, aiohttp.ServerDisconnectedError):
        return "it hung up: if it serves TLS, the invite starts with https"
    if isinstance(error, aiohttp.ClientSSLError):
        reason = getattr(error.os_error, "reason", None)
        return str(reason or error.os_error.strerror or "TLS failed").lower().replace("_", " ")
    if isinstance(error, aiohttp.ClientConnectorError):
        number = error.os_error.errno
        return os.strerror(number) if number else "cannot connect"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return type(error).__name__


class RoomClient:
    """One connection to a room, as a player or a watcher."""

    def __init__(
        self,
        invite: Invite,
        name: str,
        tls: ssl.SSLContext | None = None,
        *,
        unix: str | None = None,
    ) -> None:
        self.invite = invite
        self.name = name
        self.tls = tls
        """How an ``https`` invite's server is verified: None for the system's
        certificate authorities."""
        self.unix = unix
        """The server's own Unix socket to reach it by, instead of the invite's address
        (a tab's game under `ttt-tui serve`, reaching that server's rooms)."""
        self.role = ""
        """``host``, ``guest`` or ``watcher``, once let in."""
        self._session: aiohttp.ClientSession | None = None
        self._socket: aiohttp.ClientWebSocketResponse | None = None
        self._pinger: asyncio.Task[None] | None = None

    async def connect(self) -> str:
        """Reach the server and send the invite's secret; the role let in as. Raises
        `JoinRefused`."""
        where = self.invite.netloc
        await self.close()  # a reconnect starts afresh
        self._session = aiohttp.ClientSession(
            connector=None if self.unix is None else aiohttp.UnixConnector(self.unix)
        )
        try:
            self._socket = await asyncio.wait_for(
                self._session.ws_connect(
                    self.invite.socket_url if self.unix is None else f"ws://tab{SOCKET_PATH}",
                    max_msg_size=MAX_FRAME,
                    autoping=True,
                    ssl=self.tls if self.tls is not None and self.unix is None else True,
                ),
                CONNECT_TIMEOUT,
            )
            await self._socket.send_str(
                protocol.hello(self.invite.room, self.invite.secret, self.name)
            )
            first = await asyncio.wait_for(self.receive(), CONNECT_TIMEOUT)
        except aiohttp.WSServerHandshakeError:
            await self.close()
            raise JoinRefused("not-a-server", f"{where} is not a ttt-tui room server") from None
        except aiohttp.ClientConnectorCertificateError as error:
            await self.close()
            raise JoinRefused(
                "certificate",
                f"the certificate of {where} is not trusted ({cert_problem(error)});"
                " for a self-signed one, give it with --cafile",
            ) from None
        except aiohttp.ClientSSLError as error:
            await self.close()
            raise JoinRefused("tls", f"TLS with {where} failed ({why(error)})") from None
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            await self.close()
            raise JoinRefused(
                "unreachable", f"no server answers at {where} ({why(error)})"
            ) from None
        if first is None or first.get("type") != "welcome":
            await self.close()
            if first is not None and first.get("type") == "refused":
                raise JoinRefused(str(first.get("reason")), str(first.get("message")))
            raise JoinRefused("not-a-server", f"{where} closed the connection")
        self.role = str(first.get("role"))
        self._pinger = asyncio.create_task(self._ping_forever())
        return self.role

    async def _ping_forever(self) -> None:
        while True:
            await asyncio.sleep(PING_EVERY)
            await self.send('{"type":"ping"}')

    async def receive(self) -> dict[str, object] | None:
        """The server's next message, or None once the connection has closed (after a
        ``refused`` message, if the server said why)."""
        if self._socket is None:
            return None
        while True:
            frame = await self._socket.receive()
            if frame.type is not aiohttp.WSMsgType.TEXT:
                return None
            try:
                return protocol.read_object(frame.data)
            except ProtocolError:
                continue

    async def send(self, text: str) -> bool:
        """Send a message's text; False if the connection has gone."""
        if self._socket is None or self._socket.closed:
            return False
        try:
            await self._socket.send_str(text)
        except (ConnectionError, aiohttp.ClientError):
            return False
        return True

    async def move(self, game: int, seq: int, cell: int) -> bool:
        """Send a move for the position ``seq`` moves into game ``game``."""
        return await self.send(protocol.move(game, seq, cell))

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        if self._pinger is not None:
            self._pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pinger
            self._pinger = None
        if self._socket is not None:
            await self._socket.close()
            self._socket = None
        if self._session is not None:
            await self._session.close()
            self._session = None


class ServeTab:
    """A tab's game under `ttt-tui serve`, and its way to that server's rooms: HTTP over
    the server's own Unix socket (`protocol.SERVE_SOCKET_ENV`), the tab named by its ``ticket``.

    The server makes rooms for a tab and hands it the invite its page brought; the
    invites it gives name the address the tab's browser used. Every failure is a
    `JoinRefused` with a sentence for the person."""

    def __init__(self, socket: str, ticket: str) -> None:
        self.socket = socket
        self.ticket = ticket

    async def _ask(self, path: str, body: dict[str, object]) -> dict[str, object]:
        try:
            async with (
                aiohttp.ClientSession(connector=aiohttp.UnixConnector(self.socket)) as session,
                session.post(
                    f"http://tab{path}",
                    json={"tab": self.ticket, **body},
                    timeout=aiohttp.ClientTimeout(total=CONNECT_TIMEOUT),
                ) as answer,
            ):
                said = await answer.json()
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
            raise JoinRefused(
                "unreachable", f"the game server did not answer ({why(error)})"
            ) from None
        if not isinstance(said, dict):
            raise JoinRefused("not-a-server", "the game server's answer was not understood")
        if "error" in said:
            raise JoinRefused("refused", str(said["error"]))
        return said

    async def host(self, n: int, name: str) -> tuple[RoomClient, tuple[str, str]]:
        """Make a room on an ``n`` board, this player in its host seat (X), let in: its
        client, and the play and watch invites to give."""
        said = await self._ask("/tab/room", {"n": n, "name": name})
        try:
            mine = read_invite(str(said["host"]))
            invites = (str(said["play"]), str(said["watch"]))
        except (KeyError, InviteError):
            raise JoinRefused(
                "not-a-server", "the game server's answer was not understood"
            ) from None
        client = RoomClient(mine, name, unix=self.socket)
        await client.connect()
        return client, invites

    async def brought(self) -> Invite:
        """The invite this tab's page brought (once: the server forgets it)."""
        said = await self._ask("/tab/invite", {})
        try:
            return read_invite(str(said["invite"]))
        except (KeyError, InviteError) as error:
            raise JoinRefused("wrong-invite", f"This invite cannot be used: {error}.") from None

    async def join(self, invite: Invite, name: str) -> RoomClient:
        """Join ``invite``'s room, let in: through the server's own socket if the room is
        this server's, else over the network (a room that `ttt-tui host` serves)."""
        said = await self._ask("/tab/here", {"room": invite.room})
        client = RoomClient(invite, name, unix=self.socket if said.get("here") is True else None)
        await client.connect()
        return client
