"""A correct negamax in `choose_move(position)` form, for `ttt-tui check`:

    ttt-tui check examples/bots/choose_move.py

`position` is 9 characters of X, O and '.' in reading order (``X...O....``); the
answer is the square's number from 1 (top left). Memoised, so it is quick.
"""

from functools import cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def won(cells, mark):
    return any(all(cells[i] == mark for i in line) for line in LINES)


@cache
def solve(cells):
    """(outcome, plies, square) for the side to move: outcome +1 a win, 0 a draw, -1 a
    loss, plies the moves to the end, square the best move (0-based). Among equal
    outcomes the quickest win, or the slowest loss, is best."""
    me = "X" if cells.count("X") == cells.count("O") else "O"
    best = None
    for square, cell in enumerate(cells):
        if cell != ".":
            continue
        after = cells[:square] + me + cells[square + 1 :]
        if won(after, me):
            outcome, plies = 1, 1
        elif "." not in after:
            outcome, plies = 0, 1
        else:
            theirs, their_plies, _ = solve(after)
            outcome, plies = -theirs, their_plies + 1
        rank = (outcome, -plies if outcome > 0 else plies if outcome < 0 else 0)
        if best is None or rank > best[0]:
            best = (rank, outcome, plies, square)
    return best[1], best[2], best[3]


def choose_move(position):
    return solve(position)[2] + 1
