"""Puzzles proven by the engine: find the only move.

Pure: no UI imports. A position is a puzzle when the side to move (the solver)
has exactly one move that reaches a goal, and the engine proves it:

- goal `Goal.WIN`: the position is a forced win and exactly one move keeps it;
- goal `Goal.HOLD`: the position is a draw and exactly one move keeps the draw
  (every other move loses).

`prove` decides whether a position is a puzzle and builds it: the solution
line (the solver's quickest win, the defender's slowest loss, the lowest cell
among equals), the themes (each a property of the position checked here, see
`Theme`) and the difficulty (`difficulty_of`, its measure stated there).
`candidates` draws positions from seeded random play and from the opening
book's lines; `generate` proves them, one puzzle per position up to the
board's symmetries. Everything is deterministic for a seed.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ttt_tui.engine import (
    Analysis,
    Board,
    Cell,
    Difficulty,
    Outcome,
    Player,
    analyze,
    cells_of,
    choose_move,
    coordinate,
)
from ttt_tui.engine.search import best_moves, evaluate
from ttt_tui.engine.solver import solver_for
from ttt_tui.teach.explain import tactic, threats

Mask = int
"""A set of cells as a bit mask."""

MIN_CHOICES = 3
"""A position with fewer legal moves than this is no puzzle: there is nothing to find."""


class Goal(enum.Enum):
    """What the solver must achieve with the only move."""

    WIN = "win"
    """Force a win: the first move is the only one that wins."""
    HOLD = "hold"
    """Keep the draw: the first move is the only one that does not lose."""


class Theme(enum.Enum):
    """A named idea of a puzzle, each a property `themes_of` checks on the position."""

    WIN_IN_ONE = "win-in-one"
    """The only move completes a line at once."""
    BLOCK = "block"
    """The opponent threatens to complete a line and the only move takes that square."""
    FORK = "fork"
    """The only move wins by making two threats at once (and completes nothing)."""
    BLOCK_THE_FORK = "block-the-fork"
    """A hold with no threat to block: the opponent has a square that would make two
    threats at once, and only one move keeps the draw."""
    WIN_IN_N = "win-in-n"
    """A forced win longer than one move (three plies or more), its length proven."""
    FORCING = "forcing"
    """On 4x4 and 5x5, a win of three plies or more in which every move of the solver's
    but the last threatens to complete four in a row, so every reply is forced."""

    @property
    def words(self) -> str:
        """The theme as a person says it."""
        return self.value.replace("-", " ")


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position whose one move the engine proved to be the only one reaching the goal."""

    board: Board
    """The position, the solver to move."""
    goal: Goal
    line: tuple[Cell, ...]
    """The solution: the solver's move, then the defender's and the solver's in turn.
    A win's line runs to the winning move; a hold's is the one move."""
    plies: int
    """A win's length in plies (the solver's moves and the defender's, the first
    included); for a hold, the slowest loss any other move allows: how far one must
    look to rule every other move out."""
    themes: tuple[Theme, ...]
    """The themes whose property holds, in `Theme`'s order."""
    tempting: int
    """Other moves that look active (they threaten or block a line) but fail the goal."""
    medium: int
    """How the computer's Medium level fares at it: 0 it always plays the move, 1 it
    may, 2 it never does."""

    @property
    def solver(self) -> Player:
        """The side to move, who must find the move."""
        return self.board.to_move

    @property
    def first(self) -> Cell:
        """The only move."""
        return self.line[0]

    @property
    def difficulty(self) -> int:
        """See `difficulty_of`."""
        return difficulty_of(self.goal, self.plies, self.tempting, self.medium)

    def goal_words(self) -> str:
        """The goal in one sentence: ``X to play and win in 5``, ``O to play and hold the
        draw``."""
        side = self.solver.value
        if self.goal is Goal.HOLD:
            return f"{side} to play and hold the draw"
        if self.plies == 1:
            return f"{side} to play and win at once"
        return f"{side} to play and win in {self.plies}"


def difficulty_of(goal: Goal, plies: int, tempting: int, medium: int) -> int:
    """A puzzle's difficulty, 1 or more: how far ahead one must look, what misleads, and
    whether a shallow search finds it.

    ``1 + 3 * (depth - 1) + min(tempting, 3) + medium``, where depth is the solver's
    moves one must see: for a win, the solver's moves in the solution
    (``(plies + 1) // 2``); for a hold, the opponent's moves in the slowest refutation
    of a wrong move (``plies // 2``). ``tempting`` counts other moves that threaten or
    block a line yet fail (at most 3 count); ``medium`` is 0, 1 or 2 as Medium always,
    sometimes or never plays the move.
    """
    depth = (plies + 1) // 2 if goal is Goal.WIN else plies // 2
    return 1 + 3 * (max(depth, 1) - 1) + min(tempting, 3) + medium


def fork_squares(board: Board, player: Player) -> Mask:
    """The empty squares where a mark of ``player``'s would make two threats at once
    (two squares that each complete a line)."""
    geo = board.geometry
    theirs = board.marks(player.other)
    found = 0
    for cell in cells_of(board.empty_mask):
        mine = board.marks(player) | 1 << cell
        made = 0
        for line in geo.lines:
            if not theirs & line and (mine & line).bit_count() == board.k - 1:
                made |= line & ~mine
        if made.bit_count() >= 2:
            found |= 1 << cell
    return found


def _medium_choices(board: Board) -> list[Cell]:
    """The moves Medium chooses among (`choose_move`): a win it sees, else a move that
    leaves the opponent no line to finish, else any."""
    legal = board.legal_moves()
    mover = board.to_move
    wins = [cell for cell in legal if tactic(board, cell).completes]
    if wins:
        return wins
    safe = [cell for cell in legal if not threats(board.play(cell), mover.other)]
    return safe or legal


def medium_level(board: Board, cell: Cell) -> int:
    """0 if Medium always plays ``cell`` here, 1 if it may, 2 if it never does."""
    choices = _medium_choices(board)
    if cell not in choices:
        return 2
    return 0 if len(choices) == 1 else 1


def _looks_active(board: Board, cell: Cell) -> bool:
    t = tactic(board, cell)
    return bool(t.completes or t.blocks or t.threatens)


def themes_of(board: Board, goal: Goal, line: tuple[Cell, ...]) -> tuple[Theme, ...]:
    """The themes whose property holds for the puzzle ``board``, ``goal`` and ``line``."""
    first = line[0]
    solver = board.to_move
    t = tactic(board, first)
    found: list[Theme] = []
    if goal is Goal.WIN and len(line) == 1:
        found.append(Theme.WIN_IN_ONE)
    if not t.completes and threats(board, solver.other) >> first & 1:
        found.append(Theme.BLOCK)
    if goal is Goal.WIN and not t.completes and t.fork:
        found.append(Theme.FORK)
    if goal is Goal.HOLD and not threats(board, solver.other) and fork_squares(board, solver.other):
        found.append(Theme.BLOCK_THE_FORK)
    if goal is Goal.WIN and len(line) >= 3:
        found.append(Theme.WIN_IN_N)
        if board.k >= 4 and _forcing(board, line):
            found.append(Theme.FORCING)
    return tuple(found)


def _forcing(board: Board, line: tuple[Cell, ...]) -> bool:
    """Whether every solver move of a winning line but the last leaves a threat."""
    solver = board.to_move
    position = board
    for index, cell in enumerate(line[:-1]):
        position = position.play(cell)
        if index % 2 == 0 and not threats(position, solver):
            return False
    return True


def _solution_line(board: Board) -> tuple[Cell, ...]:
    """Best play from a won position to the win: the solver's quickest win, the
    defender's slowest loss, the lowest cell among equals (every length exact)."""
    line: list[Cell] = []
    position = board
    while not position.is_game_over():
        _, moves = best_moves(position)
        line.append(moves[0])
        position = position.play(moves[0])
    return tuple(line)


def _loss_plies(board: Board, cell: Cell) -> int:
    """The exact plies, ``cell`` included, until the mover loses after playing it."""
    after = board.play(cell)
    if after.is_game_over():  # pragma: no cover - a losing move never ends the game
        raise AssertionError("a losing move ended the game")
    verdict = evaluate(after, exact=True)
    assert verdict.outcome is Outcome.WIN and verdict.plies is not None
    return verdict.plies + 1


def prove(board: Board) -> Puzzle | None:
    """The puzzle ``board`` is, or None: the engine's proof that exactly one move wins
    (in a won position) or keeps the draw (in a drawn one).

    Exact on every board; on 5x5 a position far from the end can take seconds.
    """
    if board.is_game_over() or len(board.legal_moves()) < MIN_CHOICES:
        return None
    analysis = analyze(board)
    first = only_move(analysis)
    if first is None:
        return None
    wrong = [cell for cell in analysis.moves if cell != first]
    if analysis.value.outcome is Outcome.WIN:
        goal = Goal.WIN
        line = (first, *_solution_line(board.play(first)))
        plies = len(line)
    else:
        goal = Goal.HOLD
        line = (first,)
        plies = max(_loss_plies(board, cell) for cell in wrong)
    return _made(board, goal, line, plies, wrong)


def only_move(analysis: Analysis) -> Cell | None:
    """The one move that keeps an analysed position's win or draw, if exactly one does
    and there are at least `MIN_CHOICES` moves to choose from; else None."""
    if len(analysis.moves) < MIN_CHOICES or analysis.value.outcome is Outcome.LOSS:
        return None
    value = analysis.value.outcome
    keep = [cell for cell, verdict in analysis.moves.items() if verdict.outcome is value]
    return keep[0] if len(keep) == 1 else None


def from_analysis(analysis: Analysis, line: Sequence[Cell]) -> Puzzle | None:
    """The puzzle of an analysed position, or None, as `prove` finds it but from work
    already done: ``analysis`` (the engine's, every move valued) and, for a win, the
    solution ``line`` worked out from the engines' analyses along it (the lowest of the
    best moves at each ply, as `prove`'s). None also where a length it needs is not
    known (on 5x5, where the analysis may give a win or loss without its length)."""
    board = analysis.board
    first = only_move(analysis)
    if first is None:
        return None
    wrong = [cell for cell in analysis.moves if cell != first]
    if analysis.value.outcome is Outcome.WIN:
        goal = Goal.WIN
        if not line or line[0] != first or analysis.value.plies != len(line):
            return None
        solution = tuple(line)
        plies = len(solution)
    else:
        goal = Goal.HOLD
        solution = (first,)
        losses = [analysis.moves[cell].plies for cell in wrong]
        known = [length for length in losses if length is not None]
        if len(known) != len(losses):
            return None
        plies = max(known)
    return _made(board, goal, solution, plies, wrong)


def _made(
    board: Board, goal: Goal, line: tuple[Cell, ...], plies: int, wrong: Sequence[Cell]
) -> Puzzle:
    """The puzzle of ``board`` whose solution is ``line``, ``wrong`` its other moves:
    its themes, tempting moves and Medium's chance worked out."""
    tempting = sum(1 for cell in wrong if _looks_active(board, cell))
    themes = themes_of(board, goal, line)
    return Puzzle(board, goal, line, plies, themes, tempting, medium_level(board, line[0]))


def canonical_key(board: Board) -> int:
    """The same number for a position and its images under the board's symmetries."""
    geo = board.geometry
    mover = board.marks(board.to_move)
    return solver_for(geo.n, geo.k, geo.lines).canonical(mover, (board.x | board.o) ^ mover)


def random_positions(n: int, rng: random.Random) -> Iterator[Board]:
    """Positions from random play on an n x n board, without end: each a random game
    stopped after a random number of moves, while it is still on."""
    empty = Board.empty(n)
    least = {3: 1, 4: 4, 5: 6}.get(n, 1)
    while True:
        board = empty
        stop = rng.randrange(least, empty.size - MIN_CHOICES + 1)
        for _ in range(stop):
            if board.is_game_over():
                break
            board = board.play(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            yield board


def book_positions(n: int, rng: random.Random) -> Iterator[Board]:
    """Positions from the opening book's lines, without end: Hard's opening moves (from
    the book on 5x5), then random moves by the side that is to lose its way."""
    empty = Board.empty(n)
    least = {3: 1, 4: 4, 5: 6}.get(n, 1)
    book_moves = 2 if n == 5 else 1
    while True:
        board = empty
        for _ in range(book_moves):
            board = board.play(choose_move(board, Difficulty.HARD, rng))
        stop = rng.randrange(max(least - book_moves, 1), empty.size - MIN_CHOICES - book_moves)
        for _ in range(stop):
            if board.is_game_over():
                break
            board = board.play(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            yield board


def every_position(n: int) -> Iterator[Board]:
    """Every position a game can reach on an n x n board, still on, once each, in order
    of the marks on it (only sensible on 3x3)."""
    layer = {Board.empty(n)}
    while layer:
        yield from sorted(layer, key=lambda b: (b.x, b.o))
        layer = {
            board.play(cell)
            for board in layer
            for cell in board.legal_moves()
            if not board.play(cell).is_game_over()
        }


def generate(boards: Iterator[Board], count: int, tries: int) -> list[Puzzle]:
    """The first ``count`` puzzles among at most ``tries`` positions, one a position up to
    the board's symmetries."""
    found: list[Puzzle] = []
    seen: set[int] = set()
    for _, board in zip(range(tries), boards, strict=False):
        key = canonical_key(board)
        if key in seen:
            continue
        seen.add(key)
        puzzle = prove(board)
        if puzzle is not None:
            found.append(puzzle)
            if len(found) >= count:
                break
    return found


def position_text(board: Board) -> str:
    """A position in `ttt-tui analyze`'s notation, rows between slashes: ``X.O/.X./...``."""
    return "/".join(board.rows())


def move_name(board: Board, cell: Cell) -> str:
    """A move by name and number, as the game's keys take it: ``b2 (5)``."""
    return f"{coordinate(cell, board.n)} ({cell + 1})"


# The shipped set ---------------------------------------------------------------------------


def record(puzzle: Puzzle) -> str:
    """A puzzle as one line of the shipped set: position, goal, line (0-based cells),
    plies, themes (``-`` for none), tempting moves and Medium's level."""
    themes = ",".join(theme.value for theme in puzzle.themes) or "-"
    line = ",".join(str(cell) for cell in puzzle.line)
    return (
        f"{position_text(puzzle.board)} {puzzle.goal.value} {line} {puzzle.plies}"
        f" {themes} {puzzle.tempting} {puzzle.medium}"
    )


def from_record(text: str) -> Puzzle:
    """The puzzle a `record` line holds (raises ValueError on anything else)."""
    fields = text.split()
    if len(fields) != 7:
        raise ValueError(f"expected 7 fields in a puzzle record, got {len(fields)}")
    position, goal, line, plies, themes, tempting, medium = fields
    return Puzzle(
        Board.parse(position),
        Goal(goal),
        tuple(int(cell) for cell in line.split(",")),
        int(plies),
        () if themes == "-" else tuple(Theme(theme) for theme in themes.split(",")),
        int(tempting),
        int(medium),
    )


def digest(records: tuple[str, ...]) -> str:
    """The SHA-256 of the shipped set's records, in order, one a line."""
    import hashlib

    return hashlib.sha256("\n".join(records).encode("utf-8")).hexdigest()


_SHIPPED: dict[int, tuple[Puzzle, ...]] = {}


def shipped(n: int) -> tuple[Puzzle, ...]:
    """The shipped, proven puzzles of the n x n board (`ttt_tui.teach.puzzle_set`), in the
    set's order: read once, no search."""
    found = _SHIPPED.get(n)
    if found is None:
        from ttt_tui.teach.puzzle_set import RECORDS

        side = {9: 3, 16: 4, 25: 5}
        found = tuple(
            from_record(line)
            for line in RECORDS
            if side.get(len(line.split()[0].replace("/", ""))) == n
        )
        _SHIPPED[n] = found
    return found


def choose(
    n: int, count: int, seed: int, theme: Theme | None = None, goal: Goal | None = None
) -> list[Puzzle]:
    """``count`` puzzles of the shipped set of the n x n board (fewer if fewer match),
    with ``theme`` and ``goal`` if given, chosen by ``seed`` alone, easiest first."""
    pool = [
        puzzle
        for puzzle in shipped(n)
        if (theme is None or theme in puzzle.themes) and (goal is None or puzzle.goal is goal)
    ]
    picked = random.Random(seed).sample(range(len(pool)), min(count, len(pool)))
    return [pool[index] for index in sorted(picked, key=lambda i: (pool[i].difficulty, i))]
