"""`ttt-tui check`: bots that are right, slow, wrong as one side, illegal, raising,
hanging, exiting and writing on their board, each graded with the exact counts the
deliberately simple solver gives; and the example bots, each perfect."""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import signal
import subprocess
import textwrap
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.engine.reference import Reference, rank
from tests.support.terminal import ROOT, game_command, game_env, run_main, wait_until
from ttt_tui.engine import Board
from ttt_tui.teach.check import Side, every_3x3_position, sampled_positions

EXAMPLES = ROOT / "examples" / "bots"

COMMON = '''
X, O, EMPTY = "X", "O", None
LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
LINES += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


def player(board):
    return X if sum(c is not EMPTY for row in board for c in row) % 2 == 0 else O


def actions(board):
    return [(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY]


def winner(board):
    for line in LINES:
        first = board[line[0][0]][line[0][1]]
        if first is not EMPTY and all(board[i][j] == first for i, j in line):
            return first
    return None


MEMO = {}


def score(board, me, depth, win):
    """The value for ``me``: ``win(depth)`` for a win, its negation for a loss
    (remembered: plain minimax on every position would take the tests a minute)."""
    key = (str(board), me, depth, win(0))
    if key not in MEMO:
        MEMO[key] = _score(board, me, depth, win)
    return MEMO[key]


def _score(board, me, depth, win):
    won = winner(board)
    if won is not None:
        return win(depth) if won == me else -win(depth)
    moves = actions(board)
    if not moves:
        return 0
    turn = player(board)
    results = []
    for i, j in moves:
        board[i][j] = turn
        results.append(score(board, me, depth + 1, win))
        board[i][j] = EMPTY
    return max(results) if turn == me else min(results)


def pick(board, me, win):
    best, best_value = None, None
    for i, j in actions(board):
        board[i][j] = player(board)
        value = score(board, me, 1, win)
        board[i][j] = EMPTY
        if best_value is None or value > best_value:
            best, best_value = (i, j), value
    return best
'''

BOTS = {
    # Every win scores 1 however far off: never throws a result away, but slow.
    "no_depth": "def minimax(board):\n    return pick(board, player(board), lambda d: 1)\n",
    # Scores every position for X, whoever is to move.
    "for_x_only": "def minimax(board):\n    return pick(board, X, lambda d: 10 - d)\n",
    # Right, but leaves its answer's mark on the board it was given.
    "writes_board": (
        "def minimax(board):\n"
        "    move = pick(board, player(board), lambda d: 10 - d)\n"
        "    board[move[0]][move[1]] = player(board)\n"
        "    return move\n"
    ),
}
"""Bots in CS50's convention, each over `COMMON` (plain minimax: a second or two)."""

MISBEHAVING = """
import os, sys, time


def choose_move(position):
    how = HOW
    if 9 - position.count(".") == 1:  # the nine positions with one mark
        if how == "illegal":
            return position.index("X") + 1  # the taken square
        if how == "name":
            return "zz"
        if how == "raise":
            raise ValueError("no idea")
        if how == "hang":
            while True:
                time.sleep(0.01)
        if how == "exit":
            os._exit(3)
        if how == "print":
            print("thinking hard...")
    print("noise on standard error", file=sys.stderr)
    return position.index(".") + 1
"""
"""Plays the first free square, except in the nine positions with one mark, where it
does what ``HOW`` says (written into the file: a bot never sees the caller's
environment)."""


def write_bot(directory: Path, name: str, source: str) -> Path:
    path = directory / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def reference() -> Reference:
    return Reference(3, 3)


def expected_labels(module: ModuleType, side: Side = Side.BOTH) -> dict[str, int]:
    """Each label's count, from the simple solver, for the bot's own answers."""
    ref = reference()
    counts = {"best": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    order = {"loss": 0, "draw": 1, "win": 2}
    for board in every_3x3_position(side):
        cells = str(board)
        grid = [[None if c == "." else c for c in cells[r * 3 : r * 3 + 3]] for r in range(3)]
        row, col = module.minimax(grid)
        moves = ref.moves(cells)
        before, played = max(moves.values(), key=rank), moves[row * 3 + col]
        drop = order[before[0]] - order[played[0]]
        if drop:
            counts["blunder" if drop == 2 else "mistake"] += 1
        elif before[0] == "draw" or before == played:
            counts["best"] += 1
        else:
            counts["inaccuracy"] += 1
    return counts


PATIENT = ("--timeout", "60")
"""Plain minimax takes a second or two on the empty board, more on a busy machine: the
tests give every bot time enough, and the timeout has its own test."""


def check_json(*args: str) -> tuple[int, dict[str, Any]]:
    result = run_main("check", "--json", *PATIENT, *args)
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def test_every_3x3_position_in_play_once() -> None:
    both = every_3x3_position(Side.BOTH)
    assert len(both) == 4520 == len({str(b) for b in both})
    assert len(every_3x3_position(Side.X)) + len(every_3x3_position(Side.O)) == 4520
    assert all(not b.is_game_over() for b in both)


@pytest.mark.parametrize(
    "bot",
    # CS50's convention is checked in the default run by the buggy bots below.
    [pytest.param("cs50_minimax.py", marks=pytest.mark.long), "choose_move.py"],
)
def test_the_example_bots_are_perfect(bot: str) -> None:
    status, report = check_json(str(EXAMPLES / bot))
    assert status == 0
    assert report["verdict"] == "perfect"
    assert report["labels"] == {"best": 4520, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    assert (report["illegal"], report["errors"], report["timeouts"]) == (0, 0, 0)


def test_the_line_protocol_example_is_perfect_as_a_command() -> None:
    command = f"python3 {EXAMPLES / 'line_protocol.py'}"
    status, report = check_json("--cmd", command)
    assert (status, report["verdict"], report["labels"]["best"]) == (0, "perfect", 4520)


def test_a_bot_with_no_preference_for_quick_wins_is_slow(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "no_depth", COMMON + BOTS["no_depth"])
    status, report = check_json(str(path))
    expected = expected_labels(load(path))
    assert report["labels"] == expected
    assert expected["inaccuracy"] > 0 and expected["mistake"] == expected["blunder"] == 0
    assert (status, report["verdict"]) == (0, "slow")
    assert any("does not prefer quicker wins" in line for line in report["diagnosis"])


def test_a_bot_that_plays_for_x_only_is_caught_as_o(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "for_x_only", COMMON + BOTS["for_x_only"])
    status, report = check_json(str(path))
    assert report["labels"] == expected_labels(load(path))
    assert (status, report["verdict"]) == (1, "loses")
    assert any("plays well as X and throws results away as O" in d for d in report["diagnosis"])
    as_x = check_json("--side", "X", str(path))[1]
    assert as_x["positions"] == 2423 and as_x["verdict"] == "perfect"
    worst = report["examples"][0]
    assert worst["label"] == "blunder" and worst["why"].startswith("O ")


def test_a_bot_that_writes_on_its_board_is_counted_and_diagnosed(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "writes_board", COMMON + BOTS["writes_board"])
    status, report = check_json("--side", "O", str(path))
    assert report["changed_board"] == 2097 == report["positions"]
    assert report["labels"]["best"] == 2097  # its answers themselves are right
    assert (status, report["verdict"]) == (1, "loses")
    assert any("wrote on the board it was given" in d for d in report["diagnosis"])


@pytest.mark.parametrize(
    ("how", "key", "detail"),
    [
        ("illegal", "illegal", "a taken square"),
        ("name", "illegal", "unreadable: 'zz'"),
        ("raise", "errors", "ValueError: no idea"),
        ("exit", "errors", "it exited with status 3 without answering"),
        ("hang", "timeouts", "no answer in 0.5 s"),
    ],
)
def test_a_misbehaving_bot_never_stops_the_check(
    tmp_path: Path, how: str, key: str, detail: str
) -> None:
    """Nine positions misbehave; every other one is still asked, on a bot started
    again after each crash or hang. Only the hanging bot is given a short timeout:
    with 0.3 s for all, a busy machine once let a good answer come late, and the
    position was counted as a timeout instead of graded (CI, 26 November)."""
    path = write_bot(tmp_path, "misbehaving", f"HOW = {how!r}\n{MISBEHAVING}")
    timeout = "0.5" if how == "hang" else "10"
    result = run_main("check", "--side", "O", "--timeout", timeout, str(path))
    assert result.returncode == 1, result.stderr
    counts = {
        name: int(count.replace(",", ""))
        for name, count in re.findall(
            r"([a-z_]+) (\d[\d,]*)", "\n".join(result.stdout.splitlines()[1:3])
        )
    }
    assert counts[key] == 9
    graded = sum(counts[label] for label in ("best", "inaccuracy", "mistake", "blunder"))
    assert graded == 2097 - 9
    assert detail in result.stdout
    assert result.stdout.rstrip().endswith("Verdict: loses")


def test_prints_from_a_bot_are_never_taken_for_answers(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "misbehaving", f"HOW = 'print'\n{MISBEHAVING}")
    status, report = check_json("--side", "O", str(path))
    assert (report["illegal"], report["errors"]) == (0, 0)
    assert sum(report["labels"].values()) == 2097


def test_a_bot_with_its_own_marks(tmp_path: Path) -> None:
    source = (EXAMPLES / "cs50_minimax.py").read_text(encoding="utf-8")
    own = source.replace('X = "X"', "X = 1").replace('O = "O"', "O = 2")
    own = own.replace("EMPTY = None", "EMPTY = 0")
    path = write_bot(tmp_path, "own_marks", own)
    status, report = check_json("--side", "X", str(path))
    assert (status, report["verdict"], report["labels"]["best"]) == (0, "perfect", 2423)


def test_a_4x4_sample_of_a_perfect_command_bot(tmp_path: Path) -> None:
    """On 4x4, a bot answering the engine's own best moves is perfect on the sample."""
    path = write_bot(
        tmp_path,
        "engine_bot",
        "from ttt_tui.engine import Board, analyze\n\n"
        "def choose_move(position):\n"
        "    return analyze(Board.parse(position)).best[0] + 1\n",
    )
    status, report = check_json("--board", "4", "--positions", "30", str(path))
    assert (status, report["board"], report["positions"]) == (0, 4, 30)
    assert report["verdict"] == "perfect"


def test_sampled_positions_are_seeded_distinct_and_in_play() -> None:
    first = sampled_positions(5, Side.O, 20)
    assert [str(b) for b in first] == [str(b) for b in sampled_positions(5, Side.O, 20)]
    assert len({str(b) for b in first}) == 20
    assert all(not b.is_game_over() and b.to_move.value == "O" for b in first)
    assert all(isinstance(b, Board) for b in first)


@pytest.mark.parametrize(
    ("files", "args", "message"),
    [
        ({}, ("missing.py",), "missing.py: no such file"),
        (
            {"broken": "def minimax(board)\n    return (0, 0)\n"},
            ("broken.py",),
            "a syntax error at line 1",
        ),
        (
            {"neither": "def best(board):\n    return 1\n"},
            ("neither.py",),
            "defines neither minimax(board) nor choose_move(position)",
        ),
        ({}, (), "give a BOT file"),
        (
            {"neither": "x = 1\n"},
            ("neither.py", "--cmd", "cat"),
            "give a BOT file or --cmd, not both",
        ),
        ({"bad_import": "import no_such_module_here\n"}, ("bad_import.py",), "ModuleNotFoundError"),
        ({}, ("--cmd", ""), "--cmd is empty: give the command that runs your bot"),
        ({}, (".",), ". is a directory: give the Python file in it"),
        ({}, ("README.md",), "README.md is not a Python file (.py): a program in another language"),
        (
            {"plays": "move = input('Your move? ')\n\ndef choose_move(position):\n    return 1\n"},
            ("plays.py",),
            "plays.py reads input (input()) as it is loaded: code that plays belongs under"
            ' if __name__ == "__main__":',
        ),
    ],
)
def test_a_bot_that_cannot_be_loaded_is_one_line_and_status_2(
    tmp_path: Path, files: dict[str, str], args: tuple[str, ...], message: str
) -> None:
    for name, source in files.items():
        write_bot(tmp_path, name, source)
    result = run_main("check", *(str(tmp_path / a) if a.endswith(".py") else a for a in args))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("ttt-tui check: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_command_that_cannot_be_run_is_one_line_and_status_2() -> None:
    """Its first answer shows the shell could not run it; no position is graded."""
    result = run_main("check", "--cmd", "no-such-program-here --flag")
    assert (result.returncode, result.stdout) == (2, "")
    last = result.stderr.splitlines()[-1]
    assert last.startswith("ttt-tui check: --cmd 'no-such-program-here --flag': ")
    assert last.endswith("no-such-program-here: not found")  # as the shell says it


def test_a_bot_that_never_finishes_loading_is_one_line_and_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ttt_tui.bots.bot.START_SECONDS", 1.0)
    path = write_bot(tmp_path, "loops", "while True:\n    pass\n")
    result = run_main("check", "--timeout", "0.5", str(path))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"ttt-tui check: {path} did not finish loading in 1 s: an endless loop, or a game"
        ' played as the file is loaded? (put it under if __name__ == "__main__":)\n'
    )


def test_ctrl_c_stops_with_a_partial_report(tmp_path: Path) -> None:
    """The check is interrupted while the bot thinks: the positions asked so far are
    reported, and said to be a part. The bot marks that it was asked in its own
    directory, made in the check's temporary directory."""
    path = write_bot(
        tmp_path,
        "slow",
        "import time\n\ndef choose_move(position):\n"
        "    open('asked', 'a').close()\n"
        "    time.sleep(0.05)\n    return position.index('.') + 1\n",
    )
    process = subprocess.Popen(
        [*game_command("check", "--json", str(path))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=game_env(TMPDIR=str(tmp_path)),
        cwd=ROOT,
    )
    # Interrupted once it has asked something, however long a busy machine takes to
    # start it (a fixed 1.5 s was sometimes before the first question).
    wait_until(lambda: any(tmp_path.glob("ttt-tui-bot-*/asked")), "the bot to be asked")
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    report = json.loads(out)
    assert 0 < report["positions"] < 4520, err
    assert sum(report["labels"].values()) == report["positions"]
    assert report["interrupted"] is True
    assert process.returncode == 1
