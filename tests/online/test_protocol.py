"""The protocol's messages read strictly, and invites read from what a person pastes."""

from __future__ import annotations

import json

import pytest

from ttt_tui import __version__
from ttt_tui.online.protocol import (
    MAX_FRAME,
    Hello,
    Invite,
    InviteError,
    Leave,
    Move,
    Ping,
    ProtocolError,
    Rematch,
    hello,
    move,
    read_client,
    read_invite,
    read_state,
)
from ttt_tui.online.room import Room

ROOM, SECRET = "r" * 12, "s" * 24


def test_each_client_message_is_read() -> None:
    assert read_client(hello(ROOM, SECRET, "Ann")) == Hello(1, __version__, ROOM, SECRET, "Ann")
    assert read_client(move(2, 3, 24)) == Move(2, 3, 24)
    assert read_client('{"type":"rematch"}') == Rematch()
    assert read_client('{"type":"leave"}') == Leave()
    assert read_client(' { "type" : "ping" } ') == Ping()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[]",
        '"ping"',
        '{"type":1}',
        '{"type":"ping"',
        '{"type":"ping","type":"ping"}',
        '{"type":"ping","extra":0}',
        '{"type":"pong"}',
        '{"type":"move","game":1,"seq":0}',
        '{"type":"move","game":1,"seq":0,"cell":25}',
        '{"type":"move","game":1,"seq":-1,"cell":4}',
        '{"type":"move","game":1,"seq":0.0,"cell":4}',
        '{"type":"move","game":1,"seq":false,"cell":4}',
        '{"type":"move","game":1,"seq":Infinity,"cell":4}',
        '{"type":"move","game":1,"seq":"0","cell":4}',
        '{"type":"move","game":1e9,"seq":0,"cell":4}',
        '{"type":"hello","protocol":1,"version":"x","room":"short","secret":"' + SECRET + '",'
        '"name":""}',
        '{"type":"hello","protocol":1,"version":"x","room":"' + ROOM + '","secret":"a/b+c=d=e",'
        '"name":""}',
        '{"type":"ping","pad":"' + "x" * MAX_FRAME + '"}',
        "[" * 100_000,
    ],
)
def test_anything_else_is_a_protocol_error(text: str) -> None:
    with pytest.raises(ProtocolError):
        read_client(text)


def test_an_invite_carries_its_secret_in_the_fragment_alone() -> None:
    invite = Invite("192.168.1.5", 8765, ROOM, SECRET)
    assert invite.url == f"http://192.168.1.5:8765/room/{ROOM}#{SECRET}"
    assert invite.socket_url == "ws://192.168.1.5:8765/online"
    assert SECRET not in invite.socket_url
    assert read_invite(f"  {invite.url}\n") == invite
    six = Invite("::1", 80, ROOM, SECRET, tls=True)
    assert six.url == f"https://[::1]:80/room/{ROOM}#{SECRET}"
    assert six.socket_url == "wss://[::1]:80/online"
    assert read_invite(six.url) == six
    assert read_invite(f"https://example.org/room/{ROOM}#{SECRET}").port == 443


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hello", "starts with http"),
        (f"ftp://h:1/room/{ROOM}#{SECRET}", "starts with http"),
        (f"http://h:99999/room/{ROOM}#{SECRET}", "not an invite URL"),
        (f"http:///room/{ROOM}#{SECRET}", "no host"),
        (f"http://h:1/rooms/{ROOM}#{SECRET}", "path"),
        (f"http://h:1/room/{ROOM}", "cut short"),
        (f"http://h:1/room/{ROOM}#abc", "secret"),
        (f"http://h:1/room/x#{SECRET}", "room name"),
        (f"http://h:1/room/{ROOM}?a=b#{SECRET}", "query"),
    ],
)
def test_a_bad_invite_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InviteError, match=words):
        read_invite(text)


def test_the_room_s_state_reads_back_and_a_broken_one_does_not() -> None:
    room = Room(host_name="Ann")
    room.join(room.seats[next(iter(room.seats))].secret, 1, 0.0)
    message = json.loads(json.dumps(room.state(1, 0.0)))
    view = read_state(message)
    assert view.you == "X" and view.seats["X"].name == "Ann" and view.n == 3
    assert view.moves == () and not view.started and view.ending is None
    for key, value in (("seats", {}), ("n", 7), ("moves", ["a"]), ("you", "Z"), ("game", None)):
        with pytest.raises(ProtocolError):
            read_state(message | {key: value})
    with pytest.raises(ProtocolError):
        read_state({"type": "state"})
