"""A deliberately simple solver for the engine's tests, plain memoised negamax over strings;
and the 3x3 positions the tests go through, every one or a seeded sample.

The solver knows nothing of the engine: positions are strings of X, O and '.', lines
are lists of cell indices, and a value is found by trying every move to the
end of the game. It is slow, so the tests give it positions near the end.
"""

from __future__ import annotations

import functools
import random

from ttt_tui.engine import Board

FLIP = {"win": "loss", "loss": "win", "draw": "draw"}

Result = tuple[str, int]
"""An outcome for the side to move ("win", "draw" or "loss") and plies to the end."""


def lines_for(n: int, k: int) -> list[tuple[int, ...]]:
    """Every k-in-a-row on an n x n board: rows, columns and both diagonals."""
    found = []
    for row in range(n):
        for col in range(n):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + d_row * i, col + d_col * i) for i in range(k)]
                if all(0 <= r < n and 0 <= c < n for r, c in cells):
                    found.append(tuple(r * n + c for r, c in cells))
    return found


def rank(result: Result) -> tuple[int, int]:
    """Order results for the side to move: fast wins first, then draws, then slow losses."""
    outcome, plies = result
    if outcome == "win":
        return (2, -plies)
    if outcome == "draw":
        return (1, 0)
    return (0, plies)


class Reference:
    """Exact values on one board size, by brute force."""

    def __init__(self, n: int, k: int) -> None:
        self.n, self.k = n, k
        self.lines = lines_for(n, k)
        self.value = functools.cache(self._value)

    def won(self, cells: str, mark: str) -> bool:
        """Whether ``mark`` holds a whole line."""
        return any(all(cells[i] == mark for i in line) for line in self.lines)

    def mover(self, cells: str) -> str:
        """The side to move: X when the counts are level."""
        return "X" if cells.count("X") == cells.count("O") else "O"

    def move_result(self, cells: str, cell: int) -> Result:
        """The result of playing ``cell``, for the side that plays it."""
        me = self.mover(cells)
        after = cells[:cell] + me + cells[cell + 1 :]
        if self.won(after, me):
            return ("win", 1)
        if "." not in after:
            return ("draw", 1)
        outcome, plies = self.value(after)
        return (FLIP[outcome], plies + 1)

    def moves(self, cells: str) -> dict[int, Result]:
        """Every legal move's result."""
        return {i: self.move_result(cells, i) for i, ch in enumerate(cells) if ch == "."}

    def _value(self, cells: str) -> Result:
        return max(self.moves(cells).values(), key=rank)

    def random_position(self, rng: random.Random, empties: int) -> str | None:
        """A position reached by random play with ``empties`` cells left, if nobody won."""
        cells = ["."] * (self.n * self.n)
        order = list(range(self.n * self.n))
        rng.shuffle(order)
        for ply, cell in enumerate(order[: len(cells) - empties]):
            cells[cell] = "X" if ply % 2 == 0 else "O"
        text = "".join(cells)
        return None if self.won(text, "X") or self.won(text, "O") else text

    def sample(self, rng: random.Random, empties: int, count: int) -> list[str]:
        """``count`` distinct random positions in progress with ``empties`` cells left."""
        found: dict[str, None] = {}
        while len(found) < count:
            cells = self.random_position(rng, empties)
            if cells is not None:
                found[cells] = None
        return list(found)


@functools.cache
def every_3x3_position() -> tuple[Board, ...]:
    """Every 3x3 position in play that a game can reach, in a fixed order."""
    seen: set[Board] = set()

    def visit(board: Board) -> None:
        if board in seen or board.is_game_over():
            return
        seen.add(board)
        for cell in board.legal_moves():
            visit(board.play(cell))

    visit(Board.empty(3))
    return tuple(sorted(seen, key=lambda b: (b.move_count, str(b))))


def sample_3x3(count: int, seed: int = 11) -> list[Board]:
    """A seeded sample of 3x3 positions in play with at least two marks, from random games
    (cheap enough to build while the tests are collected)."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board.empty(3)
        for _ in range(rng.randint(2, 7)):
            if board.is_game_over():
                break
            board = board.play(rng.choice(board.legal_moves()))
        if not board.is_game_over() and board not in found:
            found.append(board)
    return found
