"""`ttt-tui serve` in a real browser: headless Chromium loads the page and plays by clicks.

The page's own script (xterm.js) draws the terminal and turns clicks into the
mouse reports the game reads. The test reads what the game sends the page from
the browser's record of its websocket frames (DevTools' Network events) through
a terminal emulator, finds each free square on that screen, clicks its middle
in the rendered terminal, and at the end checks the game record on disk: the
squares clicked are the moves X made.

Slow (a browser and a game process), so it runs when ``TTT_BROWSER_TEST=1``,
as `.ci/run` sets. It is skipped if no Chromium is found (`tests.support.browser`),
except under ``CI``, where that is a failure: CI installs Debian's ``chromium``.
It also saves the README's screenshot of the game in the browser:
``TTT_BROWSER_SCREENSHOT=screenshots/browser.png`` says where.

Playing a friend: a tab hosts and `ttt-tui join` in tmux (`tests.support.tmux`) takes
its invite; `ttt-tui host` in tmux and a tab joins it through the palette; the browser
opens an invite's address, its secret handed over on the socket and never in an address,
and a wrong one is said in one sentence. Each a whole game or a few moves, both sides
seeing every move.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from tests.support import stored
from tests.support.browser import CHROMIUM_ENV, Page, chromium, find_chromium
from tests.support.serving import Tab, Terminal, first_frame, served, square_name
from tests.support.terminal import DEADLINE, ttt
from tests.support.tmux import Tmux
from tests.support.tmux import tmux as tmux
from ttt_tui.engine import Player
from ttt_tui.storage import Store
from ttt_tui.widgets.title_bar import ICON

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TTT_BROWSER_TEST"), reason="set TTT_BROWSER_TEST=1 (.ci/run does)"
    ),
    pytest.mark.skipif(sys.platform != "linux", reason="Chromium is looked for as on Linux"),
]

PREFERENCE = (5, 1, 3, 7, 9, 2, 4, 6, 8)
"""The order in which X takes free squares."""


class PageTerminal(Terminal):
    """The game's screen as the page received it, rebuilt from the browser's websocket events."""

    def __init__(self) -> None:
        super().__init__((80, 24))
        self.requests: list[str] = []
        """Every address the page asked for, in order."""
        self.clicked: list[int] = []
        """The squares X clicked, in order."""
        self.websocket: str | None = None
        """The page's websocket (its DevTools request id): the last one opened."""

    def feed(self, event: dict[str, Any]) -> None:
        """Take one DevTools event: a request, the page's websocket opening, a resize, or
        output. A websocket's frames count only while it is the page's last: an earlier
        page's game drew on a screen of its own."""
        method, params = event.get("method", ""), event.get("params", {})
        if method.startswith("Network.webSocketFrame") and params["requestId"] != self.websocket:
            return
        if method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Network.webSocketCreated":
            self.websocket = params["requestId"]
            self.requests.append(params["url"])
            size = re.search(r"width=(\d+)&height=(\d+)", params["url"])
            if size:
                self.screen.resize(int(size[2]), int(size[1]))
        elif method == "Network.webSocketFrameSent":
            message = json.loads(params["response"]["payloadData"])
            if message[0] == "resize":
                self.screen.resize(message[1]["height"], message[1]["width"])
        elif method == "Network.webSocketFrameReceived" and params["response"]["opcode"] == 2:
            self.draw(base64.b64decode(params["response"]["payloadData"]))

    def square_at(self, square: int) -> tuple[int, int] | None:
        """The column and row of a free square's number, inside the board's frame."""
        lines = self.screen.display
        top = next(row for row, line in enumerate(lines) if "╭" in line)
        left, right = lines[top].index("╭"), lines[top].index("╮")
        for row, line in enumerate(lines[top:], start=top):
            for match in re.finditer(rf"(?<=[ ▶]){square}(?=[ ◀])", line[left:right]):
                return left + match.start(), row
        return None


async def until(page: Page, terminal: PageTerminal, condition: Any, what: str) -> None:
    """Take the page's events into ``terminal`` until ``condition(terminal)`` holds."""
    try:
        async with asyncio.timeout(DEADLINE):
            while not condition(terminal):
                terminal.feed(await page.events.get())
    except TimeoutError:
        raise AssertionError(f"gave up waiting for {what}; the screen:\n{terminal.text}") from None


async def click_square(page: Page, terminal: PageTerminal, square: int) -> None:
    """Click the middle of the terminal cell that shows the free square's number."""
    where = terminal.square_at(square)
    assert where is not None, f"square {square} is not free:\n{terminal.text}"
    box = await page.evaluate(
        "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()"
    )
    left, top, width, height = box
    column, row = where
    cell_width, cell_height = width / terminal.screen.columns, height / terminal.screen.lines
    await page.click(left + (column + 0.5) * cell_width, top + (row + 0.5) * cell_height)


DRAWN = """(() => {
  const draw = (text) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 48;
    const context = canvas.getContext("2d");
    context.font = "32px " + FONTS;
    context.fillText(text, 8, 36);
    return canvas.toDataURL();
  };
  const missing = draw("\\u{10FFFD}");
  return draw(TEXT) !== missing;
})()"""
"""Whether the page's fonts draw a character, not the box of a missing glyph (which
a code point no font has, U+10FFFD, draws)."""

TERMINAL_FONTS = "'Roboto Mono', Monaco, 'Courier New', monospace"
"""The fonts the page's terminal (xterm.js, in textual-serve's script) asks for."""


async def drawn(page: Page, text: str) -> bool:
    """Whether the page's terminal fonts draw ``text`` as a glyph of its own."""
    script = DRAWN.replace("FONTS", json.dumps(TERMINAL_FONTS)).replace("TEXT", json.dumps(text))
    return bool(await page.evaluate(script))


async def play_by_clicks(page: Page, url: str, screenshot: Path) -> PageTerminal:
    """Play one game as X by clicking free squares; the page's screen, with the squares
    clicked in order in `clicked`."""
    await page.send("Network.enable")
    await page.send("Page.enable")
    await page.send("Page.navigate", url=url)
    terminal = PageTerminal()
    await until(page, terminal, first_frame, "the game's first frame")
    clicked: list[int] = []
    while not terminal.game_over():
        square = next(n for n in PREFERENCE if terminal.square_at(n) is not None)
        # X's move number: the screen's move list may have scrolled its first moves away.
        number = 2 * len(clicked) + 1
        await click_square(page, terminal, square)
        clicked.append(square)
        mark = ("X", square_name(square))
        await until(page, terminal, lambda t, n=number, m=mark: t.moves().get(n) == m, f"{mark}")
        await until(
            page, terminal, lambda t, n=number: n + 1 in t.moves() or t.game_over(), "the reply"
        )
        if len(clicked) == 1:
            await asyncio.sleep(0.5)  # let xterm.js paint the frame it was sent
            await page.screenshot(screenshot)
    terminal.clicked = clicked
    return terminal


def chromium_or_skip() -> str:
    """Chromium's executable; the test is skipped without one, but fails under CI."""
    executable = find_chromium()
    if executable is None:
        message = f"no Chromium found: install Debian's chromium, or set {CHROMIUM_ENV}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI must run this test; .ci/run installs it)")
        pytest.skip(message)
    return executable


def test_a_game_played_by_clicks_in_headless_chromium(tmp_path: Path) -> None:
    executable = chromium_or_skip()
    data = tmp_path / "data"
    shot = tmp_path / "browser.png"
    options = ("--ai-delay", "0", "--difficulty", "hard", "--seed", "12")
    with served(data, tmp_path / "serve.log", *options) as server:

        async def scenario() -> tuple[PageTerminal, bool]:
            async with chromium(executable, tmp_path / "profile") as page:
                terminal = await play_by_clicks(page, server.url + "/", shot)
                return terminal, await drawn(page, ICON)

        terminal, icon_drawn = asyncio.run(scenario())
        log = server.log.read_text()
    assert "Traceback" not in log, log
    clicked = terminal.clicked
    # The page asked the game's server alone (it asked fonts.googleapis.com for its
    # font), and its fonts draw the header's icon (Textual's ⭘ was a missing glyph's box).
    origin = server.url.removeprefix("http://")
    elsewhere = [url for url in terminal.requests if urlsplit(url).netloc != origin]
    assert terminal.requests and elsewhere == []
    assert ICON in terminal.text.splitlines()[0]
    assert icon_drawn

    [game] = stored(Store(data))
    assert [cell + 1 for cell in game.moves[0::2]] == clicked
    assert game.result.value in ("o_won", "draw")  # Hard never loses
    assert shot.read_bytes().startswith(b"\x89PNG")
    if target := os.environ.get("TTT_BROWSER_SCREENSHOT"):
        shutil.copyfile(shot, target)


async def accessible_names(page: Page) -> list[str]:
    """The name of every node of the page's accessibility tree, as a screen reader reads it."""
    tree = await page.send("Accessibility.getFullAXTree")
    return [str(node.get("name", {}).get("value", "")) for node in tree["nodes"]]


def test_in_screen_reader_mode_the_page_s_accessibility_tree_says_each_move(
    tmp_path: Path,
) -> None:
    """Under ``ttt-tui serve --screen-reader`` the page's terminal (xterm.js) keeps its
    text in the accessibility tree, where a browser's screen reader reads it: after a
    move, the game's announcement line is there, in words."""
    executable = chromium_or_skip()
    options = ("--ai-delay", "0", "--difficulty", "hard", "--seed", "12", "--screen-reader")
    with served(tmp_path / "data", tmp_path / "serve.log", *options) as server:

        async def scenario() -> list[str]:
            async with chromium(executable, tmp_path / "profile") as page:
                await page.send("Network.enable")
                await page.send("Page.enable")
                await page.send("Accessibility.enable")
                await page.send("Page.navigate", url=server.url + "/")
                terminal = PageTerminal()
                await until(page, terminal, first_frame, "the game's first frame")
                await click_square(page, terminal, 5)
                await until(page, terminal, lambda t: 2 in t.moves(), "the computer's reply")
                names: list[str] = []
                async with asyncio.timeout(DEADLINE):
                    while not any(said_reply(name) for name in names):
                        await asyncio.sleep(0.2)
                        names = await accessible_names(page)
                return names

        names = asyncio.run(scenario())
        log = server.log.read_text()
    assert "Traceback" not in log, log
    # The line's row, and the text in it: a node each.
    said = {name.strip() for name in names if said_reply(name)}
    assert said and all(line.endswith("Your move.") for line in said), said


async def focused(page: Page) -> str:
    """The element that has the keyboard's focus, as HTML (a textarea's value left out)."""
    return str(await page.evaluate("document.activeElement.outerHTML.slice(0, 200)"))


async def loaded(page: Page, address: str) -> None:
    """Wait until the page at ``address`` has loaded, its script started."""
    script = "location.href + ' ' + document.readyState"
    async with asyncio.timeout(DEADLINE):
        while await page.evaluate(script) != f"{address} complete":
            await asyncio.sleep(0.1)


def said_reply(name: str) -> bool:
    """Whether an accessible name is the announcement line of b2 and its reply: the line
    itself, not a name that holds the whole screen's text (which xterm.js gives an
    element now and then), where the move list follows the announcement."""
    return name.strip().startswith("X plays b2. O plays ")


def test_the_first_tab_reaches_screen_reader_mode_and_the_tree_then_says_each_move(
    tmp_path: Path,
) -> None:
    """Served without ``--screen-reader``, as a blind visitor meets it: the first Tab on
    the page reaches the link to screen-reader mode, before the terminal, and the
    accessibility tree names it; Enter opens `/?screen-reader=1`, which says so; a Tab
    past its way back reaches the terminal, 5 plays b2, and the game's announcement of
    the computer's reply is in the accessibility tree."""
    executable = chromium_or_skip()
    options = ("--ai-delay", "0", "--difficulty", "hard", "--seed", "12")
    with served(tmp_path / "data", tmp_path / "serve.log", *options) as server:

        async def scenario() -> tuple[list[str], list[str], list[str]]:
            async with chromium(executable, tmp_path / "profile") as page:
                await page.send("Network.enable")
                await page.send("Page.enable")
                await page.send("Accessibility.enable")
                await page.send("Page.navigate", url=server.url + "/")
                await loaded(page, server.url + "/")
                plain = await accessible_names(page)
                await page.press("Tab")
                link = await focused(page)
                await page.press("Enter")
                await loaded(page, server.url + "/?screen-reader=1")
                terminal = PageTerminal()
                await until(page, terminal, first_frame, "the game's first frame")
                await page.press("Tab")
                back = await focused(page)
                await page.press("Tab")
                assert "xterm-helper-textarea" in await focused(page)
                await page.press("5")
                await until(page, terminal, lambda t: 2 in t.moves(), "the computer's reply")
                names: list[str] = []
                async with asyncio.timeout(DEADLINE):
                    while not any(said_reply(name) for name in names):
                        await asyncio.sleep(0.2)
                        names = await accessible_names(page)
                return plain, [link, back], names

        plain, (link, back), names = asyncio.run(scenario())
        log = server.log.read_text()
    assert "Traceback" not in log, log
    assert link == f'<a href="{server.url}/?screen-reader=1">Screen reader mode</a>'
    assert back == f'<a href="{server.url}/">Leave screen reader mode</a>'
    assert "Screen reader mode" in plain and not any("Your move" in name for name in plain)
    assert "Screen reader mode is on." in {name.strip() for name in names}
    said = {name.strip() for name in names if said_reply(name)}
    assert said and all(line.endswith("Your move.") for line in said), said


# Playing a friend -------------------------------------------------------------------

INVITES = re.compile(r"Invite your friend to play: (\S+)\s+To watch: (\S+)")
"""The invites on the host's online screen."""


def flat(terminal: PageTerminal) -> str:
    """The screen's words, its line breaks and runs of spaces as one space."""
    return " ".join(terminal.text.split())


async def keyboard_to_the_game(page: Page) -> None:
    """Give the page's terminal the keyboard, as a click on it would."""
    await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")


def toast(terminal: PageTerminal, start: str) -> str:
    """What the toast that begins with ``start`` says: its lines, right of its edge."""
    lines = terminal.text.splitlines()
    edge = next(line.index("▌ " + start) for line in lines if "▌ " + start in line)
    inside = [line[edge + 1 :].strip() for line in lines if line[edge : edge + 1] == "▌"]
    return " ".join(text for text in inside if text)


async def play_online(page: Page, terminal: PageTerminal, tmux: Tmux, browser: str) -> None:
    """Play X a1, b1, c1 against O a2, b2 (browser: the browser's mark), the browser
    clicking and the terminal in tmux pressing keys, each seeing the other's move said."""
    for ply, square in enumerate((1, 4, 2, 5, 3)):
        mark = "XO"[ply % 2]
        said = f"{mark} plays {square_name(square)}."
        if mark == browser:
            await click_square(page, terminal, square)
            if ply < 4:
                await asyncio.to_thread(tmux.wait_for, "term", said + " Your move.")
        else:
            tmux.keys("term", str(square))
            shown = said + (" Your move." if ply < 4 else "")
            await until(page, terminal, lambda t, s=shown: s in flat(t), said)


def test_a_browser_tab_hosts_and_a_terminal_joins_with_its_invite(
    tmp_path: Path, tmux: Tmux
) -> None:
    """f in a served tab makes a room; `ttt-tui join` in a terminal takes its play invite;
    a whole game, every move said on the other side, the same result on both, each
    player's record in their own data directory."""
    executable = chromium_or_skip()
    data = tmp_path / "data"
    with served(data, tmp_path / "serve.log", "--ai-delay", "0") as server:

        async def scenario() -> tuple[str, str]:
            async with chromium(executable, tmp_path / "profile", (1280, 760)) as page:
                await page.send("Network.enable")
                await page.send("Page.navigate", url=server.url + "/")
                terminal = PageTerminal()
                await until(page, terminal, first_frame, "the game's first frame")
                await keyboard_to_the_game(page)
                await page.press("f")
                await until(page, terminal, lambda t: INVITES.search(t.text), "the invites")
                found = INVITES.search(terminal.text)
                assert found is not None
                play, watch = found.groups()
                tmux.start("term", tmp_path / "bob", "join", play, "--name", "Bob")
                await asyncio.to_thread(tmux.wait_for, "term", "Host's move (X)")
                await until(page, terminal, lambda t: "Your move (X)" in flat(t), "Bob")
                await play_online(page, terminal, tmux, "X")
                await until(page, terminal, lambda t: "You won" in flat(t), "the win")
                await asyncio.to_thread(tmux.wait_for, "term", "Host (X) won.")
                await page.press("q")
                await until(page, terminal, first_frame, "the game again")
                return play, watch

        play, watch = asyncio.run(scenario())
        log = server.log.read_text()
    assert "Traceback" not in log, log
    origin = server.url
    assert play.startswith(f"{origin}/room/") and watch.startswith(f"{origin}/room/")
    # The invites' secrets are in no address the server logged.
    for invite in (play, watch):
        assert invite.partition("#")[2] not in log
    [mine] = stored(Store(data))
    assert mine.moves == (0, 3, 1, 4, 2) and mine.result.value == "x_won"
    assert mine.mode.value == "online" and mine.human_mark is Player.X
    tmux.keys("term", "q")
    tmux.wait_for("term", "EXIT=0")
    theirs = ttt("games", "list", data=tmp_path / "bob").stdout
    assert "3x3  You (O) vs Host   X won, 5 moves" in theirs, theirs


def test_a_terminal_hosts_and_a_browser_tab_joins_with_join_a_friend_s_game(
    tmp_path: Path, tmux: Tmux
) -> None:
    """`ttt-tui host` in a terminal; in a served tab the palette's "Join a friend's game"
    takes its play invite, typed into the dialog; a whole game as above."""
    executable = chromium_or_skip()
    data = tmp_path / "data"
    invites = tmp_path / "invites"
    tmux.start(
        "term",
        tmp_path / "ann",
        *("host", "--bind", "127.0.0.1", "--port", "0", "--name", "Ann"),
        *("--invite-file", str(invites)),
    )
    tmux.wait_for("term", "Waiting for your friend to join")
    play = invites.read_text().splitlines()[0]
    with served(data, tmp_path / "serve.log", "--ai-delay", "0") as server:

        async def scenario() -> None:
            async with chromium(executable, tmp_path / "profile", (1280, 760)) as page:
                await page.send("Network.enable")
                await page.send("Page.navigate", url=server.url + "/")
                terminal = PageTerminal()
                await until(page, terminal, first_frame, "the game's first frame")
                await keyboard_to_the_game(page)
                await page.press("p", ctrl=True)
                await until(page, terminal, lambda t: "Search for commands" in t.text, "palette")
                await page.type("Join a friend")
                await until(page, terminal, lambda t: "Play or watch with" in t.text, "entry")
                await page.press("Enter")
                await until(page, terminal, lambda t: "Paste your friend" in t.text, "dialog")
                await page.type(play)
                await page.press("Enter")
                await until(page, terminal, lambda t: "you play O against Ann" in t.text, "in")
                await asyncio.to_thread(tmux.wait_for, "term", "Your move (X)")
                await play_online(page, terminal, tmux, "O")
                await until(page, terminal, lambda t: "Ann (X) won." in flat(t), "the loss")
                await asyncio.to_thread(tmux.wait_for, "term", "You won!")

        asyncio.run(scenario())
        log = server.log.read_text()
    assert "Traceback" not in log, log
    [mine] = stored(Store(data))
    assert mine.moves == (0, 3, 1, 4, 2) and mine.human_mark is Player.O
    assert mine.opponent == "Ann"
    tmux.keys("term", "q")
    tmux.wait_for("term", "EXIT=0")
    theirs = ttt("games", "list", data=tmp_path / "ann").stdout
    assert "3x3  You (X) vs Friend X won, 5 moves" in theirs, theirs


def test_an_invite_opened_in_the_browser_joins_and_a_wrong_one_is_one_sentence(
    tmp_path: Path,
) -> None:
    """A tab (on the protocol) hosts; the browser opens its play invite: the page's
    script hands the secret to the server on the socket, never in an address, and the
    tab joins as O; then an invite with a wrong secret says so in one sentence."""
    executable = chromium_or_skip()
    with served(tmp_path / "data", tmp_path / "serve.log", "--ai-delay", "0") as server:

        async def scenario() -> tuple[str, PageTerminal, str]:
            async with aiohttp.ClientSession() as http:
                host = await Tab.open(http, server.url + "/")
                assert await host.until(first_frame)
                await host.press("f")
                assert await host.until(lambda t: INVITES.search(t.text) is not None)
                found = INVITES.search(host.text)
                assert found is not None
                play = found[1]
                async with chromium(executable, tmp_path / "profile", (1280, 760)) as page:
                    await page.send("Network.enable")
                    await page.send("Page.navigate", url=play)
                    terminal = PageTerminal()
                    seated = "you play O against Host"
                    await until(page, terminal, lambda t: seated in t.text, "joined")
                    await host.press("5")
                    said = "X plays b2. Your move."
                    await until(page, terminal, lambda t: said in flat(t), said)
                    await click_square(page, terminal, 1)
                    assert await host.until(lambda t: "O plays a1. Your move." in t.text)
                    wrong = play[:-4] + ("AAAA" if not play.endswith("AAAA") else "BBBB")
                    # Away first: a page that differs only after its # is not loaded again.
                    await page.send("Page.navigate", url="about:blank")
                    await loaded(page, "about:blank")
                    await page.send("Page.navigate", url=wrong)
                    refused = PageTerminal()
                    await until(page, refused, lambda t: "Could not join" in t.text, "refused")
                    await until(page, refused, lambda t: "room has ended." in flat(t), "said")
                    await host.close()
                    return play, refused, toast(refused, "Could not")

        play, refused, words = asyncio.run(scenario())
        log = server.log.read_text()
    assert "Traceback" not in log, log
    secret = play.partition("#")[2]
    assert all(secret not in url for url in refused.requests)
    assert any(url.split("?")[0].endswith("/ws/join") for url in refused.requests)
    assert secret not in log
    assert words == (
        "Could not join: that invite opens no seat: it is mistyped, or its room has ended."
    )
