"""The game's terminal driver: a terminal that hangs up."""

from __future__ import annotations

import errno
import os
import threading

import pytest
from textual.drivers.linux_driver import LinuxDriver

from tests.support import MAX_QUEUED_WRITES, WriterThread, make_app
from ttt_tui.compat.driver import GameDriver, SteadyOutput


def test_the_app_runs_in_a_terminal_through_the_game_s_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where Textual would pick its Linux driver; a driver named in TEXTUAL_DRIVER
    (as textual-serve names its web driver) stands."""
    monkeypatch.setattr("textual.constants.DRIVER", None)
    assert issubclass(GameDriver, LinuxDriver)
    assert make_app().get_driver_class() is GameDriver
    monkeypatch.setattr("textual.constants.DRIVER", "textual.drivers.web_driver:WebDriver")
    assert make_app().get_driver_class().__name__ == "WebDriver"


# The hang-up ---------------------------------------------------------------------------------


class Refusing:
    """A terminal that has gone: every write and flush raises EIO, as a hung-up one's do."""

    def write(self, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")

    def flush(self) -> None:
        raise OSError(errno.EIO, "Input/output error")

    def fileno(self) -> int:
        return 2

    def isatty(self) -> bool:
        return True


def test_an_output_thread_writing_to_a_gone_terminal_lives_on() -> None:
    """Textual's output thread died of its first failed write, and from then on nothing
    emptied its queue: thirty writes later the next one, or stop(), waited for ever.
    Through `SteadyOutput` it drops the text and goes on emptying the queue."""
    output = SteadyOutput(Refusing())  # type: ignore[arg-type]
    writer = WriterThread(output)  # type: ignore[arg-type]
    writer.start()
    done = threading.Event()

    def write_then_stop() -> None:
        for _ in range(10 * MAX_QUEUED_WRITES):
            writer.write("a frame")
        writer.stop()
        done.set()

    threading.Thread(target=write_then_stop, daemon=True).start()
    assert done.wait(10), "the writes blocked: the output thread had died"
    assert output.gone and not writer.is_alive()


async def test_a_sigcont_on_a_hung_up_terminal_resumes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The system sends SIGCONT with a hang-up's SIGHUP, and Textual's driver took it for
    the end of a ctrl+z: it started application mode again, a second output thread
    among it, on the terminal that had gone (which the next write killed). A SIGCONT
    after a real suspension still resumes."""
    resumed: list[int] = []
    monkeypatch.setattr(LinuxDriver, "start_application_mode", lambda self: resumed.append(1))
    driver = GameDriver(make_app())
    master, slave = os.openpty()
    try:
        driver.fileno = slave
        driver.resume_application_mode()
        assert resumed == [1]  # the terminal is there: a suspension ending
        os.close(master)
        driver.resume_application_mode()
        assert resumed == [1]
    finally:
        os.close(slave)
