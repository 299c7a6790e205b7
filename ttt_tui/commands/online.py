"""What `ttt-tui host` and `ttt-tui join` run: the room server (for `host`), a client
let in before the full screen starts (so a refusal is one line and exit status 2), and
the online screen in a small app of its own, all on one event loop.

Needs the ``web`` extra (aiohttp); imported only when one of those commands runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import ssl
import sys
from pathlib import Path

from textual import events
from textual.app import App

from ttt_tui.commands.play import SCREEN_READER_ENV
from ttt_tui.compat.cursor import show_terminal_cursor
from ttt_tui.online.client import JoinRefused, RoomClient
from ttt_tui.online.protocol import Invite
from ttt_tui.online.room import Seat
from ttt_tui.online.server import RoomServer
from ttt_tui.play.settings import BoardSize
from ttt_tui.screens.online import OnlineScreen
from ttt_tui.storage import Store
from ttt_tui.storage.files import write_atomic
from ttt_tui.storage.saver import Saver
from ttt_tui.widgets.cursor import follow_focus

ANY_ADDRESS = ("0.0.0.0", "::", "")
"""Bind addresses that listen on every network: the invite names this machine instead."""


class OnlineApp(App[None]):
    """The app of an online game: the online screen alone. In screen-reader mode the
    terminal's cursor is shown where the focus is, as in the game."""

    TITLE = "ttt-tui"

    def __init__(self, screen: OnlineScreen, theme: str) -> None:
        super().__init__()
        self._online = screen
        self._theme_name = theme

    def on_mount(self) -> None:
        if self._theme_name in self.available_themes:
            self.theme = self._theme_name
        # Back from a suspension, the driver has hidden the cursor again.
        self.app_resume_signal.subscribe(self, lambda _app: self.show_cursor())
        self.push_screen(self._online, lambda _left: self.exit())
        self.show_cursor()

    def show_cursor(self) -> None:
        """Show the terminal's cursor in screen-reader mode, or leave it hidden."""
        show_terminal_cursor(self, self._online.screen_reader)

    async def action_quit(self) -> None:
        """ctrl+q: as q on the game (asking first mid-game); with the question already
        asked, the answer yes."""
        if self.screen is self._online:
            self._online.action_leave()
        else:
            self._online.leave_now()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The terminal's cursor goes where the focus went."""
        follow_focus(event.widget)


def this_machine() -> str:
    """An address of this machine that others on its network can reach: the one its
    route out leaves from (no packet is sent), else its name."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
        return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def host(args: argparse.Namespace) -> int:
    """Run `ttt-tui host`."""
    return asyncio.run(_host(args))


def join(args: argparse.Namespace, invite: Invite) -> int:
    """Run `ttt-tui join`."""
    return asyncio.run(_join(args, invite))


def no_terminal() -> str | None:
    """Why the online screen cannot be drawn here, or None if it can."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return "needs an interactive terminal to play in, but standard input or output is not one"
    if os.environ.get("TERM") == "dumb":
        return "TERM=dumb cannot show the game; run it in a terminal emulator"
    return None


def say(words: str, command: str) -> None:
    """One line on stderr, for the person."""
    print(f"ttt-tui {command}: {words}", file=sys.stderr)


def tls_reason(error: OSError) -> str:
    """Why a certificate file could not be used, in a few words."""
    if isinstance(error, ssl.SSLError):
        said = str(error.reason or "").lower().replace("_", " ")
        return "not a PEM file TLS can use" + (f" ({said})" if said else "")
    return error.strerror or str(error)


def server_tls(certfile: str, keyfile: str | None) -> ssl.SSLContext:
    """The TLS context the room is served with; raises `OSError` or `ssl.SSLError`."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certfile, keyfile)
    return context


def own_server_tls() -> ssl.SSLContext:
    """How the host's own client reaches its own server, in this process, on this
    machine: over TLS, as the server speaks nothing else, but without checking the
    certificate, which names the address others reach it by, not 127.0.0.1."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


async def _host(args: argparse.Namespace) -> int:
    tls = None
    if args.certfile is not None:
        try:
            tls = server_tls(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as error:
            say(f"cannot use the certificate {args.certfile}: {tls_reason(error)}", "host")
            return 2
    server = RoomServer(idle=args.idle, per_address=args.per_address)
    try:
        port = await server.start(args.bind, args.port, tls)
    except OSError as error:
        reason = error.strerror or str(error)
        print(f"ttt-tui host: cannot listen on {args.bind}:{args.port}: {reason}", file=sys.stderr)
        return 2
    try:
        board: BoardSize = args.board or BoardSize.THREE
        name = server.create_room(
            n=board.n, host_mark=args.mark, host_name=args.name, grace=args.grace
        )
        shown_host = this_machine() if args.bind in ANY_ADDRESS else args.bind
        invites = server.invites(name, shown_host, port)
        play, watch = invites[Seat.GUEST].url, invites[None].url
        if args.invite_file is not None:
            try:
                write_atomic(Path(args.invite_file), f"{play}\n{watch}\n".encode())
            except OSError as error:
                reason = error.strerror or str(error)
                print(
                    f"ttt-tui host: cannot write the invites to {args.invite_file}: {reason}",
                    file=sys.stderr,
                )
                return 2
        problem = no_terminal()
        if problem is not None:
            say(problem, "host")
            return 2
        local = "127.0.0.1" if args.bind in ANY_ADDRESS else args.bind
        mine = invites[Seat.HOST]
        client = RoomClient(
            Invite(local, port, mine.room, mine.secret, mine.tls),
            args.name,
            None if tls is None else own_server_tls(),
        )
        try:
            await client.connect()
        except JoinRefused as refused:
            print(f"ttt-tui host: {refused}", file=sys.stderr)
            return 1
        return await _play(client, (play, watch))
    finally:
        await server.stop()


async def _join(args: argparse.Namespace, invite: Invite) -> int:
    tls = None
    if args.cafile is not None:
        try:
            tls = ssl.create_default_context(cafile=args.cafile)
        except (OSError, ssl.SSLError) as error:
            say(f"cannot read the certificate {args.cafile}: {tls_reason(error)}", "join")
            return 2
    client = RoomClient(invite, args.name, tls)
    try:
        await client.connect()
    except JoinRefused as refused:
        print(f"ttt-tui join: {refused}", file=sys.stderr)
        return 2
    problem = no_terminal()
    if problem is not None:
        # Let in, but with nowhere to play: the seat is given back at once.
        await client.close()
        say(problem, "join")
        return 2
    return await _play(client, None)


async def _play(client: RoomClient, invites: tuple[str, str] | None) -> int:
    """Play through ``client`` on the online screen until the person quits; the game's
    records are saved in this player's own data directory, off the event loop."""
    store = Store()
    settings = store.load_settings()
    saver = Saver(store)
    saver.start()
    screen = OnlineScreen(
        client,
        record=saver.record_game,
        invites=invites,
        screen_reader=settings.screen_reader or os.environ.get(SCREEN_READER_ENV) == "1",
    )
    app = OnlineApp(screen, settings.theme)
    try:
        await app.run_async()
    finally:
        await client.close()
        told = await asyncio.to_thread(saver.close)
    for words in told:
        print(f"ttt-tui: {words}", file=sys.stderr)
    return 0
