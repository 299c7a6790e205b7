"""The messages of online play, read strictly, and the invites that carry the secrets.

Pure: text in, typed values out, and no network. Every message is one JSON object in
one text frame of at most `MAX_FRAME` bytes, with a ``type`` and exactly the fields
that type has, each of its exact JSON type (``true`` is no number) and in its range.
Anything else is a `ProtocolError`, which the server answers by closing that
connection alone.

A client's first message is ``hello``, which carries the secret: the secret is never
in a URL's path or query, which servers and proxies log. An invite is a URL whose
fragment (after ``#``, which no browser or client sends to a server) is the secret.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from ttt_tui import __version__

PROTOCOL = 1
"""The protocol's version; client and server must speak the same."""

MAX_FRAME = 2048
"""The most bytes of one message, either way (a state message on 5x5 is under 600)."""

SOCKET_PATH = "/online"
"""The path of the game socket on the server."""

SERVE_SOCKET_ENV = "TTT_TUI_SERVE_SOCKET"
"""Where `ttt-tui serve` tells its tabs' games its own Unix socket is: in a folder only
its user can open, so that nothing else on the machine reaches what it answers there."""

ROOM_PATH = "/room/"
"""Where an invite's path starts; the room's name follows."""

TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""A room's name or a secret: URL-safe base64, as `secrets.token_urlsafe` makes them."""

CELL_LIMIT = 25
"""Cells of the largest board (5x5): no move names a cell at or past it."""

NAME_LENGTH = 200
"""The most characters of a name as sent; the room keeps fewer (`room.NAME_LIMIT`)."""


class ProtocolError(ValueError):
    """A frame that is not a message of the protocol."""


@dataclass(frozen=True)
class Hello:
    """The first message: which room, with which secret, by whom, in which protocol."""

    protocol: int
    version: str
    room: str
    secret: str
    name: str


@dataclass(frozen=True)
class Move:
    """A player's move, named with the position it was meant for: the room's game
    number and the moves on the board when it was sent (`seq`)."""

    game: int
    seq: int
    cell: int


@dataclass(frozen=True)
class Rematch:
    """Another game, please (both must ask)."""


@dataclass(frozen=True)
class Leave:
    """The player leaves the room on purpose."""


@dataclass(frozen=True)
class Ping:
    """A client's sign of life; answered with ``pong``."""


ClientMessage = Hello | Move | Rematch | Leave | Ping
"""What a client may send."""

FieldKind = Literal["int", "str"]

FIELDS: dict[str, dict[str, FieldKind]] = {
    "hello": {"protocol": "int", "version": "str", "room": "str", "secret": "str", "name": "str"},
    "move": {"game": "int", "seq": "int", "cell": "int"},
    "rematch": {},
    "leave": {},
    "ping": {},
}
"""Each client message's fields and their JSON types, besides ``type``."""


def _no_constants(name: str) -> object:
    raise ProtocolError(f"{name} is not JSON")


def _unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ProtocolError("a field is given twice")
    return found


def read_object(text: str) -> dict[str, object]:
    """One frame's JSON object; raises `ProtocolError` for a frame too big, not JSON, with
    a field given twice or ``NaN``, or not an object with a string ``type``."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise ProtocolError(f"a message of more than {MAX_FRAME} bytes")
    try:
        found = json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constants)
    except (ValueError, RecursionError) as error:
        raise ProtocolError(f"not JSON: {error}") from None
    if not isinstance(found, dict) or not isinstance(found.get("type"), str):
        raise ProtocolError("not a JSON object with a type")
    return found


def _fields(message: dict[str, object], kinds: dict[str, FieldKind]) -> dict[str, int | str]:
    kind = message["type"]
    given = set(message) - {"type"}
    if given != set(kinds):
        missing, extra = sorted(set(kinds) - given), sorted(given - set(kinds))
        raise ProtocolError(f"{kind}: missing {missing}, unexpected {extra}")
    values: dict[str, int | str] = {}
    for name, field_kind in kinds.items():
        value = message[name]
        if field_kind == "int":
            if type(value) is not int or not 0 <= value <= 10_000:
                raise ProtocolError(f"{kind}: {name} must be a whole number from 0 to 10000")
        elif not isinstance(value, str):
            raise ProtocolError(f"{kind}: {name} must be a string")
        values[name] = value
    return values


def read_client(text: str) -> ClientMessage:
    """A client's message, read strictly; raises `ProtocolError` for anything else."""
    message = read_object(text)
    kind = message["type"]
    assert isinstance(kind, str)
    kinds = FIELDS.get(kind)
    if kinds is None:
        raise ProtocolError(f"unknown message type {kind[:40]!r}")
    values = _fields(message, kinds)
    if kind == "hello":
        for name in ("room", "secret"):
            if not TOKEN.fullmatch(str(values[name])):
                raise ProtocolError(f"hello: {name} is not a token")
        if len(str(values["version"])) > 40 or len(str(values["name"])) > NAME_LENGTH:
            raise ProtocolError("hello: version or name too long")
        return Hello(
            protocol=int(values["protocol"]),
            version=str(values["version"]),
            room=str(values["room"]),
            secret=str(values["secret"]),
            name=str(values["name"]),
        )
    if kind == "move":
        if int(values["cell"]) >= CELL_LIMIT:
            raise ProtocolError(f"move: cell must be below {CELL_LIMIT}")
        return Move(game=int(values["game"]), seq=int(values["seq"]), cell=int(values["cell"]))
    simple: dict[str, Callable[[], ClientMessage]] = {
        "rematch": Rematch,
        "leave": Leave,
        "ping": Ping,
    }
    return simple[kind]()


def write(message: dict[str, object]) -> str:
    """A message as its frame's text: compact JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def hello(room: str, secret: str, name: str) -> str:
    """The first message a client sends."""
    return write(
        {
            "type": "hello",
            "protocol": PROTOCOL,
            "version": __version__,
            "room": room,
            "secret": secret,
            "name": name,
        }
    )


def move(game: int, seq: int, cell: int) -> str:
    """A client's move."""
    return write({"type": "move", "game": game, "seq": seq, "cell": cell})


# Invites ---------------------------------------------------------------------------


class InviteError(ValueError):
    """Text that is not an invite; the message says what is wrong, for a person."""


@dataclass(frozen=True)
class Invite:
    """Where a room is and the secret that opens a seat (or watches) there."""

    host: str
    port: int
    room: str
    secret: str
    tls: bool = False

    @property
    def netloc(self) -> str:
        """``host:port``, an IPv6 address in brackets."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @property
    def url(self) -> str:
        """The invite as a person pastes it: the secret in the fragment."""
        scheme = "https" if self.tls else "http"
        return f"{scheme}://{self.netloc}{ROOM_PATH}{self.room}#{self.secret}"

    @property
    def socket_url(self) -> str:
        """The game socket's URL: no secret in it."""
        scheme = "wss" if self.tls else "ws"
        return f"{scheme}://{self.netloc}{SOCKET_PATH}"


def read_invite(text: str) -> Invite:
    """An invite from the text a person pasted; raises `InviteError` saying what is wrong."""
    text = text.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as error:
        raise InviteError(f"not an invite URL ({error})") from None
    if parts.scheme not in ("http", "https"):
        raise InviteError("an invite starts with http:// or https://")
    if not parts.hostname:
        raise InviteError("the invite names no host")
    if not parts.path.startswith(ROOM_PATH):
        raise InviteError(f"an invite's path is {ROOM_PATH}ROOM")
    room = parts.path.removeprefix(ROOM_PATH)
    if not TOKEN.fullmatch(room):
        raise InviteError("the invite's room name is not one ttt-tui makes")
    if not parts.fragment:
        raise InviteError("the invite has no secret after its #: was it cut short?")
    if not TOKEN.fullmatch(parts.fragment):
        raise InviteError("the invite's secret (after #) is not one ttt-tui makes")
    if parts.query:
        raise InviteError("an invite has no query (?...)")
    tls = parts.scheme == "https"
    return Invite(
        host=parts.hostname,
        port=port if port is not None else (443 if tls else 80),
        room=room,
        secret=parts.fragment,
        tls=tls,
    )


# What the server says ---------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """One mark's player as a client is shown them."""

    name: str
    present: bool
    away_left: float | None
    rematch: bool


@dataclass(frozen=True)
class RoomView:
    """A ``state`` message, read: what a client draws."""

    n: int
    game: int
    moves: tuple[int, ...]
    started: bool
    seats: dict[str, SeatView]
    """By mark, ``X`` and ``O``."""
    watchers: int
    you: str | None
    """Your mark, or None when watching."""
    ending: dict[str, str | None] | None
    """``kind``, ``winner`` and ``by`` (marks), once the game has ended."""


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise ProtocolError(f"not a state message: {what}")


def read_state(message: dict[str, object]) -> RoomView:
    """A server's ``state`` message; raises `ProtocolError` if it is not one."""
    try:
        seats_given = message["seats"]
        _check(isinstance(seats_given, dict) and set(seats_given) == {"X", "O"}, "seats")
        assert isinstance(seats_given, dict)
        seats = {}
        for mark, seat in seats_given.items():
            _check(isinstance(seat, dict), "a seat")
            away = seat["away_left"]
            _check(away is None or type(away) in (int, float), "away_left")
            seats[mark] = SeatView(
                name=str(seat["name"]),
                present=seat["present"] is True,
                away_left=None if away is None else float(away),
                rematch=seat["rematch"] is True,
            )
        n, game, watchers = message["n"], message["game"], message["watchers"]
        moves = message["moves"]
        _check(type(n) is int and n in (3, 4, 5), "n")
        _check(type(game) is int and type(watchers) is int, "game or watchers")
        _check(isinstance(moves, list) and all(type(cell) is int for cell in moves), "moves")
        assert isinstance(n, int) and isinstance(game, int) and isinstance(watchers, int)
        assert isinstance(moves, list)
        you = message["you"]
        _check(you is None or you in ("X", "O"), "you")
        ending = message["ending"]
        if ending is not None:
            _check(isinstance(ending, dict), "ending")
            assert isinstance(ending, dict)
            ending = {
                str(key): None if value is None else str(value) for key, value in ending.items()
            }
        return RoomView(
            n=n,
            game=game,
            moves=tuple(moves),
            started=message["started"] is True,
            seats=seats,
            watchers=watchers,
            you=None if you is None else str(you),
            ending=ending,
        )
    except (KeyError, TypeError) as error:
        raise ProtocolError(f"not a state message: {error!r}") from None
