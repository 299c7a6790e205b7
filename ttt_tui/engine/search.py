"""Minimax: exact values for every move, and the difficulty policies.

Scores are integers from the point of view of the side to move. With
``K = cells + 1``, a win in ``p`` plies scores ``K - p`` and a loss in ``p``
plies scores ``-(K - p)``, so maximising a score makes the winner hurry and
the loser stall; a draw scores 0. Values are memoised per board geometry for
the life of the process, so only the first search of a game pays.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from dataclasses import dataclass

from ttt_tui.engine.board import Board, Cell, Geometry, Mask, Status, cells_of

CancelCheck = Callable[[], bool]
"""Returns True when the caller no longer wants the result of a search."""

_MEMO: dict[tuple[int, int], dict[int, int]] = {}
_HORIZON_MEMO: dict[tuple[int, int], dict[tuple[int, int], int]] = {}


class GameOverError(ValueError):
    """Analysis asked of a position whose game has already ended."""


class SearchCancelled(Exception):  # noqa: N818 - reads as an event, like StopIteration
    """A search stopped early because its caller cancelled it."""


class Outcome(enum.Enum):
    """The result of best play, for the side to move."""

    WIN = "win"
    """The side to move can force a win."""
    DRAW = "draw"
    """Neither side can force a win."""
    LOSS = "loss"
    """The opponent can force a win."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """An outcome under best play and the plies until the game ends."""

    outcome: Outcome
    """Win, draw or loss for the side to move."""
    plies: int
    """Moves by both sides, this one included, until the game ends."""

    def __str__(self) -> str:
        """E.g. ``win in 3``, ``draw``, ``loss in 2``."""
        if self.outcome is Outcome.DRAW:
            return "draw"
        return f"{self.outcome.value} in {self.plies}"


@dataclass(frozen=True, slots=True)
class Analysis:
    """The exact value of a position and of each legal move in it."""

    board: Board
    """The position analysed."""
    value: Verdict
    """The position's value for the side to move."""
    moves: dict[Cell, Verdict]
    """Each legal move's value for the side to move, by cell."""
    best: tuple[Cell, ...]
    """The moves that reach the position's value, ascending."""


class Difficulty(enum.Enum):
    """How strongly the computer plays. Each level is a search horizon."""

    EASY = "easy"
    """Looks one ply ahead: takes a win it can see, otherwise plays anywhere."""
    MEDIUM = "medium"
    """Looks two plies ahead: also blocks a line you could finish next move."""
    HARD = "hard"
    """Searches to the end of the game: perfect play."""

    @property
    def horizon(self) -> int | None:
        """Plies searched, or None for the whole game."""
        return _HORIZONS[self]

    @property
    def next(self) -> Difficulty:
        """The following level, wrapping from Hard to Easy."""
        members = list(Difficulty)
        return members[(members.index(self) + 1) % len(members)]


_HORIZONS = {Difficulty.EASY: 1, Difficulty.MEDIUM: 2, Difficulty.HARD: None}


def _negate(score: int) -> int:
    """A child's score seen from the parent, one ply further from the end."""
    if score > 0:
        return -score + 1
    if score < 0:
        return -score - 1
    return 0


def _verdict(score: int, empties: int, k_const: int) -> Verdict:
    """A score as an outcome and plies; a draw lasts until the ``empties`` are filled."""
    if score > 0:
        return Verdict(Outcome.WIN, k_const - score)
    if score < 0:
        return Verdict(Outcome.LOSS, k_const + score)
    return Verdict(Outcome.DRAW, empties)


def _solver(geo: Geometry, cancelled: CancelCheck | None) -> Callable[[Mask, Mask], int]:
    """An exact negamax over ``(mover, opponent)`` masks, memoised per geometry."""
    memo = _MEMO.setdefault((geo.n, geo.k), {})
    full, shift, win_score = geo.full, geo.size, geo.size
    through = {1 << cell: lines for cell, lines in enumerate(geo.lines_through)}

    def solve(me: Mask, opp: Mask) -> int:
        key = me | opp << shift
        score = memo.get(key)
        if score is not None:
            return score
        if cancelled is not None and cancelled():
            raise SearchCancelled("the caller cancelled the search")
        empty = full & ~(me | opp)
        moves = []
        rest = empty
        while rest:
            bit = rest & -rest
            rest ^= bit
            mine = me | bit
            for line in through[bit]:
                if mine & line == line:
                    memo[key] = win_score
                    return win_score
            moves.append(mine)
        if len(moves) == 1:
            best = 0
        else:
            best = -win_score
            for mine in moves:
                child = solve(opp, mine)
                # `_negate`, inlined: this is the search's innermost loop.
                value = -child + 1 if child > 0 else -child - 1 if child < 0 else 0
                if value > best:
                    best = value
                    if best == win_score - 2:
                        break
        memo[key] = best
        return best

    return solve


def _move_scores(
    board: Board, horizon: int | None, cancelled: CancelCheck | None = None
) -> dict[Cell, int]:
    """The score of each legal move, searched to a horizon or to the end."""
    if board.status is not Status.IN_PROGRESS:
        raise GameOverError(f"the game is over ({board.status.value})")
    geo = board.geometry
    me, opp = board.marks(board.to_move), board.marks(board.to_move.other)
    if horizon is None:
        solve = _solver(geo, cancelled)

        def score_after(mine: Mask) -> int:
            return _negate(solve(opp, mine))

    else:
        limited = _horizon_solver(geo)

        def score_after(mine: Mask) -> int:
            return _negate(limited(opp, mine, horizon - 1))

    win_score = geo.size + 1
    scores: dict[Cell, int] = {}
    for cell in cells_of(board.empty_mask):
        mine = me | 1 << cell
        if any(mine & line == line for line in geo.lines_through[cell]):
            scores[cell] = win_score - 1
        elif mine | opp == geo.full or horizon == 1:
            scores[cell] = 0
        else:
            scores[cell] = score_after(mine)
    return scores


def _horizon_solver(geo: Geometry) -> Callable[[Mask, Mask, int], int]:
    """Negamax that looks ``depth`` plies ahead and calls the rest unknown (0)."""
    memo = _HORIZON_MEMO.setdefault((geo.n, geo.k), {})
    full, shift, win_score = geo.full, geo.size, geo.size

    def solve(me: Mask, opp: Mask, depth: int) -> int:
        key = (me | opp << shift, depth)
        score = memo.get(key)
        if score is not None:
            return score
        best = -win_score
        for cell in cells_of(full & ~(me | opp)):
            mine = me | 1 << cell
            if any(mine & line == line for line in geo.lines_through[cell]):
                best = win_score
                break
            if mine | opp != full and depth > 1:
                best = max(best, _negate(solve(opp, mine, depth - 1)))
            else:
                best = max(best, 0)
        memo[key] = best
        return best

    return solve


def analyze(board: Board, cancelled: CancelCheck | None = None) -> Analysis:
    """The exact value of the position and of every legal move in it.

    Raises `GameOverError` if the game has ended, and `SearchCancelled` if
    ``cancelled`` returns True while the search still has work to do.
    """
    scores = _move_scores(board, None, cancelled)
    k_const = board.size + 1
    empties = board.empty_mask.bit_count()
    moves = {cell: _verdict(s, empties, k_const) for cell, s in scores.items()}
    top = max(scores.values())
    best = tuple(cell for cell, s in scores.items() if s == top)
    return Analysis(board, _verdict(top, empties, k_const), moves, best)


def choose_move(
    board: Board,
    difficulty: Difficulty,
    rng: random.Random,
    cancelled: CancelCheck | None = None,
) -> Cell:
    """The computer's move: the best within the level's horizon, ties at random."""
    scores = _move_scores(board, difficulty.horizon, cancelled)
    top = max(scores.values())
    return rng.choice([cell for cell, s in scores.items() if s == top])
