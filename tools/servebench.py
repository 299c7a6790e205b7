"""A browser tab's first frame: ``ttt-tui serve`` against the bare app under textual-serve.

Part of the UI benchmark (`tools.uibench`). Two servers run side by side on
loopback: ``python -m ttt_tui serve`` (a fresh data directory) and
textual-serve's own `Server` serving the bare app (`tools.bare_app`). A tab is
what a browser tab does on the protocol level, as textual-serve's page script
does it: load the page, read the websocket address from the page, connect with
the terminal's size, and read the game's output into a terminal emulator (pyte).
A tab's first frame is the time from asking for the page to reading the output
that completes the app's first full view (as in a terminal, except that the
bare app's footer is not waited for: Textual's own footer stays blank under
textual-serve until a key); the browser's own drawing, the same for both, is
left out. Tabs go to the two
servers in turn, one at a time, each closed (and its app ended) before the next.
Both servers start a tab's app as the tab connects. Timings are what this
machine did in this run: only the ratios compare like with like.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pyte

from tools.uibench import (
    SIZE,
    BenchError,
    Lines,
    Seconds,
    Subject,
    child_env,
    package_root,
    processes,
)

TAB_TIMEOUT = 30.0
"""Seconds a tab may take to show its first frame on a busy machine."""
LISTEN_TIMEOUT = 30.0
"""Seconds a server may take to answer its first page."""
ENDED_TIMEOUT = 10.0
"""Seconds a closed tab's app may take to end."""

WEBSOCKET_URL = re.compile(r'data-session-websocket-url="([^"]+)"')
"""Where textual-serve's page names the websocket its script connects to."""


def free_port() -> int:
    """A port on loopback nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def game_server(port: int) -> list[str]:
    """``ttt-tui serve`` on ``port``, as a person starts it."""
    return [sys.executable, "-m", "ttt_tui", "serve", "--port", str(port)]


def bare_server(port: int) -> list[str]:
    """textual-serve's `Server` serving the bare app on ``port``, as its README shows."""
    app = f"{sys.executable} -m tools.bare_app"
    script = (
        "from textual_serve.server import Server; "
        f"Server({app!r}, host='127.0.0.1', port={port}).serve()"
    )
    return [sys.executable, "-c", script]


class WebServer(contextlib.AbstractContextManager["WebServer"]):
    """One server process, its own process group, ended with everything it started."""

    def __init__(self, name: str, subject: Subject, command: Callable[[int], list[str]]) -> None:
        self.name = name
        """Its row's name."""
        self.subject = subject
        """What its app's first frame looks like."""
        self.port = free_port()
        self.directory = tempfile.TemporaryDirectory(prefix="ttt-servebench-")
        data = Path(self.directory.name) / "data"
        data.mkdir()
        self.log = Path(self.directory.name) / "server.log"
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                command(self.port),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=child_env(data),
                cwd=package_root(),
                start_new_session=True,
            )
        self.times: list[Seconds] = []
        """Each tab's first frame."""

    @property
    def page(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def games(self) -> set[int]:
        """The processes the server has started that run now: every other process of
        the session it leads (its apps, and the shell textual-serve starts one through;
        a game's search process has a session of its own)."""
        leader = self.process.pid
        return {pid for pid, fields in processes() if int(fields[3]) == leader and pid != leader}

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(ENDED_TIMEOUT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.directory.cleanup()


async def listening(http: aiohttp.ClientSession, server: WebServer) -> None:
    """Wait until the server answers its page; raise if it ended or took too long."""
    deadline = time.monotonic() + LISTEN_TIMEOUT
    while True:
        if server.process.poll() is not None:
            raise BenchError(f"{server.name}'s server ended: {server.log.read_text()}")
        with contextlib.suppress(aiohttp.ClientError):
            async with http.get(server.page) as response:
                if response.status == 200:
                    return
        if time.monotonic() > deadline:
            raise BenchError(f"{server.name}'s server did not answer its page")
        await asyncio.sleep(0.05)


async def open_tab(
    http: aiohttp.ClientSession, server: WebServer, first_frame: Callable[[Lines], bool]
) -> Seconds:
    """Open one tab and time its first frame; close it and wait for its app to end."""
    width, height = SIZE
    screen = pyte.Screen(width, height)
    stream = pyte.ByteStream(screen)
    asked = time.perf_counter()
    async with http.get(server.page) as response:
        found = WEBSOCKET_URL.search(await response.text())
    if found is None:
        raise BenchError(f"{server.name}'s page names no websocket")
    async with http.ws_connect(f"{found[1]}?width={width}&height={height}") as websocket:
        await websocket.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        try:
            async with asyncio.timeout(TAB_TIMEOUT):
                async for message in websocket:
                    if message.type == aiohttp.WSMsgType.BINARY:
                        read = time.perf_counter()
                        stream.feed(message.data)
                        if first_frame(screen.display):
                            break
                else:
                    raise BenchError(f"{server.name}'s tab closed before its first frame")
        except TimeoutError:
            shown = "\n".join(screen.display)
            raise BenchError(f"{server.name}: no first frame in a tab:\n{shown}") from None
    await ended(server)
    return read - asked


async def ended(server: WebServer) -> None:
    """Wait until the server runs no app: the closed tab's has ended."""
    deadline = time.monotonic() + ENDED_TIMEOUT
    while server.games():
        if time.monotonic() > deadline:
            raise BenchError(f"{server.name}: a closed tab's app did not end")
        await asyncio.sleep(0.02)


async def measure_tabs(
    game: Subject, bare: Subject, tabs: int, progress: Callable[[str], None]
) -> dict[str, list[Seconds]]:
    """``tabs`` tabs to each server in turn (the game's and the bare app's), one at a
    time; each tab's first frame, by the server's name."""
    with contextlib.ExitStack() as stack:
        servers = [
            stack.enter_context(WebServer(game.name, game, game_server)),
            stack.enter_context(WebServer(bare.name, bare, bare_server)),
        ]
        async with aiohttp.ClientSession() as http:
            for server in servers:
                await listening(http, server)
                # Not counted: lets .pyc files be written and read once.
                await open_tab(http, server, server.subject.first_web_frame)
            for tab in range(tabs):
                order = servers if tab % 2 == 0 else servers[::-1]
                progress(f"tab {tab + 1} of {tabs}: {' then '.join(s.name for s in order)}")
                for server in order:
                    server.times.append(
                        await open_tab(http, server, server.subject.first_web_frame)
                    )
        return {server.name: server.times for server in servers}


def first_frames(
    game: Subject, bare: Subject, tabs: int, progress: Callable[[str], None]
) -> dict[str, list[Seconds]]:
    """Each server's tabs' first frames, by its name: the game's (``game.name``) and the
    bare app's (``bare.name``)."""
    return asyncio.run(measure_tabs(game, bare, tabs, progress))
