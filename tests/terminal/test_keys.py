"""Keys with a sidebar control focused, in a real terminal: a number typed there is played
by Enter, and an arrow on Mode moves the control's cursor without ending the game."""

from __future__ import annotations

from pathlib import Path

from tests.support.terminal import game_in_a_terminal


def test_keys_with_the_sidebar_focused_in_a_real_terminal(tmp_path: Path) -> None:
    with game_in_a_terminal(tmp_path, "--board", "4") as terminal:
        terminal.write(b"\t")  # the focus to the sidebar's first control, Mode
        terminal.write(b"1")
        assert terminal.wait_for(lambda lines: any("Square 1…" in line for line in lines)), (
            terminal.text()
        )
        terminal.write(b"\r")
        assert terminal.wait_for(lambda lines: any("1. X a1" in line for line in lines)), (
            terminal.text()
        )
        assert terminal.wait_for(lambda lines: any("2. O" in line for line in lines))
        assert "Square 1…" not in terminal.text()

        terminal.write(b"\x1b[C")  # → on Mode: the cursor moves, the game goes on
        terminal.write(b"\x1b[C")
        assert terminal.wait_for(lambda lines: "Your move" in "\n".join(lines))
        text = terminal.text()
        assert "1. X a1" in text, text
        terminal.write(b"q")
        assert terminal.wait_exit(10) == 0
    records = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(records) == 1 and '"abandoned"' in records[0]
