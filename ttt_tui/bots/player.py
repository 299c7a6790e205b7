"""The learner's bot as the game's computer: its moves asked for from the event loop.

`BotPlayer.choose_move` asks the bot (`ttt_tui.bots.bot`), one position at a
time, and gives the square or raises `BotFailed` saying in words what went wrong
(a crash, a hang, an illegal answer). A slow bot is waited for, up to its time
limit, and says every second that it is still thinking (`thinking`), for the
status line. Cancelling the task that awaits a move leaves the bot to finish that
answer, within its time limit, before the next is asked; its answer is dropped.

No UI imports.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from ttt_tui.bots.bot import MINIMAX_IS_3X3, Bot, BotUnusable, Failure, Reply
from ttt_tui.engine import Board, Cell, Progress
from ttt_tui.proc.child import Blocking
from ttt_tui.teach.check import read_answer

PLAYS_3X3_ONLY = MINIMAX_IS_3X3 + ": it cannot play {n}x{n}"

THINKING_EVERY = 1.0
"""Seconds between two reports that the bot is still thinking."""


def thinking(elapsed: float, limit: float) -> Progress:
    """The bot still thinking after ``elapsed`` seconds of ``limit``, as the game's
    status shows a search's progress: its ``stage`` is the sentence to show."""
    stage = f"Your bot is thinking… {elapsed:.0f} s\n(it has up to {limit:g} s)"
    return Progress(nodes=0, elapsed=elapsed, depth=None, stage=stage)


class BotFailed(Exception):
    """The bot gave no move; the message says why, in one sentence."""


def failure(reply: Reply) -> str:
    """Why ``reply`` is no move, in one sentence: ``no answer in 2 s`` or the error
    (a traceback's last line); '' when it names a square (legal or not)."""
    if reply.failure is None:
        return ""
    lines = reply.detail.strip().splitlines()
    return lines[-1].strip() if lines else "it failed"


class BotPlayer:
    """Asks one bot for moves, one at a time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._turn = asyncio.Lock()
        """Held while the bot answers: one position at a time."""
        self._closed = False
        """Whether the game is done with the bot: an answer under way then stops it again."""
        self._restart = False
        """Whether the next position goes to a bot started afresh."""

    @property
    def name(self) -> str:
        """How the bot is known: its convention (``minimax``, ``choose_move``) or ``command``."""
        return self.bot.kind

    def start(self) -> None:
        """Load the bot once, before the game and without its event loop, so that a bot
        that cannot load is known first; raises `BotUnusable`. The game starts it
        again when it first asks."""
        with Blocking() as loop:
            try:
                loop.run(self.bot.start())
            finally:
                loop.run(self.bot.stop())

    async def choose_move(
        self, board: Board, report: Callable[[Progress], None] | None = None
    ) -> Cell:
        """The bot's move in ``board``, however long it takes within its time limit,
        ``report`` told every `THINKING_EVERY` seconds that it is still thinking;
        raises `BotFailed` saying why there is no move."""
        if not self.bot.can_play(board.n):
            raise BotFailed(PLAYS_3X3_ONLY.format(n=board.n))
        asking = asyncio.ensure_future(self._ask(board))
        started = time.monotonic()
        # `wait`, cancelled, leaves `asking` to finish: the bot is never cut mid-answer.
        while not (await asyncio.wait({asking}, timeout=THINKING_EVERY))[0]:
            if report is not None:
                report(thinking(time.monotonic() - started, self.bot.timeout))
        reply = asking.result()
        why = failure(reply)
        if why:
            raise BotFailed(why)
        cell, illegal = read_answer(board, self.bot.kind, reply.said)
        if cell is None:
            raise BotFailed(f"an illegal answer, {illegal}")
        return cell

    async def _ask(self, board: Board) -> Reply:
        async with self._turn:
            if self._closed:
                return Reply(board, failure=Failure.ERROR, detail="the game has ended")
            if self._restart:
                self._restart = False
                await self.bot.stop()  # asked, it starts again, reading its file afresh
            try:
                return await self.bot.ask(board)
            except BotUnusable as exc:
                return Reply(board, failure=Failure.ERROR, detail=str(exc))
            finally:
                if self._closed:  # closed while it answered (and perhaps restarted it)
                    await self.bot.stop()

    def restart(self) -> None:
        """Start the bot afresh before the next position (a file fixed meanwhile is read
        again)."""
        self._restart = True

    async def close(self) -> None:
        """Stop the bot and everything it started. An answer under way is cut short."""
        self._closed = True
        self.bot.kill()
        await self.bot.stop()
