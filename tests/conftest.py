"""Shared by every test: keep each run off the user's real data directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point ttt-tui's storage at a fresh directory, so settings and stats never leak."""
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "ttt-tui-data"))
