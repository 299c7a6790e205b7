"""Keys as a real terminal sends them, through Textual's own reader in a pseudo-terminal."""

from __future__ import annotations

from pathlib import Path

from tests.support.terminal import game_in_a_terminal


def test_escape_then_a_digit_in_one_read_plays_the_digit(tmp_path: Path) -> None:
    """Escape and 5 within the terminal's escape time reach the game as one read, which
    Textual 8.2 took for Option+5 (∞): the 5 was lost, with no move and no notice."""
    terminal = game_in_a_terminal(tmp_path)
    try:
        terminal.write(b"\x1b5")
        assert terminal.wait_for(lambda lines: "1. X b2" in "\n".join(lines)), terminal.text()
        terminal.write(b"q")
        assert terminal.wait_exit(10) == 0
    finally:
        terminal.close()
