"""The command line: the game's parser, each command's added by the command
(`ttt_tui.commands`), and the command asked for run."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ttt_tui import __version__
from ttt_tui.commands import (
    analyze,
    check,
    games,
    host,
    join,
    play,
    puzzles,
    review,
    serve_options,
)
from ttt_tui.storage import DATA_DIR_ENV, default_data_dir

COMMANDS = (analyze, review, games, puzzles, check, serve_options, host, join)
"""The modules of the subcommands, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The parser for `ttt-tui`, the game, and its subcommands; the namespace it gives
    names the function that runs the command (``main``)."""
    parser = argparse.ArgumentParser(
        prog="ttt-tui",
        description="Tic-tac-toe in the terminal against a minimax opponent.",
        epilog=(
            "In the game, press ? for every key, or ctrl+p for the command palette.\n\n"
            "Settings, stats and game records are kept in\n"
            f"  {default_data_dir()}\n"
            f"Set {DATA_DIR_ENV} to use another directory, or --no-save to keep nothing."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    play.add_arguments(parser)
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subcommands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    0 success; 1 an unexpected error (with a crash report); 2 bad arguments,
    bad positions or no terminal to play in; 130 interrupted; 143 and 129 when
    SIGTERM or SIGHUP (a terminal closing) ended the game.
    """
    args = build_parser().parse_args(argv)
    problem = play.misplaced(args)
    if problem is not None:
        print(f"ttt-tui: {problem}", file=sys.stderr)
        return 2
    try:
        status: int = args.main(args)
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
