"""`ttt_tui.commands.play`, the launch: no garbage collection until the first frame is
drawn."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import pytest

import ttt_tui.app
from tests.support import SIZE, make_app, start
from ttt_tui.__main__ import build_parser
from ttt_tui.app import TicTacToeApp
from ttt_tui.commands import play


class FakeApp:
    """Stands in for the app: records the collector's state as the launch goes."""

    seen: list[tuple[str, bool]] = []

    def __init__(self, *, after_first_frame: Callable[[], None], **options: Any) -> None:
        self.after_first_frame = after_first_frame
        self.seen.append(("made", gc.isenabled()))
        self.crash_message = ""
        self.last_words: list[str] = []
        self.return_code = 0

    def run(self) -> None:
        self.seen.append(("running", gc.isenabled()))
        self.after_first_frame()
        self.seen.append(("after the first frame", gc.isenabled()))


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """The launch with `FakeApp` for the app, a terminal, and no real ``gc.freeze``."""
    seen: list[tuple[str, bool]] = []
    monkeypatch.setattr(FakeApp, "seen", seen)
    monkeypatch.setattr(ttt_tui.app, "TicTacToeApp", FakeApp)
    monkeypatch.setattr(play, "terminal_problem", lambda: None)
    monkeypatch.setattr(gc, "freeze", lambda: seen.append(("frozen", gc.isenabled())))
    return seen


def test_no_collection_until_the_first_frame(fake_app: list[tuple[str, bool]]) -> None:
    assert gc.isenabled()
    assert play.main(build_parser().parse_args([])) == 0
    assert fake_app == [
        ("made", False),
        ("running", False),
        ("frozen", False),
        ("after the first frame", True),
    ]
    assert gc.isenabled()


def test_collection_comes_back_if_the_app_ends_before_its_first_frame(
    fake_app: list[tuple[str, bool]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fails(self: FakeApp) -> None:
        raise RuntimeError("no first frame")

    monkeypatch.setattr(FakeApp, "run", fails)
    with pytest.raises(RuntimeError):
        play.main(build_parser().parse_args([]))
    assert gc.isenabled()


async def test_the_app_calls_after_first_frame_once_its_first_frame_is_drawn() -> None:
    calls: list[bool] = []

    def after_first_frame() -> None:
        calls.append(app.screen.size.area > 0)

    app: TicTacToeApp = make_app(after_first_frame=after_first_frame)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.pause()
        assert calls == [True]
