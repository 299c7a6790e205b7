"""The usual bugs of a learner's minimax, named from what `ttt-tui check` saw.

Each diagnosis is a sentence saying what is wrong, where to look, and a position
that shows it with the command to see it (`reproduce`). They come from:

- a CS50 file's functions (`function_bugs`): a line ``winner`` misses, a full
  board taken for a draw before its line is seen, ``result`` writing on the
  board it was given, ``player`` answering for the other side;
- the answers (`answer_bugs`): 1-based (or 0-based) squares, different answers
  to the same position, no answer at all, and the moves of a bot whose rules
  are wrong in one known way (`model_best`: a full board a draw whatever lines
  it holds, or the other side to move), when they explain its bad answers.

Pure: no UI imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ttt_tui.engine import Board, cells_of, coordinate
from ttt_tui.engine.board import geometry, read_square
from ttt_tui.teach.cs50 import FunctionCheck, cases
from ttt_tui.teach.review import Label

if TYPE_CHECKING:
    from ttt_tui.teach.check import Answer, Report

FIT = 0.9
"""The share of a bot's answers, and of its bad answers, that a modelled bug must
explain for it to be named."""


def reproduce(board: Board) -> str:
    """The position in analyze's notation, and the command that shows it."""
    return f"{board} (ttt-tui analyze {board})"


def line_words(line: int) -> str:
    """A 3x3 line in words: ``the diagonal a1-b2-c3``, ``the row a2-b2-c2``."""
    cells = list(cells_of(line))
    squares = "-".join(coordinate(cell) for cell in cells)
    if cells[1] - cells[0] == 1:
        return f"the row {squares}"
    if cells[1] - cells[0] == 3:
        return f"the column {squares}"
    return f"the diagonal {squares}"


def _lines_of(board: Board) -> list[int]:
    """The complete lines on a finished board, of whoever made them."""
    return [
        line for line in geometry(3, 3).lines if board.x & line == line or board.o & line == line
    ]


def _full_with_line(board: Board) -> bool:
    return board.move_count == 9 and board.status.winner is not None


def missed_lines(winner: FunctionCheck) -> list[int]:
    """The lines ``winner`` never sees: on every board whose only line is one of them it
    said None. Empty unless such lines explain every such mistake it made."""
    blind = {
        str(item.case.board)
        for item in winner.wrong
        if item.case.expected is not None and item.got.get("value", "") is None
    }
    if not blind:
        return []
    missed = []
    for line in geometry(3, 3).lines:
        only = [case.board for case in cases("winner") if _lines_of(case.board) == [line]]
        if only and all(str(board) in blind for board in only):
            missed.append(line)
    for key in blind:
        if not set(_lines_of(Board.parse(key))) <= set(missed):
            return []
    return missed


def function_bugs(functions: Sequence[FunctionCheck]) -> list[str]:
    """The bugs a CS50 file's function checks show, in words."""
    found: list[str] = []
    by_name = {function.name: function for function in functions}
    winner = by_name.get("winner")
    if winner is not None and winner.wrong:
        missed = missed_lines(winner)
        if missed:
            first = next(
                item.case.board
                for item in winner.wrong
                if set(_lines_of(item.case.board)) <= set(missed)
            )
            lines = " or ".join(line_words(line) for line in missed)
            found.append(
                f"winner() misses {lines}: it says None on every board won there"
                f" ({len(winner.wrong):,} boards), such as {reproduce(first)}. Check"
                " all eight lines: three rows, three columns and both diagonals."
            )
    for name, draw in (("winner", None), ("utility", 0)):
        function = by_name.get(name)
        if function is None or not function.wrong:
            continue
        full = {str(case.board) for case in cases(name) if _full_with_line(case.board)}
        wrong = {str(item.case.board) for item in function.wrong}
        said = {repr(item.got.get("value", "")) for item in function.wrong}
        if wrong == full and said == {repr(draw)}:
            first = function.wrong[0].case.board
            found.append(
                f"{name}() calls a full board a draw even when a line was made on the"
                f" last square ({len(wrong):,} boards, such as {reproduce(first)}):"
                ' it tests "board full" before "a line made". Look for a line first.'
            )
    result = by_name.get("result")
    if result is not None and result.changed:
        found.append(
            f"result() wrote on the board it was given in {len(result.changed):,} calls:"
            " copy it first (copy.deepcopy(board), or [row[:] for row in board]) and mark"
            " the copy, or every move minimax tries stays on the board."
        )
    player = by_name.get("player")
    swapped = {"X": "O", "O": "X"}
    turns: set[tuple[Any, Any]] = set()
    if player is not None and player.checked and len(player.wrong) == player.checked:
        turns = {(item.case.expected, item.got.get("value")) for item in player.wrong}
    if turns and all(swapped[expected] == got for expected, got in turns):
        found.append(
            "player() answers for the other side on every board: X moves first, so with"
            " as many X as O on the board it is X's turn."
        )
    return found


def _mover(cells: str, other_side: bool) -> str:
    """Whose turn it is from the counts of marks: X's with as many X as O, unless
    ``other_side`` (a ``player()`` that has O move first)."""
    first, second = ("O", "X") if other_side else ("X", "O")
    return first if cells.count("X") == cells.count("O") else second


def _ended(cells: str, full_first: bool) -> str | None:
    """``X`` or ``O`` for a line made, ``draw``, or None while the game goes on."""
    full = "." not in cells
    if full_first and full:
        return "draw"
    for line in geometry(3, 3).lines:
        marks = {cells[cell] for cell in cells_of(line)}
        if len(marks) == 1 and "." not in marks:
            return marks.pop()
    return "draw" if full else None


def _values(cells: str, full_first: bool, other_side: bool) -> dict[int, int]:
    """Each free square's value for the side `_mover` says is to move in ``cells``,
    under the rules of the bug: 10 for a win at once, one less each ply further."""
    mover = _mover(cells, other_side)
    found: dict[int, int] = {}
    for square, cell in enumerate(cells):
        if cell != ".":
            continue
        after = cells[:square] + mover + cells[square + 1 :]
        end = _ended(after, full_first)
        if end is None:
            value = _value(after, full_first, other_side)
            value = value if _mover(after, other_side) == mover else -value
            found[square] = value - (value > 0) + (value < 0)
        else:
            found[square] = 0 if end == "draw" else 10 if end == mover else -10
    return found


@cache
def _value(cells: str, full_first: bool, other_side: bool) -> int:
    """The value of ``cells`` (not over) for the side `_mover` says is to move."""
    return max(_values(cells, full_first, other_side).values())


def model_best(board: Board, *, full_first: bool = False, other_side: bool = False) -> set[int]:
    """The squares a correct minimax picks in ``board`` with one bug: a full board
    scored as a draw before its lines are seen, or a ``player()`` that has O move
    first (so it plays for the side not to move)."""
    values = _values(str(board), full_first, other_side)
    top = max(values.values())
    return {square for square, value in values.items() if value == top}


MODELS = {
    "full_first": (
        "Its mistakes are the moves of a minimax that calls a full board a draw before"
        ' looking for a line: it tests "board full" before "a line made", so a win'
        " (or a loss) on the last square is missed. Look for a line first."
    ),
    "other_side": (
        "Its moves are the best moves for the other side: it plays as if the other"
        " player were to move (X moves first: with as many X as O on the board, it is"
        " X's turn)."
    ),
}
"""The bugs modelled by `model_best`, and what to say when one explains the answers."""


def off_by_one(answers: Sequence[Answer]) -> str | None:
    """'answers look 1-based' (a ``(row, col)`` from 1) or 0-based (a square's number
    from 0) when every answer, counted from the other end by one, names a free
    square and some answers as given are illegal; the example is one off the board
    if there is one."""
    illegal = []
    for answer in answers:
        cell = _shifted(answer.board, answer.said)
        if cell is None:
            return None
        if answer.problem is not None:
            illegal.append((answer, cell))
    if not illegal:
        return None
    # An answer off the board shows the shift best: (3, 3) for c3.
    answer, cell = min(illegal, key=lambda found: not found[0].detail.startswith("off"))
    if isinstance(answer.said, list):
        said, base, rule = tuple(answer.said), "1-based", "(row, col) from 0: (0, 0) is a1"
    else:
        said, base, rule = answer.said, "0-based", "a square's number from 1: 1 is a1"
    return (
        f"Its answers look {base}: {said} for {coordinate(cell)} in"
        f" {reproduce(answer.board)}. Answer {rule}."
    )


def said_words(said: Any) -> str:
    """An answer as the bot gave it, with the square it names: ``(1, 1) (b2)``, ``5 (b2)``."""
    if isinstance(said, list) and len(said) == 2:
        text = f"({said[0]}, {said[1]})"
        if all(isinstance(v, int) and 0 <= v < 3 for v in said):
            return f"{text} ({coordinate(said[0] * 3 + said[1])})"
        return text
    cell = read_square(str(said), 3)
    return f"{said!r}" if isinstance(cell, str) else f"{said!r} ({coordinate(cell)})"


def _shifted(board: Board, said: Any) -> int | None:
    """The free square ``said`` names counted from the other end by one, if any: a
    ``[row, col]`` pair less one, or a number plus one."""
    try:
        if isinstance(said, list):
            if len(said) != 2:
                return None
            row, col = (int(value) - 1 for value in said)
            cell = row * 3 + col if 0 <= row < 3 and 0 <= col < 3 else -1
        else:
            cell = int(str(said).strip())
    except (TypeError, ValueError):
        return None
    return cell if 0 <= cell < 9 and board[cell] is None else None


def answer_bugs(report: Report) -> list[str]:
    """The bugs the bot's answers show."""
    found: list[str] = []
    answers = [item.answer for item in report.graded] + report.problems
    if report.n == 3:
        shifted = off_by_one(answers)
        if shifted:
            found.append(shifted)
    if report.unstable:
        board, first, second = report.unstable[0]
        found.append(
            f"It answers the same position differently ({len(report.unstable):,} of the"
            f" {report.asked_twice:,} positions asked twice): {said_words(first)}, then"
            f" {said_words(second)}"
            f" in {reproduce(board)}. A random choice among moves it thinks equal makes"
            " results differ from run to run: are they really equal (a quicker win?)"
        )
    if answers and all(answer.detail.startswith("no answer") for answer in answers):
        found.append(f"It never answered: {answers[0].detail}.")
    bad = [item for item in report.graded if item.label is not Label.BEST]
    # A CS50 file's wrong function already explains its wrong moves.
    if report.n == 3 and bad and all(function.passed for function in report.functions):
        for model, words in MODELS.items():
            fits = fits_bad = 0
            for item in report.graded:
                if item.cell in model_best(item.answer.board, **{model: True}):
                    fits += 1
                    fits_bad += item.label is not Label.BEST
            if fits >= FIT * len(report.graded) and fits_bad >= FIT * len(bad):
                found.append(f"{words} For example {reproduce(bad[0].answer.board)}.")
    return found
