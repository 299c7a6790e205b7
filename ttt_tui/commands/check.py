"""`ttt-tui check`: a learner's bot asked about every position (3x3) or a seeded sample
(4x4, 5x5), each answer graded against the proven engine (`ttt_tui.teach.check`),
and a CS50 file's other functions called on every position (`ttt_tui.teach.cs50`).

The bot always runs in a process of its own (`ttt_tui.bots.bot`), with a time
limit on every answer, so nothing it does can stop the check, and jailed
(`ttt_tui.bots.sandbox`): what of the jail does not hold here is said once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, TextIO

from ttt_tui.commands import BOARD_METAVAR, Subcommands, board_size, bounded

if TYPE_CHECKING:
    from ttt_tui.bots.bot import Bot, Reply
    from ttt_tui.engine import Board
    from ttt_tui.proc.child import Blocking
    from ttt_tui.teach import cs50
    from ttt_tui.teach.check import Answer

DEFAULT_POSITIONS = 200
"""Positions sampled on 4x4 and 5x5 unless told otherwise."""

DEFAULT_TIMEOUT = 2.0
"""Seconds a bot has for each answer unless told otherwise, here and in the game."""

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
            " verdict (perfect, slow or loses), the worst answers, and a diagnosis."
        ),
        epilog=(
            "BOT is a Python file defining minimax(board) (CS50's convention: 3 lists of"
            ' 3 holding "X", "O" or None, answering (row, col) from 0) or'
            " choose_move(position) (analyze's notation, answering a square's number"
            " from 1 or its name). --cmd runs any program that reads a position a line"
            " and answers each with a square. Exit status: 0 perfect or slow, 1 loses,"
            " 2 a bot that cannot be loaded or bad arguments."
        ),
    )
    check.add_argument("bot", nargs="?", metavar="BOT", help="a Python file with your bot")
    check.add_argument(
        "--cmd", metavar="COMMAND", help="a program speaking the line protocol instead"
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
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
        help=f"the time the bot has for each answer (default: {DEFAULT_TIMEOUT:g})",
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


REASK_SECONDS = 0.01
"""A position the bot answered within this many seconds is asked again: a random or
unstable choice shows as two different answers (`Report.unstable`)."""


async def ask_twice(bot: Bot, board: Board) -> tuple[Reply, Reply | None]:
    """The bot's reply for ``board`` and, when it came within `REASK_SECONDS`, its
    reply when asked again (else None)."""
    started = time.monotonic()
    reply = await bot.ask(board)
    if reply.failure is not None or time.monotonic() - started > REASK_SECONDS:
        return reply, None
    return reply, await bot.ask(board)


def answer_of(reply: Reply, bot: Bot) -> Answer:
    """The bot's reply as the report grades it: a failure to answer is a timeout or an
    error, an answer is read as a square, legal or not."""
    from ttt_tui.bots.bot import Failure
    from ttt_tui.teach.check import Answer, Problem, judged

    if reply.failure is not None:
        problem = Problem.TIMEOUT if reply.failure is Failure.TIMEOUT else Problem.ERROR
        return Answer(reply.board, problem=problem, detail=reply.detail)
    return judged(reply.board, bot.kind, reply.said, changed_board=reply.changed_board)


async def check_functions(bot: Bot) -> list[cs50.FunctionCheck]:
    """A CS50 file's other functions, each called on every position where CS50's spec
    says what it gives, and graded (`ttt_tui.teach.cs50`)."""
    from ttt_tui.teach import cs50

    found = []
    for name in cs50.FUNCTIONS:
        calls = cs50.cases(name)
        actions = [case.action for case in calls if case.action is not None] or None
        called = await bot.call(name, [case.board for case in calls], actions)
        if called.missing:
            found.append(cs50.FunctionCheck(name, missing=True))
        else:
            found.append(cs50.graded(name, called.values, called.detail))
    return found


def run_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Check the bot, write the report; the exit status."""
    from ttt_tui.proc.child import Blocking

    with Blocking() as loop:
        return _check(args, out, err, loop)


def _check(args: argparse.Namespace, out: TextIO, err: TextIO, loop: Blocking) -> int:
    from ttt_tui.bots import sandbox
    from ttt_tui.bots.bot import MINIMAX_IS_3X3, BotUnusable, load_bot
    from ttt_tui.engine import analyze
    from ttt_tui.teach.check import Report, Side, positions_for

    n = 3 if args.board is None else args.board.n
    side = Side(args.side)
    bot = load_bot(args.bot, args.cmd, args.timeout, option="--cmd")
    loop.run(bot.start())
    if off := sandbox.here().protections_off():
        err.write(f"ttt-tui check: {off}\n")
    if not bot.can_play(n):
        loop.run(bot.stop())
        raise BotUnusable(f"{MINIMAX_IS_3X3}: use choose_move(position) on 4x4 and 5x5")
    boards = list(positions_for(n, side, args.positions))
    report = Report(n, len(boards))
    shown = err.isatty()
    try:
        if bot.kind == "minimax":
            report.functions = loop.run(check_functions(bot))
        for done, board in enumerate(boards, start=1):
            reply, again = loop.run(ask_twice(bot, board))
            if again is not None and again.failure is None:
                report.asked_twice += 1
                if again.said != reply.said:
                    report.unstable.append((board, reply.said, again.said))
            answer = answer_of(reply, bot)
            report.add(answer, analyze(board) if answer.cell is not None else None)
            if shown and (done % 25 == 0 or done == len(boards)):
                filled = done * 30 // len(boards)
                err.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done:,}/{len(boards):,}")
                err.flush()
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        loop.run(bot.stop())
        if shown:
            err.write("\n")
    if args.json:
        out.write(json.dumps(report.to_json(analyze)) + "\n")
    else:
        out.write("\n".join(report.lines(analyze)) + "\n")
    return 1 if report.verdict == "loses" else 0


def main(args: argparse.Namespace) -> int:
    """Run `ttt-tui check`: 0 perfect or slow, 1 loses, 2 an unusable bot or bad arguments."""
    from ttt_tui.bots.bot import BotUnusable

    try:
        return run_check(args, sys.stdout, sys.stderr)
    except BotUnusable as exc:
        print(f"ttt-tui check: {exc}", file=sys.stderr)
        return 2
