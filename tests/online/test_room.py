"""The room the server holds: seats and secrets, moves checked, resends applied once,
rematches, and the grace period, all with the time passed in as numbers."""

from __future__ import annotations

import itertools

import pytest

from ttt_tui.engine import Player
from ttt_tui.online.room import (
    LIVE_WINDOW,
    SECRET_BYTES,
    WATCH,
    Applied,
    Ending,
    EndKind,
    Joined,
    MoveError,
    MoveRefused,
    Refusal,
    Room,
    Seat,
    clean_name,
)

HOST, GUEST, WATCHER, OTHER = 1, 2, 3, 4
"""Connection numbers the tests use."""


def full_room(n: int = 3, host_mark: Player = Player.X, grace: float = 120.0) -> Room:
    """A room with the host (X unless told) and the guest seated at time 0."""
    room = Room(n=n, host_mark=host_mark, host_name="Ann", grace=grace)
    assert room.join(room.seats[Seat.HOST].secret, HOST, 0.0) == Joined(Seat.HOST)
    assert room.join(room.seats[Seat.GUEST].secret, GUEST, 0.0, "Bob") == Joined(Seat.GUEST)
    return room


def play(room: Room, *cells: int, now: float = 1.0) -> None:
    """Play ``cells`` in turn, each by whoever is to move."""
    for cell in cells:
        mover = room.seat_playing(room.board.to_move)
        connection = HOST if mover is Seat.HOST else GUEST
        assert room.move(connection, room.game, len(room.moves), cell, now) is Applied.PLAYED


def test_each_secret_is_long_random_and_different() -> None:
    room = Room()
    found = [room.seats[Seat.HOST].secret, room.seats[Seat.GUEST].secret, room.watch_secret]
    assert len(set(found)) == 3
    assert all(len(secret) >= (SECRET_BYTES * 4) // 3 for secret in found)  # base64: 144 bits
    assert room.identify(found[0]) is Seat.HOST
    assert room.identify(found[1]) is Seat.GUEST
    assert room.identify(found[2]) == WATCH
    assert room.identify(found[0][:-1]) is None
    assert room.identify("") is None
    assert room.identify("é\x00" * 40) is None


def test_a_room_whose_secrets_collide_is_not_made() -> None:
    with pytest.raises(ValueError, match="differ"):
        Room(token=lambda size: "same")


@pytest.mark.parametrize(("n", "grace"), [(6, 1.0), (3, 0.0)])
def test_a_room_of_a_bad_board_or_grace_is_not_made(n: int, grace: float) -> None:
    with pytest.raises(ValueError, match="expected"):
        Room(n=n, grace=grace)


def test_a_wrong_invite_is_refused_and_a_watcher_gets_no_seat() -> None:
    room = full_room()
    assert room.join("nope", OTHER, 1.0) is Refusal.WRONG_INVITE
    assert room.join(room.watch_secret, WATCHER, 1.0) == Joined(None)
    assert room.connections() == {HOST, GUEST, WATCHER}
    with pytest.raises(MoveRefused) as refused:
        room.move(WATCHER, 1, 0, 4, 1.0)
    assert refused.value.reason is MoveError.NOT_A_PLAYER
    assert room.moves == []


def test_a_held_seat_is_refused_to_a_second_connection_while_the_first_is_heard() -> None:
    room = full_room()
    guest_secret = room.seats[Seat.GUEST].secret
    assert room.join(guest_secret, OTHER, LIVE_WINDOW - 1) is Refusal.SEAT_TAKEN
    room.heard(GUEST, LIVE_WINDOW - 1)
    assert room.join(guest_secret, OTHER, 2 * LIVE_WINDOW - 2) is Refusal.SEAT_TAKEN
    assert room.seat_of(GUEST) is Seat.GUEST and room.seat_of(OTHER) is None


def test_a_silent_connection_s_seat_is_taken_over_by_the_same_secret() -> None:
    """A connection that died without closing (a dropped network) does not keep its
    player out: the same invite takes the seat, and the old connection is to be closed."""
    room = full_room()
    joined = room.join(room.seats[Seat.GUEST].secret, OTHER, LIVE_WINDOW)
    assert joined == Joined(Seat.GUEST, replaced=GUEST)
    assert room.seat_of(OTHER) is Seat.GUEST and room.seat_of(GUEST) is None


def test_moves_wait_for_the_friend() -> None:
    room = Room()
    room.join(room.seats[Seat.HOST].secret, HOST, 0.0)
    assert not room.started
    with pytest.raises(MoveRefused) as refused:
        room.move(HOST, 1, 0, 4, 1.0)
    assert refused.value.reason is MoveError.WAITING
    room.join(room.seats[Seat.GUEST].secret, GUEST, 2.0)
    assert room.started and room.in_play
    assert room.move(HOST, 1, 0, 4, 3.0) is Applied.PLAYED


@pytest.mark.parametrize(
    ("connection", "game", "seq", "cell", "reason"),
    [
        (GUEST, 1, 0, 4, MoveError.NOT_YOUR_TURN),
        (HOST, 1, 1, 4, MoveError.STALE),
        (HOST, 2, 0, 4, MoveError.STALE),
        (HOST, 0, 0, 4, MoveError.STALE),
        (HOST, 1, -1, 4, MoveError.STALE),
        (HOST, 1, 0, 9, MoveError.ILLEGAL),
        (HOST, 1, 0, -1, MoveError.ILLEGAL),
    ],
)
def test_a_move_is_checked(
    connection: int, game: int, seq: int, cell: int, reason: MoveError
) -> None:
    room = full_room()
    with pytest.raises(MoveRefused) as refused:
        room.move(connection, game, seq, cell, 1.0)
    assert refused.value.reason is reason
    assert room.moves == [] and str(room.board) == "." * 9


def test_a_taken_square_is_illegal_and_a_resend_is_applied_once() -> None:
    room = full_room()
    play(room, 4)
    with pytest.raises(MoveRefused) as refused:
        room.move(GUEST, 1, 1, 4, 1.0)
    assert refused.value.reason is MoveError.ILLEGAL
    # The host's first move again, as a client resends it after a drop.
    assert room.move(HOST, 1, 0, 4, 2.0) is Applied.DUPLICATE
    assert room.moves == [4]
    # The same sequence number with another square, or by the other player, is stale.
    for connection, cell in ((HOST, 0), (GUEST, 4)):
        with pytest.raises(MoveRefused) as refused:
            room.move(connection, 1, 0, cell, 2.0)
        assert refused.value.reason is MoveError.STALE
    assert room.moves == [4]


def test_a_line_wins_and_nothing_moves_after() -> None:
    room = full_room()
    play(room, 0, 3, 1, 4, 2)
    assert room.ending == Ending(EndKind.WON, Player.X)
    assert not room.in_play
    with pytest.raises(MoveRefused) as refused:
        room.move(GUEST, 1, 5, 5, 2.0)
    assert refused.value.reason is MoveError.GAME_OVER


def test_a_full_board_is_a_draw() -> None:
    room = full_room()
    play(room, 0, 1, 2, 4, 3, 5, 7, 6, 8)
    assert room.ending == Ending(EndKind.DRAW, None)


@pytest.mark.parametrize("n", [4, 5])
def test_bigger_boards_play_by_the_engine_s_rules(n: int) -> None:
    room = full_room(n=n)
    play(room, 0, n, 1, n + 1, 2, n + 2)
    assert room.ending is None
    play(room, 3)  # four in a row on the top line
    assert room.ending == Ending(EndKind.WON, Player.X)


def test_a_rematch_needs_both_and_swaps_the_marks() -> None:
    room = full_room(host_mark=Player.O)
    assert room.mark_of(HOST) is Player.O
    assert not room.rematch(HOST, 1.0)  # nothing to rematch mid-game
    play(room, 0, 3, 1, 4, 2)  # X, the guest, wins
    assert room.ending == Ending(EndKind.WON, Player.X)
    assert not room.rematch(HOST, 2.0)
    assert room.state(HOST, 2.0)["seats"] == {
        "O": {"name": "Ann", "present": True, "away_left": None, "rematch": True},
        "X": {"name": "Bob", "present": True, "away_left": None, "rematch": False},
    }
    assert room.rematch(GUEST, 3.0)
    assert room.game == 2 and room.moves == [] and room.ending is None
    assert room.mark_of(HOST) is Player.X and room.mark_of(GUEST) is Player.O
    # A move meant for the first game is stale in the second.
    with pytest.raises(MoveRefused) as refused:
        room.move(HOST, 1, 0, 4, 4.0)
    assert refused.value.reason is MoveError.STALE
    assert room.move(HOST, 2, 0, 4, 4.0) is Applied.PLAYED


def test_a_rematch_asked_then_dropped_is_forgotten() -> None:
    room = full_room()
    play(room, 0, 3, 1, 4, 2)
    room.rematch(HOST, 1.0)
    room.drop(HOST, 2.0)
    room.join(room.seats[Seat.HOST].secret, HOST, 3.0)
    assert not room.rematch(GUEST, 4.0)
    assert room.game == 1


def test_a_dropped_player_has_the_grace_period_to_come_back_to_the_same_position() -> None:
    room = full_room(grace=100.0)
    play(room, 4, 0)
    room.drop(GUEST, 10.0)
    assert room.away_left(Seat.GUEST, 40.0) == 70.0
    seats = room.state(HOST, 40.0)["seats"]
    assert isinstance(seats, dict) and seats["O"]["present"] is False
    assert seats["O"]["away_left"] == 70.0
    assert not room.tick(109.0)
    # The host may still move while the friend is away.
    play(room, 8, now=50.0)
    joined = room.join(room.seats[Seat.GUEST].secret, OTHER, 109.0)
    assert joined == Joined(Seat.GUEST)
    assert room.moves == [4, 0, 8] and room.away_left(Seat.GUEST, 200.0) is None
    assert not room.tick(500.0) and room.in_play


def test_past_the_grace_period_the_absent_player_has_abandoned() -> None:
    room = full_room(grace=100.0)
    play(room, 4)
    room.drop(HOST, 10.0)
    assert room.tick(110.0)
    assert room.ending == Ending(EndKind.ABANDONED, Player.O, by=Player.X)
    assert room.state(GUEST, 110.0)["ending"] == {"kind": "abandoned", "winner": "O", "by": "X"}
    assert not room.tick(111.0)
    # Coming back after changes nothing but the seat.
    room.join(room.seats[Seat.HOST].secret, HOST, 120.0)
    assert room.ending == Ending(EndKind.ABANDONED, Player.O, by=Player.X)


def test_when_both_drop_the_first_away_abandons() -> None:
    room = full_room(grace=10.0)
    room.drop(GUEST, 1.0)
    room.drop(HOST, 2.0)
    assert room.tick(100.0)
    assert room.ending == Ending(EndKind.ABANDONED, Player.X, by=Player.O)


def test_a_drop_between_games_or_before_the_friend_came_costs_nothing() -> None:
    room = Room(grace=10.0)
    room.join(room.seats[Seat.HOST].secret, HOST, 0.0)
    room.drop(HOST, 1.0)
    assert not room.tick(1000.0) and room.ending is None
    room = full_room(grace=10.0)
    play(room, 0, 3, 1, 4, 2)
    room.drop(GUEST, 1.0)
    assert not room.tick(1000.0)
    assert room.ending == Ending(EndKind.WON, Player.X)


def test_leaving_mid_game_loses_it_at_once() -> None:
    room = full_room()
    play(room, 4)
    room.leave(GUEST, 5.0)
    assert room.ending == Ending(EndKind.LEFT, Player.X, by=Player.O)
    assert room.seat_of(GUEST) is None and room.idle_for(7.0) == 2.0


def test_the_state_is_what_a_client_draws() -> None:
    room = full_room()
    room.join(room.watch_secret, WATCHER, 0.0)
    play(room, 4)
    state = room.state(GUEST, 1.0)
    assert state == {
        "type": "state",
        "n": 3,
        "k": 3,
        "game": 1,
        "moves": [4],
        "started": True,
        "seats": {
            "X": {"name": "Ann", "present": True, "away_left": None, "rematch": False},
            "O": {"name": "Bob", "present": True, "away_left": None, "rematch": False},
        },
        "watchers": 1,
        "you": "O",
        "ending": None,
    }
    assert room.state(WATCHER, 1.0)["you"] is None
    room.drop(WATCHER, 2.0)
    assert room.state(HOST, 2.0)["watchers"] == 0


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("  Ann  ", "Ann"),
        ("A\x1b[31mnn\n", "A [31mnn"),
        ("x" * 100, "x" * 24),
        ("\t\n", "Friend"),
        ("Zoë  Lee", "Zoë Lee"),
    ],
)
def test_names_are_printable_short_and_never_empty(given: str, kept: str) -> None:
    assert clean_name(given, "Friend") == kept


def test_many_random_games_never_break_the_room() -> None:
    """Every order of the first four moves, each tried by both players at every sequence
    number: the room applies exactly the legal one in turn."""
    for order in itertools.islice(itertools.permutations(range(9), 4), 0, 3024, 97):
        room = full_room()
        for cell in order:
            for connection in (HOST, GUEST):
                for seq in range(len(room.moves) + 2):
                    before = list(room.moves)
                    try:
                        room.move(connection, 1, seq, cell, 1.0)
                    except MoveRefused:
                        assert room.moves == before
            assert room.moves[-1] == cell
        assert room.moves == list(order)
