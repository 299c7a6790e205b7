"""`ttt_tui.storage.cache`: where the cache is (the platform's place is tested beside
the data directory's, in test_store.py), and a cache file that can always fail
quietly (its real use, the parsed CSS, is tested in tests/terminal/test_start.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ttt_tui.storage.cache import CacheFile, default_cache_dir


def test_the_cache_directory_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTT_TUI_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert default_cache_dir() == tmp_path / "elsewhere"
    assert CacheFile("f").path == tmp_path / "elsewhere" / "f"


def test_a_file_written_is_read_back_and_its_directory_made(tmp_path: Path) -> None:
    file = CacheFile("parsed", tmp_path / "a" / "b")
    assert file.read() is None
    assert file.write(b"one")
    assert file.write(b"two")
    assert file.read() == b"two"
    assert [p.name for p in (tmp_path / "a" / "b").iterdir()] == ["parsed"]


@pytest.mark.skipif(os.name != "posix", reason="elsewhere a temporary file goes by its age")
def test_a_killed_writer_s_temporary_file_goes_with_the_next_write(tmp_path: Path) -> None:
    left = tmp_path / ".parsed.999999999.0a1b.tmp"  # no such process
    left.write_bytes(b"half")
    assert CacheFile("parsed", tmp_path).write(b"whole")
    assert not left.exists()


def test_a_directory_that_cannot_be_made_fails_quietly(tmp_path: Path) -> None:
    in_the_way = tmp_path / "a file"
    in_the_way.write_text("")
    file = CacheFile("parsed", in_the_way / "cache")
    assert not file.write(b"data")
    assert file.read() is None
    assert in_the_way.read_text() == ""
