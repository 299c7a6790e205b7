"""The command line: bad options, and no terminal to play in."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.terminal import DEADLINE, ROOT, game_env, run_main, ttt

NO_TERMINAL = (
    "ttt-tui: the game needs an interactive terminal, but standard input or output"
    " is not one; for scripts, use `ttt-tui analyze`"
)

DUMB_TERMINAL = (
    "ttt-tui: TERM=dumb cannot show a full-screen game; run it in a terminal"
    " emulator (e.g. TERM=xterm-256color)"
)


def drain(fd: int) -> bytes:
    """Whatever is waiting on a pty master, without blocking."""
    data = b""
    while select.select([fd], [], [], 0)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every slave end is closed.
            break
        if not chunk:
            break
        data += chunk
    return data


USAGE_ERRORS = {
    "unknown-option": (["--bogus"], "unrecognized arguments: --bogus"),
    "difficulty-word": (
        ["--difficulty", "insane"],
        "argument --difficulty: expected one of easy, medium, hard, got 'insane'",
    ),
    "mark-word": (["--mark", "Z"], "argument --mark: expected X or O, got 'Z'"),
    "ai-delay-negative": (
        ["--ai-delay", "-1"],
        "argument --ai-delay: expected a number of seconds (0 to 10), got -1",
    ),
    "ai-delay-nan": (
        ["--ai-delay", "nan"],
        "argument --ai-delay: expected a number of seconds (0 to 10), got nan",
    ),
    "ai-delay-word": (
        ["--ai-delay", "soon"],
        "argument --ai-delay: expected a number of seconds (0 to 10), got 'soon'",
    ),
    "seed-word": (["--seed", "abc"], "argument --seed: invalid int value: 'abc'"),
}

TERMINAL_PROBLEMS = {
    # `ttt-tui < /dev/null`: output is a terminal, input is not.
    "no-terminal-stdin": (False, True, "xterm-256color", NO_TERMINAL),
    # `ttt-tui | cat`: input is a terminal, output is a pipe.
    "no-terminal-stdout": (True, False, "xterm-256color", NO_TERMINAL),
    # Both are a terminal, but one that cannot draw a full-screen app.
    "term-dumb": (True, True, "dumb", DUMB_TERMINAL),
}


@pytest.mark.parametrize(("args", "error"), USAGE_ERRORS.values(), ids=USAGE_ERRORS.keys())
def test_bad_option_is_a_usage_error(tmp_path: Path, args: list[str], error: str) -> None:
    """A usage line and one ``ttt-tui: error:`` line; status 2; nothing starts, nothing is saved."""
    result = ttt(*args, data=tmp_path / "data")
    stderr = result.stderr
    assert result.returncode == 2
    assert result.stdout == ""
    assert stderr.startswith("usage: ttt-tui ")
    assert stderr.splitlines()[-1] == f"ttt-tui: error: {error}"
    assert "Traceback" not in stderr
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    ("stdin_tty", "stdout_tty", "term", "message"),
    TERMINAL_PROBLEMS.values(),
    ids=TERMINAL_PROBLEMS.keys(),
)
def test_no_usable_terminal(
    tmp_path: Path, stdin_tty: bool, stdout_tty: bool, term: str, message: str
) -> None:
    """One line on stderr, status 2, no escape codes sprayed on the terminal, nothing saved."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ttt_tui"],
            stdin=slave if stdin_tty else subprocess.DEVNULL,
            stdout=slave if stdout_tty else subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=game_env(tmp_path / "data", TERM=term),
        )
        try:
            stdout, stderr = proc.communicate(timeout=DEADLINE)
        finally:
            proc.kill()
            proc.wait()
        os.close(slave)
        on_terminal = drain(master)
    finally:
        os.close(master)
    assert proc.returncode == 2
    assert stderr.decode().splitlines() == [message]
    assert (stdout or b"") == b""
    assert b"\x1b[" not in on_terminal
    assert not (tmp_path / "data").exists()


BOT_PROBLEMS = {
    "missing": ([], "--bot", "{dir}/missing.py", "ttt-tui: {dir}/missing.py: no such file"),
    "syntax": (
        [("bot.py", "def choose_move(position)\n")],
        "--bot",
        "{dir}/bot.py",
        "ttt-tui: {dir}/bot.py: a syntax error at line 1: expected ':'",
    ),
    "neither": (
        [("bot.py", "x = 1\n")],
        "--bot",
        "{dir}/bot.py",
        "ttt-tui: {dir}/bot.py could not be loaded: ValueError: {dir}/bot.py defines neither"
        " minimax(board) nor choose_move(position)",
    ),
}


@pytest.mark.parametrize(
    ("files", "option", "value", "error"), BOT_PROBLEMS.values(), ids=BOT_PROBLEMS.keys()
)
def test_a_bot_that_cannot_play_is_one_line_and_status_2(
    tmp_path: Path, files: list[tuple[str, str]], option: str, value: str, error: str
) -> None:
    """Said before anything starts, terminal or not."""
    for name, source in files:
        (tmp_path / name).write_text(source, encoding="utf-8")
    result = run_main(option, value.format(dir=tmp_path), data=tmp_path / "data")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [error.format(dir=tmp_path)]


@pytest.mark.parametrize(
    "command", [["analyze", "X........"], ["check", "--cmd", "cat"], ["review", "--moves", "b2"]]
)
def test_the_bot_options_belong_to_the_game_alone(tmp_path: Path, command: list[str]) -> None:
    result = run_main("--bot-cmd", "cat", *command, data=tmp_path / "data")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "ttt-tui: --bot and --bot-cmd are options of the game itself, not of"
        f" `ttt-tui {command[0]}`\n"
    )
