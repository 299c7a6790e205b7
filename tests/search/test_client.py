"""The search process: results as the engine's own, cancelling, a move before an analysis,
progress, a killed process replaced, and a clean end."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import SIZE, Notes, looks, make_app
from tests.support.terminal import ROOT
from ttt_tui.engine import Board, Difficulty, Progress, analyze, choose_move
from ttt_tui.play.session import Work
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.proc.frames import write_pickle
from ttt_tui.screens.game import GameScreen
from ttt_tui.search.client import SearchProcess, SearchProcessDied
from ttt_tui.search.worker import MOVE, Job

LONG = Board.parse(".......O......X.......X..")
"""A 5x5 position whose full analysis takes seconds in a fresh process: long enough
to be cancelled, preempted or killed while it runs."""
MEDIUM = Board.parse("..X.......XO.........XO..")
"""A 5x5 position analysed in about a second from cold."""


async def running(searcher: SearchProcess, reports: list[Progress]) -> None:
    """Wait until the search in flight has reported progress (so it is running)."""
    for _ in range(3000):
        if reports:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the search never reported progress")


async def test_results_are_the_engine_s_own(searcher: SearchProcess) -> None:
    for board in (Board.parse("X...O...."), Board.parse("X....O........X."), MEDIUM):
        assert await searcher.analyze(board, None) == analyze(board)
        for difficulty in Difficulty:
            move = await searcher.choose_move(board, difficulty, 7, None)
            assert move == choose_move(board, difficulty, random.Random(7))


async def test_another_ttt_tui_in_the_current_folder_is_not_the_one_searching(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from a folder holding another copy's ``ttt_tui`` (a clone, say), the search
    process still runs the game's own code, not that folder's."""
    worker = tmp_path / "ttt_tui" / "search" / "worker.py"
    worker.parent.mkdir(parents=True)
    for package in (tmp_path / "ttt_tui", worker.parent):
        (package / "__init__.py").write_text("")
    worker.write_text("import sys\nsys.exit('the wrong ttt_tui')\n")
    monkeypatch.chdir(tmp_path)
    process = SearchProcess()
    process.start()
    try:
        board = Board.parse("X...O....")
        assert await asyncio.wait_for(process.analyze(board, None), 30) == analyze(board)
    finally:
        await process.close()


async def test_a_search_given_up_on_stops_and_the_next_runs(searcher: SearchProcess) -> None:
    reports: list[Progress] = []
    task = asyncio.create_task(searcher.analyze(LONG, reports.append))
    await running(searcher, reports)
    pid = searcher.pid
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The process gave the search up (it would take seconds more) and is free at once.
    board = Board.parse("XO.......")
    assert await asyncio.wait_for(searcher.analyze(board, None), 10) == analyze(board)
    assert searcher.pid == pid  # the same process: stopped, not killed


async def test_a_move_goes_before_a_running_analysis_which_then_finishes(
    searcher: SearchProcess,
) -> None:
    reports: list[Progress] = []
    analysis = asyncio.create_task(searcher.analyze(MEDIUM, reports.append))
    await running(searcher, reports)
    move = await searcher.choose_move(Board.parse("X...O...."), Difficulty.HARD, 3, None)
    assert move == choose_move(Board.parse("X...O...."), Difficulty.HARD, random.Random(3))
    assert not analysis.done()  # interrupted for the move, then started again
    assert await asyncio.wait_for(analysis, 60) == analyze(MEDIUM)


async def test_progress_names_time_positions_and_stage(searcher: SearchProcess) -> None:
    reports: list[Progress] = []
    task = asyncio.create_task(searcher.analyze(LONG, reports.append))
    await running(searcher, reports)
    for _ in range(3000):  # a second report, with more positions
        if reports[-1].nodes > reports[0].nodes:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(reports) >= 2
    assert all(isinstance(report, Progress) and report.stage for report in reports)
    assert reports[-1].nodes > reports[0].nodes
    assert reports[-1].elapsed > reports[0].elapsed


async def test_a_killed_process_is_replaced_and_its_search_runs_again() -> None:
    restarts: list[int] = []
    searcher = SearchProcess(on_restart=lambda: restarts.append(1))
    searcher.start()
    try:
        reports: list[Progress] = []
        task = asyncio.create_task(searcher.analyze(MEDIUM, reports.append))
        await running(searcher, reports)
        first = searcher.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        assert await asyncio.wait_for(task, 60) == analyze(MEDIUM)
        assert restarts == [1]
        assert searcher.pid not in (None, first)
    finally:
        await searcher.close()


async def test_a_search_that_kills_two_processes_fails_instead_of_hanging() -> None:
    searcher = SearchProcess()
    searcher.start()
    try:
        reports: list[Progress] = []
        task = asyncio.create_task(searcher.analyze(LONG, reports.append))
        for _ in range(2):
            await running(searcher, reports)
            reports.clear()
            pid = searcher.pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(SearchProcessDied, match="died twice"):
            await asyncio.wait_for(task, 30)
        # Later searches have a process again.
        assert await searcher.choose_move(Board.empty(), Difficulty.EASY, 1, None) in range(9)
    finally:
        await searcher.close()


async def test_close_ends_the_process_and_the_searches_waiting() -> None:
    searcher = SearchProcess()
    searcher.start()
    reports: list[Progress] = []
    task = asyncio.create_task(searcher.analyze(LONG, reports.append))
    waiting = asyncio.create_task(searcher.analyze(MEDIUM, None))  # queued behind it
    await running(searcher, reports)
    pid = searcher.pid
    assert pid is not None
    await searcher.close()
    for pending in (task, waiting):
        with pytest.raises(asyncio.CancelledError):
            await pending
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_the_app_goes_on_when_its_search_process_is_killed_mid_search() -> None:
    """Killed while the coach works on a long 5x5 position: a new process takes over and
    goes on with it, the person is told once, and play goes on."""
    settings = Settings(mode=Mode.TWO_PLAYERS, board=BoardSize.FIVE, coach=True)
    app = make_app(settings=settings, seed=1, search_process=True)
    notes = Notes(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert isinstance(app.searcher, SearchProcess)
        for keys in (("1", "5"), ("8",), ("2", "3")):  # X c3, O c2, X c5
            await pilot.press(*keys)
        await pilot.pause()
        assert screen.session.game.board == LONG
        for _ in range(3000):
            if Work.ANALYSIS in screen.session.progress:
                break
            await pilot.pause(0.01)
        first = app.searcher.pid
        assert first is not None and any(look.pending for look in looks(pilot))
        os.kill(first, signal.SIGKILL)
        for _ in range(3000):
            if notes.messages and Work.ANALYSIS in screen.session.progress:
                break
            await pilot.pause(0.01)
        assert app.searcher.pid not in (None, first)
        assert notes.messages == [
            "The search process stopped; a new one has taken over and the game goes on."
        ]
        screen.session.progress.clear()
        for _ in range(3000):  # the new process works on it, and says so
            if Work.ANALYSIS in screen.session.progress:
                break
            await pilot.pause(0.01)
        assert Work.ANALYSIS in screen.session.progress
        await pilot.press("c", "1", "2")  # coach off; O b3
        await pilot.pause()
        assert screen.session.game.moves == [14, 7, 22, 11]
        assert notes.messages[1:] == ["Coach off"]


def test_the_search_process_ends_when_the_app_goes_even_mid_search() -> None:
    """A search that never asks whether it was given up on (a bug) cannot outlive the
    app: the process ends once its standard input closes."""
    stuck = (
        "import sys, time\n"
        "import ttt_tui.search.worker as worker\n"
        "worker.run_job = lambda job, cancelled, send: time.sleep(60)\n"
        "sys.exit(worker.main())\n"
    )
    process = subprocess.Popen([sys.executable, "-c", stuck], stdin=subprocess.PIPE, cwd=ROOT)
    assert process.stdin is not None
    write_pickle(process.stdin, ("job", Job(1, MOVE, Board.empty(3), Difficulty.HARD)))
    time.sleep(0.3)
    assert process.poll() is None  # searching
    process.stdin.close()
    assert process.wait(timeout=10) == 0
