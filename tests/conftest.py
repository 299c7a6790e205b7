"""Shared by every test: the user's data directory and terminal settings stay out of it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.environment import LONG, plain_environment
from ttt_tui.widgets import board as board_widget


def pytest_configure(config: pytest.Config) -> None:
    """The caller's terminal settings go for the whole run, subprocesses included.

    Textual reads a few ``TEXTUAL_*`` settings once, when it is first imported,
    which pytest-textual-snapshot does before this file is read; the xdist
    workers start after this and import it afresh, so they never see them.
    """
    plain_environment(os.environ.__setitem__, os.environ.__delitem__)


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point ttt-tui's storage at a fresh directory, so settings and stats never leak."""
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "ttt-tui-data"))


@pytest.fixture(autouse=True)
def _patient_typing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typed two-digit squares whatever the machine's load: the board waits a second
    for a second digit, and on a busy machine the pause between `pilot.press`'s
    two keys can outlast it, the first digit alone then playing nothing. The one test
    about the wait running out sets a short one; the terminal fuzz runs the app as
    it is."""
    monkeypatch.setattr(board_widget, "TYPING_SECONDS", 60.0)


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same terminal for every test: no NO_COLOR, no forced colours or size, no
    Textual switches, TERM an ordinary terminal, however an earlier test left them.
    A test about one of them (`test_no_color`) sets it itself."""
    plain_environment(monkeypatch.setenv, monkeypatch.delenv)


LONGEST_FIRST = ("tests/ui/test_fuzz.py", "tests/terminal/test_fuzz.py", "tests/ui/test_races.py")

IN_PROCESSES = ("tests/terminal/", "tests/serve/test_serve.py", "tests/tools/")
"""Tests that start the game (and its search process) as processes of their own: the
real program in a pseudo-terminal, `ttt-tui serve` and its tabs' games, the benchmarks.
They run in the long run (``.ci/run``), all but the real-terminal fuzz's one short seed,
which the default run keeps. (The browser and load tests have switches of their own.)"""
"""Modules whose tests take the longest (tens of seconds each): started first, so that
with xdist no worker is left running one of them alone at the end of the run."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Those modules first, in that order; the rest in collection order (the sort is
    stable). The tests marked ``long``, and those `IN_PROCESSES`, are skipped unless
    ``TTT_LONG=1``."""

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)
    for item in items:
        path = item.nodeid.split("::")[0]
        if path.startswith(IN_PROCESSES) and path != "tests/terminal/test_fuzz.py":
            item.add_marker(pytest.mark.long)
    if not LONG:
        skip = pytest.mark.skip(reason="a long run: set TTT_LONG=1 (.ci/run does)")
        for item in items:
            if item.get_closest_marker("long"):
                item.add_marker(skip)
