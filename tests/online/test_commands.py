"""`ttt-tui host` and `ttt-tui join` on bad input and refusals: one line on stderr and
exit status 2, before any full screen starts. In-process, on loopback."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import socket
import sys
from collections.abc import Iterator
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest
from aiohttp import web

from ttt_tui.__main__ import main
from ttt_tui.online.client import RoomClient
from ttt_tui.online.room import Seat
from ttt_tui.online.server import RoomServer

INVITE = "http://127.0.0.1:{port}/room/abcdefghijkl#abcdefghijklmnopqrstuvwx"


@pytest.fixture
def listening() -> Iterator[int]:
    """A port something else listens on."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        yield int(taken.getsockname()[1])


def free_port() -> int:
    """A port nothing listens on (free a moment ago)."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


def one_line(capsys: pytest.CaptureFixture[str], command: str) -> str:
    """The one line the command said on stderr (nothing on stdout)."""
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ttt-tui {command}: "), err
    return lines[0]


@pytest.mark.parametrize(
    ("invite", "words"),
    [
        ("nope", "starts with http"),
        ("http://127.0.0.1:8765/room/abcdefghijkl", "no secret after its #"),
        ("\x1b[31m" * 40, "starts with http"),
    ],
)
def test_a_bad_invite_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], invite: str, words: str
) -> None:
    assert main(["join", invite]) == 2
    assert words in one_line(capsys, "join")


def test_no_server_there_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    assert main(["join", INVITE.format(port=port)]) == 2
    assert f"no server answers at 127.0.0.1:{port} (Connection refused)" in one_line(capsys, "join")


@pytest.mark.parametrize("command", ["host", "join"])
def test_without_the_web_extra_the_command_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> ModuleSpec | None:
        return None if name == "aiohttp" else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    argv = ["host"] if command == "host" else ["join", INVITE.format(port=1)]
    assert main(argv) == 2
    assert 'pip install "ttt-tui[web]"' in one_line(capsys, command)


def test_a_port_in_use_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], listening: int
) -> None:
    assert main(["host", "--bind", "127.0.0.1", "--port", str(listening)]) == 2
    assert f"cannot listen on 127.0.0.1:{listening}" in one_line(capsys, "host")


def test_an_invite_file_that_cannot_be_written_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "no such folder" / "invites"
    argv = ["host", "--bind", "127.0.0.1", "--port", "0", "--invite-file", str(path)]
    assert main(argv) == 2
    assert "cannot write the invites to" in one_line(capsys, "host")


@pytest.mark.parametrize(
    "argv",
    [
        ["host", "--port", "70000"],
        ["host", "--mark", "Z"],
        ["host", "--board", "7"],
        ["host", "--grace", "nan"],
        ["host", "--idle", "1"],
        ["join"],
    ],
)
def test_bad_options_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"ttt-tui {argv[0]}: error: ")


async def test_a_held_seat_or_an_ended_room_is_refused_before_the_screen(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = RoomServer()
    port = await server.start("127.0.0.1", 0)
    name = server.create_room()
    invites = server.invites(name, "127.0.0.1", port)
    guest = RoomClient(invites[Seat.GUEST], "Bob")
    await guest.connect()
    try:
        assert await asyncio.to_thread(main, ["join", invites[Seat.GUEST].url]) == 2
        assert "already being played" in one_line(capsys, "join")
        await server.end_room(name)
        assert await asyncio.to_thread(main, ["join", invites[None].url]) == 2
        assert "opens no seat" in one_line(capsys, "join")
    finally:
        await guest.close()
        await server.stop()


async def test_a_web_server_that_is_not_ttt_tui_s_is_named_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = web.Application()
    runner = web.AppRunner(app)
    await runner.setup()
    with socket.create_server(("127.0.0.1", 0)) as listening:
        site = web.SockSite(runner, listening)
        await site.start()
        port = int(listening.getsockname()[1])
        try:
            status = await asyncio.to_thread(main, ["join", INVITE.format(port=port)])
        finally:
            await runner.cleanup()
    assert status == 2
    assert (
        one_line(capsys, "join") == f"ttt-tui join: 127.0.0.1:{port} is not a ttt-tui room server"
    )


TLS = Path(__file__).parent / "tls"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["host", "--certfile", "/no/such/cert.pem"], "cannot use the certificate"),
        (["host", "--certfile", str(TLS / "README.md")], "not a PEM file TLS can use"),
        (["host", "--keyfile", str(TLS / "key.pem")], "--keyfile goes with --certfile"),
        (["join", "--cafile", str(TLS / "cert.pem"), INVITE.format(port=1)], "https invite"),
        (
            ["join", "--cafile", "/no/such.pem", INVITE.format(port=1).replace("http", "https")],
            "cannot read the certificate /no/such.pem: No such file or directory",
        ),
    ],
)
def test_a_certificate_that_cannot_be_used_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(argv) == 2
    assert words in one_line(capsys, argv[0])


def test_host_without_a_terminal_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With standard input no terminal, the room is made, its invites written, and then
    the host says it has nowhere to play, and the room ends."""
    monkeypatch.setattr(sys, "stdin", io.StringIO())
    invites = tmp_path / "invites"
    argv = ["host", "--bind", "127.0.0.1", "--port", "0", "--invite-file", str(invites)]
    assert main(argv) == 2
    assert "needs an interactive terminal" in one_line(capsys, "host")
    assert len(invites.read_text().splitlines()) == 2


async def test_join_without_a_terminal_gives_the_seat_back(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO())
    server = RoomServer()
    port = await server.start("127.0.0.1", 0)
    try:
        invites = server.invites(server.create_room(), "127.0.0.1", port)
        assert await asyncio.to_thread(main, ["join", invites[Seat.GUEST].url]) == 2
        assert "needs an interactive terminal" in one_line(capsys, "join")
        guest = RoomClient(invites[Seat.GUEST], "Bob")
        assert await guest.connect() == "guest"
        await guest.close()
    finally:
        await server.stop()
