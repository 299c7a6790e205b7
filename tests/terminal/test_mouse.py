"""The mouse in a real terminal: only the left button plays a square or picks an option.

The reports are written as a terminal sends them (SGR) to the real program in a
pseudo-terminal. A mouse's back button is not among them: a terminal reports it
as code 128, and Textual reads that as the left button, and nothing public tells
them apart (docs/reliability.md).
"""

from __future__ import annotations

from pathlib import Path

from tests.support import left_games
from tests.support.terminal import game_in_a_terminal, wait_until

MIDDLE, RIGHT = 1, 2
"""The SGR codes of the middle and right buttons."""
FORWARD, BUTTON_10, BUTTON_11 = 129, 130, 131
"""The SGR codes of a mouse's forward button and the two after it."""


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
    """The middle, right and forward buttons on square 1 and on the Hard option do
    nothing; a left click on square 2 then plays there, at the difficulty that was set."""
    terminal = game_in_a_terminal(tmp_path)
    try:
        # The first frame can still be coming in pieces on a busy machine.
        drawn = terminal.wait_for(lambda shown: "q Quit" in "\n".join(shown) and shown)
        assert isinstance(drawn, list), terminal.text()
        square_1, square_2 = find(drawn, "1 2 3"), find(drawn, "2 3")
        hard = find(drawn, "Hard Medium")
        terminal.write(
            b"".join(
                click(code, square_1) + click(code, hard)
                for code in (MIDDLE, RIGHT, FORWARD, BUTTON_10, BUTTON_11)
            )
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
