"""Screen-reader mode in a real terminal: the cursor is shown and sits on the focused
square's number, as a screen reader or a braille display follows it; the move box
plays a square by name and the announcement line says so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support.terminal import Terminal, game_in_a_terminal, wait_until


def cursor(terminal: Terminal) -> tuple[int, int, bool]:
    """Where the terminal's cursor is, and whether it is shown."""
    with terminal.lock:
        spot = terminal.screen.cursor
        return spot.x, spot.y, not spot.hidden


def under_cursor(terminal: Terminal) -> str:
    """The five cells around the cursor, on its line."""
    x, y, _ = cursor(terminal)
    return terminal.lines()[y][x - 2 : x + 3]


def cursor_on(terminal: Terminal, number: str) -> Callable[[], bool]:
    """Whether the cursor sits on square ``number``'s number, between its pointers."""
    return lambda: under_cursor(terminal) == f"▶ {number} ◀"


def test_the_cursor_is_shown_on_the_focused_square_s_number(tmp_path: Path) -> None:
    terminal = game_in_a_terminal(tmp_path, "--screen-reader")
    try:
        wait_until(cursor_on(terminal, "5"), "the cursor on square 5")
        assert cursor(terminal)[2], "the cursor is hidden"
        for key, number in [(b"\x1b[C", "6"), (b"\x1b[A", "3"), (b"\x1b[D", "2")]:
            terminal.write(key)
            wait_until(cursor_on(terminal, number), f"the cursor on square {number}")
        terminal.write(b":c3\r")
        wait_until(lambda: "X plays c3." in terminal.text(), "the announcement of c3")
        wait_until(lambda: "Your move." in terminal.text(), "the computer's reply said")
        terminal.write(b"board\r")
        wait_until(lambda: "Row 3: " in terminal.text(), "the board in words")
        terminal.write(b"\x1bq")
        assert terminal.wait_exit(20) == 0
    finally:
        terminal.close()


def test_without_screen_reader_mode_the_cursor_stays_hidden(tmp_path: Path) -> None:
    terminal = game_in_a_terminal(tmp_path)
    try:
        terminal.write(b"\x1b[C")
        wait_until(lambda: "▶ 6 ◀" in terminal.text(), "the board's cursor on square 6")
        assert not cursor(terminal)[2]
        assert "Your move." not in terminal.text()  # no announcement line
        terminal.write(b"q")
        assert terminal.wait_exit(20) == 0
    finally:
        terminal.close()
