"""Command line: play the game, or analyse positions with `ttt-tui analyze`."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

from ttt_tui import __version__
from ttt_tui.engine import Difficulty, Player
from ttt_tui.storage import DATA_DIR_ENV, default_data_dir

DEFAULT_AI_DELAY = 0.45
"""Seconds the computer appears to think, at the least, unless told otherwise."""


def _ai_delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"expected 0 to 10 seconds, got {text}")
    return value


def _mark(text: str) -> Player:
    try:
        return Player(text.upper())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X or O, got {text!r}") from None


def _difficulty(text: str) -> Difficulty:
    try:
        return Difficulty(text.lower())
    except ValueError:
        choices = ", ".join(d.value for d in Difficulty)
        raise argparse.ArgumentTypeError(f"expected one of {choices}, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The parser for `ttt-tui` and its `analyze` subcommand."""
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
    parser.add_argument(
        "--difficulty",
        type=_difficulty,
        metavar="{easy,medium,hard}",
        help="how strongly the computer plays (default: the last used, at first medium)",
    )
    parser.add_argument(
        "--mark",
        type=_mark,
        metavar="{X,O}",
        help="the mark you play; X moves first (default: the last used, at first X)",
    )
    parser.add_argument(
        "--ai-delay",
        type=_ai_delay,
        default=DEFAULT_AI_DELAY,
        metavar="SECONDS",
        help=f"least time the computer appears to think (default: {DEFAULT_AI_DELAY})",
    )
    parser.add_argument(
        "--no-save",
        action="store_true",
        help="keep settings, stats and game records for this run only",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed the computer's choices, so a session can be replayed",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    analyze = commands.add_parser(
        "analyze",
        help="print the minimax value of every move in positions",
        description=(
            "Print each position's board and the exact value of every empty cell"
            " for the side to move. A position is 9 cells in reading order:"
            " X, O, and '.', '-' or '_' for empty, with optional '/' between rows."
        ),
        epilog=(
            "Cells are numbered 1-9 in text (as the game's keys are) and 0-8 in"
            ' --json ("cell" and "best" are 0-based, in reading order).'
        ),
    )
    analyze.add_argument(
        "positions",
        nargs="+",
        metavar="POSITION",
        help="a position such as X...O.... ; '-' reads positions from stdin, one a line",
    )
    analyze.add_argument("--json", action="store_true", help="print one JSON object per position")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    0 success; 1 an unexpected error (with a crash report); 2 bad arguments,
    bad positions or no terminal to play in; 130 interrupted.
    """
    args = build_parser().parse_args(argv)
    try:
        if args.command == "analyze":
            return analyze(args)
        return play(args)
    except KeyboardInterrupt:
        return 130


def analyze(args: argparse.Namespace) -> int:
    """Run `ttt-tui analyze`, tolerating undecodable input and a reader that goes away."""
    from ttt_tui.cli import read_positions, run_analyze

    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    try:
        return run_analyze(
            read_positions(args.positions, sys.stdin), args.json, sys.stdout, sys.stderr
        )
    except BrokenPipeError:
        # The reader (say `| head -1`) has what it wanted; stop quietly, and keep
        # Python from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def terminal_problem() -> str | None:
    """Why the game cannot run full-screen here, or None if it can."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return (
            "the game needs an interactive terminal, but standard input or output"
            " is not one; for scripts, use `ttt-tui analyze`"
        )
    if os.environ.get("TERM") == "dumb":
        return (
            "TERM=dumb cannot show a full-screen game; run it in a terminal"
            " emulator (e.g. TERM=xterm-256color)"
        )
    return None


def play(args: argparse.Namespace) -> int:
    """Run the game with saved settings, overridden by any given on the command line."""
    problem = terminal_problem()
    if problem is not None:
        print(f"ttt-tui: {problem}", file=sys.stderr)
        return 2
    from ttt_tui.app import TicTacToeApp
    from ttt_tui.storage import Store

    app = TicTacToeApp(
        store=Store(enabled=not args.no_save),
        difficulty=args.difficulty,
        mark=args.mark,
        ai_delay=args.ai_delay,
        seed=args.seed,
    )
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
