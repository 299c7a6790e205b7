"""Puzzle attempts in the store: the rating after each, kept across runs, the best
streak, the player's own puzzles, and a database from before puzzles brought up to
date."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ttt_tui.play.rating import Attempt, Rating, after_attempt
from ttt_tui.storage import DATABASE_FILE, Store
from ttt_tui.storage.database import MIGRATIONS, SCHEMA_VERSION

PUZZLE = "X.O/.X./... hold 8 2 block 1 0"


def attempt(solved: bool, streak: int | None = None, difficulty: int = 2) -> Attempt:
    return Attempt(PUZZLE, 3, difficulty, solved, streak)


def test_each_attempt_moves_the_rating_and_a_new_run_reads_it_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    assert store.puzzle_rating() == Rating()
    first = store.record_attempt(attempt(True, difficulty=6))
    assert first == after_attempt(Rating(), 6, True)
    assert first.rating > Rating().rating
    second = store.record_attempt(attempt(False, difficulty=1))
    assert second == after_attempt(first, 1, False)
    assert second.rating < first.rating
    store.close()
    again = Store(tmp_path / "data")
    assert again.puzzle_rating() == second
    assert again.attempts() == (2, 1)


def test_the_best_streak_is_the_longest_kept(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    assert store.best_streak() == 0
    for streak, solved in [(1, True), (2, True), (3, True), (0, False), (1, True)]:
        store.record_attempt(attempt(solved, streak))
    store.record_attempt(attempt(True))  # outside streak mode
    assert store.best_streak() == 3


def test_with_saving_off_attempts_are_kept_in_memory(tmp_path: Path) -> None:
    store = Store(tmp_path / "data", enabled=False)
    solved = store.record_attempt(attempt(True))
    assert store.puzzle_rating() == solved
    assert not (tmp_path / "data").exists()


def test_a_database_from_before_puzzles_gains_the_table_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    old = sqlite3.connect(data / DATABASE_FILE)
    old.executescript(MIGRATIONS[0])
    old.execute(
        "INSERT INTO games (record, digest, n, mode, ended) VALUES ('{}', x'00', 3, 'ai', 'x')"
    )
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    store = Store(data)
    assert store.puzzle_rating() == Rating()
    store.record_attempt(attempt(True))
    store.close()
    db = sqlite3.connect(data / DATABASE_FILE)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
    assert db.execute("SELECT count(*) FROM puzzle_attempts").fetchone() == (1,)
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO puzzle_attempts (at, puzzle, n, difficulty, solved, rating,"
            " deviation, volatility) VALUES ('x', 'p', 3, 1, 2, 1500, 350, 0.06)"
        )
    db.close()


def test_own_puzzles_are_kept_once_each_oldest_first(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    assert store.own_puzzles() == []
    other = ".X./.../O.. win 0,2,4,3,7 5 win-in-n 3 1"
    for puzzle in (PUZZLE, other, PUZZLE):
        store.add_own_puzzle(puzzle)
    store.close()
    assert Store(tmp_path / "data").own_puzzles() == [PUZZLE, other]
