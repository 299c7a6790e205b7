"""The real game's launch keeps Textual's parsed CSS in its cache directory, and the next
launch reads it (`ttt_tui.compat.css_cache`); nothing about that file stops a launch."""

from __future__ import annotations

from pathlib import Path

from tests.support.terminal import Terminal, game_command, game_env, wait_until
from ttt_tui.compat.css_cache import FILE_NAME, ParsedCss

QUIT_WITHIN = 20.0
"""Seconds the game may take to end after ``q``."""


def launch(data: Path, cache: Path, *args: str) -> None:
    """Start the game with ``cache`` as its cache directory, wait for its first frame,
    give it a moment to write what it writes after it, and quit."""
    env = game_env(data, TTT_TUI_CACHE_DIR=str(cache))
    with Terminal(game_command("--ai-delay", "0", *args), env, (100, 30)) as terminal:
        assert terminal.wait_for(lambda lines: "Your move" in "\n".join(lines)), terminal.text()
        terminal.write(b"5")
        assert terminal.wait_for(lambda lines: "1. X b2" in "\n".join(lines)), terminal.text()
        terminal.write(b"q")
        assert terminal.wait_exit(QUIT_WITHIN) == 0, terminal.text()


def test_a_launch_writes_the_parsed_css_and_the_next_reads_all_of_it(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    launch(tmp_path / "data", cache)
    path = cache / FILE_NAME
    wait_until(path.exists, "the parsed CSS to be written")
    written = ParsedCss.from_bytes(path.read_bytes())
    assert len(written.rules) > 20  # the game's stylesheets and Textual's
    before = (path.stat().st_mtime_ns, path.read_bytes())
    # Another data directory: the first launch's game, left with q, would be offered.
    launch(tmp_path / "more data", cache)
    # Written only when something was parsed that was not there: nothing was.
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before
    assert not [p.name for p in cache.iterdir() if p.name != FILE_NAME]


def test_a_damaged_file_is_replaced_and_the_game_starts(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    path = cache / FILE_NAME
    path.write_bytes(b"\x80\x05 not what was written")
    launch(tmp_path / "data", cache)
    wait_until(lambda: ParsedCss.from_bytes(path.read_bytes()).rules, "a good file")


def test_an_unwritable_cache_directory_stops_nothing(tmp_path: Path) -> None:
    in_the_way = tmp_path / "a file"
    in_the_way.write_text("")
    launch(tmp_path / "data", in_the_way / "cache")
    assert in_the_way.read_text() == ""


def test_no_save_writes_no_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    launch(tmp_path / "data", cache, "--no-save")
    assert not cache.exists()
