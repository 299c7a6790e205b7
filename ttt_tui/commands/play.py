"""`ttt-tui` itself: the game, full-screen, in a terminal or a browser tab."""

from __future__ import annotations

import argparse
import gc
import os
import stat
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ttt_tui.bots.player import BotPlayer

SCREEN_READER_ENV = "TTT_TUI_SCREEN_READER"
"""Set to 1 to play in screen-reader mode, as with ``--screen-reader``."""

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The Textual driver that textual-serve names in ``TEXTUAL_DRIVER`` for each tab's game:
it talks to the server through pipes on standard input and output, not to a terminal."""


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
        from ttt_tui.bots.player import BotPlayer
        from ttt_tui.bots.sandbox import BotUnusable, load_bot

        try:
            bot = BotPlayer(
                load_bot(args.bot_file, args.bot_cmd, args.bot_timeout, option="--bot-cmd")
            )
            bot.start()
        except BotUnusable as exc:
            print(f"ttt-tui: {exc}", file=sys.stderr)
            return 2
    try:
        return _play(args, bot)
    finally:
        if bot is not None:
            bot.close()


def _play(args: argparse.Namespace, bot: BotPlayer | None) -> int:
    problem = terminal_problem()
    if problem is not None:
        print(f"ttt-tui: {problem}", file=sys.stderr)
        return 2
    # No garbage collection until the first frame is drawn: what is made before it (the
    # modules, their classes, the widgets) lives as long as the game, and a full
    # collection walked all of it in the middle of the first frame (12-14 ms;
    # docs/performance.md). Then it is moved out of the collector's way for good.
    gc.disable()
    try:
        return _run(args, bot)
    finally:
        gc.enable()


def _run(args: argparse.Namespace, bot: BotPlayer | None) -> int:
    from ttt_tui.app import TicTacToeApp
    from ttt_tui.storage import Store

    def after_first_frame() -> None:
        gc.freeze()
        gc.enable()

    served = os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER
    asked = args.screen_reader or os.environ.get(SCREEN_READER_ENV) == "1"
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
    )
    app.run()
    if app.crash_message:
        # Plain text, not through Rich, which would wrap or crop it to the terminal's
        # width and break the report's path in two.
        print(app.crash_message, file=sys.stderr)
    for words in app.last_words:
        print(f"ttt-tui: {words}", file=sys.stderr)
    return app.return_code or 0
