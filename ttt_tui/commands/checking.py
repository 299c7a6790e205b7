"""`ttt-tui check` at work: a learner's bot, or a class's bots, asked about every
position (3x3) or a seeded sample (4x4, 5x5), each answer graded against the proven
engine (`ttt_tui.teach.check`), and a CS50 file's other functions called on every
position (`ttt_tui.teach.cs50`). Its options are `ttt_tui.commands.check`'s.

Each bot always runs in a process of its own (`ttt_tui.bots.bot`), jailed
(`ttt_tui.bots.sandbox`: what of the jail does not hold here is said once). A slow answer
is waited for up to ``--timeout`` and graded like any other: speed is reported
apart. The check stops early, and says so, when a bot's total ``--budget`` is
spent or it times out `TIMEOUTS_IN_A_ROW` times in a row; Ctrl+C or SIGTERM ends
it with what was graded so far, and no process of any bot left. The exit
statuses are `Status`'s.
"""

from __future__ import annotations

import argparse
import asyncio
import enum
import json
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ttt_tui.bots import sandbox
from ttt_tui.bots.bot import (
    MINIMAX_IS_3X3,
    Bot,
    BotUnusable,
    Failure,
    Reply,
    load_bot,
)
from ttt_tui.engine import Board, analyze
from ttt_tui.proc.child import Blocking
from ttt_tui.teach import cs50
from ttt_tui.teach.check import Answer, Problem, Report, Side, judged, positions_for

PROBLEMS = {Failure.TIMEOUT: Problem.TIMEOUT, Failure.ERROR: Problem.ERROR}
"""How a bot's failure to answer counts in the report."""

TIMEOUTS_IN_A_ROW = 5
"""Timeouts in a row that end a bot's check: it is not answering at all."""

REASK_SECONDS = 0.01
"""A position the bot answered within this many seconds is asked again: a random or
unstable choice shows as two different answers (`Report.unstable`)."""


class Status(enum.IntEnum):
    """`ttt-tui check`'s exit statuses. With several bots, the first of `WORST_FIRST`
    that any bot has."""

    GOOD = 0
    """Every bot's answers perfect or slow, within any course time limit."""
    LOSES = 1
    """A bot throws a result away somewhere, or gave an illegal answer, an error, a
    timeout, or wrote on its board."""
    UNUSABLE = 2
    """Bad arguments, or a bot that cannot be loaded at all."""
    OVER_TIME_LIMIT = 3
    """Answers right (perfect or slow), but some slower than ``--max-answer-seconds``."""
    UNFINISHED = 4
    """Stopped early for time: the ``--budget`` spent, or timeouts in a row."""
    INTERRUPTED = 130
    """Ctrl+C (SIGINT)."""
    TERMINATED = 143
    """SIGTERM (``timeout``, CI, a process manager)."""


WORST_FIRST = (Status.UNUSABLE, Status.UNFINISHED, Status.LOSES, Status.OVER_TIME_LIMIT)
"""Which bot's status is the command's, with several bots (and no signal)."""


class Terminated(BaseException):
    """SIGTERM, raised in the main thread as Ctrl+C raises `KeyboardInterrupt`."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def answer_of(reply: Reply, bot: Bot) -> Answer:
    """The bot's reply as the report grades it."""
    if reply.failure is not None:
        return Answer(
            reply.board,
            problem=PROBLEMS[reply.failure],
            detail=reply.detail,
            seconds=reply.seconds,
        )
    return judged(
        reply.board,
        bot.kind,
        reply.said,
        changed_board=reply.changed_board,
        seconds=reply.seconds,
    )


async def grade(
    bot: Bot, boards: list[Board], report: Report, budget: float, tick: Callable[[], None]
) -> None:
    """Ask the started ``bot`` about ``boards`` in turn, into ``report``, calling ``tick``
    after each; stop early, saying why in ``report.stopped``, once ``budget`` seconds
    are spent or after `TIMEOUTS_IN_A_ROW` timeouts in a row."""
    deadline = time.monotonic() + budget
    spent = f"the total budget of {budget:g} s (--budget) was spent"
    in_a_row = 0
    for board in boards:
        left = deadline - time.monotonic()
        if left <= 0:
            report.stopped = spent
            return
        reply = await bot.ask(board, left)
        if reply.failure is Failure.TIMEOUT and left < bot.timeout:
            report.stopped = spent  # cut short by the budget: not the bot's timeout
            return
        if reply.failure is None and reply.seconds <= REASK_SECONDS:
            again = await bot.ask(board, left)
            if again.failure is None:
                report.asked_twice += 1
                if again.said != reply.said:
                    report.unstable.append((board, reply.said, again.said))
        answer = answer_of(reply, bot)
        report.add(answer, analyze(board) if answer.cell is not None else None, reply.stray)
        tick()
        in_a_row = in_a_row + 1 if reply.failure is Failure.TIMEOUT else 0
        if in_a_row == TIMEOUTS_IN_A_ROW:
            report.stopped = (
                f"{TIMEOUTS_IN_A_ROW} answers in a row took longer than {bot.timeout:g} s"
                " (--timeout): it does not seem to answer at all"
            )
            return


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


@dataclass
class BotCheck:
    """One bot's check: its report, or why it could not be checked."""

    name: str
    """The bot as the command line gave it: its file, or its command."""
    report: Report
    unusable: str = ""
    """Why the bot could not be loaded, if it could not."""
    done: bool = False
    """Whether its check came to an end by itself (not by a signal)."""

    def status(self) -> Status:
        """Its exit status, but for a signal."""
        if self.unusable:
            return Status.UNUSABLE
        if self.report.stopped:
            return Status.UNFINISHED
        if self.report.verdict == "loses":
            return Status.LOSES
        if self.report.over_limit():
            return Status.OVER_TIME_LIMIT
        return Status.GOOD

    def verdict(self) -> str:
        """The report's verdict, or ``unusable``."""
        return "unusable" if self.unusable else self.report.verdict

    def to_json(self) -> dict[str, Any]:
        """The check as ``check --json`` gives it, one object a bot."""
        if self.unusable:
            return {"bot": self.name, "verdict": "unusable", "score": 0, "error": self.unusable}
        return {"bot": self.name, **self.report.to_json(analyze)}

    def summary(self) -> str:
        """Its first diagnosis, or why it could not be checked or finish."""
        if self.unusable:
            return self.unusable
        first = self.report.diagnosis()[:1] or [self.report.stopped]
        return first[0]


class Check:
    """The bots of one ``ttt-tui check``, graded ``--jobs`` at a time on one event loop,
    each report written as soon as it and those before it are done."""

    def __init__(self, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
        self.args = args
        self.out, self.err = out, err
        self.n = 3 if args.board is None else args.board.n
        self.boards = list(positions_for(self.n, Side(args.side), args.positions))
        names = list(args.bots) + list(args.cmd or [])
        self.checks = [
            BotCheck(name, Report(self.n, len(self.boards), limit=args.max_answer_seconds))
            for name in names
        ]
        self.written = 0
        """Checks written so far, from the first."""
        self.task: asyncio.Task[None] | None = None
        self.shown = err.isatty()
        self.asked = 0
        self.told = False
        """Whether the protections off here were said (`tell_protections_off`)."""

    def load(self, checked: BotCheck) -> Bot:
        """The bot named by ``checked``; `BotUnusable` if it cannot be."""
        file, command = (None, checked.name) if self.args.cmd else (checked.name, None)
        return load_bot(file, command, self.args.timeout, option="--cmd")

    async def run(self) -> None:
        """Grade every bot, ``--jobs`` at once."""
        self.task = asyncio.current_task()
        jobs = asyncio.Semaphore(self.args.jobs)

        async def one(checked: BotCheck) -> None:
            async with jobs:
                await self.check(checked)
            self.write_ready()

        await asyncio.gather(*(one(checked) for checked in self.checks))

    async def check(self, checked: BotCheck) -> None:
        """One bot's check, into ``checked``; its process stopped however it ends."""
        bot: Bot | None = None
        try:
            bot = self.load(checked)
            await bot.start()
            self.tell_protections_off()
            if not bot.can_play(self.n):
                raise BotUnusable(f"{MINIMAX_IS_3X3}: use choose_move(position) on 4x4 and 5x5")
            if bot.kind == "minimax":
                checked.report.functions = await check_functions(bot)
            await grade(bot, self.boards, checked.report, self.args.budget, self.tick)
        except BotUnusable as exc:
            checked.unusable = named(checked.name, str(exc))
        finally:
            if bot is not None:
                await bot.stop()
        checked.done = True

    def tell_protections_off(self) -> None:
        """Say once, as the first bot has started, which of the sandbox's protections do
        not hold on this machine."""
        if not self.told:
            self.told = True
            if off := sandbox.here().protections_off():
                self.err.write(f"ttt-tui check: {off}\n")

    async def settle(self) -> None:
        """Wait for the cancelled checks to end: every bot stopped."""
        if self.task is not None:
            await asyncio.wait([self.task])

    def tick(self) -> None:
        """One more position asked: the progress bar, in a terminal."""
        self.asked += 1
        total = len(self.boards) * len(self.checks)
        if self.shown and (self.asked % 25 == 0 or self.asked == total):
            filled = self.asked * 30 // total
            self.err.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.asked:,}/{total:,}")
            self.err.flush()

    def write_ready(self) -> None:
        """Write the checks done, in the command line's order, up to the first not done."""
        while self.written < len(self.checks) and self.checks[self.written].done:
            self.write(self.checks[self.written])
            self.written += 1

    def write(self, checked: BotCheck) -> None:
        """One bot's report (under its name, with several), or the line saying it could
        not be checked."""
        several = len(self.checks) > 1
        if self.shown:
            self.err.write("\r\033[K")
        if checked.unusable:
            self.err.write(f"ttt-tui check: {checked.unusable}\n")
        if self.args.json:
            self.out.write(json.dumps(checked.to_json()) + "\n")
        elif not checked.unusable:
            heading = [f"== {checked.name}"] if several else []
            self.out.write("\n".join([*heading, *checked.report.lines(analyze)]) + "\n")
        self.out.flush()

    def finish(self, signalled: Status | None) -> int:
        """Write what is left, and the summary table for several bots; the exit status."""
        for checked in self.checks:
            if not checked.done:
                checked.report.interrupted = True
                checked.done = True
        self.write_ready()
        if self.shown:
            self.err.write("\n")
        if len(self.checks) > 1 and not self.args.json:
            self.out.write("\n".join(summary_table(self.checks)) + "\n")
        if signalled is not None:
            return signalled
        found = {checked.status() for checked in self.checks}
        return next((status for status in WORST_FIRST if status in found), Status.GOOD)


def named(name: str, message: str) -> str:
    """``message`` about the bot ``name``, naming it as the command line did (a Python
    bot's host names its file by its whole path), and naming it first unless it does."""
    message = message.replace(str(Path(name).resolve()), name)
    return message if name in message else f"{name}: {message}"


def summary_table(checks: list[BotCheck]) -> list[str]:
    """One line a bot: its name, verdict, score out of 100, and first diagnosis (or why
    it could not be checked)."""
    width = max(len("bot"), *(len(checked.name) for checked in checks))
    out = [f"{'bot':<{width}}  {'verdict':<11}  score  first diagnosis"]
    for checked in checks:
        score = 0 if checked.unusable else checked.report.score
        said = checked.summary()
        said = said if len(said) <= 80 else said[:79] + "…"
        out.append(f"{checked.name:<{width}}  {checked.verdict():<11}  {score:>5}  {said}".rstrip())
    return out


def run_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Check the bots, write their reports; the exit status."""
    if args.bots and args.cmd:
        load_bot(
            args.bots[0], args.cmd[0], args.timeout, option="--cmd"
        )  # raises: one or the other
    if not (args.bots or args.cmd):
        load_bot(None, None, args.timeout, option="--cmd")  # raises: give one
    check = Check(args, out, err)
    in_main = threading.current_thread() is threading.main_thread()
    handlers = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    if in_main:
        signal.signal(signal.SIGTERM, _terminate)
    try:
        with Blocking() as loop:
            try:
                loop.run(check.run())
            except (KeyboardInterrupt, Terminated) as exc:
                if in_main:  # a second signal must not cut the clean-up short
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                loop.run(check.settle())
                kill = Status.TERMINATED if isinstance(exc, Terminated) else Status.INTERRUPTED
                return check.finish(kill)
            return check.finish(None)
    finally:
        if in_main:
            signal.signal(signal.SIGINT, handlers[0])
            signal.signal(signal.SIGTERM, handlers[1])


def check_main(args: argparse.Namespace) -> int:
    """Run `ttt-tui check`; its `Status`."""
    try:
        return run_check(args, sys.stdout, sys.stderr)
    except BotUnusable as exc:
        if args.json:
            print(json.dumps({"bot": None, "verdict": "unusable", "score": 0, "error": str(exc)}))
        print(f"ttt-tui check: {exc}", file=sys.stderr)
        return Status.UNUSABLE
