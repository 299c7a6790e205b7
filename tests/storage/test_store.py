"""Settings, stats and game records on disk: round trips, damage, failures and kills."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from tests.support.terminal import ROOT
from ttt_tui.engine import Difficulty, Player, Status
from ttt_tui.play.game import Game, ended_game
from ttt_tui.play.results import Result, stats_outcome
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.storage import (
    FORMAT_VERSION,
    MIXED,
    GameRecord,
    Mixed,
    Stats,
    Store,
    default_data_dir,
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
DATA_FILES = {"settings.json", "stats.json", "games.jsonl"}
TEMP_NAME = re.compile(r"^\.(settings\.json|stats\.json|games\.jsonl)\.\d+\.[0-9a-f]+\.tmp$")


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


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file in ``directory`` by name, with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


# Round trips and defaults -------------------------------------------------------


def test_defaults_when_nothing_is_saved_and_loading_writes_nothing(data: Path) -> None:
    store = Store(data)

    assert store.load_settings() == Settings()
    assert Settings() == Settings(MEDIUM, MEDIUM, MEDIUM, Player.X, Mode.HUMAN_VS_AI,
                                  BoardSize.THREE, False, False, "textual-dark")  # fmt: skip
    assert store.load_stats() == Stats()
    assert store.load_games() == []
    assert store.take_notices() == []
    assert store.saving is True
    assert list(data.iterdir()) == []


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
    assert store.take_notices() == []


def test_settings_missing_keys_take_defaults(data: Path) -> None:
    data.mkdir()
    (data / "settings.json").write_text('{"version": 1, "coach": true}')

    store = Store(data)
    assert store.load_settings() == Settings(coach=True)
    assert store.take_notices() == []


def test_games_and_stats_round_trip(data: Path) -> None:
    store = Store(data)
    records = [
        vs_ai(Result.X_WON, Player.X, HARD, undo_used=True, hints_used=3),
        vs_ai(Result.X_WON, Player.O, EASY),
        vs_ai(Result.DRAW, Player.O, EASY),
        vs_ai(Result.ABANDONED, Player.X, HARD),
        two_players(Result.O_WON),
        ai_vs_ai(Result.DRAW, EASY, HARD),
        ai_vs_ai(Result.X_WON, HARD, HARD),
    ]
    for record in records:
        store.record_game(record)

    lines = (data / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(records)
    first = json.loads(lines[0])
    assert first == {
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
    assert datetime.fromisoformat(first["started"]).tzinfo is not None
    assert [json.loads(line)["result"] for line in lines] == [r.result.value for r in records]

    assert read_json(data / "stats.json") == {
        "version": FORMAT_VERSION,
        "counts": {
            "human_vs_ai/easy": {"win": 0, "draw": 1, "loss": 1},
            "human_vs_ai/hard": {"win": 1, "draw": 0, "loss": 0},
            "two_players": {"x_won": 0, "o_won": 1, "draw": 0},
            "ai_vs_ai/easy-hard": {"x_won": 0, "o_won": 0, "draw": 1},
            "ai_vs_ai/hard-hard": {"x_won": 1, "o_won": 0, "draw": 0},
        },
    }

    fresh = Store(data)
    assert fresh.load_games() == records
    assert fresh.load_stats() == store.load_stats()
    assert fresh.take_notices() == []


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


def test_reset_stats_keeps_games(data: Path) -> None:
    store = Store(data)
    store.record_game(vs_ai(Result.X_WON))
    store.reset_stats()

    assert read_json(data / "stats.json") == {"version": FORMAT_VERSION, "counts": {}}
    assert store.load_stats() == Stats()
    assert Store(data).load_games() == [vs_ai(Result.X_WON)]


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


def test_a_stats_file_from_before_mixed_rows_and_board_sizes_still_loads(data: Path) -> None:
    data.mkdir()
    old = {
        "version": 1,
        "counts": {
            "human_vs_ai/hard": {"win": 2, "draw": 1, "loss": 0},
            "two_players": {"x_won": 1, "o_won": 0, "draw": 0},
            "ai_vs_ai/easy-hard": {"x_won": 0, "o_won": 3, "draw": 0},
        },
    }
    (data / "stats.json").write_text(json.dumps(old))

    store = Store(data)
    # A version 1 file is read as it was, 3x3 keys and all, and would be written as version 2.
    assert store.load_stats().to_json() == {**old, "version": FORMAT_VERSION}
    assert [row.mixed for row in store.load_stats().rows()] == [False, False, False]
    assert [row.n for row in store.load_stats().rows()] == [3, 3, 3]
    assert store.take_notices() == []


def test_rebuilt_counts_follow_the_rules_of_live_counting(data: Path) -> None:
    mixed = record_of(ended_game(
        played(Game(), (0, None), (8, EASY), (1, None), (7, HARD), (2, None)),
        Result.X_WON, T0, lambda player: HARD,
    ))  # fmt: skip
    records = [
        vs_ai(Result.X_WON, Player.X, HARD),
        mixed,
        vs_ai(Result.ABANDONED),
        GameRecord.from_json(GAME_LINE_WITHOUT_LEVELS),
        two_players(Result.O_WON),
        ai_vs_ai(Result.DRAW, EASY, HARD),
        ai_vs_ai(Result.DRAW, EASY, MIXED),
    ]
    store = Store(data)
    for record in records:
        store.record_game(record)
    assert Stats.from_records(records) == store.load_stats()
    assert Stats.from_records(records).count("human_vs_ai/mixed", "win") == 1
    assert Stats.from_records(records).count("human_vs_ai/hard", "win") == 1


# Damaged files ---------------------------------------------------------------------

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

SETTINGS_DAMAGE = DAMAGED
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

STATS_DAMAGE = {
    **DAMAGED,
    "counts not object": b'{"version": 1, "counts": []}',
    "unknown key": b'{"version": 1, "counts": {"human_vs_ai/impossible": {"win": 1}}}',
    "unknown outcome": b'{"version": 1, "counts": {"two_players": {"win": 1}}}',
    "negative count": b'{"version": 1, "counts": {"two_players": {"draw": -1}}}',
    "bool count": b'{"version": 1, "counts": {"two_players": {"draw": true}}}',
    "float count": b'{"version": 1, "counts": {"two_players": {"draw": 1.5}}}',
}


def seed_all(data: Path) -> dict[str, bytes]:
    """Valid versions of all three files, as a baseline for "untouched"."""
    store = Store(data)
    store.save_settings(Settings(difficulty=HARD))
    store.record_game(vs_ai(Result.X_WON))
    return snapshot(data)


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


@pytest.mark.parametrize("content", SETTINGS_DAMAGE.values(), ids=SETTINGS_DAMAGE.keys())
def test_damaged_settings_are_moved_aside(data: Path, content: bytes) -> None:
    before = seed_all(data)
    (data / "settings.json").write_bytes(content)

    store = Store(data)
    assert store.load_settings() == Settings()
    assert_moved_aside(data, "settings.json", content, store.take_notices())
    assert not (data / "settings.json").exists()
    assert snapshot(data)["stats.json"] == before["stats.json"]
    assert snapshot(data)["games.jsonl"] == before["games.jsonl"]
    assert store.load_stats().count("human_vs_ai/hard", "win") == 1

    store.save_settings(Settings(coach=True))
    assert Store(data).load_settings() == Settings(coach=True)
    assert store.saving is True


@pytest.mark.parametrize("content", STATS_DAMAGE.values(), ids=STATS_DAMAGE.keys())
def test_damaged_stats_are_moved_aside_and_rebuilt_from_the_games(
    data: Path, content: bytes
) -> None:
    before = seed_all(data)  # one You-vs-AI win against Hard
    (data / "stats.json").write_bytes(content)

    store = Store(data)
    rebuilt = {"human_vs_ai/hard": {"win": 1, "draw": 0, "loss": 0}}
    assert store.load_stats().counts == rebuilt
    assert_moved_aside(data, "stats.json", content, store.take_notices(),
                       "rebuilt the counts from the 1 game in games.jsonl.")  # fmt: skip
    assert read_json(data / "stats.json")["counts"] == rebuilt
    assert snapshot(data)["settings.json"] == before["settings.json"]
    assert snapshot(data)["games.jsonl"] == before["games.jsonl"]

    store.record_game(two_players(Result.DRAW))
    assert read_json(data / "stats.json")["counts"] == {
        **rebuilt,
        "two_players": {"x_won": 0, "o_won": 0, "draw": 1},
    }
    assert store.take_notices() == []


def test_damaged_stats_with_no_games_start_from_zero(data: Path) -> None:
    data.mkdir()
    (data / "stats.json").write_bytes(b"{")

    store = Store(data)
    assert store.load_stats() == Stats()
    assert_moved_aside(data, "stats.json", b"{", store.take_notices())
    assert not (data / "stats.json").exists()


def test_damaged_stats_found_while_recording_are_moved_aside(data: Path) -> None:
    store = Store(data)
    store.record_game(two_players(Result.DRAW))
    (data / "stats.json").write_bytes(b'{"version": 1, "counts": {"two_players": {"dr')

    store.record_game(two_players(Result.X_WON))

    assert_moved_aside(data, "stats.json", b'{"version": 1, "counts": {"two_players": {"dr',
                       store.take_notices(),
                       "rebuilt the counts from the 1 game in games.jsonl.")  # fmt: skip
    assert read_json(data / "stats.json")["counts"]["two_players"] == {
        "x_won": 1, "o_won": 0, "draw": 1
    }  # fmt: skip
    assert len(Store(data).load_games()) == 2


def test_damaged_game_lines_are_moved_aside_and_the_good_ones_kept(data: Path) -> None:
    store = Store(data)
    store.record_game(vs_ai(Result.X_WON))
    store.record_game(two_players(Result.DRAW))
    good = (data / "games.jsonl").read_bytes()
    damaged = (
        good
        + b'{"version": 1, "mode": "two_players"}\n'  # missing fields
        + b'{"version": 1, "started": "2026-11-22T06:15:00+00:00", "ended": "x"}\n'
        + b"\xff\xfe\n"
        + b'{"version": 1, "started": "2026-11-2'  # torn last line
    )
    (data / "games.jsonl").write_bytes(damaged)
    stats_before = (data / "stats.json").read_bytes()

    store = Store(data)
    assert store.load_games() == [vs_ai(Result.X_WON), two_players(Result.DRAW)]
    notices = store.take_notices()
    assert len(notices) == 1
    assert re.fullmatch(
        r"games\.jsonl had 4 unreadable lines \(line 3: missing started\); moved it to "
        r"games\.jsonl\.corrupt-\d{8}T\d{6}Z and kept the 2 readable games\.",
        notices[0],
    ), notices[0]
    [aside] = data.glob("games.jsonl.corrupt-*")
    assert aside.read_bytes() == damaged
    assert (data / "games.jsonl").read_bytes() == good
    assert (data / "stats.json").read_bytes() == stats_before

    store.record_game(ai_vs_ai(Result.DRAW))
    assert len(Store(data).load_games()) == 3
    assert store.take_notices() == []


def test_damaged_games_found_while_recording(data: Path) -> None:
    data.mkdir()
    (data / "games.jsonl").write_bytes(b"[]\n")

    store = Store(data)
    store.record_game(two_players(Result.DRAW))

    notices = store.take_notices()
    assert len(notices) == 1 and "kept the 0 readable games" in notices[0]
    assert Store(data).load_games() == [two_players(Result.DRAW)]


def test_empty_games_file_is_just_no_games(data: Path) -> None:
    data.mkdir()
    (data / "games.jsonl").write_bytes(b"")

    store = Store(data)
    assert store.load_games() == []
    assert store.take_notices() == []


def test_corrupt_names_are_unique_within_one_second(data: Path) -> None:
    data.mkdir()
    for content in (b"one", b"two", b"three"):
        (data / "settings.json").write_bytes(content)
        store = Store(data, now=lambda: T0)
        store.load_settings()
        assert len(store.take_notices()) == 1

    assert snapshot(data) == {
        "settings.json.corrupt-20261122T061500Z": b"one",
        "settings.json.corrupt-20261122T061500Z-2": b"two",
        "settings.json.corrupt-20261122T061500Z-3": b"three",
    }


def test_a_rebuild_counts_only_the_games_since_the_last_reset(data: Path) -> None:
    store = Store(data, now=lambda: T0)
    store.record_game(vs_ai(Result.X_WON))
    store.record_game(vs_ai(Result.O_WON))
    store.reset_stats()
    lines = (data / "games.jsonl").read_text().splitlines()
    reset = {"version": FORMAT_VERSION, "stats_reset": "2026-11-22T06:15:00+00:00"}
    assert json.loads(lines[-1]) == reset
    store.reset_stats()  # nothing recorded since the last reset: nothing to mark
    assert (data / "games.jsonl").read_text().splitlines() == lines

    # Damaged right after the reset: the reset counts stay zero.
    (data / "stats.json").write_bytes(b"")
    fresh = Store(data)
    assert fresh.load_stats() == Stats()
    [notice] = fresh.take_notices()
    assert notice.endswith(
        "and rebuilt the counts from the 0 games in games.jsonl since the stats were last reset."
    ), notice
    assert read_json(data / "stats.json") == {"version": FORMAT_VERSION, "counts": {}}

    # A game after the reset, then damage again: only that game comes back.
    fresh.record_game(two_players(Result.DRAW))
    (data / "stats.json").write_bytes(b'{"version": 1, "counts": {"two_players": 3}}')
    again = Store(data)
    assert again.load_stats().counts == {"two_players": {"x_won": 0, "o_won": 0, "draw": 1}}
    [notice] = again.take_notices()
    assert notice.startswith("stats.json was unreadable (two_players: expected a JSON object")
    assert notice.endswith("from the 1 game in games.jsonl since the stats were last reset.")
    assert again.load_games() == [vs_ai(Result.X_WON), vs_ai(Result.O_WON),
                                  two_players(Result.DRAW)]  # fmt: skip


def test_a_damaged_reset_line_is_set_aside_like_a_damaged_game(data: Path) -> None:
    store = Store(data)
    store.record_game(two_players(Result.DRAW))
    with (data / "games.jsonl").open("a") as games:
        games.write('{"version": 1, "stats_reset": "yesterday"}\n')

    store = Store(data)
    assert store.load_games() == [two_players(Result.DRAW)]
    [notice] = store.take_notices()
    assert notice.startswith(
        "games.jsonl had 1 unreadable line (line 2: stats_reset: expected an ISO 8601 time,"
        " got 'yesterday'); moved it to games.jsonl.corrupt-"
    ), notice


def test_damaged_stats_and_damaged_games_rebuild_from_the_readable_games(data: Path) -> None:
    store = Store(data)
    store.record_game(two_players(Result.X_WON))
    store.record_game(two_players(Result.O_WON))
    with (data / "games.jsonl").open("ab") as games:
        games.write(b'{"version": 1, "started": "2026-11-2')
    (data / "stats.json").write_bytes(b"[]")

    store = Store(data)
    assert store.load_stats().counts == {"two_players": {"x_won": 1, "o_won": 1, "draw": 0}}
    games_notice, stats_notice = store.take_notices()
    assert games_notice.startswith("games.jsonl had 1 unreadable line (line 3:")
    assert stats_notice.startswith("stats.json was unreadable (top level: expected a JSON object")
    assert stats_notice.endswith("and rebuilt the counts from the 2 games in games.jsonl.")


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
    before = seed_all(data)
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
    assert store.take_notices() == [
        f"settings.json had 1 bad value ({problem}); moved it to {aside.name}, kept the other"
        f" settings and used the default for {name}."
    ]
    assert read_json(data / "settings.json") == settings_json(expected)
    assert snapshot(data)["stats.json"] == before["stats.json"]
    assert snapshot(data)["games.jsonl"] == before["games.jsonl"]
    fresh = Store(data)
    assert fresh.load_settings() == expected
    assert fresh.take_notices() == []


def test_several_bad_settings_and_an_unknown_theme_are_all_named(data: Path) -> None:
    data.mkdir()
    content = b'{"version": 1, "difficulty": "hard", "mark": 1, "coach": "yes", "theme": "neon"}'
    (data / "settings.json").write_bytes(content)

    store = Store(data)
    assert store.load_settings(themes={"textual-dark", "gruvbox"}) == Settings(difficulty=HARD)
    [notice] = store.take_notices()
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
    assert list(data.iterdir()) == [data / "settings.json"]


def test_settings_from_json_is_still_strict() -> None:
    with pytest.raises(ValueError, match="coach: expected true or false, got 'yes'"):
        settings_from_json({"version": 1, "coach": "yes", "theme": ""})
    settings, problems = read_settings({"coach": "yes", "theme": "", "mark": "O"})
    assert settings == Settings(mark=Player.O)
    assert problems == [
        "coach: expected true or false, got 'yes'",
        "theme: expected a theme name, got ''",
    ]


# Files from a newer ttt-tui --------------------------------------------------------


def test_newer_settings_are_left_alone(data: Path) -> None:
    data.mkdir()
    newer = b'{"version": 3, "difficulty": "grandmaster", "mark": "X"}'
    (data / "settings.json").write_bytes(newer)

    store = Store(data)
    assert store.load_settings() == Settings()
    assert store.take_notices() == [
        "settings.json was written by a newer ttt-tui (format version 3); left it untouched"
        " and will not save to it this session, using defaults instead."
    ]
    store.save_settings(Settings(difficulty=HARD))
    store.record_game(vs_ai(Result.O_WON))

    assert (data / "settings.json").read_bytes() == newer
    assert sorted(p.name for p in data.iterdir()) == ["games.jsonl", "settings.json", "stats.json"]
    assert store.load_settings() == Settings(difficulty=HARD)  # kept in memory
    assert store.saving is True
    assert store.take_notices() == []


def test_newer_stats_are_left_alone_but_games_still_recorded(data: Path) -> None:
    data.mkdir()
    newer = b'{"version": 7, "counts": {"online": {}}}'
    (data / "stats.json").write_bytes(newer)

    store = Store(data)
    store.record_game(two_players(Result.X_WON))
    store.reset_stats()
    store.record_game(two_players(Result.O_WON))

    assert (data / "stats.json").read_bytes() == newer
    [notice] = store.take_notices()
    assert notice.startswith("stats.json was written by a newer ttt-tui (format version 7)")
    assert store.load_stats().counts == {"two_players": {"x_won": 0, "o_won": 1, "draw": 0}}
    assert len(Store(data).load_games()) == 2


def test_newer_game_lines_freeze_the_games_file(data: Path) -> None:
    store = Store(data)
    store.record_game(two_players(Result.DRAW))
    with (data / "games.jsonl").open("ab") as games:
        games.write(b'{"version": 3, "board": "9x9"}\n')
    before = (data / "games.jsonl").read_bytes()

    store = Store(data)
    store.record_game(two_players(Result.X_WON))

    assert (data / "games.jsonl").read_bytes() == before
    assert list(data.glob("*.corrupt-*")) == []
    [notice] = store.take_notices()
    assert notice.startswith("games.jsonl was written by a newer ttt-tui (format version 3)")
    assert store.load_games() == [two_players(Result.X_WON)]
    assert read_json(data / "stats.json")["counts"]["two_players"] == {
        "x_won": 1, "o_won": 0, "draw": 1
    }  # fmt: skip


# Directories and disks that refuse ---------------------------------------------------

SAVING_OFF = re.compile(
    r"Could not (create|read|write|move aside) .+ \((?P<reason>.+)\)\. Saving is off for this"
    r" session; settings, stats and games are kept in memory until you quit\."
)


def reason(notice: str) -> str:
    """The OS's reason in a saving-off notice; fails if the notice is not one."""
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
    assert vs_ai(Result.X_WON, Player.O, EASY) in store.load_games()
    assert store.saving is False
    assert store.take_notices() == []


def writes_are_blocked(directory: Path) -> bool:
    try:
        (directory / "probe").write_bytes(b"")
    except PermissionError:
        return True
    (directory / "probe").unlink()
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_read_only_directory_with_real_permissions(data: Path) -> None:
    before = seed_all(data)
    data.chmod(0o500)
    try:
        if not writes_are_blocked(data):
            pytest.skip(
                "running as root: chmod does not stop writes; "
                "test_permission_denied_on_write covers this case"
            )
        store = Store(data)
        assert store.load_settings() == Settings(difficulty=HARD)
        store.save_settings(Settings())
        [notice] = store.take_notices()
        assert reason(notice) == "Permission denied"
        assert_works_in_memory(store)
    finally:
        data.chmod(0o700)
    assert snapshot(data) == before


def test_permission_denied_on_write(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = seed_all(data)

    def refuse(src: Any, dst: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    store = Store(data)
    assert store.load_settings() == Settings(difficulty=HARD)
    store.save_settings(Settings())

    [notice] = store.take_notices()
    assert reason(notice) == "Permission denied"
    assert str(data / "settings.json") in notice
    assert_works_in_memory(store)
    assert snapshot(data) == before  # old files intact, no temp files left


def test_disk_full(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = seed_all(data)
    store = Store(data)
    assert store.load_stats().count("human_vs_ai/hard", "win") == 1

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    store.record_game(vs_ai(Result.X_WON))
    store.record_game(vs_ai(Result.X_WON))
    store.save_settings(Settings(coach=True))

    [notice] = store.take_notices()
    assert reason(notice) == "No space left on device"
    assert "games.jsonl" in notice
    assert store.load_stats().count("human_vs_ai/hard", "win") == 3
    assert len(store.load_games()) == 3
    assert store.load_settings() == Settings(coach=True)
    assert_works_in_memory(store)
    monkeypatch.undo()
    assert snapshot(data) == before


def test_regular_file_where_the_directory_should_be(tmp_path: Path) -> None:
    occupied = tmp_path / "data"
    occupied.write_bytes(b"not a directory")

    store = Store(occupied)
    assert store.saving is False
    [notice] = store.take_notices()
    assert reason(notice) == "File exists"
    assert notice.startswith(f"Could not create {occupied} (")
    assert store.load_settings() == Settings()
    assert_works_in_memory(store)
    assert occupied.read_bytes() == b"not a directory"


def test_parent_is_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"x")

    store = Store(tmp_path / "file" / "ttt-tui")
    [notice] = store.take_notices()
    assert reason(notice) == "Not a directory"
    assert_works_in_memory(store)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_unreadable_file_turns_saving_off_instead_of_overwriting(data: Path) -> None:
    (data / "settings.json").mkdir(parents=True)

    store = Store(data)
    assert store.load_settings() == Settings()
    [notice] = store.take_notices()
    assert notice.startswith(f"Could not read {data / 'settings.json'} (")
    assert_works_in_memory(store)
    assert (data / "settings.json").is_dir()


# Where the files live ------------------------------------------------------------------


def test_data_dir_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "elsewhere"))
    assert default_data_dir() == tmp_path / "elsewhere"

    store = Store()
    assert store.directory == tmp_path / "elsewhere"
    store.save_settings(Settings(theme="nord"))
    assert read_json(tmp_path / "elsewhere" / "settings.json")["theme"] == "nord"


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
    before = seed_all(seeded)

    for store in (Store(enabled=False), Store(seeded, enabled=False)):
        assert store.directory is None
        assert store.saving is False
        assert store.load_settings() == Settings()
        assert store.load_stats() == Stats()
        assert store.load_games() == []
        store.save_settings(Settings(coach=True))
        store.record_game(two_players(Result.DRAW))
        assert store.load_settings() == Settings(coach=True)
        assert store.load_stats().count("two_players", "draw") == 1
        assert store.take_notices() == []

    assert sorted(p.name for p in tmp_path.iterdir()) == ["seeded"]
    assert snapshot(seeded) == before


# Temporary files ----------------------------------------------------------------------


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temp_files_of_dead_writers_are_removed_and_never_read(data: Path) -> None:
    before = seed_all(data)
    dead = dead_pid()
    leftovers = {
        f".settings.json.{dead}.0badc0de.tmp": b'{"version": 1, "difficulty": "ea',
        f".games.jsonl.{dead}.12345678.tmp": b"garbage",
    }
    alive = {f".stats.json.{os.getpid()}.abcdef01.tmp": b"{}"}
    unrelated = {"notes.txt": b"mine", ".settings.json.tmp": b"not our pattern"}
    for name, content in {**leftovers, **alive, **unrelated}.items():
        (data / name).write_bytes(content)

    store = Store(data)
    assert store.load_settings() == Settings(difficulty=HARD)
    assert store.load_stats().count("human_vs_ai/hard", "win") == 1
    assert store.take_notices() == []
    assert snapshot(data) == {**before, **alive, **unrelated}


def test_old_temp_files_are_removed_even_if_the_pid_is_alive(data: Path) -> None:
    data.mkdir()
    old = data / f".stats.json.{os.getpid()}.abcdef01.tmp"
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
    after it, before anything else is renamed."""
    data.mkdir()
    (data / "stats.json").write_bytes(b"{broken")
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
    store.load_stats()  # moves the broken file aside
    store.save_settings(Settings(difficulty=HARD))
    store.record_game(vs_ai(Result.X_WON))
    store.reset_stats()
    monkeypatch.undo()

    renames = [(i, src, dst) for i, (call, src, dst) in enumerate(calls) if call == "replace"]
    renamed_to = {dst.name for _, _, dst in renames if dst is not None}
    assert {"settings.json", "stats.json", "games.jsonl"} <= renamed_to
    assert any(name.startswith("stats.json.corrupt-") for name in renamed_to)
    ends = [i for i, _, _ in renames[1:]] + [len(calls)]
    for (i, src, dst), end in zip(renames, ends, strict=True):
        assert dst is not None
        if not dst.name.startswith("stats.json.corrupt-"):
            # A new file: its data reached the disk before it took the old one's name.
            assert ("fsync", src, None) in calls[:i], f"{src.name} renamed before it was synced"
        synced_after = [path for call, path, _ in calls[i + 1 : end] if call == "fsync"]
        assert dst.parent in synced_after, f"no fsync of the directory after renaming {dst.name}"


# Killed mid-write -------------------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import itertools, sys
    from datetime import UTC, datetime
    from pathlib import Path
    from ttt_tui.engine import Difficulty, Player
    from ttt_tui.play.settings import BoardSize, Mode, Settings
    from ttt_tui.play.results import Result
    from ttt_tui.storage import GameRecord, Store

    store = Store(Path(sys.argv[1]))
    levels, results = list(Difficulty), list(Result)
    print("ready", flush=True)
    for i in itertools.count():
        store.save_settings(Settings(difficulty=levels[i % 3], coach=i % 2 == 0,
                                     theme="theme-" + "x" * (i % 40)))
        now = datetime.now(UTC)
        store.record_game(GameRecord(now, now, Mode.HUMAN_VS_AI, None, levels[i % 3],
                                     Player.X, tuple(range(i % 9)), results[i % 4],
                                     hints_used=i))
        print(i, flush=True)  # the game is on disk
        if i % 10 == 9:
            store.reset_stats()
    """
)


KILLS = int(os.environ.get("TTT_STORAGE_KILLS") or 10)
"""Writer lives the kill test ends with SIGKILL: 10 in the normal suite (kills before
the first save and after one and two saves among them); ``TTT_STORAGE_KILLS`` for
more (40 kills a writer at many more moments)."""


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_killed_writer_never_leaves_a_damaged_file(tmp_path: Path) -> None:
    """SIGKILL a busy writer at random moments; every file must still load cleanly.

    Each life is killed at a random moment after a random number (0 to 2) of games it
    has said are saved, so that the kills land anywhere in the loop, the first save
    included, and the lives save games however slow a loaded machine makes them.
    """
    rng = random.Random(20261122)
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TTT_TUI_DATA_DIR", None)
    games_so_far = 0
    waited_for = 0
    kills_with_temp_files = 0
    started = time.monotonic()

    for _ in range(KILLS):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(data)],
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        assert writer.stdout is not None
        assert writer.stdout.readline() == "ready\n"
        waited = rng.randint(0, 2)
        for _ in range(waited):
            assert writer.stdout.readline().strip().isdigit()
        waited_for += waited
        time.sleep(rng.uniform(0.0, 0.12))
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        acknowledged = waited + len(writer.stdout.read().split())
        writer.stdout.close()

        names = {p.name for p in data.iterdir()}
        temps = {n for n in names if TEMP_NAME.match(n)}
        kills_with_temp_files += bool(temps)
        assert names - temps <= DATA_FILES, names  # nothing set aside as corrupt

        if (data / "games.jsonl").exists():
            content = (data / "games.jsonl").read_bytes()
            assert content.endswith(b"\n")
            for line in content.split(b"\n")[:-1]:
                json.loads(line)  # every line on its own is valid JSON
        for name in ("settings.json", "stats.json"):
            if (data / name).exists():
                assert read_json(data / name)["version"] == FORMAT_VERSION

        store = Store(data)
        assert {p.name for p in data.iterdir()} == names - temps  # leftovers cleaned up
        store.load_settings()
        store.load_stats()
        games = store.load_games()
        assert store.take_notices() == []
        # Every game the writer saw saved is still there, and none went missing.
        assert len(games) >= games_so_far + acknowledged
        games_so_far = len(games)

    elapsed = time.monotonic() - started
    print(
        f"\n{KILLS} kills in {elapsed:.1f} s; {games_so_far} games on disk;"
        f" {kills_with_temp_files} kills left a temp file behind"
    )
    assert games_so_far >= waited_for > 0
