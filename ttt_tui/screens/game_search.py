"""The game's searches: the computer's move (minimax's, or the learner's bot's) and
minimax's analysis, worked out elsewhere (the searcher is a process of its own) while a
worker of the game screen waits; what they find comes back to the screen as a message."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import Worker

from ttt_tui.engine import Analysis, Cell, Difficulty, Progress, SearchCancelled
from ttt_tui.play.session import AnalysisRequest, MoveRequest, Work
from ttt_tui.play.settings import Level
from ttt_tui.search.client import Searcher

if TYPE_CHECKING:
    from textual.screen import Screen

    from ttt_tui.bots.player import BotPlayer


@dataclass
class AIMoved(Message):
    """The computer picked a move for the game whose turn had this token."""

    token: int
    """The turn the move was computed for; stale when the game moved on."""
    cell: Cell
    """The chosen cell."""
    level: Level
    """The level the move was chosen at, which the game records with it."""


@dataclass
class BotGaveNoMove(Message):
    """The learner's bot gave no move for the turn with this token."""

    token: int
    """The turn it was asked about; stale when the game moved on."""
    why: str
    """What it did instead, in one sentence."""


@dataclass
class AnalysisReady(Message):
    """Minimax finished analysing the position whose turn had this token."""

    token: int
    """The turn the analysis is for; stale when the game moved on."""
    analysis: Analysis
    """The verdict on every legal move."""


@dataclass
class SearchProgress(Message):
    """A search for the turn with this token is still running, and has got this far."""

    token: int
    """The turn the search is for; stale when the game moved on."""
    work: Work
    """Which search: the computer's move or the coach's analysis."""
    progress: Progress
    """Time, positions searched, what it is proving, and its best move so far."""


Found = AIMoved | BotGaveNoMove | AnalysisReady | SearchProgress
"""What a search posts to the game screen."""


class Searches:
    """Runs the searches a session hands over (`Session.take_requests`) on a screen's
    workers, one exclusive group a `Work`, and cancels those it drops. A worker waits
    for the searcher or the bot and posts what it found to the screen; it never
    touches widgets."""

    def __init__(
        self,
        screen: Screen[None],
        searcher: Searcher,
        bot: BotPlayer | None,
        ai_delay: float,
        rng: random.Random,
    ) -> None:
        self._screen = screen
        self._searcher = searcher
        self._bot = bot
        self._ai_delay = ai_delay
        """Least seconds the computer appears to think."""
        self._rng = rng
        """Source of every random choice the computer makes: a seed drawn a move."""

    def start(self, request: MoveRequest | AnalysisRequest) -> Worker[None]:
        """Start working out what ``request`` asks for; the worker waiting for it."""
        # The search starts with its worker (a callable, not a coroutine made now): a
        # worker cancelled before it starts leaves no coroutine never awaited.
        if isinstance(request, MoveRequest):
            work, run = Work.MOVE, partial(self._think, request, self._rng.getrandbits(64))
        else:
            work, run = Work.ANALYSIS, partial(self._analyse, request)
        return self._screen.run_worker(run, group=work.value, exclusive=True, exit_on_error=False)

    def cancel(self, work: Work) -> None:
        """Cancel the searches of this kind still running."""
        self._screen.workers.cancel_group(self._screen, work.value)

    async def _think(self, request: MoveRequest, seed: int) -> None:
        """Have the computer's move worked out, taking at least `ai_delay` seconds."""
        started = time.monotonic()
        level = request.difficulty
        try:
            if isinstance(level, Difficulty):
                reporter = self._reporter(request.token, Work.MOVE)
                cell = await self._searcher.choose_move(request.board, level, seed, reporter)
            else:
                assert self._bot is not None, "the bot's level is offered only with a bot"
                # Loaded with the bot (ttt-tui --bot), not before every first frame.
                from ttt_tui.bots.player import BotFailed

                try:
                    reporter = self._reporter(request.token, Work.MOVE)
                    cell = await self._bot.choose_move(request.board, reporter)
                except BotFailed as failed:
                    self._screen.post_message(BotGaveNoMove(request.token, str(failed)))
                    return
        except SearchCancelled:
            return
        remaining = self._ai_delay - (time.monotonic() - started)
        if remaining > 0:
            await asyncio.sleep(remaining)
        self._screen.post_message(AIMoved(request.token, cell, request.difficulty))

    async def _analyse(self, request: AnalysisRequest) -> None:
        """Have minimax's verdict on every move worked out, for the coach and hints."""
        reporter = self._reporter(request.token, Work.ANALYSIS)
        try:
            analysis = await self._searcher.analyze(request.board, reporter)
        except SearchCancelled:
            return
        self._screen.post_message(AnalysisReady(request.token, analysis))

    def _reporter(self, token: int, work: Work) -> Callable[[Progress], None]:
        def report(progress: Progress) -> None:
            self._screen.post_message(SearchProgress(token, work, progress))

        return report
