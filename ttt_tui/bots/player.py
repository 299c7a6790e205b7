"""The learner's bot as the game's computer: its moves asked for off the event loop.

`BotPlayer.choose_move` asks the sandboxed bot (`ttt_tui.bots.sandbox`) in a
thread of its own, one position at a time, and gives the square or raises
`BotFailed` saying in words what went wrong (a crash, a hang, an illegal
answer). Cancelling the task that awaits a move leaves the bot to finish that
answer, within its time limit, before the next is asked; its answer is dropped.

No UI imports.
"""

from __future__ import annotations

import asyncio
import threading

from ttt_tui.bots.sandbox import MINIMAX_IS_3X3, Bot, BotUnusable
from ttt_tui.engine import Board, Cell
from ttt_tui.teach.check import Answer, Problem

PLAYS_3X3_ONLY = MINIMAX_IS_3X3 + ": it cannot play {n}x{n}"


class BotFailed(Exception):
    """The bot gave no move; the message says why, in one sentence."""


def failure(answer: Answer) -> str:
    """Why ``answer`` is no move, in one sentence: ``no answer in 2 s``, ``an illegal
    answer, a taken square: b2``, or the error (a traceback's last line)."""
    lines = answer.detail.strip().splitlines()
    last = lines[-1].strip() if lines else "it failed"
    if answer.problem is Problem.ILLEGAL:
        return f"an illegal answer, {last}"
    return last


class BotPlayer:
    """Asks one bot for moves, one at a time, in a thread."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._lock = threading.Lock()
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
        """Start the bot, so that a bot that cannot load is known before the game; raises
        `BotUnusable`."""
        self.bot.start()

    async def choose_move(self, board: Board) -> Cell:
        """The bot's move in ``board``; raises `BotFailed` saying why there is none."""
        if not self.bot.can_play(board.n):
            raise BotFailed(PLAYS_3X3_ONLY.format(n=board.n))
        answer = await asyncio.to_thread(self._ask, board)
        if answer.cell is None:
            raise BotFailed(failure(answer))
        return answer.cell

    def _ask(self, board: Board) -> Answer:
        with self._lock:
            if self._closed:
                return Answer(board, problem=Problem.ERROR, detail="the game has ended")
            if self._restart:
                self._restart = False
                self.bot.stop()  # asked, it starts again, reading its file afresh
            try:
                return self.bot.ask(board)
            except BotUnusable as exc:
                return Answer(board, problem=Problem.ERROR, detail=str(exc))
            finally:
                if self._closed:  # closed while it answered (and perhaps restarted it)
                    self.bot.stop()

    def restart(self) -> None:
        """Start the bot afresh before the next position (a file fixed meanwhile is read
        again)."""
        self._restart = True

    def close(self) -> None:
        """Stop the bot and everything it started. An answer under way is cut short:
        its thread, reading, sees the bot gone and tidies up."""
        self._closed = True
        if self._lock.acquire(blocking=False):
            try:
                self.bot.stop()
            finally:
                self._lock.release()
        else:
            self.bot.kill()
