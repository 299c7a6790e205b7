"""Screenshots on disk: a picture saved under a fresh name in the first folder that takes it.

Textual saves the palette's screenshot in the Downloads folder and fails, saying
only "Failed to save screenshot", where there is none (a server, a container, a
fresh account). Here the first of several folders that can be written to takes
it, and a failure names every folder tried and what the system said.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import NamedTuple


class NotSaved(OSError):
    """No folder took the picture; the message names each one and why."""


class Saved(NamedTuple):
    """Where a picture went, and why the folders before that one did not take it."""

    path: Path
    passed_over: tuple[str, ...]
    """``FOLDER: REASON`` for each folder tried first."""


def picture_name(when: datetime, suffix: str, attempt: int = 0) -> str:
    """``ttt-tui-2026-11-25-184529.svg``; ``…-2.svg`` and on for a second in the same second."""
    stem = f"ttt-tui-{when:%Y-%m-%d-%H%M%S}"
    return f"{stem}{'' if attempt == 0 else f'-{attempt + 1}'}{suffix}"


def save_picture(text: str, suffix: str, folders: Sequence[Path], when: datetime) -> Saved:
    """Write ``text`` to a new file in the first of ``folders`` that takes it (a folder is
    created if missing), never over an existing file. Raises `NotSaved` naming each
    folder and the system's reason when none does."""
    reasons: list[str] = []
    for folder in folders:
        try:
            return Saved(_save_in(folder, text, suffix, when), tuple(reasons))
        except OSError as error:
            reasons.append(f"{folder}: {error.strerror or error}")
    raise NotSaved("; ".join(reasons) or "no folder to save in")


def _save_in(folder: Path, text: str, suffix: str, when: datetime) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    for attempt in range(100):
        path = folder / picture_name(when, suffix, attempt)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
        except OSError:
            path.unlink(missing_ok=True)
            raise
        return path
    raise FileExistsError(f"{folder}: a hundred pictures already taken this second")
