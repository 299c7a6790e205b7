"""`ttt_tui.compat.app`: resizes put back in order."""

from __future__ import annotations

import pytest
from textual import events
from textual.geometry import Size
from textual.message import Message

from tests.support import (
    SIZE,
    make_app,
    start,
    until,
)
from ttt_tui.compat.app import AppFixes


async def test_a_resize_that_arrives_out_of_order_is_put_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two SIGWINCHes close together: Textual's handler for the first, interrupted by
    the second's, posted the earlier size last, and the app stayed drawn for it. The
    app now checks each resize against the terminal's size, and takes that."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        terminal = Size(120, 40)
        monkeypatch.setattr(app, "terminal_size", lambda: terminal)
        posted: list[Size] = []
        post = app.post_message

        def record(message: Message) -> bool:
            if isinstance(message, events.Resize):
                posted.append(message.size)
            return post(message)

        monkeypatch.setattr(app, "post_message", record)
        for _ in range(3):  # the overtaken size, as often as it comes
            AppFixes.on_resize(app, events.Resize(Size(60, 20), Size(60, 20)))
        assert posted == [terminal]  # one resize to put it right, not a stream of them
        await until(pilot, lambda: app.screen.size == terminal, "the terminal's size")
    assert app.return_code in (None, 0)
