"""Headless Chromium for the tests of `ttt-tui serve`, driven over the DevTools protocol.

No browser automation library: Chromium is started with a debugging port, and
commands and events go over its DevTools websocket with aiohttp, which the
tests have already. `find_chromium` looks for the system's browser; a test tool
downloading its own browser would fail where only package registries are
reachable.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import re
import shutil
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM_ENV = "TTT_CHROMIUM"
"""Names the browser to use, if set."""

NAMES = ("chromium", "chromium-browser", "chromium-headless-shell", "google-chrome")
"""Browsers looked for on the PATH, in this order."""

FLAGS = (
    "--headless",
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox will not start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium keeps calling home, and a closed network refuses it.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)

NAMED_KEYS = {"Tab": (9, ""), "Enter": (13, "\r")}
"""The keys `Page.press` knows by name, with their key codes and the text they type."""


def find_chromium() -> str | None:
    """The browser to run: `CHROMIUM_ENV`, else the first of `NAMES` on the PATH."""
    named = os.environ.get(CHROMIUM_ENV)
    if named:
        return named
    return next(filter(None, map(shutil.which, NAMES)), None)


class Page:
    """One page of the browser, and the events it has sent and not yet been asked for."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self._websocket = websocket
        self._ids = itertools.count(1)
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        """Every event, in order: ``{"method": ..., "params": ...}``."""
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self._websocket:
            data = json.loads(message.data)
            if "id" in data:
                self._replies.pop(data["id"]).set_result(data)
            else:
                await self.events.put(data)
        for reply in self._replies.values():
            reply.set_exception(ConnectionError("the browser closed the page"))

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Run one DevTools command; its result, or an error naming the command."""
        number = next(self._ids)
        reply = self._replies[number] = asyncio.get_running_loop().create_future()
        await self._websocket.send_json({"id": number, "method": method, "params": params})
        data = await reply
        if "error" in data:
            raise RuntimeError(f"{method}: {data['error']}")
        result: dict[str, Any] = data["result"]
        return result

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def click(self, x: float, y: float) -> None:
        """A left click at ``x``, ``y`` (CSS pixels), as a mouse makes it."""
        await self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        for kind in ("mousePressed", "mouseReleased"):
            await self.send(
                "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
            )

    async def press(self, key: str, *, ctrl: bool = False) -> None:
        """Press and release a key as a keyboard does: ``Tab``, ``Enter``, a digit or a
        lower-case letter, with Ctrl held if ``ctrl``."""
        number, text = NAMED_KEYS[key] if key in NAMED_KEYS else (ord(key.upper()), key)
        letter = f"Digit{key}" if key.isdigit() else f"Key{key.upper()}"
        code = key if key in NAMED_KEYS else letter
        text = "" if ctrl else text
        down = "keyDown" if text else "rawKeyDown"  # a key that types nothing: no keypress
        keys = {"key": key, "code": code, "windowsVirtualKeyCode": number}
        held = {"modifiers": 2} if ctrl else {}
        await self.send("Input.dispatchKeyEvent", type=down, text=text, **keys, **held)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **keys, **held)

    async def type(self, text: str) -> None:
        """Type ``text`` into what has the focus, as a paste from the keyboard would."""
        await self.send("Input.insertText", text=text)

    async def screenshot(self, path: Path) -> None:
        """Save what the page shows as a PNG."""
        result = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(result["data"]))

    async def close(self) -> None:
        await self._websocket.close()
        self._reader.cancel()
        with suppress(asyncio.CancelledError):
            await self._reader


@asynccontextmanager
async def chromium(
    executable: str, profile: Path, size: tuple[int, int] = (1100, 720)
) -> AsyncIterator[Page]:
    """Start headless Chromium with a fresh profile in ``profile`` and yield its page."""
    process = await asyncio.create_subprocess_exec(
        executable,
        *FLAGS,
        f"--user-data-dir={profile}",
        f"--window-size={size[0]},{size[1]}",
        "about:blank",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,  # so that its helper processes can all be ended together
    )
    assert process.stderr is not None
    try:
        said = b""
        async with asyncio.timeout(60):
            while (found := re.search(rb"DevTools listening on (ws://\S+)", said)) is None:
                line = await process.stderr.readline()
                assert line, f"Chromium exited: {said.decode(errors='replace')}"
                said += line
        port = re.search(rb"127\.0\.0\.1:(\d+)/", found[1])
        assert port is not None, found[1]
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{int(port[1])}/json/list") as response:
                targets = await response.json()
            [target] = [t for t in targets if t["type"] == "page"]
            websocket = await http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
            page = Page(websocket)
            # Drain Chromium's own chatter, so that it never blocks on a full pipe.
            drain = asyncio.create_task(process.stderr.read())
            try:
                yield page
            finally:
                await page.close()
                drain.cancel()
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            async with asyncio.timeout(20):
                await process.wait()
        except TimeoutError:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
