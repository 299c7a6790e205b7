"""The saver: every call on the store in a thread of its own, in order, never waiting on
the caller's behalf; a held lock makes it wait, say so once, and save when it can."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import CancelledError
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support import LockHolder
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.game import EndedGame
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.storage import GameRecord, Store
from ttt_tui.storage.files import LockBusy, directory_lock
from ttt_tui.storage.saver import SAVED_NOTICE, Saver, waiting_notice

T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def game(result: Result = Result.X_WON, moves: tuple[int, ...] = (0, 4, 1, 5, 2)) -> EndedGame:
    """A two-player game on 3x3."""
    return EndedGame(
        started=T0,
        ended=T0,
        mode=Mode.TWO_PLAYERS,
        human=None,
        moves=moves,
        levels=(None,) * len(moves),
        in_force=(None, None),
        result=result,
        undo_used=False,
        hints_used=0,
        n=3,
        k=3,
    )


class Told:
    """Collects what a saver says, from its thread."""

    def __init__(self) -> None:
        self.notices: list[str] = []
        self.errors: list[BaseException] = []
        self._changed = threading.Condition()

    def report(self, notice: str) -> None:
        with self._changed:
            self.notices.append(notice)
            self._changed.notify_all()

    def failed(self, error: BaseException) -> None:
        with self._changed:
            self.errors.append(error)
            self._changed.notify_all()

    def wait_for(self, notice: str) -> None:
        with self._changed:
            assert self._changed.wait_for(lambda: notice in self.notices, timeout=20), self.notices


@pytest.fixture
def data(tmp_path: Path) -> Path:
    directory = tmp_path / "data"
    directory.mkdir()
    return directory


def saver_for(data: Path, told: Told) -> Saver:
    return Saver(Store(data), told.report, told.failed, retry_seconds=0.05)


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_changes_are_made_in_order_and_a_read_sees_them(data: Path) -> None:
    told = Told()
    saver = saver_for(data, told)
    saver.start()
    saver.record(game())
    saver.save_settings(Settings(difficulty=Difficulty.HARD))
    saver.reset_stats()
    saver.record(game(Result.DRAW, (4, 0, 8, 2, 1, 7, 6, 3, 5)))
    stats = saver.load_stats().result(timeout=20)
    assert stats.count("two_players", "draw") == 1
    assert stats.count("two_players", "x_won") == 0  # counted, then reset
    assert saver.close() == []
    assert [line.get("result") for line in lines(data / "games.jsonl")] == [
        "x_won",
        None,  # the reset's mark
        "draw",
    ]
    assert json.loads((data / "settings.json").read_text())["difficulty"] == "hard"
    assert told.notices == [] and told.errors == []


def test_a_held_lock_makes_saving_wait_say_so_once_and_save_when_free(data: Path) -> None:
    told = Told()
    saver = saver_for(data, told)
    saver.start()
    with LockHolder(data) as holder:
        saver.save_settings(Settings(mark=Player.O))
        saver.record(game(Result.ABANDONED, (4,)))
        saver.save_settings(Settings(mark=Player.O, coach=True))
        told.wait_for(waiting_notice(saver.store))
        time.sleep(0.3)  # several more tries, all refused
        assert holder.holding
        assert not (data / "settings.json").exists() and not (data / "games.jsonl").exists()
    told.wait_for(SAVED_NOTICE)
    assert told.notices == [waiting_notice(saver.store), SAVED_NOTICE]
    assert saver.close() == []
    settings = json.loads((data / "settings.json").read_text())
    assert (settings["mark"], settings["coach"]) == ("O", True)
    assert [line["result"] for line in lines(data / "games.jsonl")] == ["abandoned"]


def test_at_the_end_a_lock_held_too_long_is_named_with_what_was_not_saved(data: Path) -> None:
    told = Told()
    saver = saver_for(data, told)
    saver.start()
    with LockHolder(data):
        saver.save_settings(Settings(mark=Player.O))
        saver.record(game(Result.ABANDONED, (4,)))
        saver.save_settings(Settings(mark=Player.O, coach=True))
        told.wait_for(waiting_notice(saver.store))
        last = saver.close(timeout=0.5)
    assert last == [
        f"not saved: your settings and the unfinished game. Another ttt-tui held {data}"
        " for more than 0.5 s as this one ended.",
    ]
    assert not (data / "settings.json").exists() and not (data / "games.jsonl").exists()


def test_at_the_end_a_lock_let_go_in_time_loses_nothing(data: Path) -> None:
    told = Told()
    saver = saver_for(data, told)
    saver.start()
    holder = LockHolder(data)
    saver.record(game())
    told.wait_for(waiting_notice(saver.store))
    threading.Timer(0.3, holder.release).start()
    assert saver.close(timeout=20) == []  # saved as the game ended: nothing to say
    assert [line["result"] for line in lines(data / "games.jsonl")] == ["x_won"]


def test_an_unexpected_error_in_a_save_is_reported_as_a_failure(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    told = Told()
    saver = saver_for(data, told)
    record_game = saver.store.record_game

    def buggy(record: GameRecord) -> None:
        if record.result is Result.O_WON:
            raise ZeroDivisionError  # a bug in a change
        record_game(record)

    monkeypatch.setattr(saver.store, "record_game", buggy)
    saver.start()
    saver.record(game())
    saver.record(game(Result.O_WON, (0, 4, 1, 2, 3, 6)))
    saver.record(game(Result.DRAW, (4, 0, 8, 2, 1, 7, 6, 3, 5)))
    assert saver.close() == []
    assert [type(error) for error in told.errors] == [ZeroDivisionError]
    assert len(lines(data / "games.jsonl")) == 2  # the changes after it go on


def test_a_read_given_up_on_is_not_run(data: Path) -> None:
    told = Told()
    saver = saver_for(data, told)
    with LockHolder(data):
        saver.start()
        saver.record(game())
        told.wait_for(waiting_notice(saver.store))
        read = saver.load_stats()
        assert read.cancel()
        with pytest.raises(CancelledError):
            read.result()
    told.wait_for(SAVED_NOTICE)
    assert saver.close() == []
    assert len(lines(data / "games.jsonl")) == 1


def test_a_store_that_saves_nothing_never_waits(tmp_path: Path) -> None:
    told = Told()
    saver = Saver(Store(enabled=False), told.report, told.failed)
    saver.start()
    saver.record(game())
    assert saver.load_stats().result(timeout=20).count("two_players", "x_won") == 1
    assert saver.close(timeout=0.1) == []
    assert told.notices == []


def test_the_lock_gives_up_after_its_timeout_having_done_nothing(data: Path) -> None:
    ran = []
    with LockHolder(data), pytest.raises(LockBusy), directory_lock(data, timeout=0.1):
        ran.append(True)
    assert ran == []
    with directory_lock(data, timeout=0.1) as held:
        assert held
