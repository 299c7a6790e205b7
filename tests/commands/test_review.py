"""`ttt-tui review`: recorded games (by the numbers `ttt-tui games list` shows) and games
given move by move, as text and JSON, and one clear line with exit status 2 for every
bad input."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.terminal import run_main, ttt
from ttt_tui.engine import Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode
from ttt_tui.storage import DATABASE_FILE, GAMES_FILE, GameRecord, Store

MOMENT = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def record(moves: tuple[int, ...], result: Result, n: int = 3) -> GameRecord:
    return GameRecord(
        started=MOMENT,
        ended=MOMENT,
        mode=Mode.TWO_PLAYERS,
        x_difficulty=None,
        o_difficulty=None,
        human_mark=None,
        moves=moves,
        result=result,
        n=n,
        k=3 if n == 3 else 4,
    )


def write_games(data: Path, *records: GameRecord) -> None:
    """Record the games in ``data``'s database, as the game does."""
    store = Store(data)
    store.import_games(records)
    store.close()


def test_a_game_given_move_by_move_as_text() -> None:
    """Through a real ``python -m ttt_tui``; the other tests call its main in-process."""
    result = ttt("review", "--moves", "b2 b1 a1 c3 c1")
    assert (result.returncode, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0] == "3x3, 3 in a row: in progress"
    assert lines[1:3] == [
        "1. X b2  best: draw",
        "2. O b1  mistake: draw -> loss in 6; best a1, c1, a3, c3 (draw)",
    ]
    assert "Turning points:" in lines
    assert lines[-1] == "Summary: X: 2 best, 1 mistake; O: 1 best, 1 mistake"


def test_the_last_recorded_game_by_default_and_any_by_number(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = record((4, 0, 8), Result.ABANDONED)
    last = record((0, 3, 1, 4, 2), Result.X_WON)
    write_games(data, first, last)
    default = run_main("review", "--json", data=data)
    assert default.returncode == 0, default.stderr
    found = json.loads(default.stdout)
    assert (found["result"], [m["cell"] for m in found["moves"]]) == ("x_won", [0, 3, 1, 4, 2])
    for game, moves, outcome in (("1", [4, 0, 8], "abandoned"), ("-2", [4, 0, 8], "abandoned")):
        numbered = json.loads(run_main("review", "--json", game, data=data).stdout)
        assert ([m["cell"] for m in numbered["moves"]], numbered["result"]) == (moves, outcome)
    assert run_main("review", "last", data=data).stdout.startswith("3x3, 3 in a row: X won\n")


def test_the_json_moves_agree_with_analyze() -> None:
    """Each move's ``before`` is what `analyze --json` says of its position."""
    found = json.loads(run_main("review", "--json", "--board", "4", "--moves", "a1 b2 c3").stdout)
    assert found["n"] == 4 and found["turning_points"] == []
    position = "X....O.........."  # after a1 b2
    analysed = json.loads(run_main("analyze", "--json", position).stdout)
    third = found["moves"][2]
    assert third["before"] == {"value": analysed["value"], "plies": analysed["plies"]}
    assert third["best"] == analysed["best"]
    played = next(m for m in analysed["moves"] if m["cell"] == third["cell"])
    assert third["played"] == {"value": played["value"], "plies": played["plies"]}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--moves", "b2 b2"), "move 2 (O b2): the square is taken"),
        (("--moves", "a1 b1 a2 b2 a3 c3"), "move 6 (O c3): the game was already over"),
        (("--moves", "b2 zz"), "unknown square 'zz': expected a name such as b2 or a number"),
        (("--board", "4", "--moves", "a1 e5"), "square 'e5' is off the 4x4 board (a1 to d4)"),
        (("--moves", ""), "no moves given"),
        (("0",), "there is no game 0: 1 is the first game, -1 the last"),
        (("two",), "expected 'last' or a game's number, got 'two'"),
        (("--board", "4"), "--board goes with --moves (a recorded game knows its board)"),
        (("1", "--moves", "a1"), "give a recorded GAME or --moves, not both"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: tuple[str, ...], message: str) -> None:
    result = run_main("review", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"ttt-tui review: {message}\n"


def test_no_games_or_no_such_game_says_so(tmp_path: Path) -> None:
    none = tmp_path / "none"
    missing = run_main("review", data=none)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == f"ttt-tui review: no games recorded yet in {none}\n"
    assert not none.exists()  # a read creates no data directory

    data = tmp_path / "data"
    write_games(data, record((4,), Result.ABANDONED))
    for game, message in (
        ("3", f"no game 3: the games in {data} are numbered 1 to 1"),
        ("-2", f"no game -2: {data} holds fewer than 2 games"),
    ):
        out_of_range = run_main("review", game, data=data)
        assert (out_of_range.returncode, out_of_range.stdout) == (2, "")
        assert out_of_range.stderr == f"ttt-tui review: {message}\n"


def test_a_record_that_cannot_be_read_is_named_and_the_others_reviewed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_games(data, record((4, 0, 8), Result.ABANDONED), record((0, 3, 1, 4, 2), Result.X_WON))
    with contextlib.closing(sqlite3.connect(data / DATABASE_FILE)) as db:
        db.execute("UPDATE games SET record = '{\"version\": 1}' WHERE id = 2")
        db.commit()
    for game, named in (("2", "game 2"), ("last", "game 2 (the last)")):
        damaged = run_main("review", game, data=data)
        assert (damaged.returncode, damaged.stdout) == (2, "")
        assert damaged.stderr == f"ttt-tui review: {named} cannot be read: missing started\n"
    other = run_main("review", "1", data=data)
    assert (other.returncode, other.stderr) == (0, "")
    assert other.stdout.startswith("3x3, 3 in a row: abandoned\n")


def test_a_recorded_game_from_an_older_file_without_sizes_or_levels(tmp_path: Path) -> None:
    """A line of a games.jsonl written before board sizes and levels were recorded
    (version 1, no n, k or levels), left in the data directory by a ttt-tui before the
    database: the review carries it into the database first, and reviews it as the
    3x3 game it is."""
    data = tmp_path / "data"
    data.mkdir()
    old = {
        "version": 1,
        "started": MOMENT.isoformat(),
        "ended": MOMENT.isoformat(),
        "mode": "human_vs_ai",
        "x_difficulty": None,
        "o_difficulty": "hard",
        "human_mark": Player.X.value,
        "moves": [4, 0, 8, 2, 5, 1],
        "result": "o_won",
        "undo_used": False,
        "hints_used": 0,
    }
    (data / GAMES_FILE).write_text(json.dumps(old) + "\n", encoding="utf-8")
    result = run_main("review", data=data)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("3x3, 3 in a row: O won\n")
    assert "6. O b1  best: win in 1" in result.stdout
    # The file of before the database was carried into it, which the review said.
    notice = result.stderr.splitlines()
    assert len(notice) == 1 and notice[0].startswith("ttt-tui: ") and GAMES_FILE in notice[0]
    assert not (data / GAMES_FILE).exists() and (data / DATABASE_FILE).exists()
    again = run_main("review", "1", data=data)
    assert (again.returncode, again.stderr, again.stdout) == (0, "", result.stdout)
