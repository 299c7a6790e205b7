"""`ttt-tui serve`: the protocol a browser tab speaks, the limit on games, and the CLI.

The real server runs in a subprocess on 127.0.0.1 (a free port) with its own
data directory; `tests.support.serving.Tab` loads the page and speaks its websocket
protocol, and reads the game's screen through a terminal emulator.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest

from tests.support import records
from tests.support.serving import Server, Tab, first_frame, served, square_name
from tests.support.terminal import DEADLINE, ROOT, child_pids, running, wait_until
from ttt_tui.__main__ import build_parser, game_argv, main
from ttt_tui.commands.play import WEB_DRIVER
from ttt_tui.commands.serve import full_text, is_loopback, tab_argv
from ttt_tui.play.settings import Settings
from ttt_tui.storage import Store

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads processes from /proc")


async def page_status(http: aiohttp.ClientSession, url: str, *, until: int) -> int:
    """The page's HTTP status, asked again every 50 ms until it is ``until`` or
    `DEADLINE` seconds have passed."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + DEADLINE
    while True:
        async with http.get(url + "/") as response:
            if response.status == until or loop.time() > give_up:
                return response.status
        await asyncio.sleep(0.05)


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
            await asyncio.to_thread(wait_until, lambda: not server_games(), "the game to end")
            # The server counts the game out once it has reaped the process, a moment
            # after the process has gone from /proc.
            assert await page_status(http, url, until=200) == 200

    with served(tmp_path / "data", tmp_path / "serve.log", "--max-games", "1",
                "--ai-delay", "0", "--difficulty", "hard") as server:  # fmt: skip
        asyncio.run(scenario(server.url, server.game_pids))
        log = server.log.read_text()
    assert "Traceback" not in log, log
    # The game left unfinished when its tab closed is recorded, as q would record it.
    [record] = records(tmp_path / "data")
    assert (record["moves"][0], len(record["moves"]), record["result"]) == (4, 2, "abandoned")


ADDRESS = re.compile(r"""(?:href|src)="([^"]+)"|url\("([^"]+)"\)""")
"""Every address a page names: links, scripts and images, and in its styles, fonts."""


def test_the_page_asks_nothing_of_any_other_server(tmp_path: Path) -> None:
    """textual-serve's page linked a stylesheet on fonts.googleapis.com: a request to a
    third party from every browser, which failed offline. Everything it names now
    comes from the game's server, the font included."""

    async def scenario(url: str) -> list[str]:
        async with aiohttp.ClientSession() as http:
            async with http.get(url + "/") as response:
                page = await response.text()
            named = [link or style for link, style in ADDRESS.findall(page)]
            assert any(address.endswith(".ttf") for address in named), page
            for address in named:
                async with http.get(address) as response:
                    assert response.status == 200, address
                    if address.endswith(".ttf"):
                        assert (await response.read())[:4] == b"\x00\x01\x00\x00", address
            return named

    with served(tmp_path / "data", tmp_path / "serve.log") as server:
        named = asyncio.run(scenario(server.url))
    others = [address for address in named if not address.startswith(server.url + "/")]
    assert others == []


async def first_move(http: aiohttp.ClientSession, page_url: str) -> str:
    """Open a tab from the page at ``page_url``, play b2, and return its screen once the
    computer has replied."""
    tab = await Tab.open(http, page_url, size=(100, 36))
    try:
        assert await tab.until(first_frame), tab.text
        await tab.press("5")
        assert await tab.until(lambda t: 2 in t.moves()), tab.text
        return tab.text
    finally:
        await tab.close()


def test_a_tab_s_game_is_not_in_screen_reader_mode_for_a_saved_setting(tmp_path: Path) -> None:
    """The saved settings (another tab's, or the terminal player's) have screen-reader mode
    on, but the server was not asked for it: a tab's game does not say its moves on an
    announcement line, as its page's terminal cannot read it out either."""
    store = Store(tmp_path / "data")
    store.save_settings(Settings(screen_reader=True))
    store.close()

    async def scenario(url: str) -> str:
        async with aiohttp.ClientSession() as http:
            return await first_move(http, url + "/")

    with served(tmp_path / "data", tmp_path / "serve.log", "--ai-delay", "0") as server:
        plain = asyncio.run(scenario(server.url))
        log = server.log.read_text()
    assert "Traceback" not in log, log
    assert "X plays" not in plain and "Your move" in plain


def test_the_games_of_a_server_killed_outright_end_with_it(tmp_path: Path) -> None:
    """SIGKILL to `ttt-tui serve` (no chance to stop its games): each tab's game finds its
    input closed and ends as a terminal closing would end it, its unfinished game
    recorded as abandoned and its search process gone. They used to run on for ever."""
    games: set[int] = set()

    async def scenario(url: str, server: Server) -> None:
        async with aiohttp.ClientSession() as http:
            tab = await Tab.open(http, url + "/", size=(100, 36))
            assert await tab.until(first_frame), tab.text
            await tab.press("5")
            assert await tab.until(lambda t: t.moves().get(1) == ("X", "b2")), tab.text
            games.update(child_pids(server.process.pid))
            games.update(*(child_pids(game) for game in list(games)))  # search processes
            server.process.kill()
            server.process.wait()

    try:
        with served(tmp_path / "data", tmp_path / "serve.log", "--ai-delay", "0") as server:
            asyncio.run(scenario(server.url, server))
        wait_until(lambda: not any(map(running, games)), "the games and the search to end")
    finally:
        for pid in filter(running, games):
            os.kill(pid, signal.SIGKILL)
    assert len(games) == 2  # the game and its search process
    [record] = records(tmp_path / "data")
    assert (record["moves"][0], record["result"]) == (4, "abandoned")
    assert not list((tmp_path / "data").glob("ttt-tui-crash-*"))


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


def game_on_pipes(data: Path) -> subprocess.Popen[bytes]:
    """The game as textual-serve starts it, on pipes, with the web driver."""
    return subprocess.Popen(
        [sys.executable, "-m", "ttt_tui", "--ai-delay", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "TEXTUAL_DRIVER": WEB_DRIVER, "TTT_TUI_DATA_DIR": str(data)},
    )


def read_until(game: subprocess.Popen[bytes], text: bytes) -> None:
    """Read the driver's packets (kind, length, payload) until the screen output has
    shown ``text``."""
    assert game.stdout is not None
    drawn = b""
    while text not in drawn:
        kind, size = game.stdout.read(1), int.from_bytes(game.stdout.read(4), "big")
        payload = game.stdout.read(size)
        assert kind in (b"D", b"M") and len(payload) == size, (kind, payload)
        drawn += payload if kind == b"D" else b""


def first_screen(game: subprocess.Popen[bytes]) -> None:
    """Read the driver's greeting and the game's first screen."""
    assert game.stdout is not None
    assert game.stdout.readline() == b"__GANGLION__\n"
    read_until(game, b"Your move")


def packet(kind: bytes, payload: bytes) -> bytes:
    """A packet to the web driver: its kind, the payload's length, the payload."""
    return kind + len(payload).to_bytes(4, "big") + payload


def test_the_web_driver_on_pipes_starts_the_game(tmp_path: Path) -> None:
    """As textual-serve starts it: the driver's greeting, the game's screen in the driver's
    packets, and an exit with status 0 when told to quit."""
    game = game_on_pipes(tmp_path)
    assert game.stdin is not None
    try:
        first_screen(game)
        game.stdin.write(packet(b"M", json.dumps({"type": "quit"}).encode()))
        game.stdin.flush()
        status = game.wait(timeout=60)  # stdin left open: closed, it would be a hang-up
    finally:
        game.kill()
        game.wait()
    assert status == 0


@pytest.mark.parametrize("closed", ["input", "output"])
def test_a_game_whose_server_has_gone_ends_as_on_a_hang_up(tmp_path: Path, closed: str) -> None:
    """The server's end of the game's input closes while the game waits after a move (it
    notices at once), or of its output before a key makes it draw (the write fails):
    either way the game ends with SIGHUP's status, an unfinished game is recorded as
    abandoned, and there is no crash report."""
    game = game_on_pipes(tmp_path)
    assert game.stdin is not None and game.stdout is not None
    try:
        first_screen(game)
        if closed == "input":
            game.stdin.write(packet(b"D", b"5"))
            game.stdin.flush()
            read_until(game, b"X b2")
            game.stdin.close()
        else:
            game.stdout.close()
            game.stdin.write(packet(b"D", b"5"))
            game.stdin.flush()
        assert game.wait(timeout=60) == 128 + signal.SIGHUP
    finally:
        game.kill()
        game.wait()
    assert not list(tmp_path.glob("ttt-tui-crash-*"))
    if closed == "input":
        [record] = records(tmp_path)
        assert (record["moves"][0], record["result"]) == (4, "abandoned")


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
    assert tab_argv(["--mark", "O"]) == [
        sys.executable, "-m", "ttt_tui", "--mark", "O"
    ]  # fmt: skip


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
        (["--max-games", "two"], "argument --max-games: expected a number of games, got 'two'"),
    ],
    ids=[
        "serve-port-range",
        "serve-port-word",
        "serve-max-games",
        "serve-max-games-word",
    ],
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
