"""The game's terminal driver: the mouse's buttons as a terminal reports them (only the
left one plays), and a terminal that hangs up.

A terminal reports a mouse's side buttons (back, forward: buttons 8 and 9, and
10 and 11) with SGR codes 128-131. Textual 8.2's parser read 128 as the left
button, so the back button played a square. These tests write the terminal's
reports to the real program in a pseudo-terminal, and read the parser's events.
"""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest
from textual import events
from textual.drivers.linux_driver import LinuxDriver

from tests.support import MAX_QUEUED_WRITES, WriterThread, left_games, make_app
from tests.support.terminal import game_in_a_terminal, wait_until
from ttt_tui.compat.driver import GameDriver, SideButtonParser, SteadyOutput


def sgr(code: int, cell: tuple[int, int], press: bool = True) -> bytes:
    """An SGR mouse report, as a terminal sends it: ``code`` at a screen cell (0-based)."""
    x, y = cell
    return f"\x1b[<{code};{x + 1};{y + 1}{'M' if press else 'm'}".encode()


def click(code: int, cell: tuple[int, int]) -> bytes:
    """A press and a release of one button, in one place."""
    return sgr(code, cell) + sgr(code, cell, press=False)


def find(lines: list[str], words: str) -> tuple[int, int]:
    """The screen cell of the first character of ``words``, on the first line that
    has every one of them (so ``"1 2 3"`` finds the square numbered 1)."""
    for y, line in enumerate(lines):
        if all(word in line for word in words.split()):
            return line.index(words.split()[0]), y
    raise AssertionError(f"{words!r} is not on the screen:\n" + "\n".join(lines))


def test_only_the_left_button_plays_or_picks_in_a_real_terminal(tmp_path: Path) -> None:
    """The side buttons (codes 128-131) on square 1 and on the Hard option do nothing;
    a left click on square 2 then plays there, at the difficulty that was set."""
    terminal = game_in_a_terminal(tmp_path)
    try:
        # The first frame can still be coming in pieces on a busy machine.
        drawn = terminal.wait_for(lambda shown: "q Quit" in "\n".join(shown) and shown)
        assert isinstance(drawn, list), terminal.text()
        square_1, square_2 = find(drawn, "1 2 3"), find(drawn, "2 3")
        hard = find(drawn, "Hard Medium")
        terminal.write(
            b"".join(click(code, square_1) + click(code, hard) for code in range(128, 132))
        )
        terminal.write(click(0, square_2))
        wait_until(lambda: "2. O" in "\n".join(terminal.lines()), "the computer's reply")
        terminal.write(b"q")
        assert terminal.wait_exit(20) == 0
    finally:
        terminal.close()
    [kept] = left_games(tmp_path)  # left with q: kept, to be resumed
    assert kept["moves"][0] == 1  # square 2, not square 1
    assert kept["levels"][:2] == [None, "medium"]


@pytest.mark.parametrize(
    ("report", "kind", "button"),
    [
        ("\x1b[<0;5;3M", events.MouseDown, 1),
        ("\x1b[<2;5;3m", events.MouseUp, 3),
        ("\x1b[<32;5;3M", events.MouseMove, 1),
        ("\x1b[<128;5;3M", events.MouseDown, 8),
        ("\x1b[<128;5;3m", events.MouseUp, 8),
        ("\x1b[<129;5;3M", events.MouseDown, 9),
        ("\x1b[<130;5;3M", events.MouseDown, 10),
        ("\x1b[<131;5;3M", events.MouseDown, 11),
        ("\x1b[<131;5;3m", events.MouseUp, 11),
        ("\x1b[<160;5;3M", events.MouseMove, 8),
    ],
)
def test_the_parser_reads_codes_128_to_131_as_buttons_8_to_11(
    report: str, kind: type[events.MouseEvent], button: int
) -> None:
    """As xterm documents them; the other codes read as Textual reads them."""
    [event] = list(SideButtonParser().feed(report))
    assert type(event) is kind
    assert (event.button, event.x, event.y) == (button, 4, 2)


def test_a_side_button_keeps_its_modifiers() -> None:
    """Shift, Alt (meta) and Ctrl add 4, 8 and 16 to the code, side buttons too."""
    [event] = list(SideButtonParser().feed("\x1b[<157;5;3M"))  # 128 + 16 + 8 + 4 + 1
    assert isinstance(event, events.MouseDown)
    assert (event.button, event.shift, event.meta, event.ctrl) == (9, True, True, True)


def test_the_app_runs_in_a_terminal_through_the_side_button_driver(
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
