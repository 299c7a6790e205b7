"""`ttt-tui join INVITE`: play (or watch) a friend's room from this terminal.

Its options only: what runs needs the ``web`` extra, and is imported when the command
runs (`ttt_tui.commands.online`).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

from ttt_tui.commands import Subcommands, quoted
from ttt_tui.commands.host import NEEDS_AIOHTTP


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``join`` to the command line's ``commands``."""
    join = commands.add_parser(
        "join",
        help="play or watch a friend's room with their invite (needs the web extra)",
        description=(
            "Join the room of a friend who ran ttt-tui host, with the invite they gave you:"
            " the play invite takes the other seat, the watch invite watches. A refused"
            " invite is said in one line (exit status 2)."
        ),
    )
    join.add_argument("invite", metavar="INVITE", help="the whole invite URL, its #part included")
    join.add_argument("--name", default="", help="your name, as your friend sees it")
    join.add_argument(
        "--cafile",
        default=None,
        metavar="PATH",
        help="trust this certificate (PEM) for an https invite: the host's own, if self-signed",
    )
    join.set_defaults(main=main)
    return join


def main(args: argparse.Namespace) -> int:
    """Join the room; 2 for a bad or refused invite, or without the ``web`` extra."""
    from ttt_tui.online.protocol import InviteError, read_invite

    try:
        invite = read_invite(args.invite)
    except InviteError as error:
        print(f"ttt-tui join: {quoted(args.invite)}: {error}", file=sys.stderr)
        return 2
    if args.cafile is not None and not invite.tls:
        print("ttt-tui join: --cafile is for an https invite", file=sys.stderr)
        return 2
    if importlib.util.find_spec("aiohttp") is None:
        print(f"ttt-tui join: {NEEDS_AIOHTTP}", file=sys.stderr)
        return 2
    from ttt_tui.commands.online import join

    return join(args, invite)
