"""Textual's terminal driver, reading the mouse's side buttons as what they are.

Checked with Textual 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

A terminal reports buttons 8-11 (a mouse's back and forward buttons, and two more)
with SGR codes 128-131, the codes of buttons 1-4 plus 128. Textual 8.2's parser
(``XTermParser.parse_mouse_code``) keeps only the low two bits, so the back button
arrives as the left button (``button == 1``), 9 and 10 as the middle and right
buttons, and 11 as a mere move. Nothing else in the event differs: the position,
the modifiers and the press-release pairing are those of a left click, and Textual
makes a `Click` of it. So no widget can tell them apart, and the difference is read
where the code still is, in the parser: `SideButtonParser` reads 128-131 as buttons
8-11, which nothing in the game acts on. `SideButtonDriver` is Textual's Linux
driver reading its terminal through it; the app picks it, for terminals only, in
`TicTacToeApp.get_driver_class` rather than changing Textual for every app.

`SideButtonDriver.run_input_thread` is a copy of Textual's with only the parser
changed, so it is checked against the source it was copied from (``RELIES_ON``).
No upstream report was found. Can go when Textual's parser reads buttons 8-11
(codes 128-131) as xterm documents them: `tests/compat/test_driver.py` feeds it
the side buttons' codes.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
from codecs import getincrementaldecoder

from textual import events
from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from ttt_tui.compat import Private

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


class SideButtonDriver(LinuxDriver):
    """Textual's Linux and macOS terminal driver, reading its input with
    `SideButtonParser`."""

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
