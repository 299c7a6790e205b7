"""A correct minimax in CS50 AI's convention, for `ttt-tui check`:

    ttt-tui check examples/bots/cs50_minimax.py

`minimax(board)` gets the board as 3 lists of 3 holding X, O or EMPTY, and answers
the best move as a 0-based (row, col); CS50's other functions (player, actions,
result, winner, terminal, utility) are here too, and check tests each. Scores
prefer a quicker win and a slower loss (10 minus the depth), so every answer is the
best, not merely a good one, and alpha-beta pruning skips what cannot change the
choice.
"""

X = "X"
O = "O"  # noqa: E741 - CS50's own name for the mark
EMPTY = None

LINES = [
    [(0, 0), (0, 1), (0, 2)],
    [(1, 0), (1, 1), (1, 2)],
    [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 1), (1, 1), (2, 1)],
    [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)],
    [(0, 2), (1, 1), (2, 0)],
]


def player(board):
    """Whose turn it is: X moves first."""
    marks = sum(cell is not EMPTY for row in board for cell in row)
    return X if marks % 2 == 0 else O


def actions(board):
    """Every empty square."""
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    """The board after the player to move marks ``action``: a new board, the given one
    left as it was. A taken square or one off the board raises ValueError."""
    i, j = action
    if not (0 <= i < 3 and 0 <= j < 3) or board[i][j] is not EMPTY:
        raise ValueError(f"not a free square: {action}")
    after = [row[:] for row in board]
    after[i][j] = player(board)
    return after


def winner(board):
    """The mark with three in a row, if any."""
    for line in LINES:
        first = board[line[0][0]][line[0][1]]
        if first is not EMPTY and all(board[i][j] == first for i, j in line):
            return first
    return None


def terminal(board):
    """Whether the game is over: a line made, or no square left."""
    return winner(board) is not None or not actions(board)


def utility(board):
    """1 if X has won, -1 if O has, else 0 (for a finished board)."""
    return {X: 1, O: -1}.get(winner(board), 0)


def score(board, me, depth, alpha=-100, beta=100):
    """The value of ``board`` for ``me`` with best play, sooner wins scoring higher.
    Alpha-beta: a branch that cannot change the choice above is not searched."""
    if terminal(board):
        won = utility(board) * (1 if me == X else -1)
        return won * (10 - depth)
    moves = actions(board)
    turn = player(board)
    best = -100 if turn == me else 100
    for i, j in moves:
        board[i][j] = turn
        value = score(board, me, depth + 1, alpha, beta)
        board[i][j] = EMPTY  # undo: the board we were given stays as it was
        if turn == me:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


def minimax(board):
    """The best move for the player to move, or None when the game is over."""
    if terminal(board):
        return None
    me = player(board)
    best, alpha = None, -100
    for i, j in actions(board):
        board[i][j] = me
        value = score(board, me, 1, alpha, 100)
        board[i][j] = EMPTY
        if best is None or value > alpha:
            best, alpha = (i, j), max(alpha, value)
    return best
