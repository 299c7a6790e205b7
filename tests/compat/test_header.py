"""`ttt_tui.compat.header`: an app that quits before its first frame."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from textual import messages

from tests.support import (
    SIZE,
    make_app,
)
from ttt_tui.play.settings import BoardSize


async def test_a_quit_before_the_first_frame_is_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app told to quit before anything is drawn, as Textual's web driver tells it
    when a browser tab closes straight after opening: Textual's header updated its
    title from a coroutine that the app ran while shutting down, after the title had
    gone (``NoMatches`` for ``HeaderTitle``, exit status 1 and a crash report)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where a crash report would go
    for board in (None, BoardSize.FIVE):  # 5x5's screen has a subtitle of its own
        app = make_app(board=board)
        run = asyncio.create_task(app.run_async(headless=True, size=SIZE))
        app.post_message(messages.ExitApp())  # the first message it reads
        await run
        assert app.crash_report is None
        assert app.return_code in (None, 0)  # an exit nobody asked for a code for
