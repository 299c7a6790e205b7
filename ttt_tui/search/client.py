"""Where the engine's searches run: a process of their own, so the interface never waits.

`SearchProcess` runs the searches in a process (`ttt_tui.search.worker`,
spoken to through `ttt_tui.proc`) that lives as long as the app and keeps the
engine's tables warm from one move to the next. It takes one search at a time,
the computer's move before the coach's analysis and an analysis before the
explorer's counts (a search asked for while a less urgent one runs interrupts
it; that one starts again after, from the tables it filled), stops a search
soon after its caller gives up on it, passes the search's progress on, and
starts a new process if the old one dies, trying the search it was running
once more.

`ThreadSearcher` runs the same searches, or any other move chooser, in a
thread: for tests that script the computer with objects no process could share.

Both are used from the app's event loop: `choose_move`, `analyze` and `count` are
coroutines, and cancelling the task that awaits one stops its search (a
search that was stopped raises `SearchCancelled` in the searcher, never out of
it: the awaiting task was cancelled).

No UI imports.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

from ttt_tui.engine import (
    Analysis,
    Board,
    CancelCheck,
    Cell,
    Difficulty,
    ProgressCallback,
    analyze,
    choose_move,
)
from ttt_tui.proc.child import Child, ChildEnded, python_module
from ttt_tui.proc.frames import PICKLES
from ttt_tui.search.worker import ANALYSIS, COUNT, MOVE, Job, Reply

if TYPE_CHECKING:
    # The explorer's counts: loaded when it first counts, not with every game.
    from ttt_tui.engine.minimax import Count, CountProgress, CountProgressCallback, Search

MoveChooser = Callable[[Board, Difficulty, random.Random, CancelCheck | None], Cell]
"""Picks the computer's move: `choose_move`, or a test's scripted computer."""

Analyzer = Callable[[Board, CancelCheck | None], Analysis]
"""Values every legal move: `analyze`, or a test's stand-in that holds it back."""

Counter: TypeAlias = (
    "Callable[[Board, Search, CancelCheck | None, CountProgressCallback | None], Count]"
)
"""Counts one search's work for the explorer: `run_count`, or a test's stand-in."""

PRIORITY = {MOVE: 0, ANALYSIS: 1, COUNT: 2}
"""Which job goes first, lowest first: the computer's move, then an analysis (the
coach's, or the explorer's tree), then the explorer's counts."""


_T = TypeVar("_T")


class SearchFailed(Exception):
    """A search raised an error in the search process; the message is its traceback."""


class SearchProcessDied(Exception):
    """The search process died twice while running the same search."""


class Searcher(Protocol):
    """Runs the engine's searches for the app's event loop."""

    async def choose_move(
        self, board: Board, difficulty: Difficulty, seed: int, progress: ProgressCallback | None
    ) -> Cell:
        """The computer's move."""
        ...

    async def analyze(self, board: Board, progress: ProgressCallback | None) -> Analysis:
        """Every legal move's value."""
        ...

    async def count(
        self, board: Board, search: Search, progress: CountProgressCallback | None
    ) -> Count:
        """How much work one search does to value a position (the explorer's counts)."""
        ...

    def start(self) -> None:
        """Get ready to search; call from the event loop."""
        ...

    async def close(self) -> None:
        """Stop every search and let go of what runs them."""
        ...


# In a thread -------------------------------------------------------------------


class ThreadSearcher:
    """Runs searches in worker threads of the event loop's executor."""

    def __init__(
        self,
        chooser: MoveChooser = choose_move,
        analyzer: Analyzer = analyze,
        counter: Counter | None = None,
    ) -> None:
        self.chooser = chooser
        """Picks the computer's moves (the engine's `choose_move` unless a test scripts it)."""
        self.analyzer = analyzer
        """Values the moves for the coach (the engine's `analyze` unless a test holds it)."""
        if counter is None:
            from ttt_tui.engine.minimax import run_count

            counter = run_count
        self.counter: Counter = counter
        """Counts a search's work for the explorer (`run_count` unless a test stands in)."""

    async def choose_move(
        self, board: Board, difficulty: Difficulty, seed: int, progress: ProgressCallback | None
    ) -> Cell:
        """The computer's move, chosen in a thread; progress is not reported."""
        rng = random.Random(seed)

        def search(stop: CancelCheck) -> Cell:
            return self.chooser(board, difficulty, rng, stop)

        return await self._run(search)

    async def analyze(self, board: Board, progress: ProgressCallback | None) -> Analysis:
        """Every legal move's value, worked out in a thread."""

        def search(stop: CancelCheck) -> Analysis:
            return self.analyzer(board, stop)

        return await self._run(search)

    async def count(
        self, board: Board, search: Search, progress: CountProgressCallback | None
    ) -> Count:
        """One search's count, in a thread; its progress is passed on in the event loop."""
        loop = asyncio.get_running_loop()

        def report(found: CountProgress) -> None:
            if progress is not None:
                loop.call_soon_threadsafe(progress, found)

        def work(stop: CancelCheck) -> Count:
            return self.counter(board, search, stop, report)

        return await self._run(work)

    async def _run(self, search: Callable[[CancelCheck], _T]) -> _T:
        stopped = threading.Event()
        try:
            return await asyncio.to_thread(search, stopped.is_set)
        except asyncio.CancelledError:
            stopped.set()
            raise

    def start(self) -> None:
        """Nothing to start: threads are taken from the event loop's executor."""

    async def close(self) -> None:
        """Nothing to let go of: a thread whose search was stopped ends by itself."""


# In a process of its own -------------------------------------------------------------


@dataclass(eq=False)
class _Pending:
    job: Job
    future: asyncio.Future[Any]
    progress: Callable[[Any], None] | None
    deaths: int = 0
    """How many processes died running this job."""
    preempted: bool = False
    """Stopped to let a move go first; to be started again."""


class SearchProcess:
    """A long-lived process (`ttt_tui.search.worker`) that runs the searches one at a time.

    Start it from inside the app's event loop (`start`); close it when the app
    ends (`close`). ``on_restart`` is called, in the event loop, each time the
    process died and a new one took over.
    """

    def __init__(self, on_restart: Callable[[], None] = lambda: None) -> None:
        self.on_restart = on_restart
        """Told when a dead search process was replaced."""
        self._child: Child | None = None
        """The process, once started and until it dies."""
        self._serving: asyncio.Task[None] | None = None
        self._next_rid = 0
        self._queue: list[_Pending] = []
        self._running: _Pending | None = None
        self._closed = False

    @property
    def pid(self) -> int | None:
        """The search process's id, while it runs."""
        return None if self._child is None else self._child.pid

    def start(self) -> None:
        """Start the search process, if it is not running; call from the event loop."""
        if self._serving is None and not self._closed:
            self._serving = asyncio.get_running_loop().create_task(self._serve())

    async def _serve(self) -> None:
        """Run the process and pass on its replies; start another each time one dies."""
        command, env = python_module("ttt_tui.search.worker")
        replacing = False
        while not self._closed:
            child = Child(command, PICKLES, env=env)
            try:
                await child.start()
            except OSError as exc:
                self._fail_all(SearchFailed(f"the search process could not start: {exc}"))
                self._serving = None
                return
            self._child = child
            if replacing:
                self.on_restart()
            self._pump()
            with contextlib.suppress(ChildEnded):
                while True:
                    self._reply(await child.receive())
            self._child = None
            child.kill()
            if not self._closed:
                self._died(child.stderr)
                replacing = True

    def _fail_all(self, error: Exception) -> None:
        for pending in [*self._queue, *([self._running] if self._running else [])]:
            if not pending.future.done():
                pending.future.set_exception(error)
        self._queue.clear()
        self._running = None

    def _send(self, message: tuple[str, Any]) -> None:
        """Write to the process; if it has gone, `_serve` deals with that."""
        if self._child is not None:
            with contextlib.suppress(ChildEnded):
                self._child.send(message)

    # Asking for searches.

    async def choose_move(
        self, board: Board, difficulty: Difficulty, seed: int, progress: ProgressCallback | None
    ) -> Cell:
        """The computer's move, chosen in the search process."""
        result: Cell = await self._ask(MOVE, board, difficulty, seed, progress)
        return result

    async def analyze(self, board: Board, progress: ProgressCallback | None) -> Analysis:
        """Every legal move's value, worked out in the search process."""
        result: Analysis = await self._ask(ANALYSIS, board, None, 0, progress)
        return result

    async def count(
        self, board: Board, search: Search, progress: CountProgressCallback | None
    ) -> Count:
        """One search's count, worked out in the search process after any move or
        analysis asked for."""
        result: Count = await self._ask(COUNT, board, None, 0, progress, search.value)
        return result

    async def _ask(
        self,
        kind: str,
        board: Board,
        difficulty: Difficulty | None,
        seed: int,
        progress: Callable[[Any], None] | None,
        search: str = "",
    ) -> Any:
        loop = asyncio.get_running_loop()
        self.start()
        job = Job(0, kind, board, difficulty, seed, search)  # named when it starts
        pending = _Pending(job, loop.create_future(), progress)
        self._queue.append(pending)
        self._pump()
        try:
            return await pending.future
        except asyncio.CancelledError:
            self._abandon(pending)
            raise

    def _abandon(self, pending: _Pending) -> None:
        """The caller gave up on a job: drop it if queued, stop it if running."""
        if pending in self._queue:
            self._queue.remove(pending)
        elif pending is self._running:
            self._send(("cancel", pending.job.rid))

    def _pump(self) -> None:
        """Start the next job if none runs (the most urgent, `PRIORITY`, and the oldest
        of those); interrupt a running job for a more urgent one."""
        if self._closed or self._child is None:
            return
        running = self._running
        if running is not None:
            rank = PRIORITY[running.job.kind]
            urgent = any(PRIORITY[p.job.kind] < rank for p in self._queue)
            if urgent and not running.preempted:
                running.preempted = True
                self._send(("cancel", running.job.rid))
            return
        if not self._queue:
            return
        pending = min(self._queue, key=lambda p: PRIORITY[p.job.kind])
        self._queue.remove(pending)
        # Each start under a name of its own: the process may still hold a cancel for
        # an interrupted start of the same job.
        self._next_rid += 1
        pending.job = replace(pending.job, rid=self._next_rid)
        pending.preempted = False
        self._running = pending
        self._send(("job", pending.job))

    # Replies, in the event loop.

    def _reply(self, reply: Reply) -> None:
        kind, rid, payload = reply
        running = self._running
        if running is None or running.job.rid != rid:
            return
        if kind == "progress":
            if running.progress is not None and not running.future.done():
                running.progress(payload)
            return
        self._running = None
        if kind == "cancelled":
            if running.preempted and not running.future.done():
                self._queue.insert(0, running)
        elif not running.future.done():
            if kind == "done":
                running.future.set_result(payload)
            else:
                running.future.set_exception(SearchFailed(payload))
        self._pump()

    def _died(self, stderr: str) -> None:
        """The process died: its job runs again in the next one, once."""
        running, self._running = self._running, None
        if running is not None and not running.future.done():
            running.deaths += 1
            if running.deaths >= 2:
                said = f": {stderr.strip().splitlines()[-1]}" if stderr.strip() else ""
                running.future.set_exception(
                    SearchProcessDied(f"the search process died twice running {running.job}{said}")
                )
            else:
                self._queue.insert(0, running)

    async def close(self) -> None:
        """Stop the running search and the process, and wait for it to end; cancel
        every job still waiting."""
        self._closed = True
        for pending in [*self._queue, *([self._running] if self._running else [])]:
            pending.future.cancel()
        self._queue.clear()
        self._running = None
        child, self._child = self._child, None
        if self._serving is not None:
            self._serving.cancel()
        if child is not None:
            await child.stop()
