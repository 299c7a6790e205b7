"""`ttt-tui check`: a learner's bot asked about every position (3x3) or a seeded sample
(4x4, 5x5), each answer graded against the proven engine (`ttt_tui.teach.check`),
and a CS50 file's other functions called on every position (`ttt_tui.teach.cs50`).

The bot always runs in a process of its own (`ttt_tui.bots.bot`), with a time
limit on every answer, so nothing it does can stop the check.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TextIO

from ttt_tui.bots.bot import MINIMAX_IS_3X3, Bot, BotUnusable, Failure, Reply, load_bot
from ttt_tui.engine import Board, analyze
from ttt_tui.proc.child import Blocking
from ttt_tui.teach import cs50
from ttt_tui.teach.check import Answer, Problem, Report, Side, judged, positions_for

PROBLEMS = {Failure.TIMEOUT: Problem.TIMEOUT, Failure.ERROR: Problem.ERROR}
"""How a bot's failure to answer counts in the report."""

DEFAULT_POSITIONS = 200
"""Positions sampled on 4x4 and 5x5 unless told otherwise."""


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
    """The bot's reply as the report grades it."""
    if reply.failure is not None:
        return Answer(reply.board, problem=PROBLEMS[reply.failure], detail=reply.detail)
    return judged(reply.board, bot.kind, reply.said, changed_board=reply.changed_board)


async def check_functions(bot: Bot) -> list[cs50.FunctionCheck]:
    """A CS50 file's other functions, each called on every position where CS50's spec
    says what it gives, and graded (`ttt_tui.teach.cs50`)."""
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
    with Blocking() as loop:
        return _check(args, out, err, loop)


def _check(args: argparse.Namespace, out: TextIO, err: TextIO, loop: Blocking) -> int:
    n = 3 if args.board is None else args.board.n
    side = Side(args.side)
    bot = load_bot(args.bot, args.cmd, args.timeout, option="--cmd")
    loop.run(bot.start())
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
    try:
        return run_check(args, sys.stdout, sys.stderr)
    except BotUnusable as exc:
        print(f"ttt-tui check: {exc}", file=sys.stderr)
        return 2
