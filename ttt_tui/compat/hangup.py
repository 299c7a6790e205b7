"""Noticing that whatever feeds the game its input has gone.

A terminal that closes sends SIGHUP to the programs it controls, and the app ends
on that as on ``q``. But a game can lose its terminal with no signal: one started
in a pseudo-terminal that is not its controlling terminal (by an editor, a test
harness or a remote-session tool), or its signal ignored. Under `ttt-tui serve` a
game's input is a pipe from the server, and a server killed outright sends
nothing either. Textual 8.2 goes on running in both cases, its terminal reader
busy-looping on end-of-file (Textualize/textual#6690), for ever. `HangupWatch`
tells the app instead.

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`). Can go when Textual's
drivers end the app at end-of-file on their input (the fix proposed in
Textualize/textual#6690, open at 8.2.8); it relies on nothing private.

Once the terminal or the server has gone, `LastResort` ends the process a few
seconds later if it is still running, whatever held it up: a game nobody can see
must not outlive its terminal (one did, stuck in Textual's shutdown; see
`ttt_tui.compat.driver`). Its normal way out takes well under a second.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Callable

from ttt_tui.compat import Private

RELIES_ON: tuple[Private, ...] = ()
"""Nothing of Textual's: the watch is poll() on the app's input, beside Textual's reader."""


HANGUP = select.POLLHUP | select.POLLERR | select.POLLNVAL if hasattr(select, "poll") else 0
"""What poll() reports when the far end has gone, asked for or not."""


def discard_output() -> None:
    """Point standard output and error at the null device: with the terminal or the
    server gone, nothing written there is read, and the writes would fail (Textual's
    web driver writes its goodbye on the way out, and a broken pipe is no crash)."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            os.dup2(null, fd)
    finally:
        os.close(null)


def hung_up(fd: int) -> bool:
    """Whether the far end of ``fd`` has gone: the terminal closed, or the reader (or
    writer) of a pipe ended. Asks without waiting."""
    poller = select.poll()
    poller.register(fd, 0)
    return any(events & HANGUP for _, events in poller.poll(0))


def can_watch() -> bool:
    """Whether this platform has poll() (not Windows)."""
    return hasattr(select, "poll")


class HangupWatch:
    """Calls ``on_hangup`` once, from a thread of its own, when the other end of ``fd``
    hangs up: the terminal closes, or the writer of a pipe goes.

    The thread sleeps in poll() asking for no events at all, so it wakes only for a
    hang-up (which poll() always reports) or for `close`; it never reads ``fd``,
    which stays the app's to read.
    """

    def __init__(self, fd: int, on_hangup: Callable[[], None]) -> None:
        self._fd = fd
        self._on_hangup = on_hangup
        self._wake_read, self._wake_write = os.pipe()
        self._thread = threading.Thread(target=self._watch, name="ttt-tui hangup", daemon=True)

    def start(self) -> None:
        """Start watching."""
        self._thread.start()

    def _watch(self) -> None:
        poller = select.poll()
        poller.register(self._fd, 0)
        poller.register(self._wake_read, select.POLLIN)
        while True:
            for fd, events in poller.poll():
                if fd == self._wake_read:
                    return
                if events & HANGUP:
                    self._on_hangup()
                    return

    def close(self) -> None:
        """Stop watching (idempotent); ``on_hangup`` is not called after this returns."""
        if self._wake_write < 0:
            return
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"\0")
        if self._thread.is_alive():
            self._thread.join()
        os.close(self._wake_read)
        os.close(self._wake_write)
        self._wake_read = self._wake_write = -1


class LastResort:
    """Ends the process with ``status`` ``seconds`` after `arm`, if it is still running
    then; from a daemon thread, so a process that ends first is not held up by it."""

    def __init__(self, seconds: float, status: int) -> None:
        self.seconds = seconds
        self.status = status
        self._armed = threading.Lock()

    def arm(self) -> None:
        """Start the countdown; once only, however often and from whichever thread."""
        if self._armed.acquire(blocking=False):
            threading.Thread(target=self._run, name="ttt-tui last resort", daemon=True).start()

    def _run(self) -> None:
        time.sleep(self.seconds)
        os._exit(self.status)
