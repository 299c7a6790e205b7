"""`ttt-tui serve`: the protocol a browser tab speaks, the limit on games, and the CLI.

The real server runs in a subprocess on 127.0.0.1 (a free port) with its own
data directory; `tests.serving.Tab` loads the page and speaks its websocket
protocol, and reads the game's screen through a terminal emulator.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.serving import ROOT, Tab, first_frame, served, square_name, wait_for
from ttt_tui.__main__ import WEB_DRIVER, build_parser, game_argv, main
from ttt_tui.serve import full_text, is_loopback, tab_command

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads processes from /proc")


def game_records(data: Path) -> list[dict[str, Any]]:
    """The game records the tabs' games wrote to the data directory."""
    return [json.loads(line) for line in (data / "games.jsonl").read_text().splitlines()]


def test_a_tab_plays_and_its_game_ends_when_it_closes_and_the_limit_holds(
    tmp_path: Path,
) -> None:
    """Load the page, connect as it does, play a square with a key and see it on the
    board; with --max-games 1 the page and a second websocket say the server is full;
    closing the tab ends its game process, and the page is open again."""

    async def scenario(url: str, server_games: Callable[[], set[int]]) -> None:
        async with aiohttp.ClientSession() as http:
            tab = await Tab.open(http, url + "/", size=(100, 36))
            assert await tab.until(first_frame), tab.text
            [game] = server_games()

            await tab.press("5")
            assert await tab.until(lambda t: t.moves().get(1) == ("X", "b2")), tab.text
            assert await tab.until(lambda t: 2 in t.moves()), tab.text  # the computer replied

            # Full: the page says so, and so does a websocket opened anyway.
            async with http.get(url + "/") as response:
                assert response.status == 503
                assert full_text(1) in await response.text()
            second = await Tab.open_websocket(http, tab.websocket_url, size=(100, 36))
            assert await second.until(lambda t: full_text(1) in t.text), second.text
            await second.close()
            assert server_games() == {game}  # the refused tab started nothing

            await tab.close()
            await asyncio.to_thread(wait_for, lambda: not server_games(), "the game to end")
            async with http.get(url + "/") as response:
                assert response.status == 200

    with served(tmp_path / "data", tmp_path / "serve.log", "--max-games", "1",
                "--ai-delay", "0", "--difficulty", "hard") as server:  # fmt: skip
        asyncio.run(scenario(server.url, server.game_pids))
        log = server.log.read_text()
    assert "Traceback" not in log, log
    # The game left unfinished when its tab closed is recorded, as q would record it.
    [record] = game_records(tmp_path / "data")
    assert (record["moves"][0], len(record["moves"]), record["result"]) == (4, 2, "abandoned")


# The terminal check --------------------------------------------------------------------------


def test_the_web_driver_without_a_server_is_refused(tmp_path: Path) -> None:
    """TEXTUAL_DRIVER naming the web driver lets the game start only on pipes."""
    result = subprocess.run(
        [sys.executable, "-m", "ttt_tui"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "TEXTUAL_DRIVER": WEB_DRIVER},
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        "ttt-tui: TEXTUAL_DRIVER names Textual's web driver, which needs a web server"
        " (`ttt-tui serve`) on standard input and output, but they are not pipes"
    ]
    assert result.stdout == b""


def test_the_web_driver_on_pipes_starts_the_game(tmp_path: Path) -> None:
    """As textual-serve starts it: the driver's greeting, the game's screen in the driver's
    packets, and an exit with status 0 when told to quit."""
    game = subprocess.Popen(
        [sys.executable, "-m", "ttt_tui", "--no-save"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "TEXTUAL_DRIVER": WEB_DRIVER},
    )
    assert game.stdin is not None and game.stdout is not None
    try:
        assert game.stdout.readline() == b"__GANGLION__\n"
        drawn = b""
        while b"Your move" not in drawn:  # the driver's packets: kind, length, payload
            kind, size = game.stdout.read(1), int.from_bytes(game.stdout.read(4), "big")
            payload = game.stdout.read(size)
            assert kind in (b"D", b"M") and len(payload) == size, (kind, payload)
            drawn += payload if kind == b"D" else b""
        quit_packet = json.dumps({"type": "quit"}).encode()
        game.stdin.write(b"M" + len(quit_packet).to_bytes(4, "big") + quit_packet)
        game.stdin.flush()
        _, stderr = game.communicate(timeout=60)
    finally:
        game.kill()
        game.wait()
    assert game.returncode == 0, stderr.decode()


# The command line ----------------------------------------------------------------------------


def test_game_options_before_or_after_serve_reach_every_tab() -> None:
    args = build_parser().parse_args(
        [
            "--difficulty",
            "hard",
            "serve",
            "--mark",
            "o",
            "--ai-delay",
            "0",
            "--seed",
            "7",
            "--no-save",
            "--port",
            "0",
            "--max-games",
            "3",
        ]  # fmt: skip
    )
    assert (args.command, args.port, args.max_games, args.host) == ("serve", 0, 3, "127.0.0.1")
    assert game_argv(args) == [
        "--difficulty", "hard", "--mark", "O", "--ai-delay", "0.0", "--no-save", "--seed", "7"
    ]  # fmt: skip
    plain = build_parser().parse_args(["serve"])
    assert game_argv(plain) == []
    assert plain.public_url is None
    assert tab_command(["--mark", "O"]) == f"exec {sys.executable} -m ttt_tui --mark O"


def test_loopback_hosts() -> None:
    assert all(map(is_loopback, ["127.0.0.1", "127.0.0.2", "::1", "localhost"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "192.0.2.1", "example.org"]))


def test_without_the_web_extra_serve_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "textual_serve" else real(name, *rest),
    )
    assert main(["serve"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "ttt-tui serve: needs textual-serve, which is not installed; install the web extra"
        ' with: pip install "ttt-tui[web]"\n'
    )


def test_a_host_other_than_loopback_is_warned_about(tmp_path: Path) -> None:
    """192.0.2.1 is a documentation address no machine has: the warning comes first, then
    the server cannot listen there, which it says. Nothing is sent anywhere."""
    result = subprocess.run(
        [sys.executable, "-m", "ttt_tui", "serve", "--host", "192.0.2.1", "--port", "0"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        "ttt-tui serve: warning: listening on 192.0.2.1, so other machines can connect."
        " There is no authentication: everyone who can reach this address gets a game,"
        " each its own process on this machine (at most 16 at once).",
        "ttt-tui serve: cannot listen on 192.0.2.1 port 0 (cannot assign requested address)",
    ]


@pytest.mark.parametrize(
    ("option", "error"),
    [
        (["--port", "70000"], "argument --port: expected 0 to 65535, got 70000"),
        (["--port", "web"], "argument --port: expected a port number, got 'web'"),
        (["--max-games", "0"], "argument --max-games: expected at least 1, got 0"),
    ],
    ids=["serve-port-range", "serve-port-word", "serve-max-games"],
)
def test_bad_serve_options(
    option: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["serve", *option])
    assert exit.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"ttt-tui serve: error: {error}"


def test_square_names() -> None:
    assert [square_name(n) for n in (1, 5, 9, 3, 7)] == ["a1", "b2", "c3", "c1", "a3"]
