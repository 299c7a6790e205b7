"""Snapshots of the coach, a hint, the history after undo, the stats screen and AI vs AI paused.

Every game is scripted (the computer plays the first free square of a list),
with no thinking delay and every worker finished before the shot, so no
spinner or half-drawn state can get in. Notifications are cleared first: they
time out on the clock. Update with ``pytest --snapshot-update`` and look at
the SVGs under ``tests/__snapshots__/test_snapshots_features/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerState

from ttt_tui.app import TicTacToeApp
from ttt_tui.engine import Board, CancelCheck, Cell, Difficulty, SearchCancelled
from ttt_tui.game import Mode
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import Settings, Store

SIZE = (100, 30)
"""Terminal size of every snapshot."""

SnapCompare = Callable[..., bool]


class ScriptedAI:
    """Plays the first free square of its script."""

    def __init__(self, *script: Cell) -> None:
        self.script = list(script)
        """Squares in order of preference; any free square after them."""

    def __call__(
        self,
        board: Board,
        difficulty: Difficulty,
        rng: random.Random,
        cancelled: CancelCheck | None = None,
    ) -> Cell:
        return next(c for c in [*self.script, *range(board.size)] if board[c] is None)


class SteppedAI(ScriptedAI):
    """A scripted chooser whose every move waits for a permit from the test."""

    def __init__(self, *script: Cell) -> None:
        super().__init__(*script)
        self.permits = threading.Semaphore(0)
        """One permit a move."""
        self.calls = 0
        """Calls begun so far."""
        self._begun = threading.Condition()

    def wait_calls(self, count: int) -> bool:
        """Block (in a thread) until ``count`` calls have begun."""
        with self._begun:
            return self._begun.wait_for(lambda: self.calls >= count, timeout=10)

    def __call__(
        self,
        board: Board,
        difficulty: Difficulty,
        rng: random.Random,
        cancelled: CancelCheck | None = None,
    ) -> Cell:
        with self._begun:
            self.calls += 1
            self._begun.notify_all()
        for _ in range(2000):  # at most 10 s
            if self.permits.acquire(timeout=0.005):
                return super().__call__(board, difficulty, rng, cancelled)
            if cancelled is not None and cancelled():
                raise SearchCancelled
        raise AssertionError("the test never let the computer move")


async def settle(pilot: Pilot[None]) -> None:
    """Let every worker finish and every message it posted land."""
    app = pilot.app
    for _ in range(30):
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers):
            return
    raise AssertionError("workers kept starting")


def keys_then_settle(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """A ``run_before`` that lays out, presses keys one by one and lets everything finish."""

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run_before


def make_app(ai: ScriptedAI, settings: Settings | None = None) -> TicTacToeApp:
    """The app with in-memory storage, no thinking delay and a scripted computer."""
    return TicTacToeApp(settings=settings or Settings(), ai_delay=0, seed=7, move_chooser=ai)


def test_coach_mid_game(snap_compare: SnapCompare) -> None:
    """X a1 c1 against O b2 b1: only b3 holds the draw; every other square loses."""
    app = make_app(ScriptedAI(4, 1))
    assert snap_compare(app, terminal_size=SIZE, run_before=keys_then_settle("c", "1", "3"))


def test_hint_shown(snap_compare: SnapCompare) -> None:
    """X a1, O b1: the hint marks the squares that win."""
    app = make_app(ScriptedAI(1))
    assert snap_compare(app, terminal_size=SIZE, run_before=keys_then_settle("1", "i"))


def test_history_after_undo(snap_compare: SnapCompare) -> None:
    """Four moves, then undo: the last two are listed as undone, O a1 highlighted."""
    app = make_app(ScriptedAI(0, 8))
    assert snap_compare(app, terminal_size=SIZE, run_before=keys_then_settle("5", "3", "u"))


def test_stats_screen_with_counts(snap_compare: SnapCompare) -> None:
    """A win and a loss at medium, a draw at hard; saving off, so no path on screen."""
    ai = ScriptedAI(8, 7)

    async def run_before(pilot: Pilot[None]) -> None:
        await keys_then_settle("1", "2", "3")(pilot)
        ai.script = [0, 1, 2]
        await keys_then_settle("n", "4", "5", "9")(pilot)
        ai.script = [4, 1, 5, 6]
        await keys_then_settle("d", "n", "1", "3", "8", "4", "9")(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(pilot.app.screen, StatsScreen)
        pilot.app.clear_notifications()
        await pilot.pause()

    app = TicTacToeApp(store=Store(enabled=False), ai_delay=0, seed=7, move_chooser=ai)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_ai_vs_ai_paused_mid_game(snap_compare: SnapCompare) -> None:
    """Easy X against Hard O, paused after four moves: the whole two-line status shows."""
    ai = SteppedAI(4, 0, 8, 2)
    settings = Settings(
        mode=Mode.AI_VS_AI, ai_x_difficulty=Difficulty.EASY, ai_o_difficulty=Difficulty.HARD
    )

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        ai.permits.release(4)
        # The fifth call has begun only once the fourth move has landed.
        assert await asyncio.to_thread(ai.wait_calls, 5)
        await pilot.press("p")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        assert screen.paused
        assert screen.game.moves == [4, 0, 8, 2]
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(make_app(ai, settings), terminal_size=SIZE, run_before=run_before)
