"""Test bots in CS50 AI's tictactoe.py convention, written for ttt-tui's tests: a
correct file (`CORRECT`), and each classic bug as a few lines over it (`BUGGY`: a
later ``def`` replaces the correct one), plus bots in the other conventions.

`CORRECT` is the example bot (examples/bots/cs50_minimax.py) with a minimax that uses
its `player`, `actions`, `result`, `terminal` and `utility`, remembering each
position's value, so a bug in one of them shows in its moves as it would in a
learner's, and a whole check takes seconds.
"""

from __future__ import annotations

from pathlib import Path

EXAMPLE = Path(__file__).parents[2] / "examples" / "bots" / "cs50_minimax.py"

CORRECT = (
    EXAMPLE.read_text(encoding="utf-8")
    + '''

def full(board):
    return all(cell is not EMPTY for row in board for cell in row)


VALUES = {}


def value(board):
    """For X: 10 for a win at once, one less for each move further off."""
    key = str(board)
    if key not in VALUES:
        if terminal(board):
            VALUES[key] = 10 * utility(board)
        else:
            scores = [value(result(board, action)) for action in actions(board)]
            best = max(scores) if player(board) == X else min(scores)
            VALUES[key] = best - (best > 0) + (best < 0)
    return VALUES[key]


def choose(board, me):
    ranked = sorted(actions(board), key=lambda action: value(result(board, action)))
    return ranked[-1] if me == X else ranked[0]


def minimax(board):
    if terminal(board):
        return None
    return choose(board, player(board))
'''
)

BUGGY = {
    # winner() checks the rows, the columns and one diagonal only.
    "winner_misses_diagonal": """
def winner(board):
    for line in LINES[:6] + LINES[7:]:
        first = board[line[0][0]][line[0][1]]
        if first is not EMPTY and all(board[i][j] == first for i, j in line):
            return first
    return None
""",
    # utility() gives a full board 0 before looking for a line.
    "full_board_first": """
def utility(board):
    if full(board):
        return 0
    return {X: 1, O: -1}.get(winner(board), 0)
""",
    # result() marks the board it was given and returns it.
    "result_in_place": """
def result(board, action):
    i, j = action
    if board[i][j] is not EMPTY:
        raise ValueError(f"{action} is taken")
    board[i][j] = player(board)
    return board
""",
    # player() has O move first.
    "wrong_side": """
def player(board):
    marks = sum(cell is not EMPTY for row in board for cell in row)
    return O if marks % 2 == 0 else X
""",
    # minimax answers rows and columns counted from 1.
    "one_based": """
def minimax(board):
    if terminal(board):
        return None
    i, j = choose(board, player(board))
    return i + 1, j + 1
""",
    # Any winning move will do, picked at random: no depth, and unstable.
    "random_choice": """
import random


def minimax(board):
    if terminal(board):
        return None
    me = player(board)
    sign = 1 if me == X else -1
    outcome = {a: (sign * value(result(board, a)) > 0) - (sign * value(result(board, a)) < 0)
               for a in actions(board)}
    top = max(outcome.values())
    return random.choice(sorted(a for a in outcome if outcome[a] == top))
""",
    # utility() looks the winner up in a dict without None: a draw raises KeyError.
    "utility_raises": """
def utility(board):
    return {X: 1, O: -1}[winner(board)]
""",
}
"""Each bug, over `CORRECT`."""


def source(name: str) -> str:
    """A bot's whole file: `CORRECT`, or `CORRECT` with the bug ``name``."""
    return CORRECT if name == "correct" else CORRECT + BUGGY[name]


MINIMAX_ONLY = """
def minimax(board):
    return next((i, j) for i in range(3) for j in range(3) if board[i][j] is None)
"""
"""A file with minimax(board) and none of CS50's other functions."""

LINE_BOT = """
import sys

FULL_FIRST, OTHER_SIDE = {full_first}, {other_side}
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
VALUES = {{}}


def ended(cells):
    if FULL_FIRST and "." not in cells:
        return 0
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return 1 if cells[a] == "X" else -1
    return 0 if "." not in cells else None


def mover(cells):
    first, second = ("O", "X") if OTHER_SIDE else ("X", "O")
    return first if cells.count("X") == cells.count("O") else second


def value(cells):
    if cells not in VALUES:
        end = ended(cells)
        if end is not None:
            VALUES[cells] = 10 * end
        else:
            me = mover(cells)
            scores = [value(cells[:s] + me + cells[s + 1 :]) for s in range(9) if cells[s] == "."]
            best = max(scores) if me == "X" else min(scores)
            VALUES[cells] = best - (best > 0) + (best < 0)
    return VALUES[cells]


for line in sys.stdin:
    cells, me = line.strip(), mover(line.strip())
    free = [s for s in range(9) if cells[s] == "."]
    ranked = sorted(free, key=lambda s: value(cells[:s] + me + cells[s + 1 :]))
    print((ranked[-1] if me == "X" else ranked[0]) + 1, flush=True)
"""
"""A line-protocol minimax, as a learner might write it in C: with ``full_first`` its
end test looks at a full board before looking for a line; with ``other_side`` it
thinks O moves first."""

UNFLUSHED_COMMAND = """
import os
import sys

out = os.fdopen(1, "w", buffering=65536)  # as C's stdout on a pipe: flushed when full
for line in sys.stdin:
    out.write(f"{line.index('.') + 1}\\n")
"""
"""A line-protocol bot that never flushes its output: its answers wait in a buffer and
it never answers in time."""
