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

from tests.storage.numbered import numbered
from tests.support import LockHolder, records
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.game import EndedGame
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.storage import GAMES_FILE, GameRecord, LockBusy, Notice, Stats, Store, record_of
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
        self.notices: list[Notice] = []
        self.errors: list[BaseException] = []
        self._changed = threading.Condition()

    def report(self, notices: list[Notice]) -> None:
        with self._changed:
            self.notices.extend(notices)
            self._changed.notify_all()

    def failed(self, error: BaseException) -> None:
        with self._changed:
            self.errors.append(error)
            self._changed.notify_all()

    def wait_for(self, notice: Notice) -> None:
        with self._changed:
            assert self._changed.wait_for(lambda: notice in self.notices, timeout=20), self.notices


@pytest.fixture
def data(tmp_path: Path) -> Path:
    directory = tmp_path / "data"
    directory.mkdir()
    return directory


def saver_for(data: Path, told: Told) -> Saver:
    return Saver(Store(data), told.report, told.failed, retry_seconds=0.05)


def results(data: Path) -> list[object]:
    """The result of each game recorded in ``data``, oldest first."""
    return [record["result"] for record in records(data)]


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
    assert results(data) == ["x_won", "draw"]
    assert Store(data).load_stats().counts == {"two_players": {"x_won": 0, "o_won": 0, "draw": 1}}
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
        assert not (data / "settings.json").exists() and records(data) == []
    told.wait_for(SAVED_NOTICE)
    assert told.notices == [waiting_notice(saver.store), SAVED_NOTICE]
    assert saver.close() == []
    settings = json.loads((data / "settings.json").read_text())
    assert (settings["mark"], settings["coach"]) == ("O", True)
    assert results(data) == ["abandoned"]


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
    assert not (data / "settings.json").exists() and records(data) == []


def test_at_the_end_a_lock_let_go_in_time_loses_nothing(data: Path) -> None:
    told = Told()
    saver = saver_for(data, told)
    saver.start()
    holder = LockHolder(data)
    saver.record(game())
    told.wait_for(waiting_notice(saver.store))
    threading.Timer(0.3, holder.release).start()
    assert saver.close(timeout=20) == []  # saved as the game ended: nothing to say
    assert results(data) == ["x_won"]


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
    assert results(data) == ["x_won", "draw"]  # the changes after it go on


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
    assert results(data) == ["x_won"]


def test_a_store_that_saves_nothing_never_waits(tmp_path: Path) -> None:
    told = Told()
    saver = Saver(Store(enabled=False), told.report, told.failed)
    saver.start()
    saver.record(game())
    assert saver.load_stats().result(timeout=20).count("two_players", "x_won") == 1
    assert saver.close(timeout=0.1) == []
    assert told.notices == []


def test_a_store_gives_up_on_a_held_lock_having_changed_nothing(data: Path) -> None:
    store = Store(data)
    store.save_settings(Settings(coach=True))
    store.record_game(numbered(1))
    settings = (data / "settings.json").read_bytes()
    store.lock_timeout = 0.1
    with LockHolder(data):
        for change in (
            lambda: store.record_game(numbered(2)),
            store.reset_stats,
            lambda: store.save_settings(Settings(mark=Player.O)),
            lambda: store.import_games([numbered(3)]),
        ):
            with pytest.raises(LockBusy):
                change()
        assert store.load_stats() == Stats.from_records([numbered(1)])  # reads go on
        assert (data / "settings.json").read_bytes() == settings
        assert records(data) == [json.loads(numbered(1).to_json())]
    store.record_game(numbered(2))
    assert store.load_stats() == Stats.from_records([numbered(1), numbered(2)])
    assert store.take_notices() == []
    assert store.saving is True


def test_old_files_met_under_a_held_lock_wait_for_it_and_are_then_carried_over(
    data: Path,
) -> None:
    (data / GAMES_FILE).write_bytes(numbered(1).to_json().encode() + b"\n")
    told = Told()
    saver = saver_for(data, told)
    with LockHolder(data):
        saver.start()
        saver.record(game())
        told.wait_for(waiting_notice(saver.store))
        assert (data / GAMES_FILE).exists()
    told.wait_for(SAVED_NOTICE)
    stats = saver.load_stats().result(timeout=20)
    assert saver.close() == []
    assert stats == Stats.from_records([numbered(1), record_of(game())])
    assert results(data) == [numbered(1).result.value, "x_won"]
    assert not (data / GAMES_FILE).exists()
    assert told.errors == []
    [moved] = [notice.text for notice in told.notices if GAMES_FILE in notice.text]
    assert "1 recorded game " in moved
