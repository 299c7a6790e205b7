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
from ttt_tui.__main__ import build_parser, main
from ttt_tui.commands.play import WEB_DRIVER, game_argv
from ttt_tui.commands.serve import (
    full_text,
    is_loopback,
    mode_url,
    tab_argv,
    tab_screen_reader,
)
from ttt_tui.compat.serve import SCRIPT_URL
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


# Screen-reader mode, each tab's own ----------------------------------------------------------

LINK = re.compile(r'<a href="([^"]*)">([^<]*)</a>')
"""A link of the page, its address and its words."""


async def page_and_status(http: aiohttp.ClientSession, url: str) -> tuple[str, int]:
    """The page at ``url`` and its HTTP status."""
    async with http.get(url) as response:
        return await response.text(), response.status


def body_links(page: str) -> list[tuple[str, str]]:
    """The links in the page's body, in order, each as its address and words."""
    return LINK.findall(page[page.index("<body") :])


def before_the_terminal(page: str, text: str) -> bool:
    """Whether ``text`` comes in the page's body before its terminal and before any button
    (textual-serve's Start and Restart, hidden until wanted)."""
    body = page[page.index("<body") :]
    return text in body and body.index(text) < min(body.index("<button"), body.index('"terminal"'))


def test_the_page_s_first_link_opens_it_in_screen_reader_mode_and_back(tmp_path: Path) -> None:
    """A visitor cannot ask the operator for ``serve --screen-reader``: the page's first
    link, before its terminal, opens it in screen-reader mode (`/?screen-reader=1`), where
    xterm.js's screen-reader script loads, the tab's websocket asks for a game in
    screen-reader mode, and the page says so, with the way back first. The page has a
    title, a language, and an icon at /favicon.ico."""

    async def scenario(url: str) -> dict[str, tuple[str, int]]:
        async with aiohttp.ClientSession() as http:
            pages = {
                name: await page_and_status(http, url + address)
                for name, address in [
                    ("plain", "/"),
                    ("screen reader", "/?screen-reader=1"),
                    ("script", SCRIPT_URL),
                ]
            }
            async with http.get(url + "/favicon.ico") as response:
                icon = await response.read()
                assert response.status == 200
                assert response.content_type == "image/vnd.microsoft.icon"
            # An icon file (reserved 0, type 1) of two images, 16 and 32 pixels square.
            assert icon[:4] == b"\x00\x00\x01\x00" and int.from_bytes(icon[4:6], "little") == 2
            assert (icon[6], icon[7], icon[22], icon[23]) == (16, 16, 32, 32)
            return pages

    with served(tmp_path / "data", tmp_path / "serve.log") as server:
        pages = asyncio.run(scenario(server.url))
        url = server.url
    ws = url.replace("http:", "ws:")
    plain, status = pages["plain"]
    assert status == 200
    assert body_links(plain)[0] == (f"{url}/?screen-reader=1", "Screen reader mode")
    assert before_the_terminal(plain, "Screen reader mode")
    assert f'data-session-websocket-url="{ws}/ws"' in plain
    assert f'src="{url}/static/js/textual.js"' in plain
    assert '<html lang="en">' in plain and "<title>ttt-tui</title>" in plain
    assert f'<link rel="icon" href="{url}/favicon.ico" />' in plain

    said, status = pages["screen reader"]
    assert status == 200
    assert body_links(said)[0] == (f"{url}/", "Leave screen reader mode")
    assert before_the_terminal(said, "Screen reader mode is on.")
    assert f'data-session-websocket-url="{ws}/ws/screen-reader"' in said
    assert f'src="{url}{SCRIPT_URL}"' in said
    assert "<title>ttt-tui: screen reader mode</title>" in said
    script, status = pages["script"]
    assert status == 200 and "screenReaderMode:!0," in script


async def first_move(http: aiohttp.ClientSession, page_url: str, *, said: bool) -> str:
    """Open a tab from the page at ``page_url``, play b2, and return its screen once the
    computer has replied (and, if ``said``, once the announcement line says so)."""
    tab = await Tab.open(http, page_url, size=(100, 36))
    try:
        assert await tab.until(first_frame), tab.text
        await tab.press("5")
        assert await tab.until(lambda t: 2 in t.moves()), tab.text
        if said:
            assert await tab.until(lambda t: "X plays b2. O plays " in t.text), tab.text
        return tab.text
    finally:
        await tab.close()


def test_a_tab_s_game_is_in_screen_reader_mode_as_its_page_says(tmp_path: Path) -> None:
    """Opened from `/?screen-reader=1`, a tab's game says each move on its announcement
    line; opened from `/`, it does not, though the saved settings (another tab's, or the
    terminal player's) have screen-reader mode on: the page decides, and its terminal
    is in screen-reader mode or not with it."""
    store = Store(tmp_path / "data")
    store.save_settings(Settings(screen_reader=True))
    store.close()

    async def scenario(url: str) -> list[str]:
        async with aiohttp.ClientSession() as http:
            return [
                await first_move(http, url + "/?screen-reader=1", said=True),
                await first_move(http, url + "/", said=False),
            ]

    with served(tmp_path / "data", tmp_path / "serve.log", "--ai-delay", "0") as server:
        said, plain = asyncio.run(scenario(server.url))
        log = server.log.read_text()
    assert "Traceback" not in log, log
    assert "X plays b2. O plays " in said
    assert "X plays" not in plain and "Your move" in plain


def test_serve_screen_reader_is_every_page_s_default_and_a_page_can_leave_it(
    tmp_path: Path,
) -> None:
    """With ``serve --screen-reader`` the page at / is in screen-reader mode, its game with
    it, and its first link leaves it (`/?screen-reader=0`): a page, and a game, without."""

    async def scenario(url: str) -> tuple[str, str, str]:
        async with aiohttp.ClientSession() as http:
            said, _ = await page_and_status(http, url + "/")
            plain, _ = await page_and_status(http, url + "/?screen-reader=0")
            return said, plain, await first_move(http, url + "/?screen-reader=0", said=False)

    options = ("--ai-delay", "0", "--screen-reader")
    with served(tmp_path / "data", tmp_path / "serve.log", *options) as server:
        said, plain, screen = asyncio.run(scenario(server.url))
        url = server.url
    ws = url.replace("http:", "ws:")
    assert body_links(said)[0] == (f"{url}/?screen-reader=0", "Leave screen reader mode")
    assert f'data-session-websocket-url="{ws}/ws/screen-reader"' in said
    assert body_links(plain)[0] == (f"{url}/", "Screen reader mode")
    assert f'data-session-websocket-url="{ws}/ws"' in plain
    assert "X plays" not in screen


def test_the_mode_link_keeps_the_page_s_other_options() -> None:
    assert [tab_screen_reader({"screen-reader": v}, False) for v in ("1", "0", "yes")] == [
        True,
        False,
        False,
    ]
    assert tab_screen_reader({}, True) and tab_screen_reader({"screen-reader": "on"}, True)
    assert mode_url("http://h", {"fontsize": "20"}, True, False) == (
        "http://h/?fontsize=20&screen-reader=1"
    )
    assert mode_url("http://h", {"screen-reader": "1", "fontsize": "20"}, False, False) == (
        "http://h/?fontsize=20"
    )
    assert mode_url("https://h/games", {"screen-reader": "0"}, True, True) == "https://h/games/"


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
        sys.executable, "-P", "-m", "ttt_tui", "--mark", "O"
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
        (["--port", "70000"], "argument --port: expected a port number (0 to 65535), got 70000"),
        (["--port", "web"], "argument --port: expected a port number (0 to 65535), got 'web'"),
        (
            ["--max-games", "0"],
            "argument --max-games: expected a number of games (1 or more), got 0",
        ),
        (
            ["--max-games", "two"],
            "argument --max-games: expected a number of games (1 or more), got 'two'",
        ),
        (
            ["--max-rooms", "0"],
            "argument --max-rooms: expected a number of rooms (1 to 100000), got 0",
        ),
        (
            ["--per-address", "x"],
            "argument --per-address: expected a number of connections (1 to 100000), got 'x'",
        ),
    ],
    ids=[
        "serve-port-range",
        "serve-port-word",
        "serve-max-games",
        "serve-max-games-word",
        "serve-max-rooms",
        "serve-per-address-word",
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
