"""Files ttt-tui can always make again, kept to start faster: its cache directory.

Unlike the data directory's files, nothing here is the person's: a file that is
missing, unreadable or cannot be written costs only the time it saves, and no
error about it reaches anyone. Today it holds Textual's parsed CSS
(`ttt_tui.compat.css_cache`).
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_cache_dir

from ttt_tui.storage.files import remove_stale_temp_files, write_atomic
from ttt_tui.storage.store import app_directory

CACHE_DIR_ENV = "TTT_TUI_CACHE_DIR"
"""Environment variable that, when set and not empty, replaces the cache directory."""


def default_cache_dir() -> Path:
    """Where ttt-tui keeps its cache: `CACHE_DIR_ENV` if set, else the platform's place."""
    return app_directory(CACHE_DIR_ENV, user_cache_dir)


class CacheFile:
    """One file of the cache."""

    def __init__(self, name: str, directory: Path | None = None) -> None:
        self.path = (directory or default_cache_dir()) / name
        """Where it is."""

    def read(self) -> bytes | None:
        """Its contents, or None if it cannot be read."""
        try:
            return self.path.read_bytes()
        except OSError:
            return None

    def write(self, data: bytes) -> bool:
        """Replace it with ``data`` (atomically: a kill leaves old or new), then remove
        any temporary file a killed writer left. Whether it was written; no error is
        raised."""
        directory = self.path.parent
        try:
            directory.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, data)
        except OSError:
            return False
        remove_stale_temp_files(directory, [self.path.name])
        return True
