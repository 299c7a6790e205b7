"""`ttt-tui` itself: the game, full-screen, in a terminal or a browser tab."""

from __future__ import annotations

import argparse
import enum
import gc
import os
import stat
import sys
from typing import TYPE_CHECKING

from ttt_tui.commands import BOARD_METAVAR, board_size, bounded, mark
from ttt_tui.commands.check import DEFAULT_TIMEOUT, answer_seconds

if TYPE_CHECKING:
    from ttt_tui.bots.player import BotPlayer
    from ttt_tui.engine import Difficulty

SCREEN_READER_ENV = "TTT_TUI_SCREEN_READER"
"""Set to 1 to play in screen-reader mode, as with ``--screen-reader``."""

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The Textual driver that textual-serve names in ``TEXTUAL_DRIVER`` for each tab's game:
it talks to the server through pipes on standard input and output, not to a terminal."""

DEFAULT_AI_DELAY = 0.45
"""Seconds the computer appears to think, at the least, unless told otherwise."""


def _difficulty(text: str) -> Difficulty:
    """An argparse type: a difficulty by its name, in any case."""
    from ttt_tui.engine import Difficulty

    try:
        return Difficulty(text.lower())
    except ValueError:
        choices = ", ".join(d.value for d in Difficulty)
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
            type=board_size,
            metavar=BOARD_METAVAR,
            help=(
                "the board: 3 (3x3, three in a row), 4 (4x4, four in a row) or 5"
                " (5x5, four in a row) (default: the last used, at first 3)"
            ),
        ),
        parser.add_argument(
            "--mark",
            type=mark,
            metavar="{X,O}",
            help="the mark you play; X moves first (default: the last used, at first X)",
        ),
        parser.add_argument(
            "--ai-delay",
            type=bounded(float, 0, 10, "a number of seconds"),
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the game's options, your own bot's included, to `ttt-tui`'s own ``parser``,
    which runs the game when no command is given."""
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
        type=answer_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"the time your bot has for each move (default: {DEFAULT_TIMEOUT:g})",
    )
    # A tab's game under `ttt-tui serve`, which gives these; not for people.
    parser.add_argument("--serve-tab", metavar="TICKET", help=argparse.SUPPRESS)
    parser.add_argument("--serve-join", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(main=main)


def misplaced(args: argparse.Namespace) -> str | None:
    """What is wrong with ``args`` if the game's own bot was given to another command."""
    if args.command is not None and (args.bot_file is not None or args.bot_cmd is not None):
        return (
            f"--bot and --bot-cmd are options of the game itself, not of `ttt-tui {args.command}`"
        )
    return None


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


def main(args: argparse.Namespace) -> int:
    """Run the game with saved settings, overridden by any given on the command line."""
    bot = None
    if args.bot_file is not None or args.bot_cmd is not None:
        from ttt_tui.bots.bot import BotUnusable, load_bot
        from ttt_tui.bots.player import BotPlayer

        try:
            bot = BotPlayer(
                load_bot(args.bot_file, args.bot_cmd, args.bot_timeout, option="--bot-cmd")
            )
            bot.start()
        except BotUnusable as exc:
            print(f"ttt-tui: {exc}", file=sys.stderr)
            return 2
    return _play(args, bot)


def _play(args: argparse.Namespace, bot: BotPlayer | None) -> int:
    problem = terminal_problem()
    if problem is not None:
        print(f"ttt-tui: {problem}", file=sys.stderr)
        return 2
    # No garbage collection until the first frame is drawn: what is made before it (the
    # modules, their classes, the widgets) lives as long as the game, and a full
    # collection walked all of it in the middle of the first frame (docs/performance.md).
    # Then it is moved out of the collector's way for good.
    gc.disable()
    try:
        return _run(args, bot)
    finally:
        gc.enable()


def _run(args: argparse.Namespace, bot: BotPlayer | None) -> int:
    from ttt_tui.app import TicTacToeApp
    from ttt_tui.online.protocol import SERVE_SOCKET_ENV
    from ttt_tui.screens.friend import ServedTab
    from ttt_tui.storage import Store

    def after_first_frame() -> None:
        gc.freeze()
        gc.enable()

    served = os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER
    asked = args.screen_reader or os.environ.get(SCREEN_READER_ENV) == "1"
    socket = os.environ.get(SERVE_SOCKET_ENV)
    ticket = getattr(args, "serve_tab", None)
    tab = (
        ServedTab(socket, ticket, getattr(args, "serve_join", False))
        if served and socket and ticket
        else None
    )
    app = TicTacToeApp(
        store=Store(enabled=not args.no_save),
        difficulty=args.difficulty,
        board=args.board,
        mark=args.mark,
        ai_delay=args.ai_delay,
        seed=args.seed,
        bot=bot,
        # A served tab's page is in screen-reader mode or not, and its game with it: not
        # as another tab saved the setting, nor as the server's environment says.
        screen_reader=args.screen_reader if served else (asked or None),
        # A served tab's game is nobody's to resume: a closed tab's is recorded as abandoned.
        resume=not served,
        after_first_frame=after_first_frame,
        puzzles=getattr(args, "start_in_puzzles", False),
        tab=tab,
    )
    app.run()
    if app.crash_message:
        # Plain text, not through Rich, which would wrap or crop it to the terminal's
        # width and break the report's path in two.
        print(app.crash_message, file=sys.stderr)
    for words in app.last_words:
        print(f"ttt-tui: {words}", file=sys.stderr)
    return app.return_code or 0
