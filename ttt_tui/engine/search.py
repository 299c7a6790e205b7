"""Exact values for every move, and the difficulty policies.

Values are for the side to move: win or loss with the plies until the game
ends under best play (the winner hurries, the loser stalls), or a draw, which
lasts until the board is full. Every value comes from proofs by the search in
`ttt_tui.engine.solver`: "can this side force a win at all?", then, for a
win, "within d plies?" for rising d until one succeeds, which makes the
length exact. The solver's tables live for the process, per board size, so a
long-lived process answers later questions from what it proved earlier.

On 5x5 an exact length can cost far more than the outcome: `analyze` gives
up on a length after `DISTANCE_BUDGET` nodes and reports the outcome alone
(``plies=None``). Hard never gives up: it always knows how fast it wins.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from ttt_tui.engine.board import Board, Cell, Mask, Status, cells_of, coordinate
from ttt_tui.engine.solver import Solver, Stop, now, solver_for

TYPE_CHECKING = False  # `typing` itself costs a few milliseconds of import time
if TYPE_CHECKING:
    import random

CancelCheck = Callable[[], bool]
"""Returns True when the caller no longer wants the result of a search."""

DISTANCE_BUDGET: dict[int, int | None] = {3: None, 4: None, 5: 60_000}
"""Nodes `analyze` may spend on one move's exact length, by board size (None: no limit)."""

BOOK_VALUE_MARKS = 3
"""5x5 positions with at most this many marks have their value in the opening book
(``opening.MARKS`` and one mark more), so the moves of the book's positions are valued
without a search."""

ANALYSIS_CAP = 20_000
"""Complete analyses kept per board size, so asking again costs a lookup."""

PROGRESS_INTERVAL = 0.05
"""Seconds between two calls of a search's progress callback."""


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


class _Frozen:
    """Value semantics for the small immutable records below (no `dataclasses`:
    importing it was most of the engine's import time)."""

    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Frozen)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({inner})"


class Verdict(_Frozen):
    """An outcome under best play and the plies until the game ends."""

    __slots__ = ("outcome", "plies")

    outcome: Outcome
    """Win, draw or loss for the side to move."""
    plies: int | None
    """Moves by both sides, this one included, until the game ends; None when the
    length of a win or loss is not known (only on 5x5, where it can cost too much)."""

    def __init__(self, outcome: Outcome, plies: int | None) -> None:
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "plies", plies)

    def __str__(self) -> str:
        """E.g. ``win in 3``, ``draw``, ``loss in 2``, or ``win`` when the length is unknown."""
        if self.outcome is Outcome.DRAW:
            return "draw"
        word: str = self.outcome.value
        if self.plies is None:
            return word
        return f"{word} in {self.plies}"

    def __reduce__(self) -> tuple[type[Verdict], tuple[Outcome, int | None]]:
        return (Verdict, (self.outcome, self.plies))


class Analysis(_Frozen):
    """The value of a position and of each legal move in it.

    A complete analysis has every legal move's proven verdict. A partial one
    (``complete=False``, only ever handed to a progress callback) has the
    moves proven so far; the rest are not proven yet.
    """

    __slots__ = ("best", "board", "complete", "moves", "nodes", "value")

    board: Board
    """The position analysed."""
    value: Verdict
    """The position's value for the side to move."""
    moves: dict[Cell, Verdict]
    """Each legal move's value for the side to move, by cell (proven ones only if partial)."""
    best: tuple[Cell, ...]
    """The moves that reach the position's value, ascending (of those proven, if partial)."""
    complete: bool
    """Whether every legal move is in `moves`."""
    nodes: int
    """Positions the search expanded to produce this analysis (0 if all came from tables)."""

    def __init__(
        self,
        board: Board,
        value: Verdict,
        moves: dict[Cell, Verdict],
        best: tuple[Cell, ...],
        complete: bool = True,
        nodes: int = 0,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "board", board)
        set_(self, "value", value)
        set_(self, "moves", moves)
        set_(self, "best", best)
        set_(self, "complete", complete)
        set_(self, "nodes", nodes)

    def _fields(self) -> tuple[object, ...]:
        # What was found, not how much it cost: `nodes` is left out of equality.
        return (self.board, self.value, self.moves, self.best, self.complete)

    def __hash__(self) -> int:
        return hash((self.board, self.value, self.best, self.complete))

    def __reduce__(self) -> tuple[type[Analysis], tuple[object, ...]]:
        return (Analysis, (*self._fields(), self.nodes))


class Progress(_Frozen):
    """A snapshot of a search still running, for a progress callback."""

    __slots__ = ("analysis", "best", "depth", "elapsed", "nodes", "proven", "stage")

    nodes: int
    """Positions expanded so far by this search."""
    elapsed: float
    """Seconds since the search started."""
    depth: int | None
    """The depth of the current "win within d plies?" iteration, or None."""
    stage: str
    """What the search is doing, for a person: e.g. ``proving the draw``."""
    best: Cell | None
    """The best move found so far, if any."""
    proven: bool
    """Whether playing `best` is proven to keep the position's outcome."""
    analysis: Analysis | None
    """For `analyze`, once the position's value is proven: the moves proven so far."""

    def __init__(
        self,
        nodes: int,
        elapsed: float,
        depth: int | None,
        stage: str,
        best: Cell | None = None,
        proven: bool = False,
        analysis: Analysis | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "nodes", nodes)
        set_(self, "elapsed", elapsed)
        set_(self, "depth", depth)
        set_(self, "stage", stage)
        set_(self, "best", best)
        set_(self, "proven", proven)
        set_(self, "analysis", analysis)

    def __reduce__(self) -> tuple[type[Progress], tuple[object, ...]]:
        return (
            Progress,
            (
                self.nodes,
                self.elapsed,
                self.depth,
                self.stage,
                self.best,
                self.proven,
                self.analysis,
            ),
        )


ProgressCallback = Callable[[Progress], None]
"""Receives a `Progress` every so often while a search runs."""


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


_HORIZONS = {Difficulty.EASY: 1, Difficulty.MEDIUM: 2, Difficulty.HARD: None}


# --- One search: counting, cancelling, reporting ---------------------------------------------


class _OverBudget(Stop):
    """A length search spent its node budget."""


class _Run:
    """The bookkeeping of one public call: node counts, cancellation and progress.

    The solver of a board size, its tables and its hook for the running search
    (`Solver.tick`) are shared by every search on that size, so a run holds the
    solver's lock from start to end: searches from two threads (the coach's and
    the computer's, in a `ThreadSearcher`) take turns, as they do in the search
    process, and each sees only its own stop and budget.
    """

    def __init__(
        self,
        solver: Solver,
        cancelled: CancelCheck | None,
        progress: ProgressCallback | None,
    ) -> None:
        self.solver = solver
        self.cancelled = cancelled
        self.progress = progress
        self.start = self.last_report = 0.0
        """When the run began, and last reported progress (set once it holds the solver)."""
        self.first_node = 0
        """The solver's node count as the run began."""
        self.stage = "searching"
        self.depth: int | None = None
        self.best: Cell | None = None
        self.proven = False
        self.partial: Analysis | None = None
        self.limit: int | None = None

    @property
    def nodes(self) -> int:
        """Nodes expanded since the call began."""
        return self.solver.nodes - self.first_node

    def __enter__(self) -> _Run:
        self.solver.lock.acquire()
        if self.cancelled is not None and self.cancelled():
            self.solver.lock.release()
            raise SearchCancelled("the caller cancelled the search")
        self.start = self.last_report = now()
        self.first_node = self.solver.nodes
        self.solver.tick = self.tick
        return self

    def __exit__(self, *exc: object) -> None:
        self.solver.tick = None
        self.solver.lock.release()

    def tick(self) -> None:
        """Called by the solver every 256 nodes."""
        if self.cancelled is not None and self.cancelled():
            raise SearchCancelled("the caller cancelled the search")
        if self.limit is not None and self.solver.nodes > self.limit:
            raise _OverBudget
        if self.progress is not None:
            t = now()
            if t - self.last_report >= PROGRESS_INTERVAL:
                self.last_report = t
                self.report()

    def report(self) -> None:
        """Send a progress snapshot now (if anyone listens)."""
        if self.progress is not None:
            self.progress(
                Progress(
                    self.nodes,
                    now() - self.start,
                    self.depth,
                    self.stage,
                    self.best,
                    self.proven,
                    self.partial,
                )
            )

    def set(self, stage: str, depth: int | None = None) -> None:
        """Name what the search does next."""
        self.stage, self.depth = stage, depth


# --- Values ------------------------------------------------------------------------------------

_UNKNOWN = 1_000
"""Stands in for an unknown length when ranking: longer than any real game."""


def rank(verdict: Verdict) -> tuple[int, int]:
    """Orders verdicts for the side to move: quick wins, draws, slow losses.

    A win of unknown length ranks after every win of known length, a loss of
    unknown length before every loss of known length: the length was unknown
    because it was too long to find within the budget.
    """
    plies = _UNKNOWN if verdict.plies is None else verdict.plies
    if verdict.outcome is Outcome.WIN:
        return (2, -plies)
    if verdict.outcome is Outcome.DRAW:
        return (1, 0)
    return (0, plies)


def _need(lines: tuple[Mask, ...], k: int, a: Mask, d: Mask) -> int:
    """The fewest marks ``a`` still needs in a line free of ``d`` (k + 1 if none is free)."""
    best = -1
    for line in lines:
        if not d & line:
            c = (a & line).bit_count()
            if c > best:
                best = c
    return k - best if best >= 0 else k + 1


def _first_depth(
    test: Callable[[int], bool], start: int, stop: int, run: _Run, what: str
) -> int | None:
    """The smallest depth in ``start, start + 2, ... <= stop`` that passes ``test``."""
    for depth in range(max(start, 1), stop + 1, 2):
        run.set(what, depth)
        if test(depth):
            return depth
    return None


def _win_length(solver: Solver, run: _Run, a: Mask, d: Mask, a_to_move: bool) -> int | None:
    """Plies until ``a`` wins, counted from the side to move, given that it can.

    None if the run's budget ran out first.
    """
    e = (solver.full ^ (a | d)).bit_count()
    need = _need(solver.lines, solver.k, a, d)
    if a_to_move:
        test = _bounded(solver.or_node, a, d)
        start = 2 * need - 1
    else:
        test = _bounded(solver.and_node, a, d)
        start = 2 * need
    try:
        found = _first_depth(test, start, e, run, "timing the win")
    except _OverBudget:
        return None
    if found is None:  # pragma: no cover - the caller proved the win within e plies
        raise AssertionError(f"no win within {e} plies although one was proven")
    return found


def _bounded(node: Callable[[Mask, Mask, int], bool], a: Mask, d: Mask) -> Callable[[int], bool]:
    return lambda depth: node(a, d, depth)


def _value(
    solver: Solver, run: _Run, me: Mask, opp: Mask, exact: bool, book: bool = True
) -> Verdict:
    """The value of a position for ``me``, to move."""
    booked = _book_value(solver, me, opp) if book else None
    if booked is not None:
        return booked
    e = (solver.full ^ (me | opp)).bit_count()
    run.set("looking for a win")
    if solver.or_node(me, opp, e):
        return Verdict(Outcome.WIN, _length(solver, run, me, opp, True, exact))
    run.set("proving the draw")
    if solver.and_node(opp, me, e):
        return Verdict(Outcome.LOSS, _length(solver, run, opp, me, False, exact))
    return Verdict(Outcome.DRAW, e)


def _length(
    solver: Solver, run: _Run, a: Mask, d: Mask, a_to_move: bool, exact: bool
) -> int | None:
    budget = None if exact else DISTANCE_BUDGET.get(solver.n)
    run.limit = None if budget is None else solver.nodes + budget
    try:
        return _win_length(solver, run, a, d, a_to_move)
    finally:
        run.limit = None


def _sides(board: Board) -> tuple[Mask, Mask]:
    me = board.x if board.x.bit_count() == board.o.bit_count() else board.o
    return me, (board.x | board.o) ^ me


def _solver(board: Board) -> Solver:
    geo = board.geometry
    return solver_for(geo.n, geo.k, geo.lines)


def _require_in_progress(board: Board) -> None:
    status = board.status
    if status is not Status.IN_PROGRESS:
        raise GameOverError(f"the game is over ({status.value})")


def _wins_now(solver: Solver, mine: Mask, cell: Cell) -> bool:
    return any(mine & line == line for line in solver.lines if line >> cell & 1)


def _passing_holds(solver: Solver, run: _Run, me: Mask, opp: Mask) -> bool:
    """Whether the opponent could not force a win even if the side to move passed.

    A mark of one's own never helps the opponent, so then no move loses: one
    proof instead of one for each move. Often the same proof as "can the side
    to move win?" seen from the other side (on the empty board, exactly that).
    """
    run.set("proving that no move loses")
    return not solver.or_node(opp, me, (solver.full ^ (me | opp)).bit_count())


def _move_verdict(
    solver: Solver,
    run: _Run,
    me: Mask,
    opp: Mask,
    cell: Cell,
    root: Outcome,
    exact: bool,
    passing_holds: bool,
) -> Verdict:
    """The value of one move for the side to move, knowing the position's outcome.

    ``passing_holds``: the opponent is proven unable to win even if the side
    to move passed, so no move can lose.
    """
    mine = me | 1 << cell
    if _wins_now(solver, mine, cell):
        return Verdict(Outcome.WIN, 1)
    e = (solver.full ^ (mine | opp)).bit_count()
    if e == 0:
        return Verdict(Outcome.DRAW, 1)
    booked = _book_value(solver, opp, mine)
    if booked is not None:  # the opponent's value after the move, from the book
        outcome = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}.get(
            booked.outcome, Outcome.DRAW
        )
        return Verdict(outcome, None if booked.plies is None else booked.plies + 1)
    if root is Outcome.WIN and solver.and_node(mine, opp, e):
        length = _length(solver, run, mine, opp, False, exact)
        return Verdict(Outcome.WIN, None if length is None else length + 1)
    if root is Outcome.LOSS or (not passing_holds and solver.or_node(opp, mine, e)):
        length = _length(solver, run, opp, mine, True, exact)
        return Verdict(Outcome.LOSS, None if length is None else length + 1)
    return Verdict(Outcome.DRAW, e + 1)


def evaluate(
    board: Board,
    cancelled: CancelCheck | None = None,
    progress: ProgressCallback | None = None,
    exact: bool = False,
    book: bool = True,
) -> Verdict:
    """The position's value for the side to move, without valuing every move.

    The length of a win or loss is exact on 3x3 and 4x4, and on 5x5 too with
    ``exact=True``; otherwise a 5x5 length past `DISTANCE_BUDGET` nodes is None.
    ``book=False`` proves the value by search even where the opening book has it.
    """
    _require_in_progress(board)
    solver = _solver(board)
    me, opp = _sides(board)
    with _Run(solver, cancelled, progress) as run:
        return _value(solver, run, me, opp, exact, book)


def proof_from_scratch(
    board: Board,
    cancelled: CancelCheck | None = None,
    progress: ProgressCallback | None = None,
) -> tuple[Verdict, int]:
    """The position's exact value, proven with tables of its own that start empty and
    without the opening book, and the nodes that took: what the search costs from
    scratch, the same in any process (the explorer's count of the engine's work)."""
    _require_in_progress(board)
    geo = board.geometry
    solver = Solver(geo.n, geo.k, geo.lines)
    me, opp = _sides(board)
    with _Run(solver, cancelled, progress) as run:
        verdict = _value(solver, run, me, opp, exact=True, book=False)
        return verdict, run.nodes


def analyze(
    board: Board,
    cancelled: CancelCheck | None = None,
    progress: ProgressCallback | None = None,
) -> Analysis:
    """The value of the position and of every legal move in it, all proven.

    Lengths are exact on 3x3 and 4x4; on 5x5 a win or loss whose length
    would cost more than `DISTANCE_BUDGET` nodes has ``plies=None``.
    Raises `GameOverError` if the game has ended, and `SearchCancelled` if
    ``cancelled`` returns True while the search still has work to do.
    ``progress``, if given, receives a `Progress` every `PROGRESS_INTERVAL`
    seconds or so, with the moves proven so far once the value is known.
    """
    _require_in_progress(board)
    solver = _solver(board)
    me, opp = _sides(board)
    position = board.x | board.o << solver.size
    known = solver.analyses.get(position)
    if known is not None:
        assert isinstance(known, Analysis)
        return Analysis(board, known.value, dict(known.moves), known.best, True, 0)
    with _Run(solver, cancelled, progress) as run:
        value = _value(solver, run, me, opp, exact=False)
        # Where the book has every move's value, no search needs the proof that no
        # move loses (which took half a second on the 5x5 board with a corner taken).
        booked = solver.n == 5 and (me | opp).bit_count() < BOOK_VALUE_MARKS
        holds = (
            not booked
            and value.outcome is not Outcome.LOSS
            and _passing_holds(solver, run, me, opp)
        )
        moves: dict[Cell, Verdict] = {}
        seen: dict[int, Verdict] = {}
        empty = board.empty_mask
        for cell in cells_of(empty):
            # Moves that are images of each other under a symmetry of the
            # position have the same value: one search for each class.
            key = solver.canonical(me | 1 << cell, opp)
            verdict = seen.get(key)
            if verdict is None:
                run.set(f"valuing {coordinate(cell, board.n)}")
                verdict = seen[key] = _move_verdict(
                    solver, run, me, opp, cell, value.outcome, False, holds
                )
            moves[cell] = verdict
            if run.best is None or rank(verdict) > rank(moves[run.best]):
                run.best = cell
                # "Proven" means playing it keeps the position's outcome.
                run.proven = verdict.outcome is value.outcome
            if progress is not None:
                run.partial = _assemble(board, value, moves, False, run.nodes)
        analysis = _assemble(board, value, moves, True, run.nodes)
        if len(solver.analyses) >= ANALYSIS_CAP:
            solver.analyses.clear()
        solver.analyses[position] = analysis
        return analysis


def _assemble(
    board: Board, value: Verdict, moves: dict[Cell, Verdict], complete: bool, nodes: int
) -> Analysis:
    """An `Analysis` whose best moves are those whose verdict reaches the top rank."""
    if not moves:
        return Analysis(board, value, {}, (), complete, nodes)
    top = max(rank(v) for v in moves.values())
    best = tuple(c for c in sorted(moves) if rank(moves[c]) == top)
    if complete and value.plies is None and moves[best[0]].plies is not None:
        # The position's length is its best move's, when that one is known.
        value = moves[best[0]]
    return Analysis(board, value, dict(moves), best, complete, nodes)


# --- Choosing a move -------------------------------------------------------------------------


def choose_move(
    board: Board,
    difficulty: Difficulty,
    rng: random.Random,
    cancelled: CancelCheck | None = None,
    progress: ProgressCallback | None = None,
) -> Cell:
    """The computer's move at a difficulty, ties broken by ``rng`` alone.

    Easy takes a win it can see, otherwise plays anywhere. Medium also
    blocks a line the opponent could finish next move. Hard is perfect: it
    wins as fast as it can, loses as slowly as it can, and otherwise keeps
    the draw, uniformly at random among the moves that do so.
    """
    _require_in_progress(board)
    solver = _solver(board)
    me, opp = _sides(board)
    legal = list(cells_of(board.empty_mask))
    if difficulty is not Difficulty.HARD:
        wins = [c for c in legal if _wins_now(solver, me | 1 << c, c)]
        if wins or difficulty is Difficulty.EASY:
            return rng.choice(wins or legal)
        safe = [c for c in legal if not _threats(solver, opp, me | 1 << c)]
        return rng.choice(safe or legal)
    if board.n <= 4:
        # Small enough to value every move: the choice is among exactly the best.
        return rng.choice(analyze(board, cancelled, progress).best)
    with _Run(solver, cancelled, progress) as run:
        return _hard_move(solver, run, me, opp, legal, rng)


def _threats(solver: Solver, a: Mask, d: Mask) -> bool:
    """Whether ``a`` has a cell that completes a line free of ``d``."""
    km1 = solver.k - 1
    return any(not d & line and (a & line).bit_count() == km1 for line in solver.lines)


def _hard_move(
    solver: Solver, run: _Run, me: Mask, opp: Mask, legal: list[Cell], rng: random.Random
) -> Cell:
    """Hard's move on a board too big to value every move."""
    e = len(legal)
    wins = [c for c in legal if _wins_now(solver, me | 1 << c, c)]
    if wins:
        return rng.choice(wins)
    booked = _book_entry(solver, me, opp)
    if booked is not None:
        run.best, run.proven = booked[1][0], True
        return rng.choice(booked[1])
    run.set("looking for a win")
    if solver.or_node(me, opp, e):
        return rng.choice(_quickest_wins(solver, run, me, opp, legal))
    run.set("proving the draw")
    if solver.and_node(opp, me, e):
        return rng.choice(_slowest_losses(solver, run, me, opp, legal))
    # A draw: in a random order, the first move proven to keep it. That is
    # uniform among the drawing moves without proving every one of them.
    order = list(legal)
    rng.shuffle(order)
    for cell in order:
        run.set(f"trying {coordinate(cell, solver.n)}")
        run.best = cell
        if not solver.or_node(opp, me | 1 << cell, e - 1):
            run.proven = True
            return cell
    raise AssertionError("a drawn position has no drawing move")  # pragma: no cover


def _quickest_wins(solver: Solver, run: _Run, me: Mask, opp: Mask, legal: list[Cell]) -> list[Cell]:
    """In a won position, the moves that win soonest, ascending."""
    wins = [c for c in legal if _wins_now(solver, me | 1 << c, c)]
    if wins:
        return wins
    # Deepen until some move wins within the depth: those are the quickest.
    start = 2 * _need(solver.lines, solver.k, me, opp) - 1
    for depth in range(max(start, 3), len(legal) + 1, 2):
        run.set("finding the quickest win", depth)
        quickest = [c for c in legal if solver.and_node(me | 1 << c, opp, depth - 1)]
        if quickest:
            run.best, run.proven = quickest[0], True
            return quickest
    raise AssertionError("a proven win was not found")  # pragma: no cover


def _slowest_losses(
    solver: Solver, run: _Run, me: Mask, opp: Mask, legal: list[Cell]
) -> list[Cell]:
    """In a lost position, the moves that put the opponent's win furthest away."""
    run.set("stalling")
    lengths = {c: _win_length(solver, run, opp, me | 1 << c, True) or 0 for c in legal}
    longest = max(lengths.values())
    return [c for c in legal if lengths[c] == longest]


def best_moves(
    board: Board, cancelled: CancelCheck | None = None
) -> tuple[Verdict, tuple[Cell, ...]]:
    """The position's exact value and exactly the moves that keep it, ascending.

    What Hard chooses among, computed the long way (every move proven): the
    opening book is made of these, and its test checks them again.
    """
    _require_in_progress(board)
    solver = _solver(board)
    me, opp = _sides(board)
    legal = list(cells_of(board.empty_mask))
    e = len(legal)
    with _Run(solver, cancelled, None) as run:
        if solver.or_node(me, opp, e):
            moves = _quickest_wins(solver, run, me, opp, legal)
            if _wins_now(solver, me | 1 << moves[0], moves[0]):
                return Verdict(Outcome.WIN, 1), tuple(moves)
            length = _win_length(solver, run, me | 1 << moves[0], opp, False)
            assert length is not None
            return Verdict(Outcome.WIN, length + 1), tuple(moves)
        if solver.and_node(opp, me, e):
            moves = _slowest_losses(solver, run, me, opp, legal)
            length = _win_length(solver, run, opp, me | 1 << moves[0], True)
            return Verdict(Outcome.LOSS, (length or 0) + 1), tuple(moves)
        if _passing_holds(solver, run, me, opp):
            return Verdict(Outcome.DRAW, e), tuple(legal)
        drawing = [c for c in legal if not solver.or_node(opp, me | 1 << c, e - 1)]
        return Verdict(Outcome.DRAW, e), tuple(drawing)


def _book_value(solver: Solver, me: Mask, opp: Mask) -> Verdict | None:
    """The opening book's value of a 5x5 position, if it has it: the book's positions and
    those one mark later."""
    marks = (me | opp).bit_count()
    if solver.n != 5 or marks > BOOK_VALUE_MARKS:
        return None
    from ttt_tui.engine import opening

    key = solver.canonical(me, opp)
    if marks <= opening.MARKS:
        booked = opening.BOOK.get(key)
        return None if booked is None else Verdict(Outcome(booked[0]), booked[1])
    valued = opening.VALUES.get(key)
    return None if valued is None else Verdict(Outcome(valued[0]), valued[1])


def _book_entry(solver: Solver, me: Mask, opp: Mask) -> tuple[Verdict, list[Cell]] | None:
    """The opening book's value of a 5x5 position and Hard's moves there, if it has them."""
    if solver.n != 5 or (me | opp).bit_count() > 2:
        return None
    from ttt_tui.engine import opening

    key, perm = solver.orient(me, opp)
    found = opening.BOOK.get(key)
    if found is None:
        return None
    outcome, plies, best = found
    moves = sorted(cell for cell in range(solver.size) if best >> perm[cell] & 1)
    return Verdict(Outcome(outcome), plies), moves
