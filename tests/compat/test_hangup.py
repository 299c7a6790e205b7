"""`HangupWatch` and `hung_up`: a pipe's writer or a terminal going is noticed, once;
`LastResort`: a process that outlives its terminal by too long ends."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from tests.support.terminal import ROOT, game_env
from ttt_tui.compat.hangup import HangupWatch, can_watch, hung_up

pytestmark = pytest.mark.skipif(not can_watch(), reason="poll() is POSIX")

WAIT = 10.0
"""Seconds a hang-up may take to be noticed on a busy machine."""


def watch(fd: int) -> tuple[HangupWatch, threading.Event, list[int]]:
    """A started watch on ``fd``, the event it sets and the count of its calls."""
    noticed, calls = threading.Event(), [0]

    def on_hangup() -> None:
        calls[0] += 1
        noticed.set()

    hangup = HangupWatch(fd, on_hangup)
    hangup.start()
    return hangup, noticed, calls


def test_the_writer_of_a_pipe_going_is_noticed_once() -> None:
    read_end, write_end = os.pipe()
    hangup, noticed, calls = watch(read_end)
    try:
        os.write(write_end, b"input is not a hang-up")
        assert not noticed.wait(0.2)
        os.close(write_end)
        assert noticed.wait(WAIT)
    finally:
        hangup.close()
        os.close(read_end)
    assert calls == [1]
    assert not hangup._thread.is_alive()


def test_a_terminal_closing_is_noticed() -> None:
    master, slave = os.openpty()
    hangup, noticed, _ = watch(slave)
    try:
        assert not hung_up(slave)
        os.close(master)
        assert noticed.wait(WAIT)
        assert hung_up(slave)
    finally:
        hangup.close()
        os.close(slave)


def test_closing_the_watch_stops_it_without_a_call_and_twice_is_harmless() -> None:
    read_end, write_end = os.pipe()
    hangup, noticed, calls = watch(read_end)
    hangup.close()
    hangup.close()
    assert not hangup._thread.is_alive()
    os.close(write_end)
    os.close(read_end)
    assert not noticed.wait(0.2)
    assert calls == [0]


def test_a_pipe_whose_reader_has_gone_is_hung_up() -> None:
    read_end, write_end = os.pipe()
    assert not hung_up(write_end)
    os.close(read_end)
    try:
        assert hung_up(write_end)
    finally:
        os.close(write_end)


def last_resort(then: str) -> subprocess.CompletedProcess[str]:
    """A Python process that arms a `LastResort` (0.3 s, status 77), twice, then runs
    ``then``."""
    code = "\n".join(
        [
            "import time",
            "from ttt_tui.compat.hangup import LastResort",
            "last = LastResort(0.3, 77)",
            "last.arm()",
            "last.arm()",
            then,
        ]
    )
    return subprocess.run(
        [sys.executable, "-c", code], env=game_env(), cwd=ROOT, timeout=20, text=True
    )


def test_the_last_resort_ends_a_process_that_outlives_it() -> None:
    """Whatever holds a game up once its terminal has gone (a shutdown stuck for ever,
    as one was in Textual's), the process ends."""
    started = time.monotonic()
    assert last_resort("time.sleep(60)").returncode == 77
    assert time.monotonic() - started < 15


def test_the_last_resort_does_not_hold_up_a_process_that_ends() -> None:
    assert last_resort("print('done')").returncode == 0
