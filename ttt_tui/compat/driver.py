"""Textual's terminal driver, reading the mouse's side buttons as what they are, and
ending cleanly when its terminal hangs up.

Checked with Textual 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

**The side buttons.** A terminal reports buttons 8-11 (a mouse's back and forward
buttons, and two more) with SGR codes 128-131, the codes of buttons 1-4 plus 128.
Textual 8.2's parser (``XTermParser.parse_mouse_code``) keeps only the low two bits,
so the back button arrives as the left button (``button == 1``), 9 and 10 as the
middle and right buttons, and 11 as a mere move. Nothing else in the event differs:
the position, the modifiers and the press-release pairing are those of a left
click, and Textual makes a `Click` of it. So no widget can tell them apart, and the
difference is read where the code still is, in the parser: `SideButtonParser`
reads 128-131 as buttons 8-11, which nothing in the game acts on.
`GameDriver.run_input_thread` is a copy of Textual's with only the parser changed,
so it is checked against the source it was copied from (``RELIES_ON``). No upstream
report was found. Can go when Textual's parser reads buttons 8-11 (codes 128-131)
as xterm documents them: `tests/compat/test_driver.py` feeds it the side buttons'
codes.

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

import contextlib
import os
import re
import selectors
from codecs import getincrementaldecoder
from typing import IO, Any

from textual import events
from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from ttt_tui.compat import Private
from ttt_tui.compat.hangup import hung_up

RELIES_ON = (
    Private("textual._loop.loop_last"),
    Private("textual._parser.ParseError"),
    Private(
        "textual._xterm_parser.XTermParser.parse_mouse_code",
        "(self, code: 'str') -> 'Message | None'",
    ),
    Private("textual._xterm_parser.XTermParser.feed", "(self, data: 'str') -> 'Iterable[Message]'"),
    Private("textual._xterm_parser.XTermParser.tick", "(self) -> 'Iterable[T]'"),
    Private("textual.drivers.linux_driver.LinuxDriver.run_input_thread", source="d796af6d69db"),
    Private("textual.driver.Driver.__init__", attributes=("_debug",)),
    # The output thread writes to the driver's file, and SIGCONT resumes.
    Private("textual.drivers.linux_driver.LinuxDriver.__init__", attributes=("_file",)),
    Private("textual.drivers._writer_thread.WriterThread.run", source="314021aab4f5"),
    Private("textual.drivers.linux_driver.LinuxDriver._sigcont_application", source="1d7463a74df1"),
)
"""What of Textual's this module depends on, as it was checked."""

SIDE_BUTTON = 128
"""Added to an SGR button code for buttons 8-11."""
WHEEL = 64
"""Added to an SGR button code for the wheel (buttons 4-7)."""
LOW_BITS = 3
"""Which of the buttons of a group (1-3, 4-7 or 8-11) the code names."""

SGR_REPORT = re.compile(r"(\x1b\[<)(\d+)(;.*)", re.DOTALL)
"""An SGR mouse report, split around its button code."""


class SideButtonParser(XTermParser):
    """Textual's terminal input parser, but an SGR mouse report with code 128-131
    (160-163 while moving; with 4, 8 and 16 added for Shift, Alt and Ctrl) is an
    event of button 8-11, as xterm documents it."""

    def parse_mouse_code(self, code: str) -> Message | None:
        report = SGR_REPORT.fullmatch(code)
        if report is None or int(report[2]) & (SIDE_BUTTON | WHEEL) != SIDE_BUTTON:
            return super().parse_mouse_code(code)
        start, buttons, rest = report[1], int(report[2]), report[3]
        # Read as the left button's report with the same modifiers and motion, so
        # Textual places it and tells a press, release or move; then name the button.
        event = super().parse_mouse_code(f"{start}{buttons & ~(SIDE_BUTTON | LOW_BITS)}{rest}")
        if isinstance(event, events.MouseEvent):
            event.button = 8 + (buttons & LOW_BITS)
        return event


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
    """Textual's Linux and macOS terminal driver, reading its input with
    `SideButtonParser`, writing through `SteadyOutput`, and resuming nothing (on a
    SIGCONT) once its terminal has hung up."""

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

    def run_input_thread(self) -> None:
        """Textual 8.2.8's `LinuxDriver.run_input_thread` with only the parser changed:
        that method makes its parser itself, so there is no smaller thing to override."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = SideButtonParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def process_selector_events(
            selector_events: list[tuple[selectors.SelectorKey, int]], final: bool = False
        ) -> None:
            for last, (_selector_key, mask) in loop_last(selector_events):
                if mask & selectors.EVENT_READ:
                    unicode_data = decode(os.read(fileno, 1024 * 4), final=final and last)
                    if not unicode_data:
                        # This can occur if the stdin is piped
                        break
                    for event in parser.feed(unicode_data):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                process_selector_events(selector.select(0.1))
            selector.unregister(self.fileno)
            process_selector_events(selector.select(0.1), final=True)
        finally:
            selector.close()
            # The end of input: whatever the parser still holds is dropped, as Textual does.
            with contextlib.suppress(EOFError, ParseError):
                list(parser.feed(""))
