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


def test_q_then_colon_in_one_read_quits(tmp_path: Path) -> None:
    """``:`` opens the move box at once (so that ``:c3`` is c3), which handed a q that
    came before it in the same read to the box: the game did not quit."""
    terminal = game_in_a_terminal(tmp_path)
    try:
        terminal.write(b"q:")
        assert terminal.wait_exit(10) == 0
    finally:
        terminal.close()


def test_a_q_typed_in_the_move_box_is_typed_not_a_quit(tmp_path: Path) -> None:
    terminal = game_in_a_terminal(tmp_path)
    try:
        terminal.write(b":quit")
        assert terminal.wait_for(lambda lines: any(line.strip() == "quit" for line in lines))
        assert terminal.wait_exit(0.5) is None
        terminal.write(b"\x1b")
        assert terminal.wait_for(lambda lines: "q Quit" in "\n".join(lines))
        terminal.write(b"q")
        assert terminal.wait_exit(10) == 0
    finally:
        terminal.close()


def test_escape_then_q_in_one_read_closes_the_palette_and_quits(tmp_path: Path) -> None:
    """Escape closed the palette, but the q read with it (alt+q, split by the game into
    the two keys typed) was typed into the closing palette: the game went on."""
    terminal = game_in_a_terminal(tmp_path)
    try:
        terminal.write(b"\x10")
        assert terminal.wait_for(lambda lines: "Search for commands" in "\n".join(lines))
        terminal.write(b"\x1bq")
        assert terminal.wait_exit(10) == 0
    finally:
        terminal.close()


def test_escape_then_a_digit_in_one_read_closes_the_palette_and_plays(tmp_path: Path) -> None:
    terminal = game_in_a_terminal(tmp_path)
    try:
        terminal.write(b"\x10")
        assert terminal.wait_for(lambda lines: "Search for commands" in "\n".join(lines))
        terminal.write(b"\x1b5")
        played = terminal.wait_for(lambda lines: "1. X b2" in "\n".join(lines), 10)
        assert played, terminal.text()
        terminal.write(b"q")
        assert terminal.wait_exit(10) == 0
    finally:
        terminal.close()
