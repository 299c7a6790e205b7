"""Crash reports: what went wrong and how to replay the game, written to a file."""

from __future__ import annotations

import platform
import sys
import tempfile
import traceback
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from ttt_tui import __version__


def render_report(error: BaseException, details: Mapping[str, object]) -> str:
    """The text of a crash report: versions, the game's details, then the traceback."""
    lines = [
        f"ttt-tui {__version__} crash report",
        f"time: {datetime.now(UTC).isoformat()}",
        f"python: {sys.version.split()[0]} ({platform.python_implementation()})",
        f"platform: {platform.platform()}",
    ]
    lines += [f"{key}: {value}" for key, value in details.items()]
    lines.append("")
    lines.append("".join(traceback.format_exception(error)).rstrip())
    return "\n".join(lines) + "\n"


def write_report(
    directory: Path | None, error: BaseException, details: Mapping[str, object]
) -> Path | None:
    """Write a report into ``directory``, else the temp directory; None if neither works."""
    text = render_report(error, details)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    places = [directory] if directory is not None else []
    places.append(Path(tempfile.gettempdir()))
    for place in places:
        try:
            place.mkdir(parents=True, exist_ok=True)
            path = place / f"ttt-tui-crash-{stamp}.txt"
            with open(path, "x", encoding="utf-8") as file:
                file.write(text)
            return path
        except OSError:
            continue
    return None


def crash_message(path: Path | None, error: BaseException) -> str:
    """The one message shown after a crash, once the terminal is restored."""
    if path is None:
        return (
            f"ttt-tui hit an unexpected error and closed ({type(error).__name__}: {error})."
            " No crash report could be written."
        )
    return (
        "ttt-tui hit an unexpected error and closed. A crash report with the details"
        f" and your game's moves is in {path} (please attach it to a bug report)."
    )
