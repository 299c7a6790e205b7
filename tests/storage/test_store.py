"""Settings, stats and game records in one process: round trips, the stats the records
say, damaged settings, directories that refuse, and the model's own rules.

The database's schema, its damage and the disks that refuse it are in test_database.py;
the files before the database in test_migration.py; many processes and kills in
test_shared.py; games in play in test_in_play.py.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import platformdirs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.storage.numbered import numbered
from tests.support import records
from tests.support.stores import files, games_of, notice_texts
from ttt_tui.engine import Difficulty, Player, Status
from ttt_tui.play.game import Game, ended_game
from ttt_tui.play.results import Result, stats_outcome
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.storage import (
    DATABASE_FILE,
    FORMAT_VERSION,
    MIXED,
    GameRecord,
    Imported,
    Mixed,
    Stats,
    Store,
    Unreadable,
    default_data_dir,
    has_data,
    read_settings,
    record_of,
    settings_from_json,
    settings_json,
    side_level,
    stats_entry,
    stats_key,
)

T0 = datetime(2026, 11, 22, 6, 15, tzinfo=UTC)
EASY, MEDIUM, HARD = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD
DATABASE_FILES = {DATABASE_FILE, f"{DATABASE_FILE}-wal", f"{DATABASE_FILE}-shm"}
"""The database and what SQLite keeps beside it while it is open."""


def vs_ai(
    result: Result, mark: Player = Player.X, level: Difficulty = HARD, **extra: Any
) -> GameRecord:
    """A You-vs-AI record with the computer at ``level`` on the other side."""
    return GameRecord(
        started=T0,
        ended=T0 + timedelta(seconds=42),
        mode=Mode.HUMAN_VS_AI,
        x_difficulty=None if mark is Player.X else level,
        o_difficulty=level if mark is Player.X else None,
        human_mark=mark,
        moves=(4, 0, 8, 2, 6),
        result=result,
        **extra,
    )


def two_players(result: Result) -> GameRecord:
    return GameRecord(T0, T0, Mode.TWO_PLAYERS, None, None, None, (0, 3, 1, 4, 2), result)


def ai_vs_ai(
    result: Result, x: Difficulty | Mixed = EASY, o: Difficulty | Mixed = HARD
) -> GameRecord:
    return GameRecord(T0, T0, Mode.AI_VS_AI, x, o, None, (4, 0), result)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


# Round trips and defaults -------------------------------------------------------


def test_defaults_when_nothing_is_saved_and_reading_records_nothing(data: Path) -> None:
    store = Store(data)

    assert store.load_settings() == Settings()
    assert Settings() == Settings(MEDIUM, MEDIUM, MEDIUM, Player.X, Mode.HUMAN_VS_AI,
                                  BoardSize.THREE, False, False, "textual-dark")  # fmt: skip
    assert list(data.iterdir()) == []  # settings are read, never written, by loading them
    assert store.load_stats() == Stats()
    assert games_of(store) == []
    assert store.newest_number() == 0
    assert store.game(-1) is None
    assert notice_texts(store) == []
    assert store.saving is True
    assert {p.name for p in data.iterdir()} <= DATABASE_FILES
    assert records(data) == []
    assert not has_data(data.parent) and has_data(data)


def test_settings_round_trip_through_a_new_store(data: Path) -> None:
    chosen = Settings(
        difficulty=HARD,
        ai_x_difficulty=EASY,
        ai_o_difficulty=HARD,
        mark=Player.O,
        mode=Mode.AI_VS_AI,
        board=BoardSize.FIVE,
        alternate_start=True,
        coach=True,
        theme="gruvbox",
    )
    Store(data).save_settings(chosen)

    assert read_json(data / "settings.json") == {
        "version": FORMAT_VERSION,
        "difficulty": "hard",
        "ai_x_difficulty": "easy",
        "ai_o_difficulty": "hard",
        "mark": "O",
        "mode": "ai_vs_ai",
        "board": 5,
        "alternate_start": True,
        "coach": True,
        "theme": "gruvbox",
        "screen_reader": False,
    }
    store = Store(data)
    assert store.load_settings() == chosen
    assert notice_texts(store) == []


def test_settings_missing_keys_take_defaults(data: Path) -> None:
    data.mkdir()
    (data / "settings.json").write_text('{"version": 1, "coach": true}')

    store = Store(data)
    assert store.load_settings() == Settings(coach=True)
    assert notice_texts(store) == []


def test_games_and_stats_round_trip(data: Path) -> None:
    store = Store(data)
    recorded = [
        vs_ai(Result.X_WON, Player.X, HARD, undo_used=True, hints_used=3),
        vs_ai(Result.X_WON, Player.O, EASY),
        vs_ai(Result.DRAW, Player.O, EASY),
        vs_ai(Result.ABANDONED, Player.X, HARD),
        two_players(Result.O_WON),
        ai_vs_ai(Result.DRAW, EASY, HARD),
        ai_vs_ai(Result.X_WON, HARD, HARD),
    ]
    for record in recorded:
        store.record_game(record)

    on_disk = records(data)
    assert len(on_disk) == len(recorded)
    assert on_disk[0] == {
        "version": FORMAT_VERSION,
        "started": "2026-11-22T06:15:00+00:00",
        "ended": "2026-11-22T06:15:42+00:00",
        "mode": "human_vs_ai",
        "n": 3,
        "k": 3,
        "x_difficulty": None,
        "o_difficulty": "hard",
        "human_mark": "X",
        "moves": [4, 0, 8, 2, 6],
        "result": "x_won",
        "undo_used": True,
        "hints_used": 3,
    }
    assert [line["result"] for line in on_disk] == [r.result.value for r in recorded]
    assert store.load_stats().counts == {
        "human_vs_ai/easy": {"win": 0, "draw": 1, "loss": 1},
        "human_vs_ai/hard": {"win": 1, "draw": 0, "loss": 0},
        "two_players": {"x_won": 0, "o_won": 1, "draw": 0},
        "ai_vs_ai/easy-hard": {"x_won": 0, "o_won": 0, "draw": 1},
        "ai_vs_ai/hard-hard": {"x_won": 1, "o_won": 0, "draw": 0},
    }

    fresh = Store(data)
    assert games_of(fresh) == recorded
    assert fresh.load_stats() == store.load_stats()
    assert notice_texts(fresh) == []


def test_games_are_numbered_from_the_first_and_paged_from_the_newest(data: Path) -> None:
    store = Store(data)
    recorded = [numbered(i, n=3 if i % 4 else 4) for i in range(1, 13)]
    for record in recorded:
        store.record_game(record)

    assert store.newest_number() == 12
    assert store.game(1) == (1, recorded[0])
    assert store.game(12) == store.game(-1) == (12, recorded[11])
    assert store.game(-12) == (1, recorded[0])
    assert store.game(13) is None and store.game(-13) is None
    page = store.games_page(limit=5)
    assert page == [(n, recorded[n - 1]) for n in range(12, 7, -1)]
    assert store.games_page(before=page[-1][0], limit=5) == [
        (n, recorded[n - 1]) for n in range(7, 2, -1)
    ]
    fours = [(n, recorded[n - 1]) for n in (12, 8, 4)]
    assert store.games_page(board=4) == fours
    assert store.games_page(before=12, board=4, limit=1) == fours[1:2]
    assert list(store.iter_games(board=4, batch=2)) == fours[::-1]
    assert list(store.iter_games(batch=5)) == list(enumerate(recorded, start=1))


def test_import_adds_in_order_and_leaves_out_exact_copies(data: Path) -> None:
    store = Store(data)
    store.record_game(numbered(1))
    store.record_game(numbered(2))

    result = store.import_games([numbered(2), numbered(3), numbered(1), numbered(4), numbered(3)])

    assert result == Imported(added=2, duplicates=3)
    assert [g.hints_used for g in games_of(store)] == [1, 2, 3, 4]
    assert store.load_stats() == Stats.from_records(numbered(i) for i in range(1, 5))
    assert store.import_games([]) == Imported(0, 0)
    assert notice_texts(store) == []


def test_a_record_that_cannot_be_read_is_listed_as_such_and_the_rest_read_on(
    data: Path,
) -> None:
    store = Store(data)
    for number in (1, 2, 3):
        store.record_game(numbered(number))
    newer = {**json.loads(numbered(3).to_json()), "version": 99}
    db = sqlite3.connect(data / DATABASE_FILE)
    db.execute('UPDATE games SET record = \'{"version": 1, "mode\' WHERE id = 1')
    db.execute("UPDATE games SET record = ? WHERE id = 3", (json.dumps(newer),))
    db.commit()
    db.close()

    [(one, first), (two, second), (three, third)] = store.iter_games()
    assert (one, two, three) == (1, 2, 3)
    assert isinstance(first, Unreadable) and isinstance(third, Unreadable)
    assert second == numbered(2)
    assert "99" in third.reason
    assert store.games_page() == [(3, third), (2, second), (1, first)]
    assert store.game(1) == (1, first)
    assert store.load_stats() == Stats.from_records(numbered(n) for n in (1, 2, 3))
    assert notice_texts(store) == []


def test_game_record_json_round_trip_keeps_time_zone() -> None:
    plus_two = timezone(timedelta(hours=2))
    record = GameRecord(
        started=datetime(2026, 1, 2, 3, 4, 5, 678, tzinfo=plus_two),
        ended=datetime(2026, 1, 2, 3, 9, tzinfo=plus_two),
        mode=Mode.AI_VS_AI,
        x_difficulty=MEDIUM,
        o_difficulty=EASY,
        human_mark=None,
        moves=(0, 1, 2),
        result=Result.ABANDONED,
    )
    line = record.to_json()
    assert "\n" not in line
    assert json.loads(line)["started"] == "2026-01-02T03:04:05.000678+02:00"
    assert GameRecord.from_json(line) == record


def test_reset_stats_keeps_games_and_counts_only_what_comes_after(data: Path) -> None:
    store = Store(data)
    store.record_game(vs_ai(Result.X_WON))
    store.reset_stats()

    assert store.load_stats() == Stats()
    assert games_of(Store(data)) == [vs_ai(Result.X_WON)]
    store.record_game(two_players(Result.DRAW))
    assert Store(data).load_stats().counts == {"two_players": {"x_won": 0, "o_won": 0, "draw": 1}}


def test_two_resets_at_one_moment_are_two_resets_not_a_failure(data: Path) -> None:
    """A clock that gives the same time twice (a coarse one, or a test's) must not stop
    the saving: the second reset counts from the games recorded after the first."""
    store = Store(data, now=lambda: T0)
    store.record_game(two_players(Result.X_WON))
    store.reset_stats()
    store.reset_stats()
    store.record_game(two_players(Result.O_WON))
    store.reset_stats()
    store.record_game(two_players(Result.DRAW))

    assert notice_texts(store) == []
    assert store.saving is True
    expected = {"two_players": {"x_won": 0, "o_won": 0, "draw": 1}}
    assert store.load_stats().counts == expected
    assert Store(data).load_stats().counts == expected
    assert len(records(data)) == 3


# The stats are what the records say ----------------------------------------------------

CHANGES = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.integers(0, 11)),
        st.tuples(st.just("reset"), st.just(0)),
        st.tuples(st.just("import"), st.lists(st.integers(0, 11), max_size=4)),
    ),
    max_size=12,
)
"""A session's changes: a game recorded (by its number; a number already recorded is
played again, a new game), a reset, an import of numbered games (the same number twice
is an exact copy, left out)."""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CHANGES)
def test_the_stats_are_the_records_since_the_last_reset(changes: list[tuple[str, Any]]) -> None:
    """Whatever the mix of records, resets and imports, the stats count exactly the
    games recorded after the last reset, as `Stats.from_records` counts them."""
    with tempfile.TemporaryDirectory() as directory:
        store = Store(Path(directory))
        recorded: list[GameRecord] = []
        since_reset: list[GameRecord] = []
        fresh = 1000  # a game played again is a new game: a number no import uses
        for change, value in changes:
            if change == "record":
                fresh += 1
                record = replace(numbered(value), started=numbered(fresh).started)
                store.record_game(record)
                recorded.append(record)
                since_reset.append(record)
            elif change == "reset":
                store.reset_stats()
                since_reset = []
            else:
                new = [numbered(n) for n in dict.fromkeys(value)]
                new = [record for record in new if record not in recorded]
                assert store.import_games(numbered(n) for n in value) == Imported(
                    len(new), len(value) - len(new)
                )
                recorded += new
                since_reset += new
            assert store.load_stats() == Stats.from_records(since_reset)
        assert games_of(store) == recorded
        assert notice_texts(store) == []
        store.close()
        assert Store(Path(directory)).load_stats() == Stats.from_records(since_reset)


# Board sizes ---------------------------------------------------------------------


def test_stats_keys_name_the_bigger_boards_and_rows_keep_them_apart() -> None:
    assert stats_key(Mode.HUMAN_VS_AI, difficulty=HARD, n=3) == "human_vs_ai/hard"
    assert stats_key(Mode.HUMAN_VS_AI, difficulty=HARD, n=4) == "4x4/human_vs_ai/hard"
    assert stats_key(Mode.TWO_PLAYERS, n=5) == "5x5/two_players"
    assert stats_key(Mode.AI_VS_AI, x_difficulty=EASY, o_difficulty=MIXED, n=5) == (
        "5x5/ai_vs_ai/mixed"
    )
    with pytest.raises(ValueError, match="expected a board of 3, 4, 5 squares a side, got 6"):
        stats_key(Mode.TWO_PLAYERS, n=6)
    with pytest.raises(ValueError, match="unknown stats key '6x6/two_players'"):
        Stats().record("6x6/two_players", "draw")

    stats = (
        Stats()
        .record("5x5/human_vs_ai/hard", "draw")
        .record("human_vs_ai/hard", "win")
        .record("4x4/two_players", "x_won")
    )
    assert [(row.n, row.key) for row in stats.rows()] == [
        (3, "human_vs_ai/hard"),
        (4, "4x4/two_players"),
        (5, "5x5/human_vs_ai/hard"),
    ]
    five = stats.rows(5, include_empty=True)
    assert [row.key for row in five] == [
        "5x5/human_vs_ai/easy",
        "5x5/human_vs_ai/medium",
        "5x5/human_vs_ai/hard",
        "5x5/two_players",
    ]
    assert [row.total for row in five] == [0, 0, 1, 0]
    assert Stats.from_json(stats.to_json()) == stats


def test_a_game_record_carries_its_board_and_checks_it() -> None:
    big = replace(vs_ai(Result.DRAW), moves=(24, 0, 12), n=5, k=4)
    line = big.to_json()
    assert (json.loads(line)["n"], json.loads(line)["k"]) == (5, 4)
    assert GameRecord.from_json(line) == big
    assert stats_entry(big) == ("5x5/human_vs_ai/hard", "draw")
    with pytest.raises(ValueError, match="n, k: expected one of 3x3 with 3 in a row, 4x4 with"):
        replace(big, k=5)
    with pytest.raises(ValueError, match="moves: expected distinct cells 0 to 15, got"):
        replace(big, n=4, k=4)
    # A line written before board sizes is a 3x3 game.
    old = json.loads(vs_ai(Result.X_WON).to_json())
    del old["n"], old["k"]
    old["version"] = 1
    assert GameRecord.from_json(json.dumps(old)) == vs_ai(Result.X_WON)


# Stats helpers -------------------------------------------------------------------


def test_stats_keys() -> None:
    assert stats_key(Mode.HUMAN_VS_AI, difficulty=HARD) == "human_vs_ai/hard"
    assert stats_key(Mode.TWO_PLAYERS) == "two_players"
    both = stats_key(Mode.AI_VS_AI, x_difficulty=EASY, o_difficulty=MEDIUM)
    assert both == "ai_vs_ai/easy-medium"
    with pytest.raises(ValueError, match="a You-vs-AI stats key needs the computer's difficulty"):
        stats_key(Mode.HUMAN_VS_AI)
    with pytest.raises(ValueError, match="an AI-vs-AI stats key needs both sides' difficulties"):
        stats_key(Mode.AI_VS_AI, x_difficulty=EASY)


@pytest.mark.parametrize(
    ("result", "mark", "expected"),
    [
        (Result.X_WON, Player.X, "win"),
        (Result.O_WON, Player.X, "loss"),
        (Result.X_WON, Player.O, "loss"),
        (Result.O_WON, Player.O, "win"),
        (Result.DRAW, Player.O, "draw"),
        (Result.X_WON, None, "x_won"),
        (Result.O_WON, None, "o_won"),
        (Result.DRAW, None, "draw"),
        (Result.ABANDONED, Player.X, None),
        (Result.ABANDONED, None, None),
    ],
)
def test_stats_outcome(result: Result, mark: Player | None, expected: str | None) -> None:
    assert stats_outcome(result, mark) == expected


def test_stats_entry_uses_the_computers_difficulty() -> None:
    assert stats_entry(vs_ai(Result.O_WON, Player.O, EASY)) == ("human_vs_ai/easy", "win")
    assert stats_entry(ai_vs_ai(Result.O_WON, HARD, EASY)) == ("ai_vs_ai/hard-easy", "o_won")
    assert stats_entry(vs_ai(Result.ABANDONED)) is None


def test_result_from_status() -> None:
    assert Result.from_status(Status.IN_PROGRESS) is Result.ABANDONED
    assert Result.from_status(Status.X_WON) is Result.X_WON
    assert Result.from_status(Status.O_WON) is Result.O_WON
    assert Result.from_status(Status.DRAW) is Result.DRAW


def test_stats_record_is_a_copy_and_checks_outcomes() -> None:
    empty = Stats()
    one = empty.record("two_players", "x_won")
    assert empty.count("two_players", "x_won") == 0
    assert one.count("two_players", "x_won") == 1
    assert one.record("two_players", "x_won").count("two_players", "x_won") == 2
    with pytest.raises(ValueError, match="expected one of x_won, o_won, draw for two_players"):
        empty.record("two_players", "win")
    with pytest.raises(ValueError, match="unknown stats key 'human_vs_ai/impossible'"):
        empty.record("human_vs_ai/impossible", "win")


def test_stats_rows_are_ordered_for_the_screen() -> None:
    stats = (
        Stats()
        .record("ai_vs_ai/hard-easy", "x_won")
        .record("ai_vs_ai/easy-hard", "o_won")
        .record("two_players", "draw")
        .record("human_vs_ai/hard", "loss")
        .record("human_vs_ai/hard", "win")
        .record("human_vs_ai/easy", "win")
    )
    rows = stats.rows()
    assert [row.key for row in rows] == [
        "human_vs_ai/easy",
        "human_vs_ai/hard",
        "two_players",
        "ai_vs_ai/easy-hard",
        "ai_vs_ai/hard-easy",
    ]
    hard = rows[1]
    assert hard.mode is Mode.HUMAN_VS_AI
    assert hard.difficulties == (HARD,)
    assert hard.counts == (("win", 1), ("draw", 0), ("loss", 1))
    assert hard.total == 2
    assert rows[3].difficulties == (EASY, HARD)
    assert rows[3].count("o_won") == 1

    blank = Stats().rows(3, include_empty=True)
    assert [row.key for row in blank] == [
        "human_vs_ai/easy",
        "human_vs_ai/medium",
        "human_vs_ai/hard",
        "two_players",
    ]
    assert all(row.total == 0 for row in blank)


SIDES = r"x_difficulty/o_difficulty: expected a difficulty exactly for the computer's side"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: GameRecord(T0.replace(tzinfo=None), T0, Mode.TWO_PLAYERS, None, None, None, (),
                            Result.DRAW),
         "started: expected a time with a time zone"),
        (lambda: GameRecord(T0, T0, Mode.HUMAN_VS_AI, None, HARD, None, (), Result.DRAW),
         "human_mark: a You-vs-AI game needs the human's mark"),
        (lambda: GameRecord(T0, T0, Mode.HUMAN_VS_AI, HARD, HARD, Player.X, (), Result.DRAW),
         SIDES + " in human_vs_ai"),
        (lambda: GameRecord(T0, T0, Mode.HUMAN_VS_AI, None, HARD, Player.O, (), Result.DRAW),
         SIDES + " in human_vs_ai"),
        (lambda: GameRecord(T0, T0, Mode.TWO_PLAYERS, None, None, Player.X, (), Result.DRAW),
         "human_mark: expected null in two_players"),
        (lambda: GameRecord(T0, T0, Mode.AI_VS_AI, HARD, None, None, (), Result.DRAW),
         SIDES + " in ai_vs_ai"),
        (lambda: GameRecord(T0, T0, Mode.TWO_PLAYERS, None, None, None, (1, 1), Result.DRAW),
         r"moves: expected distinct cells 0 to 8, got \[1, 1\]"),
        (lambda: GameRecord(T0, T0, Mode.TWO_PLAYERS, None, None, None, (-1,), Result.DRAW),
         r"moves: expected distinct cells 0 to 8, got \[-1\]"),
        (lambda: GameRecord(T0, T0, Mode.TWO_PLAYERS, None, None, None, (), Result.DRAW,
                            hints_used=-1),
         "hints_used: expected >= 0, got -1"),
    ],
)  # fmt: skip
def test_game_record_rejects_inconsistent_games(
    build: Callable[[], GameRecord], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        build()


# Levels and mixed games ----------------------------------------------------------

GAME_LINE_WITHOUT_LEVELS = (
    '{"version":1,"started":"2026-11-22T06:15:00+00:00","ended":"2026-11-22T06:15:30+00:00",'
    '"mode":"human_vs_ai","x_difficulty":null,"o_difficulty":"easy","human_mark":"X",'
    '"moves":[4,0,8,2,6],"result":"x_won","undo_used":false,"hints_used":0}'
)
"""A line as ttt-tui wrote it before levels were recorded."""


def played(game: Game, *moves: tuple[int, Difficulty | None]) -> Game:
    """``game`` after these moves, each with the level it was computed at (None: a person's)."""
    for cell, level in moves:
        game.play(cell, level)
    return game


def test_side_level() -> None:
    assert side_level([HARD, HARD], EASY) is HARD
    assert side_level([EASY, HARD, EASY], HARD) is MIXED
    assert side_level([], MEDIUM) is MEDIUM  # never moved: the level in force


def test_record_of_a_game_played_at_one_level() -> None:
    game = played(Game(), (0, None), (4, HARD), (1, None), (2, HARD), (6, None))
    record = record_of(ended_game(game, Result.ABANDONED, T0, lambda player: EASY))
    assert record == GameRecord(
        game.started, T0, Mode.HUMAN_VS_AI, None, HARD, Player.X, (0, 4, 1, 2, 6),
        Result.ABANDONED, levels=(None, HARD, None, HARD, None),
    )  # fmt: skip


def test_record_of_a_game_whose_level_changed_is_mixed_and_counts_as_mixed() -> None:
    # Two moves against Easy, then Hard, and X wins: nobody beat Hard.
    game = played(Game(), (0, None), (8, EASY), (1, None), (7, HARD), (2, None))
    record = record_of(ended_game(game, Result.X_WON, T0, lambda player: HARD))
    assert record.o_difficulty is MIXED
    assert record.levels == (None, EASY, None, HARD, None)
    line = json.loads(record.to_json())
    assert line["o_difficulty"] == "mixed"
    assert line["x_difficulty"] is None
    assert line["levels"] == [None, "easy", None, "hard", None]
    assert GameRecord.from_json(record.to_json()) == record
    assert stats_entry(record) == ("human_vs_ai/mixed", "win")


def test_record_of_ai_vs_ai_with_one_engine_switched() -> None:
    game = played(
        Game(mode=Mode.AI_VS_AI), (0, MEDIUM), (3, EASY), (1, MEDIUM), (4, HARD), (2, MEDIUM)
    )
    record = record_of(ended_game(game, Result.X_WON, T0, lambda player: EASY))
    assert (record.x_difficulty, record.o_difficulty) == (MEDIUM, MIXED)
    assert stats_entry(record) == ("ai_vs_ai/mixed", "x_won")


def test_a_side_that_never_moved_is_recorded_at_the_level_in_force() -> None:
    game = played(Game(), (4, None))
    in_force = {Player.X: EASY, Player.O: MEDIUM}
    record = record_of(ended_game(game, Result.ABANDONED, T0, in_force.__getitem__))
    assert (record.x_difficulty, record.o_difficulty, record.levels) == (None, MEDIUM, (None,))


def test_an_old_line_without_levels_still_loads_and_counts_at_its_difficulty() -> None:
    record = GameRecord.from_json(GAME_LINE_WITHOUT_LEVELS)
    assert record.levels is None
    assert record.o_difficulty is EASY
    assert "levels" not in json.loads(record.to_json())
    assert GameRecord.from_json(record.to_json()) == record
    assert stats_entry(record) == ("human_vs_ai/easy", "win")


def with_levels(o_difficulty: Difficulty | Mixed, *levels: Difficulty | None) -> GameRecord:
    """A You-vs-AI record (the computer on O) with these levels."""
    return GameRecord(T0, T0, Mode.HUMAN_VS_AI, None, o_difficulty, Player.X, (4, 0, 8, 2, 6),
                      Result.X_WON, levels=levels)  # fmt: skip


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda: with_levels(HARD, None, HARD), r"levels: expected one per move \(5\), got 2"),
        (lambda: with_levels(HARD, HARD, HARD, None, HARD, None),
         "levels: a person played X, expected null"),
        (lambda: with_levels(HARD, None, HARD, None, None, None),
         "levels: the computer played O, expected a level"),
        (lambda: with_levels(HARD, None, EASY, None, HARD, None),
         "o_difficulty: expected 'mixed' for moves played at easy, hard, got 'hard'"),
        (lambda: with_levels(MIXED, None, HARD, None, HARD, None),
         "o_difficulty: expected 'hard' for moves played at hard, got 'mixed'"),
        (lambda: with_levels(EASY, None, HARD, None, HARD, None),
         "o_difficulty: expected 'hard' for moves played at hard, got 'easy'"),
    ],
)  # fmt: skip
def test_records_whose_levels_disagree_are_rejected(
    build: Callable[[], GameRecord], error: str
) -> None:
    with pytest.raises(ValueError, match=error):
        build()


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ('"levels":"hard"', "levels: expected a list of levels, got 'hard'"),
        ('"levels":[null,"insane",null,"hard",null]',
         "levels: expected one of easy, medium, hard, bot or null, got 'insane'"),
        ('"levels":[null,"easy",null,"easy",null]',
         "o_difficulty: expected 'easy' for moves played at easy, got 'hard'"),
        ('"o_difficulty":"wild"',
         "o_difficulty: expected one of easy, medium, hard, bot, mixed or null, got 'wild'"),
    ],
)  # fmt: skip
def test_bad_levels_in_a_line_are_named(change: str, error: str) -> None:
    line = with_levels(HARD, None, HARD, None, HARD, None).to_json()
    changed = {**json.loads(line), **json.loads("{" + change + "}")}
    with pytest.raises(ValueError, match=re.escape(error)):
        GameRecord.from_json(json.dumps(changed))


def test_mixed_stats_keys_rows_and_file() -> None:
    assert stats_key(Mode.HUMAN_VS_AI, difficulty=MIXED) == "human_vs_ai/mixed"
    assert stats_key(Mode.AI_VS_AI, x_difficulty=HARD, o_difficulty=MIXED) == "ai_vs_ai/mixed"
    assert stats_key(Mode.AI_VS_AI, x_difficulty=MIXED, o_difficulty=EASY) == "ai_vs_ai/mixed"
    stats = (
        Stats()
        .record("ai_vs_ai/mixed", "draw")
        .record("human_vs_ai/mixed", "win")
        .record("human_vs_ai/hard", "loss")
        .record("ai_vs_ai/easy-hard", "x_won")
    )
    rows = stats.rows(3, include_empty=True)
    assert [(row.key, row.mixed) for row in rows] == [
        ("human_vs_ai/easy", False),
        ("human_vs_ai/medium", False),
        ("human_vs_ai/hard", False),
        ("human_vs_ai/mixed", True),
        ("two_players", False),
        ("ai_vs_ai/easy-hard", False),
        ("ai_vs_ai/mixed", True),
    ]
    assert rows[3].difficulties == ()
    assert rows[3].counts == (("win", 1), ("draw", 0), ("loss", 0))
    assert rows[6].counts == (("x_won", 0), ("o_won", 0), ("draw", 1))
    assert Stats.from_json(stats.to_json()) == stats
    with pytest.raises(ValueError, match="unknown stats key 'two_players/mixed'"):
        Stats().record("two_players/mixed", "draw")


def test_a_stats_object_from_before_mixed_rows_and_board_sizes_still_reads() -> None:
    old = {
        "version": 1,
        "counts": {
            "human_vs_ai/hard": {"win": 2, "draw": 1, "loss": 0},
            "two_players": {"x_won": 1, "o_won": 0, "draw": 0},
            "ai_vs_ai/easy-hard": {"x_won": 0, "o_won": 3, "draw": 0},
        },
    }
    # A version 1 object is read as it was, 3x3 keys and all, and written as the current one.
    stats = Stats.from_json(old)
    assert stats.to_json() == {**old, "version": FORMAT_VERSION}
    assert [row.mixed for row in stats.rows()] == [False, False, False]
    assert [row.n for row in stats.rows()] == [3, 3, 3]


def test_recorded_counts_follow_the_rules_of_live_counting(data: Path) -> None:
    mixed = record_of(ended_game(
        played(Game(), (0, None), (8, EASY), (1, None), (7, HARD), (2, None)),
        Result.X_WON, T0, lambda player: HARD,
    ))  # fmt: skip
    recorded = [
        vs_ai(Result.X_WON, Player.X, HARD),
        mixed,
        vs_ai(Result.ABANDONED),
        GameRecord.from_json(GAME_LINE_WITHOUT_LEVELS),
        two_players(Result.O_WON),
        ai_vs_ai(Result.DRAW, EASY, HARD),
        ai_vs_ai(Result.DRAW, EASY, MIXED),
    ]
    store = Store(data)
    for record in recorded:
        store.record_game(record)
    assert Stats.from_records(recorded) == store.load_stats()
    assert store.load_stats().count("human_vs_ai/mixed", "win") == 1
    assert store.load_stats().count("human_vs_ai/hard", "win") == 1
    assert store.load_stats().count("human_vs_ai/easy", "win") == 1  # the line without levels


def test_stats_from_the_database_s_rows_name_what_is_wrong() -> None:
    rows = [("two_players", "draw", 2), ("4x4/human_vs_ai/hard", "win", 1)]
    assert Stats.from_counts(rows) == Stats().record("two_players", "draw").record(
        "two_players", "draw"
    ).record("4x4/human_vs_ai/hard", "win")
    with pytest.raises(ValueError, match="two_players: expected x_won, o_won, draw, got 'win'"):
        Stats.from_counts([("two_players", "win", 1)])
    with pytest.raises(ValueError, match="unknown stats key 'chess'"):
        Stats.from_counts([("chess", "win", 1)])


# Damaged settings ----------------------------------------------------------------------

DAMAGED = {
    "truncated": b'{"version": 1, "difficulty": "ha',
    "empty": b"",
    "whitespace": b"  \n",
    "list": b'[{"version": 1}]',
    "null": b"null",
    "no version": b'{"difficulty": 5}',
    "old version": b'{"version": 0}',
    "version as text": b'{"version": "1"}',
    "not utf-8": b'{"version": 1, "theme": "\xff\xfe"}',
    "binary junk": bytes(range(256)),
}
"""Settings files that are not a usable object at all: set aside whole."""

SETTINGS_BAD_FIELDS = {
    "wrong type": ('"difficulty": 5', "difficulty: expected one of easy, medium, hard, got 5"),
    "unknown difficulty": (
        '"ai_x_difficulty": "impossible"',
        "ai_x_difficulty: expected one of easy, medium, hard, got 'impossible'",
    ),
    "unknown mark": ('"mark": "Z"', "mark: expected one of X, O, got 'Z'"),
    "unknown mode": (
        '"mode": "online"',
        "mode: expected one of human_vs_ai, two_players, ai_vs_ai, got 'online'",
    ),
    "bool as string": ('"coach": "yes"', "coach: expected true or false, got 'yes'"),
    "empty theme": ('"theme": ""', "theme: expected a theme name, got ''"),
    "theme not text": ('"theme": ["gruvbox"]', "theme: expected a theme name, got ['gruvbox']"),
}
"""A bad field (as JSON) among good ones, and how the notice names it."""


def seed_all(data: Path) -> None:
    """Settings and one game (a You-vs-AI win against Hard) saved, as a baseline."""
    store = Store(data)
    store.save_settings(Settings(difficulty=HARD))
    store.record_game(vs_ai(Result.X_WON))
    store.close()


def assert_moved_aside(
    data: Path,
    name: str,
    content: bytes,
    notices: list[str],
    then: str = "started with defaults.",
) -> Path:
    """The damaged file sits at NAME.corrupt-<timestamp>, byte for byte; the notice says so,
    and what was done instead (``then``)."""
    aside = [p for p in data.iterdir() if p.name.startswith(f"{name}.corrupt-")]
    assert len(aside) == 1, sorted(p.name for p in data.iterdir())
    assert re.fullmatch(re.escape(name) + r"\.corrupt-\d{8}T\d{6}Z(-\d+)?", aside[0].name)
    assert aside[0].read_bytes() == content
    assert len(notices) == 1, notices
    assert notices[0].startswith(f"{name} was unreadable")
    assert notices[0].endswith(f"; moved it to {aside[0].name} and {then}"), notices[0]
    return aside[0]


@pytest.mark.parametrize("content", DAMAGED.values(), ids=DAMAGED.keys())
def test_damaged_settings_are_moved_aside(data: Path, content: bytes) -> None:
    seed_all(data)
    (data / "settings.json").write_bytes(content)

    store = Store(data)
    assert store.load_settings() == Settings()
    assert_moved_aside(data, "settings.json", content, notice_texts(store))
    assert not (data / "settings.json").exists()
    assert games_of(store) == [vs_ai(Result.X_WON)]
    assert store.load_stats().count("human_vs_ai/hard", "win") == 1

    store.save_settings(Settings(coach=True))
    assert Store(data).load_settings() == Settings(coach=True)
    assert store.saving is True


def test_corrupt_names_are_unique_within_one_second(data: Path) -> None:
    data.mkdir()
    for content in (b"one", b"two", b"three"):
        (data / "settings.json").write_bytes(content)
        store = Store(data, now=lambda: T0)
        store.load_settings()
        assert len(notice_texts(store)) == 1

    aside = {name: content for name, content in files(data).items() if name.startswith("settings")}
    assert aside == {
        "settings.json.corrupt-20261122T061500Z": b"one",
        "settings.json.corrupt-20261122T061500Z-2": b"two",
        "settings.json.corrupt-20261122T061500Z-3": b"three",
    }


# Settings with some bad fields ---------------------------------------------------

GOOD_SETTINGS = {
    "version": 1,
    "difficulty": "hard",
    "ai_x_difficulty": "easy",
    "mark": "O",
    "mode": "two_players",
    "coach": True,
    "theme": "gruvbox",
}
"""Good values for most fields; a test spoils one."""


@pytest.mark.parametrize(
    ("field", "problem"), SETTINGS_BAD_FIELDS.values(), ids=SETTINGS_BAD_FIELDS.keys()
)
def test_a_bad_settings_field_falls_back_alone(data: Path, field: str, problem: str) -> None:
    seed_all(data)
    spoiled = json.loads("{" + field + "}")
    [name] = spoiled
    content = json.dumps({**GOOD_SETTINGS, **spoiled}).encode()
    (data / "settings.json").write_bytes(content)
    good = settings_from_json(GOOD_SETTINGS)
    expected = settings_from_json({**settings_json(good), name: getattr(Settings(), name)})

    store = Store(data)
    assert store.load_settings() == expected
    [aside] = data.glob("settings.json.corrupt-*")
    assert aside.read_bytes() == content
    assert notice_texts(store) == [
        f"settings.json had 1 bad value ({problem}); moved it to {aside.name}, kept the other"
        f" settings and used the default for {name}."
    ]
    assert read_json(data / "settings.json") == settings_json(expected)
    assert games_of(store) == [vs_ai(Result.X_WON)]
    fresh = Store(data)
    assert fresh.load_settings() == expected
    assert notice_texts(fresh) == []


def test_several_bad_settings_and_an_unknown_theme_are_all_named(data: Path) -> None:
    data.mkdir()
    content = b'{"version": 1, "difficulty": "hard", "mark": 1, "coach": "yes", "theme": "neon"}'
    (data / "settings.json").write_bytes(content)

    store = Store(data)
    assert store.load_settings(themes={"textual-dark", "gruvbox"}) == Settings(difficulty=HARD)
    [notice] = notice_texts(store)
    assert re.fullmatch(
        re.escape(
            "settings.json had 3 bad values (mark: expected one of X, O, got 1; coach: expected"
            " true or false, got 'yes'; theme: no theme is named 'neon'); moved it to"
            " settings.json.corrupt-"
        )
        + r"\d{8}T\d{6}Z"
        + re.escape(", kept the other settings and used the defaults for mark, coach and theme."),
        notice,
    ), notice
    assert read_json(data / "settings.json") == settings_json(Settings(difficulty=HARD))


def test_a_known_theme_is_kept_and_without_a_list_any_name_is(data: Path) -> None:
    data.mkdir()
    (data / "settings.json").write_text('{"version": 1, "theme": "gruvbox"}')

    assert Store(data).load_settings(themes={"gruvbox"}) == Settings(theme="gruvbox")
    assert Store(data).load_settings() == Settings(theme="gruvbox")
    assert list(data.iterdir()) == [data / "settings.json"]  # nothing repaired, nothing set aside


def test_settings_from_json_is_still_strict() -> None:
    with pytest.raises(ValueError, match="coach: expected true or false, got 'yes'"):
        settings_from_json({"version": 1, "coach": "yes", "theme": ""})
    settings, problems = read_settings({"coach": "yes", "theme": "", "mark": "O"})
    assert settings == Settings(mark=Player.O)
    assert problems == [
        "coach: expected true or false, got 'yes'",
        "theme: expected a theme name, got ''",
    ]


# A settings file from a newer ttt-tui ----------------------------------------------------


def test_newer_settings_are_left_alone(data: Path) -> None:
    data.mkdir()
    newer = b'{"version": 3, "difficulty": "grandmaster", "mark": "X"}'
    (data / "settings.json").write_bytes(newer)

    store = Store(data)
    assert store.load_settings() == Settings()
    assert notice_texts(store) == [
        "settings.json was written by a newer ttt-tui (format version 3); left it untouched"
        " and will not save to it this session, using defaults instead."
    ]
    store.save_settings(Settings(difficulty=HARD))
    store.record_game(vs_ai(Result.O_WON))

    assert (data / "settings.json").read_bytes() == newer
    assert store.load_settings() == Settings(difficulty=HARD)  # kept in memory
    assert store.saving is True
    assert notice_texts(store) == []
    assert games_of(Store(data)) == [vs_ai(Result.O_WON)]  # the games are saved all the same


# Directories that refuse -------------------------------------------------------------

SAVING_OFF = re.compile(
    r"Could not (create|open|read|write|move aside) .+ \((?P<reason>.+)\)\. Saving is off for"
    r" this session; settings, stats and games are kept in memory until you quit\."
)


def reason(notice: str) -> str:
    """The reason in a saving-off notice; fails if the notice is not one."""
    match = SAVING_OFF.fullmatch(notice)
    assert match is not None, notice
    return match["reason"]


def assert_works_in_memory(store: Store) -> None:
    """Everything still answers from memory, and nothing adds another notice."""
    store.save_settings(Settings(mark=Player.O))
    store.record_game(vs_ai(Result.O_WON, Player.O, EASY))
    store.record_game(vs_ai(Result.DRAW, Player.O, EASY))
    store.reset_stats()
    store.record_game(vs_ai(Result.X_WON, Player.O, EASY))
    assert store.load_settings() == Settings(mark=Player.O)
    assert store.load_stats().counts == {"human_vs_ai/easy": {"win": 0, "draw": 0, "loss": 1}}
    assert vs_ai(Result.X_WON, Player.O, EASY) in games_of(store)
    assert store.saving is False
    assert notice_texts(store) == []


def test_permission_denied_on_a_settings_write(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed_all(data)
    before = files(data)

    def refuse(src: Any, dst: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    store = Store(data)
    assert store.load_settings() == Settings(difficulty=HARD)
    assert store.load_stats().count("human_vs_ai/hard", "win") == 1
    store.save_settings(Settings())

    [notice] = notice_texts(store)
    assert reason(notice) == "Permission denied"
    assert str(data / "settings.json") in notice
    # The counts saved so far go on in memory, with the games played from now on.
    store.record_game(vs_ai(Result.X_WON))
    assert store.load_stats().count("human_vs_ai/hard", "win") == 2
    assert_works_in_memory(store)
    store.close()
    assert files(data) == before  # settings and games intact, no temp file left
    assert records(data) == [json.loads(vs_ai(Result.X_WON).to_json())]


def test_regular_file_where_the_directory_should_be(tmp_path: Path) -> None:
    occupied = tmp_path / "data"
    occupied.write_bytes(b"not a directory")

    store = Store(occupied)
    assert store.saving is False
    [notice] = notice_texts(store)
    assert reason(notice) == "File exists"
    assert notice.startswith(f"Could not create {occupied} (")
    assert store.load_settings() == Settings()
    assert_works_in_memory(store)
    assert occupied.read_bytes() == b"not a directory"


def test_parent_is_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"x")

    store = Store(tmp_path / "file" / "ttt-tui")
    [notice] = notice_texts(store)
    assert reason(notice) == "Not a directory"
    assert_works_in_memory(store)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_unreadable_settings_turn_saving_off_instead_of_overwriting(data: Path) -> None:
    (data / "settings.json").mkdir(parents=True)

    store = Store(data)
    assert store.load_settings() == Settings()
    [notice] = notice_texts(store)
    assert notice.startswith(f"Could not read {data / 'settings.json'} (")
    assert_works_in_memory(store)
    assert (data / "settings.json").is_dir()
    assert records(data) == []


# Where the files live ------------------------------------------------------------------


def test_data_dir_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "elsewhere"))
    assert default_data_dir() == tmp_path / "elsewhere"

    store = Store()
    assert store.directory == tmp_path / "elsewhere"
    store.save_settings(Settings(theme="nord"))
    store.record_game(two_players(Result.DRAW))
    assert read_json(tmp_path / "elsewhere" / "settings.json")["theme"] == "nord"
    assert len(records(tmp_path / "elsewhere")) == 1


@pytest.mark.parametrize(
    ("directory", "env", "platform_dir"),
    [
        (default_data_dir, "TTT_TUI_DATA_DIR", platformdirs.user_data_dir),
    ],
    ids=["data"],
)
def test_the_platform_s_directory_without_override(
    directory: Callable[[], Path],
    env: str,
    platform_dir: Callable[..., str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(env, raising=False)
    expected = Path(platform_dir("ttt-tui", appauthor=False))
    assert directory() == expected
    monkeypatch.setenv(env, "")
    assert directory() == expected


def test_disabled_store_reads_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "default"))
    seeded = tmp_path / "seeded"
    seed_all(seeded)
    before = files(seeded)

    for store in (Store(enabled=False), Store(seeded, enabled=False)):
        assert store.directory is None
        assert store.saving is False
        assert store.load_settings() == Settings()
        assert store.load_stats() == Stats()
        assert games_of(store) == []
        store.save_settings(Settings(coach=True))
        store.record_game(two_players(Result.DRAW))
        store.reset_stats()
        store.record_game(two_players(Result.X_WON))
        assert store.load_settings() == Settings(coach=True)
        assert store.load_stats().counts == {"two_players": {"x_won": 1, "o_won": 0, "draw": 0}}
        assert len(games_of(store)) == 2
        assert notice_texts(store) == []

    assert sorted(p.name for p in tmp_path.iterdir()) == ["seeded"]
    assert files(seeded) == before


# Temporary files of the settings ---------------------------------------------------------


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temp_settings_of_dead_writers_are_removed_and_never_read(data: Path) -> None:
    seed_all(data)
    before = files(data)
    dead = dead_pid()
    leftover = {f".settings.json.{dead}.0badc0de.tmp": b'{"version": 1, "difficulty": "ea'}
    alive = {f".settings.json.{os.getpid()}.abcdef01.tmp": b"{}"}
    unrelated = {"notes.txt": b"mine", ".settings.json.tmp": b"not our pattern"}
    for name, content in {**leftover, **alive, **unrelated}.items():
        (data / name).write_bytes(content)

    store = Store(data)
    assert store.load_settings() == Settings(difficulty=HARD)
    assert notice_texts(store) == []
    assert files(data) == {**before, **alive, **unrelated}


def test_old_temp_settings_are_removed_even_if_the_pid_is_alive(data: Path) -> None:
    data.mkdir()
    old = data / f".settings.json.{os.getpid()}.abcdef01.tmp"
    old.write_bytes(b"{}")
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))

    Store(data)
    assert not old.exists()


# Durability: what is synced, and in what order ------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="directories are fsynced on POSIX only")
def test_each_file_is_synced_before_its_rename_and_its_directory_after(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rename survives a power cut only once its directory is synced. No test can cut
    the power, so this checks the calls: every file renamed into place (a save, a file
    moved aside) had its data fsynced before the rename, and its directory is fsynced
    after it, before anything else is renamed. (The database syncs itself: SQLite.)"""
    data.mkdir()
    (data / "settings.json").write_bytes(b"{broken")
    opened: dict[int, Path] = {}
    calls: list[tuple[str, Path, Path | None]] = []
    real_open, real_fsync, real_replace = os.open, os.fsync, os.replace

    def watched_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        fd = real_open(path, flags, *args, **kwargs)
        opened[fd] = Path(path)
        return fd

    def watched_fsync(fd: int) -> None:
        real_fsync(fd)
        calls.append(("fsync", opened[fd], None))

    def watched_replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        real_replace(src, dst, *args, **kwargs)
        calls.append(("replace", Path(src), Path(dst)))

    monkeypatch.setattr(os, "open", watched_open)
    monkeypatch.setattr(os, "fsync", watched_fsync)
    monkeypatch.setattr(os, "replace", watched_replace)

    store = Store(data)
    store.save_settings(Settings(difficulty=HARD))  # moves the broken file aside, then saves
    store.save_settings(Settings(difficulty=EASY))
    monkeypatch.undo()

    renames = [(i, src, dst) for i, (call, src, dst) in enumerate(calls) if call == "replace"]
    renamed_to = [dst.name for _, _, dst in renames if dst is not None]
    assert renamed_to.count("settings.json") == 2
    assert any(name.startswith("settings.json.corrupt-") for name in renamed_to)
    ends = [i for i, _, _ in renames[1:]] + [len(calls)]
    for (i, src, dst), end in zip(renames, ends, strict=True):
        assert dst is not None
        if not dst.name.startswith("settings.json.corrupt-"):
            # A new file: its data reached the disk before it took the old one's name.
            assert ("fsync", src, None) in calls[:i], f"{src.name} renamed before it was synced"
        synced_after = [path for call, path, _ in calls[i + 1 : end] if call == "fsync"]
        assert dst.parent in synced_after, f"no fsync of the directory after renaming {dst.name}"
    assert read_json(data / "settings.json")["difficulty"] == "easy"
