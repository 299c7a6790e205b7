"""`ttt-tui serve`'s command line: its options, their defaults, and what starts the server.

Apart from `ttt_tui.commands.serve`, the server itself, because that module imports
the ``web`` extra at its top: every launch reads these options, installed or not.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

from ttt_tui.commands import Subcommands, bounded, room_limits
from ttt_tui.commands.play import SCREEN_READER_ENV, add_game_options, game_argv

DEFAULT_HOST = "127.0.0.1"
"""The address served on unless told otherwise: this machine only."""

DEFAULT_PORT = 8000
"""The port served on unless told otherwise."""

DEFAULT_MAX_GAMES = 16
"""Games (tabs) in play at once unless told otherwise; each is a process."""


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``serve`` to the command line's ``commands``, with the game's options for every
    tab (given before ``serve`` or after it)."""
    serve = commands.add_parser(
        "serve",
        help="serve the game to web browsers (needs the web extra)",
        description=(
            "Serve the game over HTTP: each browser tab that opens the page gets its own"
            " game, with the game options given here, in its own process. Needs the"
            ' optional extra: pip install "ttt-tui[web]".'
        ),
        epilog=(
            "There is no authentication: anyone who can reach the address gets a game."
            " Every tab shares the data directory's settings, stats and game records."
        ),
        argument_default=argparse.SUPPRESS,
    )
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default: {DEFAULT_HOST}, this machine only)",
    )
    serve.add_argument(
        "--port",
        type=bounded(int, 0, 65535, "a port number"),
        default=DEFAULT_PORT,
        help=f"port to listen on; 0 picks a free one (default: {DEFAULT_PORT})",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address browsers use to reach the server, if not the one they asked for"
        " (behind a proxy, say)",
    )
    serve.add_argument(
        "--max-games",
        type=bounded(int, 1, None, "a number of games"),
        default=DEFAULT_MAX_GAMES,
        metavar="N",
        help=f"games (tabs) in play at once; more are asked to wait (default: {DEFAULT_MAX_GAMES})",
    )
    room_limits(serve, max_rooms=True)
    add_game_options(serve)
    serve.set_defaults(main=main)
    return serve


def main(args: argparse.Namespace) -> int:
    """Run `ttt-tui serve` until stopped, each tab's game with the game options given; 2
    if the ``web`` extra is not installed."""
    if importlib.util.find_spec("textual_serve") is None:
        print(
            "ttt-tui serve: needs textual-serve, which is not installed; install the"
            ' web extra with: pip install "ttt-tui[web]"',
            file=sys.stderr,
        )
        return 2
    from ttt_tui.commands.serve import SCREEN_READER, run_server

    argv = game_argv(args)
    return run_server(
        # Each page decides its tab's screen-reader mode; the option is only its default.
        # The words are options and their values, and no value can be the option.
        [word for word in argv if word != SCREEN_READER],
        host=args.host,
        port=args.port,
        public_url=args.public_url,
        max_games=args.max_games,
        screen_reader=SCREEN_READER in argv or os.environ.get(SCREEN_READER_ENV) == "1",
        max_rooms=args.max_rooms,
        per_address=args.per_address,
    )
