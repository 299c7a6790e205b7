"""`ttt-tui check`: its options (`add_parser`) and its start (`main`); the check itself
is `ttt_tui.commands.checking`, loaded only when it runs, so that building the
command line loads no bot, engine or grading code."""

from __future__ import annotations

import argparse

from ttt_tui.commands import BOARD_METAVAR, Subcommands, board_size, bounded

DEFAULT_POSITIONS = 200
"""Positions sampled on 4x4 and 5x5 unless told otherwise."""

DEFAULT_TIMEOUT = 30.0
"""Seconds a bot has for each answer unless told otherwise, here and in the game: slow
is not wrong."""

DEFAULT_BUDGET = 600.0
"""Seconds one bot's whole check may take unless told otherwise."""

answer_seconds = bounded(float, 0, 600, "a number of seconds", low_excluded=True)
"""Reads the time a bot has for each answer (``--timeout``, the game's ``--bot-timeout``)."""


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``check`` to the command line's ``commands``."""
    check = commands.add_parser(
        "check",
        help="grade your own tic-tac-toe bot against the proven engine",
        description=(
            "Ask a bot for a move in every 3x3 position still in play (4,520 with both"
            " sides), or in a seeded sample on 4x4 and 5x5, and grade each answer against"
            " the proven engine as review does: best, inaccuracy, mistake, blunder; then"
            " count illegal answers, errors, timeouts and boards written on, give a"
            " verdict on the answers (perfect, slow or loses) and a score out of 100, the"
            " worst answers, a diagnosis, and the answers' speed apart. A CS50 file's"
            " other functions are checked on every position too. Several bots get a"
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
    check.add_argument(
        "--board", type=board_size, metavar=BOARD_METAVAR, help="the board (default: 3)"
    )
    check.add_argument(
        "--side",
        choices=("X", "O", "both"),
        default="both",
        help="check the positions with this side to move (default: both)",
    )
    check.add_argument(
        "--timeout",
        type=answer_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=(
            "the time the bot has for each answer; a slower one is a timeout, a quicker"
            f" one is graded however slow (default: {DEFAULT_TIMEOUT:g})"
        ),
    )
    check.add_argument(
        "--budget",
        type=bounded(float, 0, 86400, "a number of seconds", low_excluded=True),
        default=DEFAULT_BUDGET,
        metavar="SECONDS",
        help=(
            "the time one bot's whole check may take; past it the check stops early and"
            f" says so (default: {DEFAULT_BUDGET:g})"
        ),
    )
    check.add_argument(
        "--max-answer-seconds",
        type=answer_seconds,
        metavar="SECONDS",
        help=(
            "a course's time limit for one answer: slower answers are still graded, and"
            " reported as over the limit (exit status 3), never as wrong moves"
        ),
    )
    check.add_argument(
        "--jobs",
        type=bounded(int, 1, None, "a number of bots"),
        default=1,
        metavar="N",
        help="bots checked at once (default: 1)",
    )
    check.add_argument(
        "--positions",
        type=bounded(int, 1, None, "a number of positions"),
        default=DEFAULT_POSITIONS,
        metavar="N",
        help=f"positions sampled on 4x4 and 5x5 (default: {DEFAULT_POSITIONS})",
    )
    check.set_defaults(main=main)
    return check


def main(args: argparse.Namespace) -> int:
    """Run `ttt-tui check`; its exit status (`ttt_tui.commands.checking.Status`)."""
    from ttt_tui.commands.checking import check_main

    return check_main(args)
