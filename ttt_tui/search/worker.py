"""The search process: ``python -m ttt_tui.search.worker``, started by `SearchProcess`.

It reads jobs from standard input and writes replies to standard output, each a
tuple in a `ttt_tui.proc.frames.PICKLES` frame, and runs one search at a time
with the engine. A thread of its own reads what the app sends while a search
runs, so a request to give the search up is seen within a few milliseconds: the
search asks `cancelled` every few hundred positions. When its standard input
closes (the app has gone), it ends at once, whatever it was doing.

Only the engine and the framing are imported here, so the process starts quickly.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from ttt_tui.engine import (
    Board,
    Difficulty,
    SearchCancelled,
    analyze,
    choose_move,
)
from ttt_tui.proc.frames import read_pickle, write_pickle

PROGRESS_SECONDS = 0.1
"""Least time between two progress reports sent to the app."""

MOVE = "move"
"""A job for the computer's move."""
ANALYSIS = "analysis"
"""A job for every legal move's value."""
COUNT = "count"
"""A job for the explorer: count one search's work (`ttt_tui.engine.minimax.run_count`)."""


@dataclass(frozen=True, slots=True)
class Job:
    """One search, as the app sends it."""

    rid: int
    """Names the job in the replies; never reused."""
    kind: str
    """`MOVE`, `ANALYSIS` or `COUNT`."""
    board: Board
    difficulty: Difficulty | None = None
    """The level of a move; None for an analysis."""
    seed: int = 0
    """Seeds the move's random choices among equals."""
    search: str = ""
    """For a count, which search (a `ttt_tui.engine.minimax.Search` value)."""


Reply = tuple[str, int, Any]
"""``("progress" | "done" | "cancelled" | "error", rid, payload)``."""


class Listener:
    """Reads what the app sends: jobs go on a queue, a cancel marks its job."""

    def __init__(self, source: IO[bytes]) -> None:
        self.source = source
        self.jobs: queue.Queue[Job] = queue.Queue()
        """Jobs in the order they came."""
        self.cancelled_rid = -1
        """The job the app gave up on last."""

    def run(self) -> None:
        while True:
            try:
                message = read_pickle(self.source)
            except Exception:  # ended, or unreadable: either way the app is gone
                message = None
            if message is None:
                # The app has gone (or said stop): nothing is left to search for, and a
                # search that never asks `cancelled` (a bug) must not outlive it.
                os._exit(0)
            kind, payload = message
            if kind == "cancel":
                self.cancelled_rid = payload
            else:
                self.jobs.put(payload)

    def cancelled(self, rid: int) -> Callable[[], bool]:
        """The cancel check of job ``rid``."""
        return lambda: self.cancelled_rid == rid


def run_job(job: Job, cancelled: Callable[[], bool], send: Callable[[Reply], None]) -> None:
    """Run one job, reporting its progress now and then and its result at the end."""
    last = 0.0

    def progress(report: Any) -> None:
        nonlocal last
        moment = time.monotonic()
        if moment - last >= PROGRESS_SECONDS:
            last = moment
            send(("progress", job.rid, report))

    try:
        if job.kind == MOVE:
            assert job.difficulty is not None
            rng = random.Random(job.seed)
            result: Any = choose_move(job.board, job.difficulty, rng, cancelled, progress)
        elif job.kind == COUNT:
            # Loaded only once the explorer asks: the process starts with the engine alone.
            from ttt_tui.engine.minimax import Search, run_count

            result = run_count(job.board, Search(job.search), cancelled, progress)
        else:
            result = analyze(job.board, cancelled, progress)
    except SearchCancelled:
        send(("cancelled", job.rid, None))
    except Exception:
        send(("error", job.rid, traceback.format_exc()))
    else:
        send(("done", job.rid, result))


def main() -> int:
    """Serve jobs until the app goes; the terminal's interrupt is the app's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    listener = Listener(source)
    threading.Thread(target=listener.run, name="ttt-tui jobs", daemon=True).start()

    def send(reply: Reply) -> None:
        write_pickle(sink, reply)

    while True:
        job = listener.jobs.get()
        try:
            run_job(job, listener.cancelled(job.rid), send)
        except (BrokenPipeError, OSError):
            return 0


if __name__ == "__main__":
    sys.exit(main())
