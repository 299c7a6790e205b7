"""`ttt-tui --bot` in a real terminal: the bot plays the computer's moves, and leaves
with the game, however the game ends, even while it is still thinking."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.support import left_games
from tests.support.terminal import ROOT, child_pids, game_in_a_terminal, running, wait_until

DEADLINE = 20.0
"""Seconds the real program may take to end once told, before the test fails."""

EXAMPLE = ROOT / "examples" / "bots" / "choose_move.py"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads processes from /proc")


def descendants(pid: int) -> set[int]:
    """Every running process under ``pid``: its children, theirs, and so on."""
    found, todo = set(), [pid]
    while todo:
        children = child_pids(todo.pop())
        found |= children
        todo.extend(children)
    return found


def test_the_bot_plays_in_a_real_terminal_and_ends_with_the_game(tmp_path: Path) -> None:
    terminal = game_in_a_terminal(tmp_path, "--bot", str(EXAMPLE))
    left: set[int] = set()
    try:
        assert "tic-tac-toe vs your bot" in terminal.text()
        terminal.write(b"5")
        wait_until(lambda: "2. O " in terminal.text(), "the bot's move to show")
        left = descendants(terminal.proc.pid)
        # The search process and the bot, in its jail where bubblewrap runs (bwrap, the
        # namespace's first process, then the bot).
        assert len(left) in (2, 4), left
        terminal.write(b"q")
        assert terminal.wait_exit(DEADLINE) == 0
        wait_until(lambda: not any(map(running, left)), "the bot and the search to end")
    finally:
        terminal.close()
        for pid in filter(running, left):  # in sessions of their own: close() misses them
            os.kill(pid, signal.SIGKILL)
    # Left with q, the game is kept to be resumed, the bot's move with its level.
    [kept] = left_games(tmp_path)
    assert kept["levels"] == [None, "bot"]


def test_a_bot_still_thinking_when_the_terminal_closes_is_stopped(tmp_path: Path) -> None:
    hanging = tmp_path / "hanging.py"
    hanging.write_text("def choose_move(position):\n    while True:\n        pass\n")
    terminal = game_in_a_terminal(tmp_path, "--bot", str(hanging), "--bot-timeout", "60")
    left: set[int] = set()
    try:
        terminal.write(b"5")
        wait_until(lambda: "Thinking… (Your bot)" in terminal.text(), "the bot to think")
        # Slow is not wrong: the bot is waited for, the status saying for how long.
        wait_until(lambda: "Your bot is thinking… " in terminal.text(), "the time it takes")
        left = descendants(terminal.proc.pid)
        os.kill(terminal.proc.pid, signal.SIGHUP)
        assert terminal.wait_exit(DEADLINE) == 128 + signal.SIGHUP
        wait_until(lambda: not any(map(running, left)), "the bot and the search to end", 5)
    finally:
        terminal.close()
        for pid in filter(running, left):
            os.kill(pid, signal.SIGKILL)
