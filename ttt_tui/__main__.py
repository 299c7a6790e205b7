"""Command line: play the game, analyse positions with `ttt-tui analyze`, or `ttt-tui serve`."""

from __future__ import annotations

import argparse
import enum
import importlib.util
import io
import os
import stat
import sys
from collections.abc import Sequence

from ttt_tui import __version__
from ttt_tui.engine import Difficulty, Player
from ttt_tui.settings import BoardSize
from ttt_tui.storage import DATA_DIR_ENV, default_data_dir

DEFAULT_AI_DELAY = 0.45
"""Seconds the computer appears to think, at the least, unless told otherwise."""

DEFAULT_MAX_GAMES = 16
"""Games `ttt-tui serve` runs at once unless told otherwise (each is a process)."""

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The Textual driver that textual-serve names in ``TEXTUAL_DRIVER`` for each tab's game:
it talks to the server through pipes on standard input and output, not to a terminal."""


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


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected 0 to 65535, got {value}")
    return value


def _max_games(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of games, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of plies, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _difficulty(text: str) -> Difficulty:
    try:
        return Difficulty(text.lower())
    except ValueError:
        choices = ", ".join(d.value for d in Difficulty)
        raise argparse.ArgumentTypeError(f"expected one of {choices}, got {text!r}") from None


def _board(text: str) -> BoardSize:
    try:
        return BoardSize(int(text.lower().partition("x")[0]))
    except ValueError:
        choices = ", ".join(str(size.n) for size in BoardSize)
        raise argparse.ArgumentTypeError(f"expected one of {choices}, got {text!r}") from None


def add_game_options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Add the options of one game (`ttt-tui`'s own, and each tab's in `ttt-tui serve`).

    Returns them, for `game_argv`. A parser whose ``argument_default`` is
    ``argparse.SUPPRESS`` (`serve`'s) leaves an option it was not given out of
    the namespace, so that the same option given before `serve` still counts.
    """
    unset = parser.argument_default
    return [
        parser.add_argument(
            "--difficulty",
            type=_difficulty,
            metavar="{easy,medium,hard}",
            help="how strongly the computer plays (default: the last used, at first medium)",
        ),
        parser.add_argument(
            "--board",
            type=_board,
            metavar="{3,4,5}",
            help=(
                "the board: 3 (3x3, three in a row), 4 (4x4, four in a row) or 5"
                " (5x5, four in a row) (default: the last used, at first 3)"
            ),
        ),
        parser.add_argument(
            "--mark",
            type=_mark,
            metavar="{X,O}",
            help="the mark you play; X moves first (default: the last used, at first X)",
        ),
        parser.add_argument(
            "--ai-delay",
            type=_ai_delay,
            default=DEFAULT_AI_DELAY if unset is None else unset,
            metavar="SECONDS",
            help=f"least time the computer appears to think (default: {DEFAULT_AI_DELAY})",
        ),
        parser.add_argument(
            "--no-save",
            action="store_true",
            help="keep settings, stats and game records for this run only",
        ),
        parser.add_argument(
            "--seed",
            type=int,
            metavar="N",
            help="seed the computer's choices, so a session can be replayed",
        ),
    ]


def build_parser() -> argparse.ArgumentParser:
    """The parser for `ttt-tui` and its `analyze` and `serve` subcommands."""
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
    add_game_options(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    analyze = commands.add_parser(
        "analyze",
        help="print the minimax value of every move in positions",
        description=(
            "Print each position's board and the exact value of every empty cell"
            " for the side to move. A position is 9, 16 or 25 cells in reading order"
            " (3x3 three in a row, 4x4 or 5x5 four in a row): X, O, and '.', '-' or"
            " '_' for empty, with optional '/' between rows."
        ),
        epilog=(
            "Cells are numbered from 1 in text (as the game's keys are) and from 0"
            ' in --json ("cell" and "best" are 0-based, in reading order).'
        ),
    )
    analyze.add_argument(
        "positions",
        nargs="+",
        metavar="POSITION",
        help="a position such as X...O.... ; '-' reads positions from stdin, one a line",
    )
    analyze.add_argument("--json", action="store_true", help="print one JSON object per position")
    analyze.add_argument(
        "--tree",
        type=_depth,
        metavar="DEPTH",
        help=(
            "also print the game tree to DEPTH plies, indented, best moves marked with *"
            ' (with --json: "tree", nested objects with move, cell, player, value, plies,'
            " best and children)"
        ),
    )
    analyze.add_argument(
        "--stats",
        action="store_true",
        help=(
            "also count the positions plain minimax, alpha-beta and the engine visit to value"
            " each position (plain minimax and alpha-beta stop after 1,000,000; an estimate"
            " of the whole tree is given where plain minimax cannot finish)"
        ),
    )
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
        default="127.0.0.1",
        help="address to listen on (default: 127.0.0.1, this machine only)",
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=8000,
        help="port to listen on; 0 picks a free one (default: 8000)",
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
        type=_max_games,
        default=DEFAULT_MAX_GAMES,
        metavar="N",
        help=f"games (tabs) in play at once; more are asked to wait (default: {DEFAULT_MAX_GAMES})",
    )
    add_game_options(serve)
    return parser


def game_argv(args: argparse.Namespace) -> list[str]:
    """The game options in ``args`` as command-line words, for each tab of `ttt-tui serve`.

    Options left at their defaults are left out.
    """
    words: list[str] = []
    for option in add_game_options(argparse.ArgumentParser(add_help=False)):
        value = getattr(args, option.dest, option.default)
        if value == option.default:
            continue
        words.append(option.option_strings[0])
        if option.nargs != 0:  # a flag (--no-save) has no value
            words.append(str(value.value if isinstance(value, enum.Enum) else value))
    return words


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    0 success; 1 an unexpected error (with a crash report); 2 bad arguments,
    bad positions or no terminal to play in; 130 interrupted; 143 and 129 when
    SIGTERM or SIGHUP (a terminal closing) ended the game.
    """
    args = build_parser().parse_args(argv)
    try:
        if args.command == "analyze":
            return analyze(args)
        if args.command == "serve":
            return serve(args)
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
            read_positions(args.positions, sys.stdin),
            args.json,
            sys.stdout,
            sys.stderr,
            tree=args.tree,
            stats=args.stats,
        )
    except BrokenPipeError:
        # The reader (say `| head -1`) has what it wanted; stop quietly, and keep
        # Python from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def serve(args: argparse.Namespace) -> int:
    """Run `ttt-tui serve`, or say how to install what it needs."""
    if importlib.util.find_spec("textual_serve") is None:
        print(
            "ttt-tui serve: needs textual-serve, which is not installed; install the"
            ' web extra with: pip install "ttt-tui[web]"',
            file=sys.stderr,
        )
        return 2
    from ttt_tui.serve import run_server

    return run_server(
        game_argv(args),
        host=args.host,
        port=args.port,
        public_url=args.public_url,
        max_games=args.max_games,
    )


def _is_pipe(stream: object) -> bool:
    """Whether ``stream`` is a pipe or a socket, as a web server's child has."""
    try:
        mode = os.fstat(stream.fileno()).st_mode  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def terminal_problem() -> str | None:
    """Why the game cannot run full-screen here, or None if it can.

    Under textual-serve (``TEXTUAL_DRIVER`` naming `WEB_DRIVER`) the game draws
    in a browser through the server, on pipes, and needs no terminal; with that
    driver but no pipes there is no server to talk to either.
    """
    if os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER:
        if _is_pipe(sys.stdin) and _is_pipe(sys.stdout):
            return None
        return (
            "TEXTUAL_DRIVER names Textual's web driver, which needs a web server"
            " (`ttt-tui serve`) on standard input and output, but they are not pipes"
        )
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
        board=args.board,
        mark=args.mark,
        ai_delay=args.ai_delay,
        seed=args.seed,
    )
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
