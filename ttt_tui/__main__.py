"""The command line: its options, and which command (`ttt_tui.commands`) runs them."""

from __future__ import annotations

import argparse
import enum
import importlib.util
import sys
from collections.abc import Callable, Sequence

from ttt_tui import __version__
from ttt_tui.commands import games
from ttt_tui.commands.play import SCREEN_READER_ENV
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.settings import BoardSize
from ttt_tui.storage import DATA_DIR_ENV, default_data_dir

DEFAULT_AI_DELAY = 0.45
"""Seconds the computer appears to think, at the least, unless told otherwise."""

DEFAULT_BOT_TIMEOUT = 30.0
"""Seconds a learner's bot has for each answer, in the game and in check, unless told
otherwise: slow is not wrong. `ttt_tui.bots.bot.DEFAULT_TIMEOUT` says the same for
code that makes a bot without the command line (not imported here, to keep the
command line's start light)."""

DEFAULT_CHECK_BUDGET = 600.0
"""Seconds one bot's whole check may take unless told otherwise."""

DEFAULT_MAX_GAMES = 16
"""Games `ttt-tui serve` runs at once unless told otherwise (each is a process)."""


def _ai_delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"expected 0 to 10 seconds, got {text}")
    return value


def _seconds(most: float) -> Callable[[str], float]:
    """A parser of a number of seconds, more than 0 and at most ``most``."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number of seconds, got {text!r}"
            ) from None
        if not 0 < value <= most:
            raise argparse.ArgumentTypeError(
                f"expected more than 0 and at most {most:g} seconds, got {text}"
            )
        return value

    return seconds


_timeout = _seconds(600)
_budget = _seconds(86400)


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


def _games(least: int) -> Callable[[str], int]:
    """A parser of a number of games, ``least`` or more."""

    def games(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of games, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"expected at least {least}, got {value}")
        return value

    return games


_max_games = _games(1)


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of bots, got {text!r}") from None
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
            "--screen-reader",
            action="store_true",
            help=(
                "set the game up for a screen reader or a braille display: the terminal's"
                " cursor on what has the focus, every event said in one line"
                f" (also {SCREEN_READER_ENV}=1, or the palette's Screen-reader mode)"
            ),
        ),
        parser.add_argument(
            "--seed",
            type=int,
            metavar="N",
            help="seed the computer's choices, so a session can be replayed",
        ),
    ]


def build_parser() -> argparse.ArgumentParser:
    """The parser for `ttt-tui` and its `analyze`, `review`, `games`, `check` and `serve`
    subcommands."""
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
    bot = parser.add_argument_group(
        "your own bot",
        "Offer your bot as a level beside Easy, Medium and Hard: as the computer in"
        " You vs AI (where it starts), and as either engine in AI vs AI. It runs in a"
        " process of its own, as under `ttt-tui check`.",
    )
    bot.add_argument(
        "--bot",
        dest="bot_file",
        metavar="BOT",
        help="a Python file with minimax(board) or choose_move(position), as for check",
    )
    bot.add_argument(
        "--bot-cmd", metavar="COMMAND", help="a program speaking check's line protocol instead"
    )
    bot.add_argument(
        "--bot-timeout",
        type=_timeout,
        default=DEFAULT_BOT_TIMEOUT,
        metavar="SECONDS",
        help=(
            "the time your bot has for each move; a slow one is waited for, the status"
            f" saying so (default: {DEFAULT_BOT_TIMEOUT:g})"
        ),
    )
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
    review = commands.add_parser(
        "review",
        help="grade every move of a recorded game, or of one given move by move",
        description=(
            "Grade every move of a game from proven values, for the player who made it:"
            " best, inaccuracy (a slower win or a quicker loss), mistake (a win thrown to"
            " a draw, a draw to a loss), blunder (a win thrown to a loss), or good where"
            " a 5x5 length cannot be proven; then name the turning points."
        ),
        epilog=(
            "GAME is 'last' (the default) or a game's number, as `ttt-tui games list`"
            " shows it: 1 the first game ever recorded, -1 the last, -2 the one before."
            " With --json, cells are 0-based as in analyze --json."
        ),
    )
    review.add_argument(
        "game", nargs="?", metavar="GAME", help="a recorded game: last, or its number"
    )
    review.add_argument(
        "--board",
        type=_board,
        metavar="{3,4,5}",
        help="the board of the --moves game (default: 3)",
    )
    review.add_argument(
        "--moves",
        metavar="MOVES",
        help='a game to review instead, X first: squares by name or number, e.g. "b2 a1 c3"',
    )
    review.add_argument("--json", action="store_true", help="print one JSON object")
    games.add_parser(commands, board=_board, count=_max_games)
    check = commands.add_parser(
        "check",
        help="grade your own tic-tac-toe bot against the proven engine",
        description=(
            "Ask a bot for a move in every 3x3 position still in play (4,520 with both"
            " sides), or in a seeded sample on 4x4 and 5x5, and grade each answer against"
            " the proven engine as review does: best, inaccuracy, mistake, blunder; then"
            " count illegal answers, errors, timeouts and boards written on, give a"
            " verdict on the answers (perfect, slow or loses) and a score out of 100, the"
            " worst answers, a diagnosis, and the answers' speed apart. Several bots get a"
            " summary table, one line a bot."
        ),
        epilog=(
            "BOT is a Python file defining minimax(board) (CS50's convention: 3 lists of"
            ' 3 holding "X", "O" or None, answering (row, col) from 0) or'
            " choose_move(position) (analyze's notation, answering a square's number"
            " from 1 or its name). --cmd runs any program that reads a position a line"
            " and answers each with a square. Exit status: 0 perfect or slow, 1 loses,"
            " 2 a bot that cannot be loaded or bad arguments, 3 over --max-answer-seconds,"
            " 4 stopped early for time, 130 Ctrl+C, 143 SIGTERM (docs/check.md)."
        ),
    )
    check.add_argument(
        "bots", nargs="*", metavar="BOT", help="a Python file with your bot (or several)"
    )
    check.add_argument(
        "--cmd",
        action="append",
        metavar="COMMAND",
        help="a program speaking the line protocol instead (may be given several times)",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object a bot")
    check.add_argument("--board", type=_board, metavar="{3,4,5}", help="the board (default: 3)")
    check.add_argument(
        "--side",
        choices=("X", "O", "both"),
        default="both",
        help="check the positions with this side to move (default: both)",
    )
    check.add_argument(
        "--timeout",
        type=_timeout,
        default=DEFAULT_BOT_TIMEOUT,
        metavar="SECONDS",
        help=(
            "the time the bot has for each answer; a slower one is a timeout, a quicker"
            f" one is graded however slow (default: {DEFAULT_BOT_TIMEOUT:g})"
        ),
    )
    check.add_argument(
        "--budget",
        type=_budget,
        default=DEFAULT_CHECK_BUDGET,
        metavar="SECONDS",
        help=(
            "the time one bot's whole check may take; past it the check stops early and"
            f" says so (default: {DEFAULT_CHECK_BUDGET:g})"
        ),
    )
    check.add_argument(
        "--max-answer-seconds",
        type=_timeout,
        metavar="SECONDS",
        help=(
            "a course's time limit for one answer: slower answers are still graded, and"
            " reported as over the limit (exit status 3), never as wrong moves"
        ),
    )
    check.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="bots checked at once (default: 1)",
    )
    check.add_argument(
        "--positions",
        type=_max_games,
        default=200,
        metavar="N",
        help="positions sampled on 4x4 and 5x5 (default: 200)",
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
    if args.command is not None and (args.bot_file is not None or args.bot_cmd is not None):
        print(
            f"ttt-tui: --bot and --bot-cmd are options of the game itself, not of"
            f" `ttt-tui {args.command}`",
            file=sys.stderr,
        )
        return 2
    try:
        if args.command == "analyze":
            from ttt_tui.commands.analyze import main as analyze

            return analyze(args)
        if args.command == "check":
            from ttt_tui.commands.check import main as check

            return check(args)
        if args.command == "review":
            from ttt_tui.commands.review import main as review

            return review(args)
        if args.command == "games":
            from ttt_tui.commands.games import main as games_command

            return games_command(args)
        if args.command == "serve":
            if importlib.util.find_spec("textual_serve") is None:
                print(
                    "ttt-tui serve: needs textual-serve, which is not installed; install the"
                    ' web extra with: pip install "ttt-tui[web]"',
                    file=sys.stderr,
                )
                return 2
            from ttt_tui.commands.serve import main as serve

            return serve(args, game_argv(args))
        from ttt_tui.commands.play import main as play

        return play(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
