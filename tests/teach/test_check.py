"""Grading a bot's answers: reading them, the verdict, and the diagnosis of the usual
bugs, from answers made up here (the bots themselves are run in
tests/commands/test_check.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ttt_tui.engine import Board, Cell, analyze
from ttt_tui.teach.check import Answer, Problem, Report, Side, every_3x3_position, read_answer


def report_of(choose: Callable[[Board], Cell], side: Side = Side.BOTH) -> Report:
    boards = every_3x3_position(side)
    report = Report(3, len(boards))
    for board in boards:
        report.add(Answer(board, cell=choose(board)), analyze(board))
    return report


def best(board: Board) -> Cell:
    return analyze(board).best[0]


def first_free(board: Board) -> Cell:
    return board.legal_moves()[0]


def test_a_perfect_bot_has_a_perfect_verdict_and_no_diagnosis() -> None:
    report = report_of(best)
    assert report.verdict == "perfect" and report.diagnosis() == []
    assert report.labels()[next(iter(report.labels()))] == 4520


def test_throwing_results_away_only_near_the_end_is_diagnosed() -> None:
    """Perfect until two squares are left, then the first free square: the end-of-game
    off-by-one."""
    report = report_of(lambda b: first_free(b) if len(b.legal_moves()) <= 2 else best(b))
    assert report.verdict == "loses"
    assert any("three squares or fewer left" in line for line in report.diagnosis())
    assert not any("plays well as" in line for line in report.diagnosis())


def test_problems_make_the_verdict_loses_and_are_counted_apart() -> None:
    board = Board.parse("X........")
    report = Report(3, 3)
    report.add(Answer(board, problem=Problem.TIMEOUT, detail="no answer in 2 s"), None)
    report.add(Answer(board, cell=4), analyze(board))
    report.add(Answer(board, cell=4, changed_board=True), analyze(board))
    assert report.asked == 3
    assert (report.problem_count(Problem.TIMEOUT), report.changed_board) == (1, 1)
    assert report.verdict == "loses"


@pytest.mark.parametrize(
    ("kind", "answer", "cell", "why"),
    [
        ("minimax", [1, 1], 4, ""),
        ("minimax", [0, 0], None, "a taken square: (0, 0) is a1"),
        ("minimax", [3, 0], None, "off the board: (3, 0)"),
        ("minimax", "(1, 1)", None, "unreadable: expected (row, col), got '(1, 1)'"),
        ("choose_move", 5, 4, ""),
        ("choose_move", "c3", 8, ""),
        ("choose_move", " B2 ", 4, ""),
        ("choose_move", 10, None, "off the board: 10"),
        ("command", "d1", None, "off the board: d1"),
        ("command", "five", None, "unreadable: 'five'"),
        ("command", "²", None, "unreadable: '²'"),
        ("command", "a10", None, "off the board: a10"),
    ],
)
def test_answers_are_read_or_named_illegal(
    kind: str, answer: object, cell: int | None, why: str
) -> None:
    assert read_answer(Board.parse("X........"), kind, answer) == (cell, why)
