"""A room: the game two people play from two computers, as the server holds it.

Pure: no network, no UI, no clock of its own. The server passes the time (``now``,
in seconds of any monotonic clock) to each call that depends on it, so the tests
drive the grace period with plain numbers.

The room decides everything: which secret opens which seat, whose turn it is, whether
a move is legal and sent for the position it was meant for (``game`` and ``seq``), when
a player who dropped has been away too long, and when both agree to a rematch (which
swaps the marks). Its rules are the engine's `Board`.
"""

from __future__ import annotations

import enum
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ttt_tui.engine import SIZES, Board, Cell, IllegalMoveError, Player, Status, mover_of

SECRET_BYTES = 18
"""Random bytes in each secret: 144 bits, above the 128 the issue asks for."""

DEFAULT_GRACE = 120.0
"""Seconds a player who dropped mid-game has to come back before the game is theirs lost."""

LIVE_WINDOW = 20.0
"""Seconds of silence after which a seat's connection counts as gone: a new connection
with the same secret then takes the seat over (the old one is closed). Clients send a
``ping`` every few seconds, so a live one is never this quiet."""

NAME_LIMIT = 24
"""The most characters of a player's name."""

WATCH: Literal["watch"] = "watch"
"""What `Room.identify` gives for the watch secret."""

ConnectionId = int
"""The server's number for one connection."""


class Seat(enum.Enum):
    """One of the room's two places to play from."""

    HOST = "host"
    """The player who made the room."""
    GUEST = "guest"
    """The friend who joined with the play invite."""

    @property
    def other(self) -> Seat:
        """The other seat."""
        return Seat.GUEST if self is Seat.HOST else Seat.HOST


class Refusal(enum.Enum):
    """Why a connection was refused or closed; each has a sentence for the person."""

    WRONG_INVITE = "wrong-invite"
    """The secret opens nothing here: a mistyped invite, or a room that has ended."""
    SEAT_TAKEN = "seat-taken"
    """The seat is held by another connection that is still there."""
    VERSION = "version"
    """The client speaks another version of the protocol."""
    BAD_MESSAGE = "bad-message"
    """A frame that is not a message of the protocol (malformed, binary, unknown)."""
    TOO_BIG = "too-big"
    """A frame above the size limit."""
    TOO_FAST = "too-fast"
    """More messages than the rate limit allows."""
    TOO_SLOW = "too-slow"
    """The connection stopped reading what it was sent."""
    TOO_MANY = "too-many"
    """Too many connections from one address, or too many rooms."""
    NO_HELLO = "no-hello"
    """The first message did not come in time."""
    REPLACED = "replaced"
    """The same invite connected again, from here or elsewhere; this connection is closed."""
    ROOM_ENDED = "room-ended"
    """The room ended: idle too long, or its server stopped."""
    LEFT = "left"
    """The player left the room."""

    @property
    def message(self) -> str:
        """The sentence a person reads."""
        return _REFUSALS[self]


_REFUSALS = {
    Refusal.WRONG_INVITE: "that invite opens no seat: it is mistyped, or its room has ended",
    Refusal.SEAT_TAKEN: "that seat is already being played from another connection",
    Refusal.VERSION: "the host runs another version of ttt-tui's online play",
    Refusal.BAD_MESSAGE: "a message that is not ttt-tui's protocol",
    Refusal.TOO_BIG: "a message above the size limit",
    Refusal.TOO_FAST: "too many messages too quickly",
    Refusal.TOO_SLOW: "the connection stopped reading the game",
    Refusal.TOO_MANY: "the server is full: too many rooms or connections",
    Refusal.NO_HELLO: "no invite was sent in time",
    Refusal.REPLACED: "the same invite connected again; this connection is closed",
    Refusal.ROOM_ENDED: "the room has ended",
    Refusal.LEFT: "left the room",
}


class MoveError(enum.Enum):
    """Why the room refused a move; the connection stays open."""

    NOT_A_PLAYER = "not-a-player"
    """A watcher cannot move."""
    WAITING = "waiting"
    """The friend has not joined yet."""
    GAME_OVER = "game-over"
    """The game has ended."""
    STALE = "stale"
    """Sent for another position (its game or sequence number is not the current one)."""
    NOT_YOUR_TURN = "not-your-turn"
    """The other player is to move."""
    ILLEGAL = "illegal"
    """Off the board or onto a taken square."""


class MoveRefused(ValueError):
    """A move the room did not apply, and why (`reason`)."""

    def __init__(self, reason: MoveError, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        """Why, as the protocol names it."""


class Applied(enum.Enum):
    """What became of a move the room accepted."""

    PLAYED = "played"
    """It is on the board now."""
    DUPLICATE = "duplicate"
    """It was already on the board (a resend after a drop): applied once, not twice."""


class EndKind(enum.Enum):
    """How a game ended."""

    WON = "won"
    """A line of marks."""
    DRAW = "draw"
    """A full board and no line."""
    ABANDONED = "abandoned"
    """A player dropped and did not come back within the grace period."""
    LEFT = "left"
    """A player left mid-game on purpose."""


@dataclass(frozen=True)
class Ending:
    """How a game ended: the kind, the winning mark (none for a draw) and, when a player
    went away, their mark (`by`)."""

    kind: EndKind
    winner: Player | None
    by: Player | None = None


@dataclass
class SeatState:
    """A seat: its secret, who sits there and on which connection."""

    secret: str
    name: str
    connection: ConnectionId | None = None
    """The connection that holds the seat now, if any."""
    last_seen: float = 0.0
    """When that connection last sent anything."""
    away_since: float | None = None
    """When the seat's connection dropped, while it is away."""
    joined: bool = False
    """Whether anyone has ever sat here."""
    wants_rematch: bool = False


@dataclass(frozen=True)
class Joined:
    """A connection the room let in: as which `role` (a `Seat`, or None for a watcher),
    and the connection it replaced on that seat, which the server closes."""

    seat: Seat | None
    replaced: ConnectionId | None = None


def clean_name(text: str, default: str) -> str:
    """A player's name as the room keeps it: printable characters, spaces collapsed, at
    most `NAME_LIMIT`; ``default`` if nothing is left."""
    kept = "".join(char if char.isprintable() else " " for char in text)
    words = " ".join(kept.split())[:NAME_LIMIT].strip()
    return words or default


class Room:
    """Two seats, a watch secret and the game between them."""

    def __init__(
        self,
        *,
        n: int = 3,
        host_mark: Player = Player.X,
        host_name: str = "Host",
        grace: float = DEFAULT_GRACE,
        now: float = 0.0,
        token: Callable[[int], str] = secrets.token_urlsafe,
    ) -> None:
        if n not in SIZES:
            raise ValueError(f"expected a board of {', '.join(map(str, SIZES))}, got {n}")
        if grace <= 0:
            raise ValueError(f"expected a grace period above 0 seconds, got {grace}")
        self.n = n
        self.grace = grace
        self.seats = {
            Seat.HOST: SeatState(token(SECRET_BYTES), clean_name(host_name, "Host")),
            Seat.GUEST: SeatState(token(SECRET_BYTES), "Friend"),
        }
        self.watch_secret = token(SECRET_BYTES)
        """The secret that watches and can never move."""
        secrets_made = {seat.secret for seat in self.seats.values()} | {self.watch_secret}
        if len(secrets_made) != 3:
            raise ValueError("the secrets of a room must differ")
        self.marks = {Seat.HOST: host_mark, Seat.GUEST: host_mark.other}
        """Each seat's mark in the current game; a rematch swaps them."""
        self.watchers: set[ConnectionId] = set()
        self.game = 1
        """The current game's number in this room, from 1."""
        self.moves: list[Cell] = []
        self.board = Board.empty(n)
        self.ending: Ending | None = None
        self.last_activity = now
        """When anyone last joined, moved, asked for a rematch or left."""

    # Who is who -----------------------------------------------------------------

    def identify(self, secret: str) -> Seat | Literal["watch"] | None:
        """The seat a secret opens, `WATCH` for the watch secret, None for neither.
        Every secret is compared, each in constant time."""
        given = secret.encode("utf-8", "replace")
        found: Seat | Literal["watch"] | None = None
        for seat, state in self.seats.items():
            if hmac.compare_digest(given, state.secret.encode()):
                found = seat
        if hmac.compare_digest(given, self.watch_secret.encode()):
            found = WATCH
        return found

    def seat_of(self, connection: ConnectionId) -> Seat | None:
        """The seat a connection holds, if any."""
        for seat, state in self.seats.items():
            if state.connection == connection:
                return seat
        return None

    def mark_of(self, connection: ConnectionId) -> Player | None:
        """The mark a connection plays in the current game, if it holds a seat."""
        seat = self.seat_of(connection)
        return None if seat is None else self.marks[seat]

    def seat_playing(self, mark: Player) -> Seat:
        """The seat that plays ``mark`` in the current game."""
        return Seat.HOST if self.marks[Seat.HOST] is mark else Seat.GUEST

    @property
    def started(self) -> bool:
        """Whether both seats have been taken at least once: the game is on from then."""
        return all(state.joined for state in self.seats.values())

    @property
    def in_play(self) -> bool:
        """Whether a game is being played: both came, and it has not ended."""
        return self.started and self.ending is None

    def connections(self) -> set[ConnectionId]:
        """Every connection in the room, seats and watchers."""
        held = {state.connection for state in self.seats.values()}
        return {c for c in held if c is not None} | self.watchers

    # Arriving and leaving ---------------------------------------------------------

    def join(
        self, secret: str, connection: ConnectionId, now: float, name: str = ""
    ) -> Joined | Refusal:
        """Let a connection in with a secret: onto its seat, or to watch.

        A seat held by a connection heard from within `LIVE_WINDOW` is refused; one
        held by a silent connection is taken over (`Joined.replaced` is to be closed).
        A player coming back within the grace period finds the exact position."""
        found = self.identify(secret)
        if found is None:
            return Refusal.WRONG_INVITE
        if found == WATCH:
            self.watchers.add(connection)
            return Joined(None)
        assert isinstance(found, Seat)
        state = self.seats[found]
        replaced = None
        if state.connection is not None:
            if now - state.last_seen < LIVE_WINDOW:
                return Refusal.SEAT_TAKEN
            replaced = state.connection
        state.connection = connection
        state.last_seen = now
        state.away_since = None
        state.joined = True
        if name:
            state.name = clean_name(name, state.name)
        self.last_activity = now
        return Joined(found, replaced)

    def heard(self, connection: ConnectionId, now: float) -> None:
        """A connection sent something: it is alive."""
        seat = self.seat_of(connection)
        if seat is not None:
            self.seats[seat].last_seen = now

    def drop(self, connection: ConnectionId, now: float) -> None:
        """A connection closed (or was closed). A seat's player mid-game is away from
        now, with the grace period to come back."""
        self.watchers.discard(connection)
        seat = self.seat_of(connection)
        if seat is None:
            return
        state = self.seats[seat]
        state.connection = None
        state.away_since = now
        state.wants_rematch = False

    def leave(self, connection: ConnectionId, now: float) -> None:
        """A player left on purpose: mid-game, the game is theirs lost at once."""
        seat = self.seat_of(connection)
        if seat is not None and self.in_play:
            mark = self.marks[seat]
            self.ending = Ending(EndKind.LEFT, mark.other, by=mark)
            self.last_activity = now
        self.drop(connection, now)

    def away_left(self, seat: Seat, now: float) -> float | None:
        """Seconds the seat's absent player has left to come back, while a game is in
        play; None when they are there or nothing is at stake."""
        state = self.seats[seat]
        if state.away_since is None or not self.in_play:
            return None
        return max(0.0, state.away_since + self.grace - now)

    def tick(self, now: float) -> bool:
        """End the game of a player away past the grace period (the first to run out,
        if both are); True if the game ended now."""
        if not self.in_play:
            return False
        expired = [
            (left, seat)
            for seat in Seat
            if (left := self.away_left(seat, now)) is not None and left <= 0
        ]
        if not expired:
            return False
        seat = min(expired, key=lambda pair: (self.seats[pair[1]].away_since, pair[1].value))[1]
        mark = self.marks[seat]
        self.ending = Ending(EndKind.ABANDONED, mark.other, by=mark)
        return True

    def idle_for(self, now: float) -> float:
        """Seconds since anyone joined, moved, asked for a rematch or left."""
        return now - self.last_activity

    # Playing ------------------------------------------------------------------------

    def move(
        self, connection: ConnectionId, game: int, seq: int, cell: Cell, now: float
    ) -> Applied:
        """Check a player's move and play it. ``game`` and ``seq`` name the position it was
        meant for: the game's number and the moves on the board then. A move already on
        the board at ``seq`` by the same player is a resend: `Applied.DUPLICATE`, nothing
        changes. Raises `MoveRefused` for anything else it cannot play."""
        seat = self.seat_of(connection)
        if seat is None:
            raise MoveRefused(MoveError.NOT_A_PLAYER, "watchers cannot move")
        mark = self.marks[seat]
        if game == self.game and 0 <= seq < len(self.moves):
            if self.moves[seq] == cell and mover_of(seq) is mark:
                return Applied.DUPLICATE
            raise MoveRefused(MoveError.STALE, f"move {seq + 1} has been played already")
        if not self.started:
            raise MoveRefused(MoveError.WAITING, "the friend has not joined yet")
        if game != self.game or seq != len(self.moves):
            raise MoveRefused(
                MoveError.STALE,
                f"expected game {self.game} move {len(self.moves) + 1},"
                f" got game {game} move {seq + 1}",
            )
        if self.ending is not None:
            raise MoveRefused(MoveError.GAME_OVER, "the game has ended")
        if self.board.to_move is not mark:
            raise MoveRefused(MoveError.NOT_YOUR_TURN, f"{mark.other.value} is to move")
        try:
            board = self.board.play(cell)
        except IllegalMoveError as error:
            raise MoveRefused(MoveError.ILLEGAL, str(error)) from None
        self.board = board
        self.moves.append(cell)
        self.last_activity = now
        status = board.status
        if status is Status.DRAW:
            self.ending = Ending(EndKind.DRAW, None)
        elif status is not Status.IN_PROGRESS:
            self.ending = Ending(EndKind.WON, status.winner)
        return Applied.PLAYED

    def rematch(self, connection: ConnectionId, now: float) -> bool:
        """A player asks for another game once this one has ended. When both have asked,
        the next game starts with the marks swapped; True then."""
        seat = self.seat_of(connection)
        if seat is None or self.ending is None:
            return False
        self.seats[seat].wants_rematch = True
        self.last_activity = now
        if not all(state.wants_rematch for state in self.seats.values()):
            return False
        self.marks = {seat: mark.other for seat, mark in self.marks.items()}
        for state in self.seats.values():
            state.wants_rematch = False
        self.game += 1
        self.moves = []
        self.board = Board.empty(self.n)
        self.ending = None
        return True

    # What each connection is told ------------------------------------------------------

    def state(self, connection: ConnectionId, now: float) -> dict[str, object]:
        """The room as ``connection`` is shown it: the protocol's ``state`` message."""
        seats: dict[str, object] = {}
        for seat, state in self.seats.items():
            left = self.away_left(seat, now)
            seats[self.marks[seat].value] = {
                "name": state.name,
                "present": state.connection is not None,
                "away_left": None if left is None else round(left, 1),
                "rematch": state.wants_rematch,
            }
        ending = self.ending
        you = self.mark_of(connection)
        return {
            "type": "state",
            "n": self.n,
            "k": SIZES[self.n],
            "game": self.game,
            "moves": list(self.moves),
            "started": self.started,
            "seats": seats,
            "watchers": len(self.watchers),
            "you": None if you is None else you.value,
            "ending": None
            if ending is None
            else {
                "kind": ending.kind.value,
                "winner": None if ending.winner is None else ending.winner.value,
                "by": None if ending.by is None else ending.by.value,
            },
        }
