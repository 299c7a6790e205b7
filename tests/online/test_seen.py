"""What a player's client makes of the server's states: the status, the sentences a
screen reader is told, and the record kept in the player's own data directory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from ttt_tui.engine import Player
from ttt_tui.online.protocol import RoomView, read_state
from ttt_tui.online.room import Room, Seat
from ttt_tui.online.seen import changes, left_words, record_of_view, status
from ttt_tui.play.results import Result, StatsOutcome
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.storage import Store
from ttt_tui.storage.model import GameRecord, read_settings, stats_entry
from ttt_tui.teach.records import game_line, players

HOST, GUEST = 1, 2
T0 = datetime(2026, 11, 27, 17, 0, tzinfo=UTC)
NONE: dict[str, float | None] = {}


def room_of(n: int = 3) -> Room:
    room = Room(n=n, host_name="Ann", grace=120.0)
    room.join(room.seats[Seat.HOST].secret, HOST, 0.0)
    room.join(room.seats[Seat.GUEST].secret, GUEST, 0.0, "Bob")
    return room


def seen(room: Room, connection: int, now: float = 0.0) -> RoomView:
    return read_state(room.state(connection, now))


def play(room: Room, *cells: int) -> None:
    for cell in cells:
        mover = room.seat_playing(room.board.to_move)
        room.move(HOST if mover is Seat.HOST else GUEST, room.game, len(room.moves), cell, 0.0)


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(100, "1 minute 40 left"), (120, "2 minutes left"), (45.4, "45 seconds left"),
     (1, "1 second left"), (-3, "0 seconds left"), (61, "1 minute 1 left")],
)  # fmt: skip
def test_time_left_in_words(seconds: float, words: str) -> None:
    assert left_words(seconds) == words


def test_the_status_says_whose_move_and_who_is_away() -> None:
    room = Room(host_name="Ann")
    room.join(room.seats[Seat.HOST].secret, HOST, 0.0)
    assert status(seen(room, HOST), NONE).startswith("Waiting for your friend to join")
    room.join(room.seats[Seat.GUEST].secret, GUEST, 0.0, "Bob")
    assert status(seen(room, HOST), NONE) == "Your move (X)."
    assert status(seen(room, GUEST), NONE) == "Ann's move (X)."
    room.join(room.watch_secret, 3, 0.0)
    assert status(seen(room, 3), NONE) == "X to move (Ann)."
    room.drop(GUEST, 0.0)
    view = seen(room, HOST, 20.0)
    assert status(view, {"O": 100.0}) == "Bob (O) is reconnecting, 1 minute 40 left."
    assert status(view, NONE, connected=False) == "Connection lost: reconnecting…"


def test_the_status_says_how_it_ended_and_the_rematch() -> None:
    room = room_of()
    play(room, 0, 3, 1, 4, 2)
    assert status(seen(room, HOST), NONE) == "You won! Press n for another game (you swap marks)."
    room.rematch(GUEST, 0.0)
    assert status(seen(room, HOST), NONE) == "You won! Bob wants another game: press n to agree."
    assert status(seen(room, GUEST), NONE) == (
        "Ann (X) won. Waiting for Ann to agree to another game."
    )


def test_a_screen_reader_hears_the_friend_s_moves_and_the_connection() -> None:
    room = room_of()
    before = seen(room, GUEST)
    play(room, 4)
    after = seen(room, GUEST)
    assert changes(before, after, NONE) == "X plays b2. Your move."
    room.drop(HOST, 0.0)
    gone = seen(room, GUEST, 20.0)
    assert changes(after, gone, {"X": 100.0}) == "X is reconnecting, 1 minute 40 left."
    room.join(room.seats[Seat.HOST].secret, HOST, 30.0)
    back = seen(room, GUEST, 30.0)
    assert changes(gone, back, NONE) == "Ann (X) is here."
    play(room, 0, 2, 1, 6)  # X's diagonal c1, b2, a3
    said = changes(back, seen(room, GUEST), NONE)
    assert said == "O plays a1. X plays c1. O plays b1. X plays a3. Ann (X) won."
    assert changes(back, seen(room, HOST), NONE).endswith("X plays a3. You won!")


def test_on_4x4_a_move_is_named_by_its_column_then_row() -> None:
    room = room_of(4)
    before = seen(room, GUEST)
    play(room, 7)
    assert changes(before, seen(room, GUEST), NONE) == "X plays d2. Your move."


def test_a_finished_game_is_recorded_with_mode_online_and_the_opponent(tmp_path: Path) -> None:
    room = room_of()
    play(room, 0, 3, 1, 4, 2)
    host_record = record_of_view(seen(room, HOST), T0, T0)
    guest_record = record_of_view(seen(room, GUEST), T0, T0)
    assert host_record is not None and guest_record is not None
    assert (host_record.mode, host_record.human_mark, host_record.opponent) == (
        Mode.ONLINE,
        Player.X,
        "Bob",
    )
    assert guest_record.opponent == "Ann" and guest_record.result is Result.X_WON
    assert stats_entry(host_record) == ("online", StatsOutcome.WIN)
    assert stats_entry(guest_record) == ("online", StatsOutcome.LOSS)
    assert GameRecord.from_json(host_record.to_json()) == host_record
    assert players(host_record) == "You (X) vs Bob"
    assert "You (X) vs Bob" in game_line(host_record)
    # Each player's own data directory.
    store = Store(tmp_path / "ann")
    store.record_game(host_record)
    assert [record for _, record in store.games_page()] == [host_record]
    assert store.load_stats().count("online", StatsOutcome.WIN) == 1
    store.close()
    assert not (tmp_path / "bob").exists()


def test_an_abandoned_or_left_game_is_recorded_but_not_counted() -> None:
    room = room_of(4)
    play(room, 5)
    room.leave(GUEST, 1.0)
    record = record_of_view(seen(room, HOST), T0, T0)
    assert record is not None and record.result is Result.ABANDONED and record.n == 4
    assert stats_entry(record) is None


def test_nothing_is_recorded_for_a_watcher_a_game_on_or_a_game_of_no_move() -> None:
    room = room_of()
    room.join(room.watch_secret, 3, 0.0)
    assert record_of_view(seen(room, HOST), T0, T0) is None
    play(room, 0, 3, 1, 4, 2)
    assert record_of_view(seen(room, 3), T0, T0) is None
    empty = room_of()
    empty.leave(GUEST, 0.0)
    assert record_of_view(seen(empty, HOST), T0, T0) is None


def test_online_is_never_a_setting_or_a_record_without_a_mark() -> None:
    settings, problems = read_settings({"mode": "online"})
    assert settings.mode is Mode.HUMAN_VS_AI and problems[0].startswith("mode: expected one")
    with pytest.raises(ValueError, match="mode"):
        Settings(mode=Mode.ONLINE)
    with pytest.raises(ValueError, match="human_mark"):
        GameRecord(T0, T0, Mode.ONLINE, None, None, None, (0,), Result.ABANDONED)
    with pytest.raises(ValueError, match="opponent"):
        GameRecord(T0, T0, Mode.TWO_PLAYERS, None, None, None, (0,), Result.ABANDONED,
                   opponent="Bob")  # fmt: skip
