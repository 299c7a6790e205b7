"""The explorer's counts in the search process: the same as in this process, behind the
computer's moves and the analyses, cancellable, with progress."""

from __future__ import annotations

import asyncio

import pytest

from ttt_tui.engine import Board, Difficulty, analyze
from ttt_tui.engine.minimax import CountProgress, Search, run_count
from ttt_tui.search.client import SearchProcess, ThreadSearcher

LONG_COUNT = Board.parse("X...O......X....")
"""A 4x4 position plain minimax cannot finish: it counts to its budget, seconds of work."""


async def reported(reports: list[CountProgress]) -> None:
    """Wait until a count has reported progress (so it is running)."""
    for _ in range(3000):
        if reports:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the count never reported progress")


async def test_counts_are_the_same_as_in_this_process(searcher: SearchProcess) -> None:
    board = Board.parse("X...O....")
    for search in Search:
        found = await searcher.count(board, search, None)
        here = run_count(board, search)
        assert (found.nodes, found.cuts, found.verdict, found.finished) == (
            here.nodes,
            here.cuts,
            here.verdict,
            here.finished,
        )


async def test_a_move_and_an_analysis_go_before_a_running_count(searcher: SearchProcess) -> None:
    reports: list[CountProgress] = []
    count = asyncio.create_task(searcher.count(LONG_COUNT, Search.MINIMAX, reports.append))
    await reported(reports)
    board = Board.parse("X...O......X....")
    assert await asyncio.wait_for(searcher.analyze(board, None), 30) == analyze(board)
    move = await asyncio.wait_for(
        searcher.choose_move(Board.parse("X...O...."), Difficulty.HARD, 1, None), 30
    )
    assert move in analyze(Board.parse("X...O....")).best
    assert not count.done()  # interrupted, and started again after them
    count.cancel()
    with pytest.raises(asyncio.CancelledError):
        await count
    # Given up: the process is free for the next search at once.
    small = Board.parse("XO.......")
    found = await asyncio.wait_for(searcher.count(small, Search.ALPHA_BETA, None), 30)
    assert found.nodes == run_count(small, Search.ALPHA_BETA).nodes


async def test_a_count_reports_progress_in_the_event_loop(searcher: SearchProcess) -> None:
    reports: list[CountProgress] = []
    count = asyncio.create_task(searcher.count(LONG_COUNT, Search.ALPHA_BETA, reports.append))
    await reported(reports)
    count.cancel()
    with pytest.raises(asyncio.CancelledError):
        await count
    assert reports[0].search is Search.ALPHA_BETA
    assert reports[0].root_moves == 13 and reports[0].nodes > 0


async def test_a_thread_searcher_counts_and_passes_progress_on() -> None:
    reports: list[CountProgress] = []
    loop = asyncio.get_running_loop()

    seen_in: list[asyncio.AbstractEventLoop] = []

    def record(report: CountProgress) -> None:
        seen_in.append(asyncio.get_running_loop())
        reports.append(report)

    searcher = ThreadSearcher()
    found = await searcher.count(Board.parse("X........"), Search.MINIMAX, record)
    assert found.nodes == 59_705
    assert reports and all(seen is loop for seen in seen_in)
