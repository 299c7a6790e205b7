"""`ttt_tui.compat.notification`: a toast whose notification expired on its way."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.terminal import ROOT

TOAST_ON_ITS_WAY_OUT = """
import asyncio, time
from textual.widgets._toast import Toast, ToastHolder, ToastRack
from tests.support import SIZE, make_app, start


async def main():
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await start(pilot)
        app.notify("Square 5 is taken.", timeout=1)
        await pilot.pause()
        [notification] = list(app._notifications)
        time.sleep(1.1)  # it expires after the rack has checked it, before its toast is made
        rack = app.screen.query_one(ToastRack)
        await rack.mount(ToastHolder(Toast(notification)))
        for _ in range(500):  # the toast goes at once, unless the app is stuck
            if not app.screen.query(Toast):
                break
            await pilot.pause(0.01)
        print("turning" if app.is_running and not app.screen.query(Toast) else "stuck")


asyncio.run(main())
"""


def test_a_toast_whose_notification_expired_on_its_way_does_not_hang_the_app() -> None:
    """Textual's rack checks a notification has not expired, then makes its toast, which
    reads the time left again for its timer: expired in between, the timer was negative
    and Textual's timer loop spun on it for ever (the real-terminal fuzz hung the app
    once in about fifty runs of a seed). Run apart, so a hang fails the test."""
    try:
        result = subprocess.run(
            [sys.executable, "-c", TOAST_ON_ITS_WAY_OUT],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the app hung on the toast of an expired notification")
    assert result.stdout.split() == ["turning"], result.stderr
