"""Real terminals in tmux, for the tests of online play: a tmux server of the test's own
(``-L``), so the person's tmux is never touched, one window a program."""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.terminal import ROOT, game_command, game_env

DEADLINE = 20.0
"""Seconds a screen has to show what is waited for."""


class Tmux:
    """A tmux server of the test's own, one window a program."""

    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.name, *args], capture_output=True, text=True, timeout=10
        )
        return done.stdout

    def start(self, window: str, data: Path, *args: str) -> None:
        """Start ``ttt-tui ARGS`` in a window of its own, 100x30, with ``data`` as its
        data directory; the window stays once the program ends, to read its last words."""
        env = game_env(data)
        keep = ("PATH", "PYTHONPATH", "TTT_TUI_DATA_DIR", "TERM", "HOME")
        words = [f"{key}={env[key]}" for key in keep if key in env]
        command = shlex.join(["env", *words, *game_command(*args)])
        shell = f"cd {shlex.quote(str(ROOT))} && {command}; echo EXIT=$?; sleep 60"
        if not self.run("list-sessions").strip():
            self.run("new-session", "-d", "-s", "t", "-n", window, "-x", "100", "-y", "30", shell)
        else:
            self.run("new-window", "-d", "-t", "t", "-n", window, shell)
        self.run("set-option", "-t", "t", "remain-on-exit", "on")

    def screen(self, window: str) -> str:
        return self.run("capture-pane", "-p", "-t", f"t:{window}")

    def keys(self, window: str, *keys: str) -> None:
        self.run("send-keys", "-t", f"t:{window}", *keys)

    def kill(self, window: str) -> None:
        self.run("kill-window", "-t", f"t:{window}")

    def wait_for(self, window: str, text: str) -> str:
        """The window's screen once it shows ``text``; fails naming what it showed."""
        end = time.monotonic() + DEADLINE
        shown = ""
        while time.monotonic() < end:
            shown = self.screen(window)
            if text in " ".join(shown.split()):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{window} never showed {text!r}; it showed:\n{shown}")


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    server = Tmux(f"ttt-online-{os.getpid()}-{time.monotonic_ns()}")
    yield server
    server.run("kill-server")
