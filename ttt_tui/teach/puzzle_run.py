"""Solving one puzzle, a move at a time, and choosing the next.

Pure: no UI imports, no search. `Run` is the rules of an attempt: the first move
is right only if it is the puzzle's one move (proven when the set was made); a
later move of a win is right if it still wins, which the caller finds out from
the engine's analysis of the position when the move is off the solution line
(`needs_analysis`); the defender answers with the line's move while the play is
on the line, else with the engine's slowest loss. The screen runs the analyses
in the search process and feeds them in.

`near_rating`, `of_the_day` and `for_streak` choose puzzles from the shipped set:
by the player's rating, by the date alone, and by the streak's length.
"""

from __future__ import annotations

import datetime
import enum
import hashlib
import random
from collections.abc import Collection, Sequence

from ttt_tui.engine import Analysis, Board, Cell, Outcome, Player, coordinate
from ttt_tui.play.rating import puzzle_rating
from ttt_tui.play.speech import board_sentence
from ttt_tui.teach.explain import Ply, pick, verdict_phrase, why
from ttt_tui.teach.puzzles import Goal, Puzzle, Theme, only_move, record, shipped
from ttt_tui.teach.review import MoveReview

BOARDS = (3, 4, 5)
"""The boards puzzles are on."""

NEAREST = 12
"""`near_rating` chooses among this many puzzles nearest the player's rating."""


class Phase(enum.Enum):
    """Where an attempt stands."""

    SOLVER = "solver"
    """The player's move."""
    DEFENDER = "defender"
    """The engine's reply is due."""
    SOLVED = "solved"
    """The goal is reached: the win is on the board, or the draw kept."""
    MISSED = "missed"
    """A move failed the goal."""
    SHOWN = "shown"
    """The player asked to see the solution, which is on the board."""


class Run:
    """One attempt at a puzzle: the moves so far and where it stands."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        """The puzzle tried."""
        self.played: list[Cell] = []
        """The moves since the puzzle's position, both sides'."""
        self.phase = Phase.SOLVER
        self.wrong: Cell | None = None
        """The move that failed, once missed."""

    @property
    def board(self) -> Board:
        """The position now."""
        board = self.puzzle.board
        for cell in self.played:
            board = board.play(cell)
        return board

    @property
    def before_wrong(self) -> Board:
        """The position the failing move was played in (the position now if none)."""
        board = self.puzzle.board
        for cell in self.played[:-1] if self.wrong is not None else self.played:
            board = board.play(cell)
        return board

    @property
    def on_line(self) -> bool:
        """Whether every move so far is the solution line's."""
        return tuple(self.played) == self.puzzle.line[: len(self.played)]

    @property
    def finished(self) -> bool:
        """Whether the attempt is over, solved or missed."""
        return self.phase in (Phase.SOLVED, Phase.MISSED, Phase.SHOWN)

    def needs_analysis(self, cell: Cell) -> bool:
        """Whether judging the player's ``cell`` needs the engine's analysis of the
        position now: a later move of a win, off the solution line."""
        if not self.played:
            return False
        return not (self.on_line and self.puzzle.line[len(self.played)] == cell)

    def play(self, cell: Cell, analysis: Analysis | None = None) -> Phase:
        """The player's move; ``analysis`` is the engine's of the position now, needed
        where `needs_analysis` says so. Raises ValueError for a move out of turn or an
        illegal one."""
        if self.phase is not Phase.SOLVER:
            raise ValueError(f"expected the player's turn, got {self.phase.value}")
        board = self.board
        if cell not in board.legal_moves():
            raise ValueError(f"cell {cell} is not a legal move")
        if not self.needs_analysis(cell):
            right = cell == self.puzzle.line[len(self.played)]
        else:
            if analysis is None or analysis.board != board:
                raise ValueError("this move needs the analysis of the position")
            right = analysis.moves[cell].outcome is Outcome.WIN
        self.played.append(cell)
        if not right:
            self.wrong = cell
            self.phase = Phase.MISSED
        elif self.puzzle.goal is Goal.HOLD or self.board.is_game_over():
            self.phase = Phase.SOLVED
        else:
            self.phase = Phase.DEFENDER
        return self.phase

    def reply_needs_analysis(self) -> bool:
        """Whether the defender's reply needs the engine's analysis (off the line)."""
        return self.phase is Phase.DEFENDER and not self.on_line

    def reply(self, analysis: Analysis | None = None) -> Cell:
        """Play the defender's reply: the line's move on the line, else the engine's
        slowest loss (the lowest square among equals) from ``analysis``."""
        if self.phase is not Phase.DEFENDER:
            raise ValueError(f"expected the defender's turn, got {self.phase.value}")
        if self.on_line:
            cell = self.puzzle.line[len(self.played)]
        else:
            if analysis is None or analysis.board != self.board:
                raise ValueError("the reply needs the analysis of the position")
            cell = min(analysis.best)
        self.played.append(cell)
        self.phase = Phase.SOLVED if self.board.is_game_over() else Phase.SOLVER
        return cell

    def reveal(self) -> None:
        """Play the whole solution line from the puzzle's position, to show it."""
        self.played = list(self.puzzle.line)
        self.wrong = None
        self.phase = Phase.SHOWN

    def retry(self) -> None:
        """Back to the puzzle's position, to try again."""
        self.played.clear()
        self.phase = Phase.SOLVER
        self.wrong = None


def _all(boards: Collection[int], theme: Theme | None = None) -> list[Puzzle]:
    return [
        puzzle
        for n in BOARDS
        if n in boards
        for puzzle in shipped(n)
        if theme is None or theme in puzzle.themes
    ]


def themes_on(boards: Collection[int]) -> list[Theme]:
    """The themes that some shipped puzzle on ``boards`` has, in `Theme`'s order."""
    found = {theme for puzzle in _all(boards) for theme in puzzle.themes}
    return [theme for theme in Theme if theme in found]


def near_rating(
    rating: float,
    rng: random.Random,
    boards: Collection[int] = BOARDS,
    avoid: Collection[str] = (),
    theme: Theme | None = None,
) -> Puzzle:
    """A puzzle near the player's ``rating``: one of the `NEAREST` whose rating is
    closest, on ``boards`` and with ``theme`` if given, none of them among ``avoid``
    (records) if that leaves any. Raises ValueError if no puzzle is on ``boards`` with
    ``theme`` (`themes_on` says which there are)."""
    pool = _all(boards, theme)
    if not pool:
        theme_words = "" if theme is None else f" with the theme {theme.value}"
        raise ValueError(f"no puzzle on boards {sorted(boards)}{theme_words}")
    fresh = [puzzle for puzzle in pool if record(puzzle) not in avoid] or pool
    # Equally near puzzles in an order of the seed's: else the first board's always won.
    order = {id(puzzle): rng.random() for puzzle in fresh}
    fresh.sort(key=lambda p: (abs(puzzle_rating(p.difficulty) - rating), order[id(p)]))
    return rng.choice(fresh[:NEAREST])


def of_the_day(day: datetime.date) -> Puzzle:
    """The puzzle of the day: chosen from the date alone, the same for everyone, among
    the puzzles of every board that take more than one move's thought (a win in three
    plies or more, or a hold whose slowest refutation takes four)."""
    pool = [
        puzzle for puzzle in _all(BOARDS) if puzzle.plies >= (3 if puzzle.goal is Goal.WIN else 4)
    ]
    digest = hashlib.sha256(day.isoformat().encode("ascii")).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def for_streak(
    solved: int,
    rng: random.Random,
    avoid: Collection[str] = (),
    boards: Collection[int] = BOARDS,
    theme: Theme | None = None,
) -> Puzzle:
    """The next puzzle of a streak with ``solved`` puzzles solved so far: harder as the
    streak grows (a rating 50 points higher a puzzle, from 1200); ``boards`` and ``theme``
    as for `near_rating`."""
    return near_rating(1200.0 + 50.0 * solved, rng, boards, avoid, theme)


def retry_offered(move: MoveReview, before: Analysis, result: str, person: Player | None) -> bool:
    """Whether the review offers the position of a move as a puzzle ("Try it again"): a
    mistake or blunder by ``person`` (by either side where nobody played the computer),
    in a finished game that side lost or drew, where exactly one move keeps what it threw
    away (`ttt_tui.teach.puzzles.only_move`)."""
    if not move.label.turning or (person is not None and move.player is not person):
        return False
    if result not in ("x_won", "o_won", "draw") or result == f"{move.player.value.lower()}_won":
        return False
    return only_move(before) is not None


# Words ---------------------------------------------------------------------------------------


def line_words(board: Board, cells: Sequence[Cell]) -> str:
    """Moves from ``board`` as a person reads them: ``X a1, O c1, X b2``."""
    words = []
    for cell in cells:
        words.append(f"{board.to_move.value} {coordinate(cell, board.n)}")
        board = board.play(cell)
    return ", ".join(words)


def miss_words(before: Analysis, cell: Cell, refutation: Sequence[Ply]) -> str:
    """Why the player's ``cell`` fails, in the explorer's words, and the line that refutes
    it: best play from both sides after it. The explorer names the better move beside a
    bad one; here that would give the puzzle away before a retry, so it is left out."""
    text = why(before, cell, refutation)
    board = before.board
    better = pick(before)
    named = (
        f" ({board.to_move.value} {coordinate(better, board.n)}"
        f" {verdict_phrase(before.moves[better])})"
    )
    text = text.replace(named, "", 1)
    if refutation:
        text += f" The refutation: {', '.join(ply.name for ply in refutation)}."
    return text


def solution_words(puzzle: Puzzle) -> str:
    """The solution as a sentence: ``Solution: X a1, O c1, X b2 (wins).``"""
    ending = "wins" if puzzle.goal is Goal.WIN else "holds the draw"
    return f"Solution: {line_words(puzzle.board, puzzle.line)} ({ending})."


def announcement(puzzle: Puzzle) -> str:
    """The puzzle said for a screen reader: ``Puzzle, 4x4: X to play and win in 3.
    Board: Row 1: ...``"""
    n = puzzle.board.n
    return f"Puzzle, {n}x{n}: {puzzle.goal_words()}. Board: {board_sentence(puzzle.board)}"
