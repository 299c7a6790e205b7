"""`ttt-tui serve`: the game in web browsers, one game process per tab, through textual-serve.

The page is textual-serve's: xterm.js draws a terminal and talks to the server
over a websocket (``["stdin", text]``, ``["resize", {"width", "height"}]``,
``["ping", x]`` from the page; the game's output as binary messages back). Each
websocket gets a game of its own, ``python -m ttt_tui`` with the options
given to `serve`, started by textual-serve as the tab connects; Textual's web
driver (``TEXTUAL_DRIVER``, set as textual-serve sets it) makes that game draw
into pipes instead of a terminal.

On top of textual-serve's `Server` this adds what a server that anyone on the
network may open needs:

- At most ``max_games`` games at once. Past that the page says the server is
  full (HTTP 503), and a websocket opened anyway gets the same message on its
  terminal and no game.
- A game ends when its tab closes: the server asks it to quit, and kills it if
  it has not ended after `QUIT_GRACE` seconds. A tab that vanishes without
  closing is noticed by the `HEARTBEAT`. Stopping the server ends every game
  the same way.
- The page reaches the websocket at the address the browser used (or at
  ``--public-url``), so ``--port 0`` and addresses other than loopback work
  without telling the server its own name.
- A terminal size a page asks for is held to `MAX_SIZE`, so that no visitor can
  make a game draw a screen of millions of cells.
- Any tab can be in screen-reader mode, its page's terminal and its game both: the
  page's first link opens it so (``/?screen-reader=1``), and links back.
  ``--screen-reader`` makes it every tab's default (``/?screen-reader=0`` leaves it).
- The page has a title, a language and an icon (`FAVICON`, at ``/favicon.ico``).

Every game shares the data directory; `ttt_tui.storage` keeps their saves from
losing each other's updates.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import os
import secrets
import shlex
import shutil
import signal
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from ttt_tui.compat.serve import game_process, page_template, web_app
from ttt_tui.engine import SIZES, Player
from ttt_tui.online.protocol import (
    ROOM_PATH,
    SERVE_SOCKET_ENV,
    TOKEN,
    Invite,
    InviteError,
    read_invite,
)
from ttt_tui.online.room import Seat
from ttt_tui.online.server import RoomServer, RoomsFull
from ttt_tui.proc.child import python_module

log = logging.getLogger("ttt-tui.serve")

QUIT_GRACE = 10.0
"""Seconds a game has to end once its tab is closed, before it is killed."""

HEARTBEAT = 30.0
"""Seconds between pings to each tab; one unanswered for half that is a tab gone. Twice
textual-serve's 15: on a busy machine a live tab's answer can take more than 7.5 s."""

MAX_SIZE = (500, 200)
"""The largest terminal, in columns and rows, that a page may ask for."""

SCREEN_READER = "--screen-reader"
"""The game option for screen-reader mode, which each tab's page decides."""

SCREEN_READER_QUERY = "screen-reader"
"""The page's query parameter for screen-reader mode: ``1`` on, ``0`` off."""

SCREEN_READER_WEBSOCKET = "/ws/screen-reader"
"""Where a page in screen-reader mode connects, for a game in screen-reader mode (the
page's script adds the terminal's size to the address as a query of its own)."""

JOIN = "/join"
"""Added to a websocket's path by a page opened at an invite (`ROOM_PATH`), whose script
sends the invite's room and secret as the socket's first message: never in a URL."""

JOIN_TIMEOUT = 10.0
"""Seconds a page opened at an invite has to send it."""

SERVE_TAB = "--serve-tab"
"""The game option that names a tab's ticket, by which its game asks this server for
rooms (on its own socket, `SERVE_SOCKET_ENV`)."""

SERVE_JOIN = "--serve-join"
"""The game option of a tab whose page brought an invite, which its game joins."""

FAVICON = Path(__file__).with_name("favicon.ico")
"""The page's icon: a board, X in the middle, O in a corner; 16 and 32 pixels."""

HEAD = """  <title>{{ application.name }}
      {%- if screen_reader %}: screen reader mode{% endif %}</title>
    <link rel="icon" href="{{ base_url }}/favicon.ico" />
    <style>
      .ttt-mode {
        position: relative;
        z-index: 30;
        box-sizing: border-box;
        height: 28px;
        margin: 0;
        padding: 0 12px;
        font: 14px/28px "Roboto Mono", menlo, monospace;
        color: #e8e8e8;
        background: #12232d;
      }
      .ttt-mode a {
        color: #d2b0ff;
      }
      .ttt-mode a:focus-visible {
        outline: 2px solid #ffffff;
        outline-offset: 2px;
      }
      body .textual-terminal {
        height: calc(100vh - 28px);
      }
      .dialog-container {
        top: 0;
        left: 0;
      }
    </style>
  """
"""Added to the page's head: its title, its icon, and the look of `BODY`'s line, above
a terminal that leaves room for it."""

JOIN_SCRIPT = """{% if room %}
    <script>
      // Opened at an invite: its secret, after the #, goes to the server as the game's
      // socket's first message, never in a URL that a server or a proxy would log.
      (function () {
        var Plain = window.WebSocket;
        var join = JSON.stringify(
          ["join", {room: {{ room|tojson }}, secret: window.location.hash.slice(1)}]
        );
        function Joining(url, protocols) {
          var socket = protocols === undefined ? new Plain(url) : new Plain(url, protocols);
          socket.addEventListener("open", function () { socket.send(join); });
          return socket;
        }
        Joining.prototype = Plain.prototype;
        ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) {
          Joining[name] = Plain[name];
        });
        window.WebSocket = Joining;
        // The other mode's page, at the same invite.
        window.addEventListener("DOMContentLoaded", function () {
          var mode = document.querySelector(".ttt-mode a");
          if (mode) { mode.href += window.location.hash; }
        });
      })();
    </script>{% endif %}
"""
"""Added to the head of a page opened at an invite, before its terminal connects."""

BODY = """
    <header class="ttt-mode">{% if screen_reader %}Screen reader mode is on.
      <a href="{{ mode_url }}">Leave screen reader mode</a>{% else %}
      <a href="{{ mode_url }}">Screen reader mode</a>{% endif %}
    </header>
"""
"""Put first in the page's body, before the terminal, so that it is the first thing a
screen reader reads and the first a Tab reaches: a link to the page in the other mode."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def tab_argv(game_argv: Sequence[str]) -> list[str]:
    """The command line of one tab's game with ``game_argv``: this copy of ttt-tui
    (`python_module`; the server's environment carries its path)."""
    return [*python_module("ttt_tui")[0], *game_argv]


def full_text(max_games: int) -> str:
    """What a visitor is told when every game is taken."""
    games = "game is" if max_games == 1 else f"{max_games} games are"
    return (
        f"This ttt-tui server is full: all {games} in play."
        " Reload the page in a minute to try again."
    )


def _full_page(max_games: int) -> str:
    text = html.escape(full_text(max_games))
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>ttt-tui: full</title>"
        "</head>\n<body style='background:#0c181f;color:#eee;font:18px monospace;"
        f"padding:3em'>\n<p>{text}</p>\n<p><a href='' style='color:#ac5af4'>Try again</a></p>\n"
        "</body></html>\n"
    )


def tab_screen_reader(query: Mapping[str, str], default: bool) -> bool:
    """Whether a page asked for with ``query`` is in screen-reader mode: as its
    `SCREEN_READER_QUERY` says, else as ``default`` (``serve --screen-reader``)."""
    return {"1": True, "0": False}.get(query.get(SCREEN_READER_QUERY, ""), default)


def mode_url(
    base: str, query: Mapping[str, str], screen_reader: bool, default: bool, path: str = "/"
) -> str:
    """The page at ``base`` and ``path`` with ``query``, in screen-reader mode or not: a
    query that names the mode only when it is not the ``default``."""
    wanted = {key: value for key, value in query.items() if key != SCREEN_READER_QUERY}
    if screen_reader != default:
        wanted[SCREEN_READER_QUERY] = "1" if screen_reader else "0"
    return f"{base}{path}" + (f"?{urlencode(wanted)}" if wanted else "")


def _clamp(value: Any, largest: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 80
    return max(1, min(number, largest))


@dataclass
class Tab:
    """What this server knows of one tab's game, by its ticket: the address its browser
    used (what its invites name), and the invite its page brought, until its game takes it."""

    base: str
    brought: Invite | None = None


def invite_at(base: str, room: str, secret: str) -> Invite:
    """The invite to ``room`` with ``secret`` at the server whose address is ``base``
    (``http://host:port``, ``https://name``); a path in ``base`` is not kept, as an
    invite's path is `ROOM_PATH` at the root."""
    parts = urlsplit(base)
    tls = parts.scheme == "https"
    port = parts.port if parts.port is not None else (443 if tls else 80)
    return Invite(parts.hostname or "localhost", port, room, secret, tls)


class GameServer(Server):
    """textual-serve's server with a limit on games, games that end with their tab, and
    tabs in screen-reader mode or not, each as its page asks."""

    def __init__(
        self,
        game_argv: Sequence[str],
        *,
        host: str,
        port: int,
        public_url: str | None,
        max_games: int,
        screen_reader: bool,
        rooms: RoomServer,
        socket: str,
    ) -> None:
        """``game_argv`` are each tab's game options but `SCREEN_READER`, which a tab's
        page decides, ``screen_reader`` its default. ``rooms`` are served on the same port,
        and to the tabs' games on the Unix socket at ``socket``, with what they ask for."""
        super().__init__(
            shlex.join(tab_argv(game_argv)),
            host=host,
            port=port,
            title="ttt-tui",
            public_url=public_url,
        )
        self.game_argv = list(game_argv)
        """Each tab's game options, but screen-reader mode."""
        self.fixed_url = public_url.rstrip("/") if public_url else None
        """The address browsers use, if given; else the one each browser asked for."""
        self.max_games = max_games
        """Games in play at once, at most."""
        self.screen_reader = screen_reader
        """Whether a page that does not say is in screen-reader mode, and its game with it."""
        self.games: dict[AppService, web.WebSocketResponse] = {}
        """The games in play, each with its tab's websocket."""
        self.rooms = rooms
        """The rooms of friends playing, made by tabs ("Play a friend")."""
        self.socket = socket
        """The Unix socket, in a folder only this user can open, where the tabs' games
        ask for rooms and reach them."""
        self.tabs: dict[str, Tab] = {}
        """The tabs in play, by their tickets."""

    # The page ----------------------------------------------------------------

    def _base_url(self, request: web.Request) -> str:
        return self.fixed_url or f"{request.scheme}://{request.host}"

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's page (with `HEAD` and `BODY`), pointing at this server as the
        browser reached it, in screen-reader mode or not (`tab_screen_reader`); or, when
        every game is taken, a page that says so."""
        if len(self.games) >= self.max_games:
            return web.Response(
                status=503,
                text=_full_page(self.max_games),
                content_type="text/html",
                headers={"Retry-After": "60"},
            )
        base = self._base_url(request)
        scheme, _, rest = base.partition(":")
        websocket_scheme = "wss" if scheme == "https" else "ws"
        try:
            font_size = int(request.query.get("fontsize", "16"))
        except ValueError:
            font_size = 16
        screen_reader = tab_screen_reader(request.query, self.screen_reader)
        websocket = SCREEN_READER_WEBSOCKET if screen_reader else "/ws"
        room = request.match_info.get("room")
        if room is not None and not TOKEN.fullmatch(room):
            raise web.HTTPNotFound(text="No such room: an invite's path is /room/ROOM.\n")
        if room is not None:
            websocket += JOIN
        path = "/" if room is None else f"{ROOM_PATH}{room}"
        context = {
            "font_size": font_size,
            "app_websocket_url": f"{websocket_scheme}:{rest}{websocket}",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": self.title},
            "base_url": base,
            "screen_reader": screen_reader,
            "mode_url": mode_url(base, request.query, not screen_reader, self.screen_reader, path),
            "room": room,
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_favicon(self, request: web.Request) -> web.StreamResponse:
        """The page's icon, `FAVICON`."""
        return web.FileResponse(FAVICON, headers={"Content-Type": "image/vnd.microsoft.icon"})

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: `run` says where the server is once it is listening."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every tab's websocket, which ends its game (`handle_websocket`)."""
        for websocket in list(self.games.values()):
            await websocket.close(code=1001, message=b"server stopping")

    # A tab -------------------------------------------------------------------

    def tab_command(self, screen_reader: bool, ticket: str, joining: bool = False) -> str:
        """The shell command of one tab's game, in screen-reader mode or not, named by its
        ``ticket``, and joining the invite its page brought if ``joining``. The ticket
        alone opens nothing: only this user can reach the socket it is shown at."""
        options = [*self.game_argv, SCREEN_READER] if screen_reader else [*self.game_argv]
        options += [f"{SERVE_TAB}={ticket}", *([SERVE_JOIN] if joining else [])]
        return shlex.join(tab_argv(options))

    async def _brought(self, websocket: web.WebSocketResponse, base: str) -> Invite | str:
        """The invite a page opened at one sends first (`JOIN_SCRIPT`), or why there is
        none, in a sentence."""
        try:
            first = await websocket.receive(timeout=JOIN_TIMEOUT)
            kind, said = first.json() if first.type is WSMsgType.TEXT else (None, None)
        except (TimeoutError, ValueError, TypeError):
            kind, said = None, None
        if kind != "join" or not isinstance(said, dict):
            return "This page did not send its invite: open the whole invite link again."
        room, secret = said.get("room"), said.get("secret")
        if not isinstance(room, str) or not isinstance(secret, str):
            return "This page did not send its invite: open the whole invite link again."
        try:
            return read_invite(invite_at(base, room, secret).url)
        except InviteError as error:
            said = str(error)
            return f"This invite cannot be used: {said}{'' if said.endswith('?') else '.'}"

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Run one game for one tab, for as long as the tab is open: in screen-reader
        mode if the page connected at `SCREEN_READER_WEBSOCKET`."""
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT)
        await websocket.prepare(request)
        if len(self.games) >= self.max_games:
            log.warning("full: refused a game (%d in play)", len(self.games))
            await websocket.send_bytes(f"\r\n  {full_text(self.max_games)}\r\n".encode())
            async for _ in websocket:
                pass  # until the tab goes; it has no game to talk to
            return websocket
        width = _clamp(request.query.get("width", 80), MAX_SIZE[0])
        height = _clamp(request.query.get("height", 24), MAX_SIZE[1])
        tab = Tab(self._base_url(request))
        joining = request.path.endswith(JOIN)
        if joining:
            brought = await self._brought(websocket, tab.base)
            if isinstance(brought, str):
                await websocket.send_bytes(f"\r\n  {brought}\r\n".encode())
                await websocket.close()
                return websocket
            tab.brought = brought

        async def close() -> None:
            await websocket.close()

        ticket = secrets.token_urlsafe(16)
        self.tabs[ticket] = tab
        service = AppService(
            self.tab_command(request.path.startswith(SCREEN_READER_WEBSOCKET), ticket, joining),
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.games[service] = websocket
        log.info("a tab opened: %d of %d games in play", len(self.games), self.max_games)
        try:
            await service.start(width, height)
            await self._relay(websocket, service)
        except Exception:
            log.exception("a game's connection failed")
        finally:
            await self._end(service)
            del self.games[service]
            del self.tabs[ticket]
        why = websocket.exception()
        log.info(
            "a tab closed%s: %d of %d games in play",
            f" ({type(why).__name__}: {why})" if why else "",
            len(self.games),
            self.max_games,
        )
        return websocket

    async def _relay(self, websocket: web.WebSocketResponse, service: AppService) -> None:
        """Pass what the page sends to the game until the tab closes.

        The same messages textual-serve's own loop handles, with the size held
        to `MAX_SIZE` and anything malformed ignored.
        """
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, *rest = message.json()
            except (ValueError, TypeError):
                continue
            if kind == "stdin" and rest and isinstance(rest[0], str):
                await service.send_bytes(rest[0].encode("utf-8"))
            elif kind == "resize" and rest and isinstance(rest[0], dict):
                size = rest[0]
                await service.set_terminal_size(
                    _clamp(size.get("width"), MAX_SIZE[0]), _clamp(size.get("height"), MAX_SIZE[1])
                )
            elif kind == "ping" and rest:
                await websocket.send_json(["pong", rest[0]])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

    # Rooms for the tabs' games, on the server's own socket --------------------

    def tabs_app(self) -> web.Application:
        """What the tabs' games reach on `socket`: the rooms' game socket (their
        connections not counted as one address's), and their questions about rooms."""
        app = web.Application()
        self.rooms.add_socket(app, limited=False)
        app.router.add_post("/tab/room", self.handle_tab_room)
        app.router.add_post("/tab/invite", self.handle_tab_invite)
        app.router.add_post("/tab/here", self.handle_tab_here)
        return app

    async def _tab_asking(self, request: web.Request) -> tuple[Tab, dict[str, Any]]:
        try:
            said = await request.json()
        except ValueError:
            said = None
        ticket = said.get("tab") if isinstance(said, dict) else None
        tab = self.tabs.get(ticket) if isinstance(ticket, str) else None
        if tab is None or not isinstance(said, dict):
            raise web.HTTPForbidden(
                text=json.dumps({"error": "This tab is not one of this server's."}),
                content_type="application/json",
            )
        return tab, said

    async def handle_tab_room(self, request: web.Request) -> web.Response:
        """Make a room with the asking tab's player in its host seat: that seat's invite,
        and the play and watch invites at the address its browser used."""
        tab, said = await self._tab_asking(request)
        n, name = said.get("n"), said.get("name")
        if n not in SIZES or not isinstance(name, str):
            return web.json_response({"error": "A room is for a 3, 4 or 5 board."})
        try:
            room = self.rooms.create_room(n=n, host_mark=Player.X, host_name=name)
        except RoomsFull as full:
            return web.json_response({"error": f"No room can be made now: {full}."})
        invites = {
            seat: invite_at(tab.base, room, invite.secret).url
            for seat, invite in self.rooms.invites(room, "localhost", 0).items()
        }
        log.info("a tab made a room: %d rooms", len(self.rooms.rooms))
        return web.json_response(
            {"host": invites[Seat.HOST], "play": invites[Seat.GUEST], "watch": invites[None]}
        )

    async def handle_tab_invite(self, request: web.Request) -> web.Response:
        """The invite the asking tab's page brought, once."""
        tab, _ = await self._tab_asking(request)
        brought, tab.brought = tab.brought, None
        if brought is None:
            return web.json_response({"error": "This tab brought no invite."})
        return web.json_response({"invite": brought.url})

    async def handle_tab_here(self, request: web.Request) -> web.Response:
        """Whether a room is this server's."""
        _, said = await self._tab_asking(request)
        return web.json_response({"here": said.get("room") in self.rooms.rooms})

    # Games ------------------------------------------------------------------

    async def _end(self, service: AppService) -> None:
        """Ask the game to quit, and kill it if it has not ended within `QUIT_GRACE`."""
        process = game_process(service)
        try:
            async with asyncio.timeout(QUIT_GRACE):
                await service.stop()
                if process is not None:
                    await process.wait()
        except TimeoutError:
            if process is not None and process.returncode is None:
                log.warning("a game (pid %d) did not quit; killing it", process.pid)
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()

    # Running -----------------------------------------------------------------

    async def application(self) -> web.Application:
        """The application browsers reach: textual-serve's pages and websockets (the
        pages' own and those opened at an invite), the rooms' game socket, the icon."""
        app = await web_app(self, page_template(HEAD + JOIN_SCRIPT, BODY))
        app.router.add_get(SCREEN_READER_WEBSOCKET, self.handle_websocket)
        for websocket in ("/ws", SCREEN_READER_WEBSOCKET):
            app.router.add_get(websocket + JOIN, self.handle_websocket)
        app.router.add_get(ROOM_PATH + "{room}", self.handle_index)
        app.router.add_get("/favicon.ico", self.handle_favicon)
        self.rooms.add_socket(app)
        return app

    async def run(self) -> int:
        """Serve until SIGINT or SIGTERM; 130 after SIGINT, else 0.

        Raises `OSError` if the address cannot be listened on.
        """
        runner = web.AppRunner(await self.application(), handle_signals=False)
        await runner.setup()
        tabs = web.AppRunner(self.tabs_app(), handle_signals=False, access_log=None)
        await tabs.setup()
        stopped: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def stop(status: int) -> None:
            if not stopped.done():
                stopped.set_result(status)

        try:
            await web.UnixSite(tabs, self.socket).start()
            os.environ[SERVE_SOCKET_ENV] = self.socket
            self.rooms.start_ticker()
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
            loop = asyncio.get_running_loop()
            with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C still raises
                loop.add_signal_handler(signal.SIGINT, stop, 130)
                loop.add_signal_handler(signal.SIGTERM, stop, 0)
            host, port = runner.addresses[0][:2]
            shown = f"[{host}]" if ":" in host else host
            url = self.fixed_url or f"http://{shown}:{port}"
            print(f"ttt-tui serve: serving the game on {url}/ (Ctrl+C stops it)", flush=True)
            return await stopped
        finally:
            # The rooms first: their sockets, closed, let the application stop at once.
            await self.rooms.stop()
            await runner.cleanup()
            await tabs.cleanup()


def run_server(
    game_argv: Sequence[str],
    *,
    host: str,
    port: int,
    public_url: str | None,
    max_games: int,
    screen_reader: bool,
    max_rooms: int,
    per_address: int,
) -> int:
    """Run `ttt-tui serve` until stopped, each tab's game with ``game_argv`` and in
    screen-reader mode as its page asks, by default as ``screen_reader`` says, its rooms
    at most ``max_rooms`` and ``per_address`` connections from one address; the exit
    status."""
    if not is_loopback(host):
        print(
            f"ttt-tui serve: warning: listening on {host}, so other machines can connect."
            " There is no authentication: everyone who can reach this address gets a game,"
            f" each its own process on this machine (at most {max_games} at once).",
            file=sys.stderr,
        )
    # Every tab's game, started by textual-serve with this process's environment, runs
    # this copy of ttt-tui, whatever the current folder holds.
    os.environ["PYTHONPATH"] = python_module("ttt_tui")[1]["PYTHONPATH"]
    # The tabs' games reach the rooms on a socket in a folder only this user can open.
    private = tempfile.mkdtemp(prefix="ttt-tui-serve-")
    server = GameServer(
        game_argv,
        host=host,
        port=port,
        public_url=public_url,
        max_games=max_games,
        screen_reader=screen_reader,
        rooms=RoomServer(max_rooms=max_rooms, per_address=per_address),
        socket=os.path.join(private, "tabs.sock"),
    )
    logging.basicConfig(level=logging.INFO, format="ttt-tui serve: %(message)s")
    try:
        return asyncio.run(server.run())
    except OSError as exc:
        # asyncio words a failed bind "error while attempting to bind on address (...): why".
        reason = exc.strerror or str(exc)
        print(
            f"ttt-tui serve: cannot listen on {host} port {port} ({reason.rpartition('): ')[2]})",
            file=sys.stderr,
        )
        return 2
    finally:
        shutil.rmtree(private, ignore_errors=True)
