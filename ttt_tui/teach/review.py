"""Game review: every move of a game graded from proven values, and the turning points
named in the explorer's words.

Each move is judged for the player who made it, from the analysis of the position it
was played in: ``before`` is that position's value, ``played`` the value of the move
played (both counted in plies from that position, the move included), and the label
compares them (`grade`). Nothing here searches: `review` takes the analyses, one per
move, so that the app can work them out in its search process and the command line
in its own; `review_moves` is the command line's way, analysing as it goes.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ttt_tui.engine import (
    SIZES,
    Analysis,
    Board,
    Cell,
    IllegalMoveError,
    Outcome,
    Player,
    Status,
    Verdict,
    cells_of,
    coordinate,
    mover_of,
    rank,
    read_square,
)
from ttt_tui.engine.board import UNKNOWN
from ttt_tui.teach.explain import (
    Analyzer,
    line_name,
    pick,
    squares,
    tactic,
    threatened_lines,
    threats,
    verdict_phrase,
)


class Label(enum.Enum):
    """How good a move was, for the player who made it."""

    BEST = "best"
    """The position's value kept, and for a win or a loss its length too."""
    GOOD = "good"
    """The result kept where its length cannot be proven (5x5)."""
    INACCURACY = "inaccuracy"
    """The result kept, but a slower win or a quicker loss."""
    MISTAKE = "mistake"
    """One result worse: a win thrown to a draw, or a draw to a loss."""
    BLUNDER = "blunder"
    """A win thrown to a loss."""

    def counted(self, count: int) -> str:
        """The label after a count: ``3 best``, ``2 inaccuracies``, ``1 mistake``."""
        if count == 1 or self in (Label.BEST, Label.GOOD):
            return self.value
        return "inaccuracies" if self is Label.INACCURACY else f"{self.value}s"

    @property
    def turning(self) -> bool:
        """Whether a move with this label changed the game's result."""
        return self in (Label.MISTAKE, Label.BLUNDER)


LABELS = tuple(Label)
"""Every label, best first."""


def grade(before: Verdict, played: Verdict) -> Label:
    """The label of a move worth ``played`` in a position worth ``before`` (both for
    the player to move)."""
    drop = rank(before)[0] - rank(played)[0]  # results apart: win 2, draw 1, loss 0
    if drop == 2:
        return Label.BLUNDER
    if drop == 1:
        return Label.MISTAKE
    if before.outcome is Outcome.DRAW:
        return Label.BEST
    if before.plies is None or played.plies is None:
        return Label.GOOD
    return Label.BEST if played.plies == before.plies else Label.INACCURACY


class ReviewError(ValueError):
    """A game that cannot be reviewed: the message names the problem and the move."""


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of a reviewed game."""

    ply: int
    """1 for X's first move."""
    player: Player
    cell: Cell
    """0-based, in reading order."""
    before: Verdict
    """The position's value for ``player``, before the move."""
    played: Verdict
    """The move's value for ``player``."""
    best: tuple[Cell, ...]
    """The moves that kept ``before``, ascending."""
    label: Label
    n: int
    """Squares per side of the board."""

    @property
    def square(self) -> str:
        """The square's name, ``c3``."""
        return coordinate(self.cell, self.n)

    @property
    def name(self) -> str:
        """``X c3``."""
        return f"{self.player.value} {self.square}"

    def kept(self) -> str:
        """What the best moves would have kept, for a move that was not best:
        ``c3 held the draw``, ``b1, c1 or a2 won in 5``, ``c1 lost only in 8``."""
        best = squares(self.best, self.n, "or")
        if self.before.outcome is Outcome.DRAW:
            return f"{best} held the draw"
        if self.before.outcome is Outcome.WIN:
            return f"{best} {verdict_phrase(self.before).replace('wins', 'won')}"
        length = "" if self.before.plies is None else f" only in {self.before.plies}"
        return f"{best} lost{length}"

    def detail(self) -> str:
        """The move in a sentence or three, as the review screen shows it selected:
        ``Move 2: O b1, mistake. Before it, O held the draw; O b1 loses in 6.
        Instead, a1, c1, a3 or c3 held the draw.``"""
        head = f"Move {self.ply}: {self.name}, {self.label.value}."
        if self.label is Label.BEST:
            return f"{head} {self.name} {verdict_phrase(self.played)}, the best there was."
        if self.label is Label.GOOD:
            return f"{head} {self.name} {verdict_phrase(self.played)}, as the best moves do."
        return (
            f"{head} Before it, {self.player.value} {_holding(self.before)};"
            f" {self.name} {verdict_phrase(self.played)}. Instead, {self.kept()}."
        )

    def line(self) -> str:
        """The move as the command line prints it:
        ``5. X c3  mistake: draw -> loss in 4; best b1, a2 (draw)``."""
        head = f"{self.ply}. {self.name}  {self.label.value}: "
        if self.label is Label.BEST:
            return head + str(self.played)
        best = ", ".join(coordinate(cell, self.n) for cell in self.best)
        return head + f"{self.before} -> {self.played}; best {best} ({self.before})"

    def to_json(self) -> dict[str, Any]:
        """The move as ``review --json`` gives it."""
        return {
            "ply": self.ply,
            "player": self.player.value,
            "cell": self.cell,
            "square": self.square,
            "before": _verdict_json(self.before),
            "played": _verdict_json(self.played),
            "best": list(self.best),
            "label": self.label.value,
        }


def _holding(verdict: Verdict) -> str:
    """What a player had before a move: ``held the draw``, ``won in 5``, ``lost in 4``."""
    if verdict.outcome is Outcome.DRAW:
        return "held the draw"
    length = "" if verdict.plies is None else f" in {verdict.plies}"
    return ("won" if verdict.outcome is Outcome.WIN else "lost") + length


def _verdict_json(verdict: Verdict) -> dict[str, Any]:
    return {"value": verdict.outcome.value, "plies": verdict.plies}


NO_TURNING = "No turning points: neither side threw a result away."


@dataclass(frozen=True, slots=True)
class Review:
    """A reviewed game: each move graded, and the analyses it was graded from."""

    n: int
    k: int
    cells: tuple[Cell, ...]
    """Every move of the game, X's first."""
    moves: tuple[MoveReview, ...]
    """The graded moves: every move, or those before ``cells`` ran past the end."""
    analyses: tuple[Analysis, ...]
    """The analysis of the position before each graded move."""
    result: str
    """``x_won``, ``o_won``, ``draw``, ``abandoned`` or ``in_progress``."""

    @property
    def turning_points(self) -> tuple[MoveReview, ...]:
        """The moves labelled mistake or blunder."""
        return tuple(move for move in self.moves if move.label.turning)

    def board(self, ply: int) -> Board:
        """The position after ``ply`` moves (0: the empty board)."""
        board = Board.empty(self.n, self.k)
        for cell in self.cells[:ply]:
            board = board.play(cell)
        return board

    def counts(self, player: Player) -> dict[Label, int]:
        """How many of ``player``'s moves got each label (every label, zeros too)."""
        found = Counter(move.label for move in self.moves if move.player is player)
        return {label: found[label] for label in LABELS}

    def summary(self, player: Player) -> str:
        """``X: 3 best, 1 inaccuracy, 1 mistake`` (labels with no move left out)."""
        counts = self.counts(player)
        parts = [f"{count} {label.counted(count)}" for label, count in counts.items() if count]
        return f"{player.value}: " + (", ".join(parts) if parts else "no moves")

    def turning_text(self, move: MoveReview) -> str:
        """A turning point in words: ``O gave the draw away at move 4: O b1 let X fork
        at c3, threatening c2 and a3 at once. Instead, a2 held the draw.``"""
        before = self.analyses[move.ply - 1]
        after = self.analyses[move.ply] if move.ply < len(self.analyses) else None
        player = move.player.value
        if move.label is Label.BLUNDER:
            head = f"{player} threw a won game to a loss at move {move.ply}"
        elif move.before.outcome is Outcome.WIN:
            head = f"{player} let the win slip at move {move.ply}"
        else:
            head = f"{player} gave the draw away at move {move.ply}"
        return f"{head}: {_what_it_did(before, move, after)}. Instead, {move.kept()}."

    def turning_texts(self) -> list[str]:
        """Every turning point in words (`turning_text`), or that there was none."""
        return [self.turning_text(move) for move in self.turning_points] or [NO_TURNING]

    def lines(self) -> list[str]:
        """The review as the command line prints it: a line per move, then the
        turning points and a summary per side."""
        lines = [*(move.line() for move in self.moves), ""]
        if self.turning_points:
            lines.append("Turning points:")
            lines += [f"  {text}" for text in self.turning_texts()]
        else:
            lines.append(NO_TURNING)
        lines.append("Summary: " + "; ".join(self.summary(player) for player in Player))
        return lines

    def to_json(self) -> dict[str, Any]:
        """The review as ``review --json`` gives it."""
        return {
            "n": self.n,
            "k": self.k,
            "result": self.result,
            "moves": [move.to_json() for move in self.moves],
            "turning_points": [move.ply for move in self.turning_points],
        }


def _what_it_did(before: Analysis, move: MoveReview, after: Analysis | None) -> str:
    """What the move let the other side do, in the explorer's words."""
    board, n = before.board, move.n
    other = move.player.other
    open_threats = threats(board, other)
    if open_threats and not open_threats >> move.cell & 1:
        target = next(cells_of(open_threats))
        line = line_name(threatened_lines(board, other, target)[0], n)
        return (
            f"{move.name} left {other.value}'s threat at {coordinate(target, n)} open,"
            f" and {other.value} completes {line}"
        )
    if after is not None and after.best:
        reply = pick(after)
        answer = tactic(after.board, reply)
        if answer.fork:
            return (
                f"{move.name} let {other.value} fork at {coordinate(reply, n)},"
                f" threatening {squares(answer.threatens, n)} at once"
            )
        if answer.threatens and after.moves[reply].outcome is Outcome.WIN:
            return (
                f"{move.name} let {other.value} force a win, starting with"
                f" {coordinate(reply, n)} (threatening {squares(answer.threatens, n)})"
            )
    only = "only " if move.played.outcome is Outcome.DRAW else ""
    return f"{move.name} {only}{verdict_phrase(move.played)}"


# Reading a game --------------------------------------------------------------------------


def parse_square(text: str, n: int) -> Cell:
    """A square by name (``c3``) or number (1 to n*n); raises `ReviewError`."""
    found = read_square(text, n)
    if isinstance(found, int):
        return found
    if found == UNKNOWN:
        raise ReviewError(f"unknown square {text!r}: expected a name such as b2 or a number")
    if text.strip().isdecimal():
        raise ReviewError(f"square {text!r} is off the {n}x{n} board (1 to {n * n})")
    last = coordinate(n * n - 1, n)
    raise ReviewError(f"square {text!r} is off the {n}x{n} board (a1 to {last})")


def parse_moves(text: str, n: int) -> tuple[Cell, ...]:
    """Squares separated by spaces or commas, X first; raises `ReviewError`."""
    words = [word for word in re.split(r"[\s,]+", text.strip()) if word]
    if not words:
        raise ReviewError("no moves given")
    return tuple(parse_square(word, n) for word in words)


def positions(n: int, cells: Sequence[Cell]) -> list[Board]:
    """The position before each move; raises `ReviewError` naming a move that cannot
    be played (a taken square, a move after the game ended)."""
    if n not in SIZES:
        raise ReviewError(f"no {n}x{n} board: expected 3, 4 or 5")
    board = Board.empty(n, SIZES[n])
    found: list[Board] = []
    for ply, cell in enumerate(cells, start=1):
        name = f"move {ply} ({mover_of(ply - 1).value} {coordinate(cell, n)})"
        if not 0 <= cell < n * n:
            raise ReviewError(f"{name}: no such square on the {n}x{n} board")
        if board.is_game_over():
            raise ReviewError(f"{name}: the game was already over")
        try:
            after = board.play(cell)
        except IllegalMoveError:
            raise ReviewError(f"{name}: the square is taken") from None
        found.append(board)
        board = after
    return found


def result_of(n: int, cells: Sequence[Cell], recorded: str | None = None) -> str:
    """The game's result: ``recorded`` when the game was left unfinished, else what its
    last position says (``in_progress`` when nothing was recorded)."""
    board = Board.empty(n, SIZES[n])
    for cell in cells:
        board = board.play(cell)
    status = board.status
    if status is Status.IN_PROGRESS:
        return recorded or "in_progress"
    result: str = status.value
    return result


RESULT_WORDS = {
    "x_won": "X won",
    "o_won": "O won",
    "draw": "a draw",
    "abandoned": "abandoned",
    "in_progress": "in progress",
}
"""Each result in words."""


def review(n: int, cells: Sequence[Cell], analyses: Sequence[Analysis], result: str) -> Review:
    """Grade each move from the analysis of the position it was played in (one
    analysis per move, in order; fewer grade only the first moves)."""
    moves = []
    for ply, (cell, analysis) in enumerate(zip(cells, analyses, strict=False), start=1):
        before, played = analysis.value, analysis.moves[cell]
        moves.append(
            MoveReview(
                ply=ply,
                player=mover_of(ply - 1),
                cell=cell,
                before=before,
                played=played,
                best=analysis.best,
                label=grade(before, played),
                n=n,
            )
        )
    return Review(n, SIZES[n], tuple(cells), tuple(moves), tuple(analyses), result)


def review_moves(
    n: int,
    cells: Sequence[Cell],
    analyzer: Analyzer,
    result: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Check and review a game, analysing each position with ``analyzer``;
    ``progress(done, total)`` after each. Raises `ReviewError` for a bad game."""
    boards = positions(n, cells)
    analyses = []
    for done, board in enumerate(boards, start=1):
        analyses.append(analyzer(board))
        if progress is not None:
            progress(done, len(boards))
    return review(n, cells, analyses, result_of(n, cells, result))
