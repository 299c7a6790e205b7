"""Helpers for the tests of `ttt-tui serve`.

`served` runs the real command (``python -m ttt_tui serve --port 0 ...``) in a
subprocess with its own data directory. `Tab` is what a browser tab does on the
protocol level, done the way textual-serve's page does it (its ``textual.js``):
load the page, read the websocket address from the terminal element's
``data-session-websocket-url``, connect with ``?width=..&height=..``, send
``["resize", {...}]``, then ``["stdin", text]`` for keys and mouse reports. The
game's output comes back as binary messages of terminal output, which go into a
terminal emulator (pyte) so that a test reads the screen as a person would.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pyte

from tests.support.terminal import DEADLINE, ROOT, child_pids, wait_until
from ttt_tui.commands.serve import GameServer
from ttt_tui.online.server import RoomServer

MOVE = re.compile(r"\b(\d)\. ([XO]) ([a-c][1-3])\b")
"""A line of the move list: ``1. X b2``."""


GAME_OVER = "n: new game"
"""What the status line says, under the result, once a game is over (and only then: the
sidebar's score says "Draws" all along)."""


def square_name(square: int) -> str:
    """``b2`` for square 5 (1-9, reading order), as the move list names it."""
    return "abc"[(square - 1) % 3] + str((square - 1) // 3 + 1)


@dataclass
class Server:
    """A running `ttt-tui serve`."""

    url: str
    """Where it serves, ``http://127.0.0.1:PORT``, without a final slash."""
    process: subprocess.Popen[bytes]
    """The server process."""
    log: Path
    """Its standard output and error."""

    def game_pids(self) -> set[int]:
        """The games it has in play now: its children."""
        return child_pids(self.process.pid)


@contextmanager
def served(data_dir: Path, log: Path, *options: str) -> Iterator[Server]:
    """Run ``ttt-tui serve --port 0 OPTIONS`` on loopback until the block ends."""
    env = {**os.environ, "TTT_TUI_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "ttt_tui", "serve", "--port", "0", *options],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
    try:
        found: list[str] = []

        def listening() -> bool:
            assert process.poll() is None, log.read_text()
            match = re.search(r"serving the game on (http://\S+?)/? ", log.read_text())
            found.extend([match[1]] if match else [])
            return bool(found)

        wait_until(listening, "the server to listen")
        yield Server(found[0], process, log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=DEADLINE)
        finally:
            process.kill()
            process.wait()


def game_server(socket: str, *game_argv: str, rooms: RoomServer | None = None) -> GameServer:
    """`ttt-tui serve`'s server in this process, not started: each tab's game with
    ``game_argv``, on loopback, its rooms ``rooms`` (by default a `RoomServer` of the
    default limits) and its tabs' socket at ``socket``."""
    return GameServer(
        list(game_argv),
        host="127.0.0.1",
        port=0,
        public_url=None,
        max_games=4,
        screen_reader=False,
        rooms=RoomServer() if rooms is None else rooms,
        socket=socket,
    )


@contextmanager
def socket_path() -> Iterator[str]:
    """A path for a Unix socket in a fresh folder, removed after: a short one, as a Unix
    socket's path is limited to about a hundred bytes (pytest's ``tmp_path`` is longer)."""
    folder = tempfile.mkdtemp(prefix="ttt-tabs-")
    try:
        yield str(Path(folder) / "tabs.sock")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def websocket_url(http: aiohttp.ClientSession, page_url: str) -> str:
    """Load the page and return the websocket address its terminal element names."""
    async with http.get(page_url) as response:
        assert response.status == 200, await response.text()
        page = await response.text()
    match = re.search(r'data-session-websocket-url="([^"]+)"', page)
    assert match is not None, page
    return match[1]


class Terminal:
    """A screen that the game's output draws on, read as a person reads it."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.screen = pyte.Screen(*size)
        self._stream = pyte.ByteStream(self.screen)

    def draw(self, output: bytes) -> None:
        """Take some of the game's output."""
        self._stream.feed(output)

    @property
    def text(self) -> str:
        """The screen as lines of text."""
        return "\n".join(self.screen.display)

    def moves(self) -> dict[int, tuple[str, str]]:
        """The move list on screen: move number to mark and square name."""
        return {int(n): (mark, square) for n, mark, square in MOVE.findall(self.text)}

    def game_over(self) -> bool:
        """Whether the status line says the game has ended."""
        return GAME_OVER in self.text


class Tab(Terminal):
    """One tab's websocket, and the screen the game has drawn on it so far.

    Like a browser, it reads all the time, in a task of its own: the server's
    heartbeat closes a websocket whose pings go unanswered, and aiohttp answers
    them only while something reads.
    """

    def __init__(
        self, websocket: aiohttp.ClientWebSocketResponse, url: str, size: tuple[int, int]
    ) -> None:
        super().__init__(size)
        self.websocket = websocket
        self.websocket_url = url
        """The address the page named, without the size."""
        self.closed = False
        """Whether the websocket has closed."""
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.draw(message.data)
                self._changed.set()
        self.closed = True
        self._changed.set()

    @classmethod
    async def open(
        cls, http: aiohttp.ClientSession, page_url: str, size: tuple[int, int] = (100, 36)
    ) -> Tab:
        """Load the page and connect as its script does."""
        return await cls.open_websocket(http, await websocket_url(http, page_url), size)

    @classmethod
    async def open_invite(
        cls, http: aiohttp.ClientSession, invite: str, size: tuple[int, int] = (100, 36)
    ) -> Tab:
        """Open an invite's page as a browser does (its secret, after the #, never sent
        in the address) and connect as its script does: the room and the secret first."""
        page, _, secret = invite.partition("#")
        room = page.rpartition("/")[2]
        joining = {"room": room, "secret": secret}
        return await cls.open_websocket(http, await websocket_url(http, page), size, joining)

    @classmethod
    async def open_websocket(
        cls,
        http: aiohttp.ClientSession,
        url: str,
        size: tuple[int, int] = (100, 36),
        joining: dict[str, str] | None = None,
    ) -> Tab:
        """Connect to the websocket at ``url`` as the page's script does, with ``size``
        (and, for a page opened at an invite, ``joining``'s room and secret first)."""
        width, height = size
        websocket = await http.ws_connect(f"{url}?width={width}&height={height}")
        if joining is not None:
            await websocket.send_str(json.dumps(["join", joining]))
        await websocket.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        return cls(websocket, url, size)

    async def press(self, keys: str) -> None:
        """Type ``keys``, as the page sends what xterm.js reads from the keyboard."""
        await self.websocket.send_str(json.dumps(["stdin", keys]))

    async def until(self, condition: Callable[[Tab], bool], deadline: float = DEADLINE) -> bool:
        """Wait until ``condition`` holds of the screen; False if the websocket closes or
        the deadline passes first."""
        try:
            async with asyncio.timeout(deadline):
                while not condition(self):
                    if self.closed:
                        return False
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        """Close the tab."""
        await self.websocket.close()
        await self._reader


def first_frame(tab: Terminal) -> bool:
    """Whether the game's first full frame is on screen: the status, the board's last
    square and the sidebar's last control."""
    text = tab.text
    return "Your move" in text and "9" in text and "New game" in text


def free_squares(tab: Terminal) -> list[int]:
    """The squares (1-9) the move list on screen has not taken."""
    taken = {square for _, square in tab.moves().values()}
    return [n for n in range(1, 10) if square_name(n) not in taken]
