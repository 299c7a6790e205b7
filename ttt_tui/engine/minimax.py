"""The searches the tutorials teach, counted: plain minimax and minimax with alpha-beta.

The explorer shows how many positions each search visits to value a position,
side by side with the engine's proof search. These are the textbook algorithms,
written to be counted, not to be fast: no tables, no symmetries, moves tried in
reading order (a1, b1, c1, a2 ...).

Scores are the tutorials' depth-aware ones, from X's side: X maximises, O
minimises, a draw scores 0, and a win scores one more than the squares still
empty when it ends (``10 - depth`` on an empty 3x3 board), so a quicker win
scores higher and a slower loss less badly. `verdict_of` turns a score back into
the engine's `Verdict` for the side to move.

Every search here is pure, cancellable (``cancelled``, asked every few thousand
positions) and reports its progress; plain minimax and alpha-beta stop after a
node budget, so that they answer on boards where they could never finish.
`walk` is alpha-beta again, one step at a time, for the explorer to show: the
same positions in the same order, so it ends with the same node and cut counts
as `alpha_beta`.

Imported on its own (``ttt_tui.engine.minimax``), not by ``ttt_tui.engine``: the
search process loads it only when the explorer asks for a count.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

from ttt_tui.engine.board import Board, Cell, Mask, Player, Status, cells_of
from ttt_tui.engine.search import (
    CancelCheck,
    Outcome,
    Progress,
    SearchCancelled,
    Verdict,
    _require_in_progress,
    _sides,
    proof_from_scratch,
)

BUDGET = 1_000_000
"""Positions plain minimax or alpha-beta may visit before they stop (about a second or two)."""

SAMPLES = 2_000
"""Random paths `estimate_tree` follows to estimate the size of a game tree."""

CHECK_EVERY = 4_096
"""Positions between two looks at cancellation, the budget and the clock."""

PROGRESS_SECONDS = 0.05
"""Least seconds between two progress reports."""

INFINITY = 1_000
"""Stands for infinity in alpha and beta: more than any score."""

WALK_EMPTY = 9
"""The most empty squares a position may have for `walk` to be offered: the empty 3x3
board, or a 4x4 or 5x5 board near its end. Its alpha-beta tree is then at most the
size of the empty 3x3 board's."""


class Search(enum.Enum):
    """One of the searches the explorer compares."""

    MINIMAX = "minimax"
    """Plain minimax: every move to the end of the game, as the tutorials write it."""
    ALPHA_BETA = "alpha-beta"
    """Minimax with alpha-beta pruning, moves in reading order."""
    ENGINE = "engine"
    """The engine's proof search, with its tables, symmetries and threat rules."""

    @property
    def label(self) -> str:
        """The search's name for a person."""
        return _LABELS[self]


_LABELS = {
    Search.MINIMAX: "plain minimax",
    Search.ALPHA_BETA: "alpha-beta",
    Search.ENGINE: "the engine",
}


@dataclass(frozen=True, slots=True)
class Estimate:
    """The size of a game tree estimated by random paths (Knuth's method)."""

    nodes: float
    """Estimated positions in the whole tree, the root included."""
    samples: int
    """Random paths followed."""


@dataclass(frozen=True, slots=True)
class Count:
    """What one search did to value a position."""

    search: Search
    nodes: int
    """Positions visited (plain minimax and alpha-beta, the root included) or expanded
    (the engine; positions answered from its tables or rules are not counted)."""
    finished: bool
    """Whether the search reached the position's value within its budget."""
    verdict: Verdict | None
    """The value it found, for the side to move; None if it did not finish."""
    cuts: int = 0
    """Alpha-beta: how many times the rest of a position's moves were cut off."""
    root_moves: int = 0
    """Moves in the position searched."""
    root_done: int = 0
    """Of those, how many the search had finished when it ended."""
    seconds: float = 0.0
    """Time it took."""
    estimate: Estimate | None = None
    """Plain minimax that did not finish: the size of the whole tree, estimated."""


@dataclass(frozen=True, slots=True)
class CountProgress:
    """How far a count has got, for a progress callback."""

    search: Search
    nodes: int
    seconds: float
    root_done: int
    root_moves: int


CountProgressCallback = Callable[[CountProgress], None]
"""Receives a `CountProgress` every so often while a count runs."""


class _OverBudget(Exception):  # noqa: N818 - an event, like StopIteration
    """The search used up its node budget."""


# Scores --------------------------------------------------------------------------------


def leaf_score(board: Board) -> int | None:
    """The score of a finished game from X's side; None while it is on."""
    status = board.status
    if status is Status.IN_PROGRESS:
        return None
    if status is Status.DRAW:
        return 0
    left = board.empty_mask.bit_count() + 1
    return left if status is Status.X_WON else -left


def verdict_of(board: Board, score: int) -> Verdict:
    """A score of ``board`` (from X's side) as a verdict for the side to move there."""
    empty = board.empty_mask.bit_count()
    if score == 0:
        return Verdict(Outcome.DRAW, empty)
    plies = empty - (abs(score) - 1)
    x_wins = score > 0
    mine = x_wins == (board.to_move is Player.X)
    return Verdict(Outcome.WIN if mine else Outcome.LOSS, plies)


def score_of(board: Board, verdict: Verdict) -> int | None:
    """The depth-aware score (X's side) of a verdict for the side to move; None if its
    length is unknown."""
    if verdict.outcome is Outcome.DRAW:
        return 0
    if verdict.plies is None:
        return None
    size = board.empty_mask.bit_count() - verdict.plies + 1
    x_to_move = board.to_move is Player.X
    return size if (verdict.outcome is Outcome.WIN) == x_to_move else -size


# The counts --------------------------------------------------------------------------------


class _Meter:
    """Counting, cancelling, the budget and progress, for one count."""

    def __init__(
        self,
        search: Search,
        root_moves: int,
        budget: int | None,
        cancelled: CancelCheck | None,
        progress: CountProgressCallback | None,
    ) -> None:
        self.search = search
        self.root_moves = root_moves
        self.budget = budget
        self.cancelled = cancelled
        self.progress = progress
        self.start = time.perf_counter()
        self.last_report = self.start
        self.root_done = 0
        if cancelled is not None and cancelled():
            raise SearchCancelled("the caller cancelled the count")

    def limit(self, nodes: int) -> int:
        """The node count at which to look again."""
        step = nodes + CHECK_EVERY
        return step if self.budget is None else min(step, self.budget + 1)

    def check(self, nodes: int) -> int:
        """Look at the budget, cancellation and the clock; the next node count to look at."""
        if self.budget is not None and nodes > self.budget:
            raise _OverBudget
        if self.cancelled is not None and self.cancelled():
            raise SearchCancelled("the caller cancelled the count")
        if self.progress is not None:
            moment = time.perf_counter()
            if moment - self.last_report >= PROGRESS_SECONDS:
                self.last_report = moment
                self.report(nodes)
        return self.limit(nodes)

    def report(self, nodes: int) -> None:
        """Send a progress report now, if anyone listens."""
        if self.progress is not None:
            seconds = time.perf_counter() - self.start
            self.progress(
                CountProgress(self.search, nodes, seconds, self.root_done, self.root_moves)
            )

    @property
    def seconds(self) -> float:
        """Seconds since the count began."""
        return time.perf_counter() - self.start

    def over_budget(self, nodes: int, cuts: int = 0, estimate: Estimate | None = None) -> Count:
        """The count cut short by the budget, after ``nodes`` positions."""
        done = min(nodes, self.budget or nodes)
        return Count(self.search, done, False, None, cuts, self.root_moves, self.root_done,
                     self.seconds, estimate)  # fmt: skip

    def finished(self, board: Board, nodes: int, best: int, cuts: int = 0) -> Count:
        """The whole count: ``best`` is the negamax score of ``board`` for its side to move."""
        self.report(nodes)
        x_score = best if board.to_move is Player.X else -best
        return Count(self.search, nodes, True, verdict_of(board, x_score), cuts,
                     self.root_moves, self.root_moves, self.seconds)  # fmt: skip


def plain_minimax(
    board: Board,
    cancelled: CancelCheck | None = None,
    progress: CountProgressCallback | None = None,
    budget: int | None = BUDGET,
) -> Count:
    """Value ``board`` by plain minimax, counting every position it visits.

    Every move is followed to the end of the game; the root counts as a
    position, and so does every finished game (549,946 on the empty 3x3
    board). It stops after ``budget`` positions (None: no limit) and then
    reports how far it got, with an estimate of the whole tree's size.
    """
    _require_in_progress(board)
    through = board.geometry.lines_through
    moves = board.legal_moves()
    meter = _Meter(Search.MINIMAX, len(moves), budget, cancelled, progress)
    nodes = 1
    limit = meter.limit(nodes)

    # Negamax: the score for the side to move, as ±(squares left + 1); the
    # counts are those of minimax written with a max and a min side.
    def visit(me: Mask, opp: Mask, empty: Mask, last: Cell) -> int:
        nonlocal nodes, limit
        nodes += 1
        if nodes >= limit:
            limit = meter.check(nodes)
        for line in through[last]:
            if opp & line == line:
                return -(empty.bit_count() + 1)
        if not empty:
            return 0
        best = -INFINITY
        rest = empty
        while rest:
            low = rest & -rest
            rest ^= low
            value = -visit(opp, me | low, empty ^ low, low.bit_length() - 1)
            if value > best:
                best = value
        return best

    me, opp = _sides(board)
    empty = board.empty_mask
    best = -INFINITY
    try:
        for cell in moves:
            bit = 1 << cell
            best = max(best, -visit(opp, me | bit, empty ^ bit, cell))
            meter.root_done += 1
    except _OverBudget:
        return meter.over_budget(nodes, estimate=estimate_tree(board, SAMPLES, cancelled=cancelled))
    return meter.finished(board, nodes, best)


def alpha_beta(
    board: Board,
    cancelled: CancelCheck | None = None,
    progress: CountProgressCallback | None = None,
    budget: int | None = BUDGET,
) -> Count:
    """Value ``board`` by minimax with alpha-beta pruning, counting positions and cuts.

    Moves in reading order, the window starting at (-infinity, +infinity), and a
    cut counted each time a position's remaining moves are skipped (at least
    one of them). `walk` takes the same steps one at a time.
    """
    _require_in_progress(board)
    through = board.geometry.lines_through
    moves = board.legal_moves()
    meter = _Meter(Search.ALPHA_BETA, len(moves), budget, cancelled, progress)
    nodes = 1
    cuts = 0
    limit = meter.limit(nodes)

    # Negamax with a fail-soft window: it visits the same positions and cuts at
    # the same places as minimax with a max side and a min side.
    def visit(me: Mask, opp: Mask, empty: Mask, last: Cell, alpha: int, beta: int) -> int:
        nonlocal nodes, limit, cuts
        nodes += 1
        if nodes >= limit:
            limit = meter.check(nodes)
        for line in through[last]:
            if opp & line == line:
                return -(empty.bit_count() + 1)
        if not empty:
            return 0
        best = -INFINITY
        rest = empty
        while rest:
            low = rest & -rest
            rest ^= low
            bound = alpha if alpha > best else best
            value = -visit(opp, me | low, empty ^ low, low.bit_length() - 1, -beta, -bound)
            if value > best:
                best = value
                if best >= beta:
                    if rest:
                        cuts += 1
                    return best
        return best

    me, opp = _sides(board)
    empty = board.empty_mask
    best = -INFINITY
    try:
        # The root's window never closes (beta is infinite), so it is never cut.
        for cell in moves:
            bit = 1 << cell
            value = -visit(opp, me | bit, empty ^ bit, cell, -INFINITY, -best)
            best = max(best, value)
            meter.root_done += 1
    except _OverBudget:
        return meter.over_budget(nodes, cuts=cuts)
    return meter.finished(board, nodes, best, cuts=cuts)


def engine_count(
    board: Board,
    cancelled: CancelCheck | None = None,
    progress: CountProgressCallback | None = None,
) -> Count:
    """The positions the engine's proof search expands to value ``board`` exactly,
    from empty tables of its own (so the game's warm ones neither help nor change the
    count) and without the opening book: the same count in any process."""
    _require_in_progress(board)
    moves = len(board.legal_moves())
    start = time.perf_counter()

    def report(found: Progress) -> None:
        if progress is not None:
            progress(CountProgress(Search.ENGINE, found.nodes, found.elapsed, 0, moves))

    verdict, nodes = proof_from_scratch(board, cancelled, report)
    return Count(
        Search.ENGINE,
        nodes,
        True,
        verdict,
        root_moves=moves,
        root_done=moves,
        seconds=time.perf_counter() - start,
    )


def estimate_tree(
    board: Board,
    samples: int = SAMPLES,
    seed: int = 0,
    cancelled: CancelCheck | None = None,
) -> Estimate:
    """The number of positions plain minimax would visit from ``board``, estimated.

    Knuth's method: follow a random path to the end of the game; the product of
    the branching factors met on the way, summed level by level, is an unbiased
    estimate of the tree's size. The mean of ``samples`` paths, seeded, so the
    same position always gets the same estimate.
    """
    _require_in_progress(board)
    rng = random.Random(seed)
    through = board.geometry.lines_through
    root_me, root_opp = _sides(board)
    total = 0.0
    for sample in range(samples):
        if cancelled is not None and not sample % 64 and cancelled():
            raise SearchCancelled("the caller cancelled the estimate")
        me, opp, empty = root_me, root_opp, board.empty_mask
        size, width = 1.0, 1.0
        while empty:
            free = list(cells_of(empty))
            width *= len(free)
            size += width
            cell = rng.choice(free)
            bit = 1 << cell
            mine = me | bit
            if any(mine & line == line for line in through[cell]):
                break
            me, opp, empty = opp, mine, empty ^ bit
        total += size
    return Estimate(total / samples, samples)


def run_count(
    board: Board,
    search: Search,
    cancelled: CancelCheck | None = None,
    progress: CountProgressCallback | None = None,
) -> Count:
    """Count one search's work on ``board``: `plain_minimax`, `alpha_beta` or
    `engine_count`, with their default budgets."""
    if search is Search.MINIMAX:
        return plain_minimax(board, cancelled, progress, BUDGET)
    if search is Search.ALPHA_BETA:
        return alpha_beta(board, cancelled, progress, BUDGET)
    return engine_count(board, cancelled, progress)


# The walk ----------------------------------------------------------------------------------


class StepKind(enum.Enum):
    """What happens at one step of the alpha-beta walk."""

    ENTER = "enter"
    """The search arrives at a position (a finished game is valued at once)."""
    RETURN = "return"
    """A position's value comes back up to the position before it."""
    CUT = "cut"
    """A position stops early: its remaining moves cannot change the result."""
    DONE = "done"
    """The search is over: the root's value."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the alpha-beta walk. Scores and bounds are from X's side."""

    kind: StepKind
    path: tuple[Cell, ...]
    """The position the step is about, as moves from the root: the one entered, the
    one whose value comes back (to ``path[:-1]``), or the one cut."""
    alpha: int
    """The best score X is sure of so far on the way here (``-INFINITY``: none yet)."""
    beta: int
    """The best score O is sure of so far on the way here (``INFINITY``: none yet)."""
    value: int | None = None
    """ENTER: a finished game's score (None for a game still on); RETURN: the value that
    comes back; CUT: the position's value so far; DONE: the root's value."""
    best: int | None = None
    """RETURN: the receiving position's best score after this value."""
    bound: int = 0
    """RETURN: 0 if ``value`` is exact; 1 if it is only a lower bound (the true value may
    be higher), -1 if only an upper bound."""
    alpha_from: tuple[Cell, ...] | None = None
    """The position whose value set ``alpha``, if any."""
    beta_from: tuple[Cell, ...] | None = None
    """The position whose value set ``beta``, if any."""
    pruned: tuple[Cell, ...] = ()
    """CUT: the moves not searched."""
    nodes: int = 0
    """Positions entered so far, this one included."""
    cuts: int = 0
    """Cuts so far, this one included."""


def walk(board: Board) -> Iterator[Step]:
    """Alpha-beta on ``board``, one `Step` at a time.

    Minimax as the tutorials write it (X maximises, O minimises) with moves
    in reading order: the positions are those `alpha_beta` visits, in the
    same order, and the cuts are the same, so the last step's counts are
    `alpha_beta`'s. Lazy: each step is worked out when it is asked for.
    """
    _require_in_progress(board)
    counter = [0, 0]

    def visit(
        position: Board,
        path: tuple[Cell, ...],
        alpha: int,
        alpha_from: tuple[Cell, ...] | None,
        beta: int,
        beta_from: tuple[Cell, ...] | None,
    ) -> Generator[Step, None, int]:
        counter[0] += 1
        score = leaf_score(position)
        yield Step(
            StepKind.ENTER,
            path,
            alpha,
            beta,
            value=score,
            alpha_from=alpha_from,
            beta_from=beta_from,
            nodes=counter[0],
            cuts=counter[1],
        )
        if score is not None:
            return score
        maximising = position.to_move is Player.X
        best = -INFINITY if maximising else INFINITY
        moves = position.legal_moves()
        for index, cell in enumerate(moves):
            child = path + (cell,)
            value = yield from visit(position.play(cell), child, alpha, alpha_from, beta, beta_from)
            bound = 1 if value >= beta else -1 if value <= alpha else 0
            if maximising:
                best = max(best, value)
                if value > alpha:
                    alpha, alpha_from = value, child
            else:
                best = min(best, value)
                if value < beta:
                    beta, beta_from = value, child
            yield Step(
                StepKind.RETURN,
                child,
                alpha,
                beta,
                value=value,
                best=best,
                bound=bound,
                alpha_from=alpha_from,
                beta_from=beta_from,
                nodes=counter[0],
                cuts=counter[1],
            )
            rest = tuple(moves[index + 1 :])
            if alpha >= beta:
                if rest:
                    counter[1] += 1
                    yield Step(
                        StepKind.CUT,
                        path,
                        alpha,
                        beta,
                        value=best,
                        alpha_from=alpha_from,
                        beta_from=beta_from,
                        pruned=rest,
                        nodes=counter[0],
                        cuts=counter[1],
                    )
                return best
        return best

    root = yield from visit(board, (), -INFINITY, None, INFINITY, None)
    yield Step(
        StepKind.DONE,
        (),
        -INFINITY,
        INFINITY,
        value=root,
        nodes=counter[0],
        cuts=counter[1],
    )


def position_at(root: Board, path: tuple[Cell, ...]) -> Board:
    """The position reached from ``root`` by the moves of ``path``."""
    board = root
    for cell in path:
        board = board.play(cell)
    return board
