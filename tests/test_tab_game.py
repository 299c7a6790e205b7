"""`ttt_tui.tab_game`: a game that waits for its tab's size, then plays at it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.terminal import ROOT
from ttt_tui.tab_game import read_size


def fed(data: bytes) -> int:
    """A pipe's reading end holding ``data``, then closed."""
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    return read


def test_the_size_line_is_read_and_what_follows_is_left_for_the_game() -> None:
    fd = fed(b"100 36\nM...")
    try:
        assert read_size(fd) == (100, 36)
        assert os.read(fd, 10) == b"M..."
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    "data",
    [b"", b"100 36", b"wide tall\n", b"100\n", b"0 36\n", b"1 2 3\n", b"9" * 40 + b"\n"],
    ids=["closed", "no-end", "words", "one", "zero", "three", "too-long"],
)
def test_anything_but_a_size_is_no_size(data: bytes) -> None:
    fd = fed(data)
    try:
        assert read_size(fd) is None
    finally:
        os.close(fd)


def test_a_game_whose_server_goes_before_its_tab_ends_having_started_nothing(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ttt_tui.tab_game"],
        input=b"",
        capture_output=True,
        env={**os.environ, "TTT_TUI_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert list(tmp_path.iterdir()) == []
