"""`ttt-tui check`: bots that are right, slow, wrong as one side, illegal, raising,
hanging, exiting and writing on their board, each graded with the exact counts the
deliberately simple solver gives; the example bots, each perfect; slow answers graded
as answers and timed apart; stopping early for time or a signal; and a class's bots
at once."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.engine.reference import Reference, rank
from tests.support.terminal import (
    ROOT,
    child_pids,
    game_command,
    game_env,
    run_main,
    running,
    wait_until,
)
from ttt_tui.bots import sandbox
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
        if how == "hang" and position.index("X") % 2 == 0:  # never two in a row
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
    ("how", "key", "count", "detail"),
    [
        ("illegal", "illegal", 9, "a taken square"),
        ("name", "illegal", 9, "unreadable: 'zz'"),
        ("raise", "errors", 9, "ValueError: no idea"),
        ("exit", "errors", 9, "it exited with status 3 without answering"),
        ("hang", "timeouts", 5, "no answer in 0.5 s"),
    ],
)
def test_a_misbehaving_bot_never_stops_the_check(
    tmp_path: Path, how: str, key: str, count: int, detail: str
) -> None:
    """Nine positions misbehave (five, never two in a row, for the hanging bot: timeouts
    in a row stop the check); every other one is still asked, on a bot started
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
    assert counts[key] == count
    graded = sum(counts[label] for label in ("best", "inaccuracy", "mistake", "blunder"))
    assert graded == 2097 - count
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


def interrupt_bot() -> str:
    """A bot that is slow enough to be interrupted, and marks each time it is asked in
    its own directory (made in the check's temporary directory, removed when it stops)."""
    return (
        "import time\n\ndef choose_move(position):\n"
        "    with open('asked', 'a') as asked:\n        asked.write('.')\n"
        "    time.sleep(0.05)\n    return position.index('.') + 1\n"
    )


def asked(folder: Path) -> int:
    """How many times `interrupt_bot`, run by a check whose TMPDIR is ``folder``, was asked."""
    marks = [0]
    for path in folder.glob("ttt-tui-bot-*/asked"):
        with contextlib.suppress(FileNotFoundError):  # the bot stopped, its folder gone
            marks.append(path.stat().st_size)
    return max(marks)


def descendants(pid: int) -> set[int]:
    """Every running process started by ``pid``, and by those, and so on."""
    found = child_pids(pid)
    for child in list(found):
        found |= descendants(child)
    return found


@pytest.mark.parametrize(
    ("signum", "status", "json_out"),
    [(signal.SIGINT, 130, True), (signal.SIGTERM, 143, False)],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_signal_stops_with_what_was_graded_and_no_bot_left(
    tmp_path: Path, signum: int, status: int, json_out: bool
) -> None:
    """Ctrl+C or SIGTERM while the bot thinks: the positions asked so far are reported,
    the verdict is ``interrupted`` (never one a script could pass), the status the
    signal's, and the bot's process (in a session of its own, which the terminal's
    signal never reaches) is gone."""
    path = write_bot(tmp_path, "slow", interrupt_bot())
    process = subprocess.Popen(
        game_command("check", *(["--json"] if json_out else []), str(path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=game_env(TMPDIR=str(tmp_path)),
        cwd=ROOT,
        text=True,
    )
    # Signalled once the bot has answered twice (asked three times), however long a busy
    # machine takes to start it: some positions graded, most not.
    wait_until(lambda: asked(tmp_path) >= 3, "the bot to answer twice")
    pids = descendants(process.pid)  # the bot's jail, its limits launcher and the bot
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    assert process.returncode == status, err
    assert pids and not any(running(pid) for pid in pids)
    if json_out:
        report = json.loads(out)
        assert 0 < report["positions"] < 4520, err
        assert sum(report["labels"].values()) == report["positions"]
        assert (report["verdict"], report["interrupted"]) == ("interrupted", True)
    else:
        assert re.match(r"3x3: [\d,]+ of 4,520 positions asked \(interrupted\)", out), out
        assert out.rstrip().endswith("Verdict: interrupted")


def test_timeouts_in_a_row_stop_the_check_early(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "never", "def choose_move(position):\n    while True: pass\n")
    result = run_main("check", "--timeout", "0.3", str(path))
    assert result.returncode == 4
    assert "3x3: 5 of 4,520 positions asked" in result.stdout
    assert (
        "Stopped early: 5 answers in a row took longer than 0.3 s (--timeout): it does not"
        " seem to answer at all"
    ) in result.stdout
    assert result.stdout.rstrip().endswith("Verdict: unfinished")


def test_the_total_budget_stops_the_check_early(tmp_path: Path) -> None:
    path = write_bot(
        tmp_path,
        "steady",
        "import time\n\ndef choose_move(position):\n"
        "    time.sleep(0.02)\n    return position.index('.') + 1\n",
    )
    status, report = check_json("--budget", "1", str(path))
    assert status == 4
    assert report["stopped"] == "the total budget of 1 s (--budget) was spent"
    assert 0 < report["positions"] < 4520
    assert report["timeouts"] == 0  # the answer the budget cut short is not the bot's fault
    assert report["verdict"] == "unfinished"


ENGINE_LINES = """
import sys
from ttt_tui.engine import Board, analyze

def best(position):
    return analyze(Board.parse(position)).best[0] + 1
"""
"""The start of a line-protocol bot answering the engine's best moves."""

EXAMPLE_LINES = f"""
import sys
sys.path.insert(0, {str(EXAMPLES)!r})
from choose_move import solve

def best(position):
    return solve(position)[2] + 1
"""
"""The same on 3x3 with the example bot's solver: it starts again quicker."""


def test_a_line_protocol_bot_that_dies_is_counted_each_time(tmp_path: Path) -> None:
    """A program crashing on its 50th position (a quick bot is asked each position
    twice): each death loses that position's answer and is counted; the positions in
    between are graded on a new process."""
    path = write_bot(
        tmp_path,
        "crashes",
        EXAMPLE_LINES + "seen = set()\n"
        "for line in sys.stdin:\n"
        "    seen.add(line)\n"
        "    if len(seen) == 50:\n"
        "        sys.exit('it crashed')\n"
        "    print(best(line.strip()), flush=True)\n",
    )
    status, report = check_json("--side", "O", "--cmd", f"{sys.executable} {path}")
    assert report["errors"] == 2097 // 50
    assert report["labels"]["best"] == 2097 - 2097 // 50
    assert {p["detail"] for p in report["problems"]} == {
        "it crashed\nit exited with status 1 without answering"
    }
    assert (status, report["verdict"]) == (1, "loses")


def test_a_program_that_answers_once_and_exits_is_started_again(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "once", ENGINE_LINES + "print(best(sys.stdin.readline().strip()))\n")
    status, report = check_json(
        "--board", "4", "--positions", "20", "--cmd", f"{sys.executable} {path}"
    )
    assert (report["errors"], report["illegal"], report["positions"]) == (0, 0, 20)
    assert (status, report["verdict"]) == (0, "perfect")


def test_a_chatty_line_protocol_bot_never_has_its_answers_shifted(tmp_path: Path) -> None:
    """Debug lines on standard output, before some answers and after others: each is
    shown once, and no answer is ever taken for another position's (the bot's answers
    are all best, so one shifted would show as a mistake or a blunder)."""
    path = write_bot(
        tmp_path,
        "chatty",
        EXAMPLE_LINES + "for line in sys.stdin:\n"
        "    position = line.strip()\n"
        "    marks = 9 - position.count('.') if position[0] == 'X' else 0\n"
        "    if marks == 2:\n"
        "        print(f'debug: looking at {position}')\n"
        "    print(best(position))\n"
        "    if marks == 4:\n"
        "        print('debug: done')\n"
        "    sys.stdout.flush()\n",
    )
    result = run_main("check", "--json", "--side", "X", "--cmd", f"{sys.executable} {path}")
    report = json.loads(result.stdout)
    assert report["labels"]["mistake"] == report["labels"]["blunder"] == 0
    assert report["labels"]["inaccuracy"] == 0
    before = {
        f"debug: looking at {b}"
        for b in every_3x3_position(Side.X)
        if b.move_count == 2 and str(b)[0] == "X"
    }
    assert before <= set(report["unreadable"])
    assert set(report["unreadable"]) == before | {"debug: done"}
    assert len(report["unreadable"]) == len(set(report["unreadable"]))
    illegal = [p for p in report["problems"] if p["problem"] == "illegal"]
    assert {p["answer"] for p in illegal} >= before


SLOW_START = ENGINE_LINES.replace("import sys\n", "import sys, time\n") + (
    "\ndef choose_move(position):\n"
    "    if position == '.' * 9:\n"
    "        time.sleep(1.5)\n"
    "    return best(position)\n"
)
"""A perfect bot whose empty-board answer alone is slow, as a plain minimax's is."""


def test_a_slow_answer_is_not_a_wrong_one(tmp_path: Path) -> None:
    """Graded with the defaults: perfect, and the speed line names the slow position and
    what makes a minimax slow."""
    path = write_bot(tmp_path, "slow_start", SLOW_START)
    result = run_main("check", "--side", "X", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "Verdict: perfect" and lines[-2] == "Score: 100 out of 100"
    speed = next(line for line in lines if line.startswith("Speed:"))
    assert speed.endswith("on the empty board")
    assert re.search(r"your empty-board answer took \d+\.\d s: alpha-beta or a memo", result.stdout)


def test_a_course_time_limit_is_its_own_failure(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "slow_start", SLOW_START)
    status, report = check_json("--side", "X", "--max-answer-seconds", "1", str(path))
    assert status == 3
    assert report["verdict"] == "perfect" and report["score"] == 100
    assert report["speed"]["limit"] == 1 and report["speed"]["over_limit"] == 1
    assert report["speed"]["slowest_position"] == "." * 9


PLAIN_CS50 = '''
import copy

X, O, EMPTY = "X", "O", None


def player(board):
    marks = sum(cell is not EMPTY for row in board for cell in row)
    return X if marks % 2 == 0 else O


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    i, j = action
    if board[i][j] is not EMPTY:
        raise ValueError("not a free square")
    new = copy.deepcopy(board)
    new[i][j] = player(board)
    return new


def winner(board):
    lines = [[(i, 0), (i, 1), (i, 2)] for i in range(3)]
    lines += [[(0, j), (1, j), (2, j)] for j in range(3)]
    lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
    for line in lines:
        a, b, c = (board[i][j] for i, j in line)
        if a is not EMPTY and a == b == c:
            return a
    return None


def terminal(board):
    return winner(board) is not None or not actions(board)


def utility(board):
    return {X: 1, O: -1, None: 0}[winner(board)]


def value(board, depth):
    """The board's value for X: a nearer win counts more, a nearer loss less."""
    if terminal(board):
        return utility(board) * (10 - depth)
    values = [value(result(board, action), depth + 1) for action in actions(board)]
    return max(values) if player(board) == X else min(values)


def minimax(board):
    if terminal(board):
        return None
    pick = max if player(board) == X else min
    return pick(sorted(actions(board)), key=lambda action: value(result(board, action), 1))
'''
"""CS50's tic-tac-toe as a learner first writes it: a copy of the board for every move,
plain minimax, no pruning, no memory (several seconds on the empty board)."""


@pytest.mark.long  # about a minute on a busy 2-core machine: the bot's own time
def test_a_plain_cs50_minimax_is_perfect_with_the_defaults(tmp_path: Path) -> None:
    path = write_bot(tmp_path, "tictactoe", PLAIN_CS50)
    result = run_main("check", str(path))
    assert result.returncode == 0, result.stderr
    assert "best 4,520, inaccuracy 0, mistake 0, blunder 0" in result.stdout
    assert result.stdout.rstrip().endswith("Verdict: perfect")
    speed = next(line for line in result.stdout.splitlines() if line.startswith("Speed:"))
    assert speed.endswith("on the empty board")
    assert "your empty-board answer took" in result.stdout


def test_a_class_of_bots_gets_a_line_each_and_a_bad_one_stops_no_other(tmp_path: Path) -> None:
    """Four bots, two at a time: a perfect one, one that loses, a missing file and a
    syntax error; each named, each graded or refused in a line, the table in the
    order given."""
    first_free = write_bot(
        tmp_path, "first_free", "def choose_move(position):\n    return position.index('.') + 1\n"
    )
    broken = write_bot(tmp_path, "broken", "def choose_move(position)\n")
    bots = [str(EXAMPLES / "choose_move.py"), str(first_free), "missing.py", str(broken)]
    text = run_main("check", "--side", "O", "--jobs", "2", *bots)
    assert text.returncode == 2
    table = text.stdout.splitlines()[-5:]
    assert table[0].split() == ["bot", "verdict", "score", "first", "diagnosis"]
    rows = [line.split()[:3] for line in table[1:]]
    lines = run_main("check", "--json", "--side", "O", "--jobs", "2", *bots)
    reports = [json.loads(line) for line in lines.stdout.splitlines()]
    assert [r["bot"] for r in reports] == bots
    assert [r["verdict"] for r in reports] == ["perfect", "loses", "unusable", "unusable"]
    loser = reports[1]
    labels = loser["labels"]
    assert loser["score"] == 100 * (2 * labels["best"] + labels["inaccuracy"]) // (2 * 2097)
    assert rows == [
        [bots[0], "perfect", "100"],
        [bots[1], "loses", str(loser["score"])],
        ["missing.py", "unusable", "0"],
        [bots[3], "unusable", "0"],
    ]
    assert "missing.py: no such file" in table[3]
    assert reports[2]["error"] == "missing.py: no such file"
    assert "a syntax error at line 1" in reports[3]["error"]
    assert lines.returncode == 2
    off = f"ttt-tui check: {sandbox.here().protections_off()}"
    said = [line for line in text.stderr.splitlines() if line != off]
    assert [line.startswith("ttt-tui check: ") for line in said] == [True, True]  # a bad bot


def test_a_bot_that_cannot_load_still_gives_json(tmp_path: Path) -> None:
    result = run_main("check", "--json", str(tmp_path / "missing.py"))
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert report["verdict"] == "unusable" and report["error"].endswith("missing.py: no such file")


def test_json_holds_every_problem_with_its_detail(tmp_path: Path) -> None:
    """Illegal answers with the raw answer, tracebacks and timeouts, each with its
    position: what the text shows, and more."""
    reports = {
        how: check_json(
            "--side", "O", str(write_bot(tmp_path, how, f"HOW = {how!r}\n{MISBEHAVING}"))
        )[1]
        for how in ("illegal", "raise")
    }
    illegal = reports["illegal"]["problems"]
    assert len(illegal) == 9
    assert {p["problem"] for p in illegal} == {"illegal"}
    assert {p["position"] for p in illegal} == {
        str(b) for b in every_3x3_position(Side.O) if b.move_count == 1
    }
    first = illegal[0]
    assert first["answer"] == first["position"].index("X") + 1  # as the bot gave it
    assert first["detail"].startswith("a taken square")
    raised = reports["raise"]["problems"]
    assert all("Traceback" in p["detail"] and "ValueError: no idea" in p["detail"] for p in raised)
    assert reports["raise"]["speed"]["median"] > 0


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--jobs", "two"], "argument --jobs: expected a number of bots (1 or more), got 'two'"),
        (["--jobs", "0"], "argument --jobs: expected a number of bots (1 or more), got 0"),
        (
            ["--budget", "0"],
            "argument --budget: expected a number of seconds (more than 0, at most 86400), got 0",
        ),
        (
            ["--max-answer-seconds", "soon"],
            "argument --max-answer-seconds: expected a number of seconds (more than 0, at"
            " most 600), got 'soon'",
        ),
        (
            ["--timeout", "601"],
            "argument --timeout: expected a number of seconds (more than 0, at most 600), got 601",
        ),
    ],
    ids=["jobs-word", "jobs-zero", "budget-zero", "max-answer-word", "timeout-too-long"],
)
def test_bad_check_options_are_usage_errors(args: list[str], error: str) -> None:
    result = run_main("check", *args, "bot.py")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == f"ttt-tui check: error: {error}"
