"""`ttt-tui host`: play a friend on another computer, the room served from this one.

Its options only: what runs (a room server and the game, `ttt_tui.commands.online`)
needs the ``web`` extra, and is imported when the command runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

from ttt_tui.commands import (
    BOARD_METAVAR,
    Subcommands,
    board_size,
    bounded,
    mark,
    room_limits,
)

DEFAULT_BIND = "0.0.0.0"
"""The address listened on unless told otherwise: every network this machine is on,
as the friend is on another computer."""

DEFAULT_PORT = 8765
"""The port listened on unless told otherwise."""

DEFAULT_GRACE = 120.0
"""Seconds a player who dropped has to come back, unless told otherwise."""

DEFAULT_IDLE = 30 * 60.0
"""Seconds without a move before the room ends, unless told otherwise."""

NEEDS_AIOHTTP = (
    'needs aiohttp, which is not installed; install the web extra with: pip install "ttt-tui[web]"'
)
"""What `host` and `join` say without the ``web`` extra."""


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``host`` to the command line's ``commands``."""
    host = commands.add_parser(
        "host",
        help="play a friend on another computer: host the room here (needs the web extra)",
        description=(
            "Start a room server on this machine and play in this terminal. The screen"
            " shows an invite for your friend (ttt-tui join INVITE on their computer) and"
            " one to watch. The server checks every move. Needs the optional extra:"
            ' pip install "ttt-tui[web]".'
        ),
        epilog=(
            "Without TLS (--certfile) the traffic, invites included, is readable on the"
            " network: play on a network you trust (docs/online.md)."
        ),
    )
    host.add_argument(
        "--port",
        type=bounded(int, 0, 65535, "a port number"),
        default=DEFAULT_PORT,
        help=f"port to listen on; 0 picks a free one (default: {DEFAULT_PORT})",
    )
    host.add_argument(
        "--bind",
        default=DEFAULT_BIND,
        metavar="ADDR",
        help=f"address to listen on (default: {DEFAULT_BIND}, every network; 127.0.0.1 for"
        " this machine only)",
    )
    host.add_argument(
        "--board",
        type=board_size,
        default=None,
        metavar=BOARD_METAVAR,
        help="board size (default: 3)",
    )
    host.add_argument(
        "--mark", type=mark, default="X", metavar="{X,O}", help="your mark (default: X)"
    )
    host.add_argument("--name", default="", help="your name, as your friend sees it")
    host.add_argument(
        "--invite-file",
        default=None,
        metavar="PATH",
        help="also write the invites there: line 1 to play, line 2 to watch",
    )
    host.add_argument(
        "--grace",
        type=bounded(float, 5, 3600, "a number of seconds"),
        default=DEFAULT_GRACE,
        metavar="SECONDS",
        help="how long a player who dropped has to come back before the game is"
        f" abandoned (default: {DEFAULT_GRACE:g})",
    )
    host.add_argument(
        "--idle",
        type=bounded(float, 10, 86400, "a number of seconds"),
        default=DEFAULT_IDLE,
        metavar="SECONDS",
        help=f"end the room after this long without a move (default: {DEFAULT_IDLE:g})",
    )
    room_limits(host, max_rooms=False)
    host.add_argument(
        "--certfile",
        default=None,
        metavar="PATH",
        help="serve the room over TLS with this certificate (PEM; its key too, unless"
        " --keyfile): the invites are then https",
    )
    host.add_argument(
        "--keyfile", default=None, metavar="PATH", help="the certificate's private key (PEM)"
    )
    host.set_defaults(main=main)
    return host


def main(args: argparse.Namespace) -> int:
    """Host a room and play in it; 2 without the ``web`` extra or if it cannot start."""
    if args.keyfile is not None and args.certfile is None:
        print("ttt-tui host: --keyfile goes with --certfile", file=sys.stderr)
        return 2
    if importlib.util.find_spec("aiohttp") is None:
        print(f"ttt-tui host: {NEEDS_AIOHTTP}", file=sys.stderr)
        return 2
    from ttt_tui.commands.online import host

    return host(args)
