"""A game killed outright comes back: the real program in a pseudo-terminal, killed with
SIGKILL mid-game, offers the game at its next launch, and ``y`` puts it back as it was.
Two launches at once on one data directory never both offer it."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.support import left_games, records
from tests.support.terminal import (
    Terminal,
    child_pids,
    game_command,
    game_env,
    game_in_a_terminal,
    running,
    wait_until,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads processes from /proc")

QUESTION = "Resume your 4x4 game from"


def killed_mid_game(data: Path) -> None:
    """A 4x4 game: X's b2 and the computer's reply undone, X's c2 and a reply, then
    SIGKILL: no chance to save anything at the end."""
    terminal = game_in_a_terminal(data, "--board", "4")
    search: set[int] = set()
    try:
        terminal.write(b"6")
        assert terminal.wait_for(lambda lines: "2. O " in "\n".join(lines)), terminal.text()
        terminal.write(b"u")  # undone: the redo history must come back too
        assert terminal.wait_for(lambda lines: "r Redo" in "\n".join(lines)), terminal.text()
        terminal.write(b"7")
        assert terminal.wait_for(lambda lines: "1. X c2" in "\n".join(lines)), terminal.text()
        assert terminal.wait_for(lambda lines: "2. O " in "\n".join(lines)), terminal.text()
        search = child_pids(terminal.proc.pid)
        os.kill(terminal.proc.pid, signal.SIGKILL)
        assert terminal.wait_exit(10) == -signal.SIGKILL
    finally:
        terminal.close()
        for pid in filter(running, search):
            os.kill(pid, signal.SIGKILL)


def test_a_game_killed_outright_is_offered_back_and_resumed_exactly(tmp_path: Path) -> None:
    killed_mid_game(tmp_path)
    assert records(tmp_path) == []
    terminal = game_in_a_terminal(tmp_path, ready=QUESTION)
    try:
        terminal.write(b"y")
        assert terminal.wait_for(lambda lines: "Resumed your 4x4 game." in "\n".join(lines)), (
            terminal.text()
        )
        text = terminal.text()
        assert "1. X c2" in text and "2. O " in text, text
        assert "4x4, four in a row" in text, text
        terminal.write(b"q")
        assert terminal.wait_exit(10) == 0
    finally:
        terminal.close()
    # Left again with q: kept, one game, its moves as they were, nothing recorded.
    assert records(tmp_path) == []
    [kept] = left_games(tmp_path)
    assert kept["moves"][0] == 6 and len(kept["moves"]) == 2
    assert kept["undo_used"] is True


@pytest.mark.long
def test_n_records_the_left_game_as_abandoned(tmp_path: Path) -> None:
    killed_mid_game(tmp_path)
    terminal = game_in_a_terminal(tmp_path, ready=QUESTION)
    try:
        terminal.write(b"n")
        assert terminal.wait_for(lambda lines: QUESTION not in "\n".join(lines))
        assert "1. X" not in terminal.text()
        terminal.write(b"q")
        assert terminal.wait_exit(10) == 0
    finally:
        terminal.close()
    [record] = records(tmp_path)
    assert (record["n"], record["moves"][0], record["result"]) == (4, 6, "abandoned")
    assert left_games(tmp_path) == []


@pytest.mark.long
def test_two_launches_at_once_never_both_offer_the_game(tmp_path: Path) -> None:
    killed_mid_game(tmp_path)
    command = game_command("--ai-delay", "0", "--seed", "7")
    first = Terminal(command, game_env(tmp_path), (100, 30))
    second = Terminal(command, game_env(tmp_path), (100, 30))
    try:
        for terminal in (first, second):
            assert terminal.wait_for(lambda lines: "Your move" in "\n".join(lines)), terminal.text()
        wait_until(lambda: QUESTION in first.text() + second.text(), "one to offer the game")
        # Both have read the database by now: the saver claims before it does anything else.
        asked = [terminal for terminal in (first, second) if QUESTION in terminal.text()]
        assert len(asked) == 1
        for terminal in (first, second):
            terminal.write(b"q")
            assert terminal.wait_exit(10) == 0
    finally:
        first.close()
        second.close()
    # The one that asked was left unanswered: the game is there to be offered again.
    [kept] = left_games(tmp_path)
    assert kept["moves"][0] == 6
