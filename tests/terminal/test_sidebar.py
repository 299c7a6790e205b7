"""The sidebar in a real terminal: keys with a control focused (a number typed there is
played by Enter; an arrow on Mode moves the control's cursor without ending the game),
and clicks that land where they were aimed however the status grows."""

from __future__ import annotations

from pathlib import Path

from tests.support import left_games, records
from tests.support.terminal import game_in_a_terminal
from ttt_tui.engine import Difficulty
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.storage import Store


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
    assert records(tmp_path) == []
    [left] = left_games(tmp_path)  # q keeps the unfinished game, to be resumed
    assert left["moves"][0] == 0


def where(lines: list[str], line_has: str, word: str) -> tuple[int, int] | None:
    """The screen cell (0-based) of ``word`` on the first line that has ``line_has``."""
    for y, line in enumerate(lines):
        if line_has in line and word in line:
            return line.index(word, line.index(line_has)), y
    return None


def click(x: int, y: int) -> bytes:
    """A left press and release at a screen cell, as a terminal reports them (SGR)."""
    return f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m".encode()


def test_a_click_aimed_while_playing_lands_on_its_option_after_the_game_ends(
    tmp_path: Path,
) -> None:
    """At 100x30 the options moved down when the status grew at the end of a game
    ("Draw / n: new game / u: undo…"): a click aimed a moment before landed a row or
    two away, on a label or another control. Here AI vs AI plays a game out while X
    engine's Hard, aimed at as it began, waits to be clicked."""
    Store(tmp_path).save_settings(Settings(mode=Mode.AI_VS_AI))
    slowly = ("--ai-delay", "0.15")
    with game_in_a_terminal(tmp_path, *slowly, ready="is thinking") as terminal:
        # The first frame can still be coming in pieces on a busy machine.
        found = terminal.wait_for(lambda lines: where(lines, "Medium", "Hard"))
        assert isinstance(found, tuple), terminal.text()
        hard: tuple[int, int] = found
        assert terminal.wait_for(lambda lines: "n: new game" in "\n".join(lines)), terminal.text()
        assert where(terminal.lines(), "Medium", "Hard") == hard, terminal.text()
        terminal.write(click(*hard))
        assert terminal.wait_for(lambda lines: "X engine: Hard" in "\n".join(lines)), (
            terminal.text()
        )
        terminal.write(b"q")
        assert terminal.wait_exit(10) == 0
    assert Store(tmp_path).load_settings().ai_x_difficulty is Difficulty.HARD
