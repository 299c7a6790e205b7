"""Textual's terminal driver, ending cleanly when its terminal hangs up.

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

**The hang-up.** A terminal that closes (a window, a tmux pane killed) is hung up by
the system, which sends the program SIGHUP and then SIGCONT. A bare Textual app dies
of the SIGHUP; ttt-tui catches it to record the game and end cleanly, and so lives
to receive the SIGCONT. Textual's driver takes SIGCONT as the end of a ctrl+z
suspension and, from the signal handler, starts application mode again
(``LinuxDriver._sigcont_application``): a second output thread and a second input
thread, on a terminal that is gone. The new output thread dies of the error its
first write raises (EIO), and from then on nothing empties its queue: once thirty
writes are queued the next one waits for ever, and shutdown always makes one more
(the stop sentinel of ``WriterThread.stop``). In a real terminal closed in the
middle of a burst of keys, 2 to 3 runs in 40 hung so, in ``App._shutdown`` ->
``LinuxDriver.close`` -> ``WriterThread.stop`` -> ``Queue.put``, with the first
output thread idle beside it. `GameDriver` resumes nothing on a terminal that has
hung up, and writes through `SteadyOutput`, which drops what a gone terminal cannot
take instead of raising, so no output thread dies of it. No upstream report was
found. Can go when Textual's driver neither resumes on a hung-up terminal nor
loses its output thread to a write error: `tests/terminal/test_exits.py` closes a
real controlling terminal under a burst of keys, many times.
"""

from __future__ import annotations

from typing import IO, Any

from textual.drivers.linux_driver import LinuxDriver

from ttt_tui.compat import Private
from ttt_tui.compat.hangup import hung_up

RELIES_ON = (
    # The output thread writes to the driver's file, and SIGCONT resumes.
    Private("textual.drivers.linux_driver.LinuxDriver.__init__", attributes=("_file",)),
    Private("textual.drivers._writer_thread.WriterThread.run", source="314021aab4f5"),
    Private("textual.drivers.linux_driver.LinuxDriver._sigcont_application", source="1d7463a74df1"),
)
"""What of Textual's this module depends on, as it was checked."""


class SteadyOutput:
    """The terminal's output as Textual's output thread writes it, except that a write
    or flush the terminal refuses (it has gone: EIO) drops the text instead of
    raising, and so does every later one: the thread lives on, emptying its queue."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self.gone = False
        """Whether a write has failed; nothing is written after that."""

    def write(self, text: str) -> None:
        if not self.gone:
            try:
                self._file.write(text)
            except OSError:
                self.gone = True

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except OSError:
                self.gone = True

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()


class GameDriver(LinuxDriver):
    """Textual's Linux and macOS terminal driver, writing through `SteadyOutput`, and
    resuming nothing (on a SIGCONT) once its terminal has hung up."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._file is not None:
            # Textual types it as the standard error it starts as.
            self._file = SteadyOutput(self._file)  # type: ignore[assignment]

    def resume_application_mode(self) -> None:
        """Start application mode again after a suspension, unless the terminal has
        hung up: then the SIGCONT that calls this came with its SIGHUP, and the app is
        ending."""
        if hung_up(self.fileno):
            return
        super().resume_application_mode()
