"""Grading a bot's answers: reading them, the verdict, and the diagnosis of the usual
bugs, from answers made up here (the bots themselves are run in
tests/commands/test_check.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ttt_tui.engine import Board, Cell, analyze
from ttt_tui.teach.check import (
    Answer,
    Problem,
    Report,
    Side,
    every_3x3_position,
    graded,
    read_answer,
)
from ttt_tui.teach.review import Label


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


def test_the_score_is_a_point_a_best_answer_half_for_a_slower_one_over_every_position() -> None:
    """Best 1, inaccuracy 1/2, a mistake, a problem or a position never asked 0, an answer
    on a board the bot wrote on 0: rounded down, so 100 only for every answer best."""
    board = Board.parse(".....XXOO")  # X wins soonest at a2 or b2, later at a1 or b1
    analysis = analyze(board)
    report = Report(3, 8)
    report.add(Answer(board, cell=3), analysis)  # best
    report.add(Answer(board, cell=4), analysis)  # best
    label = {cell: graded(Answer(board, cell=cell), analysis).label for cell in board.legal_moves()}
    slower = next(cell for cell, found in label.items() if found is Label.INACCURACY)
    report.add(Answer(board, cell=slower), analysis)
    losing = next(cell for cell, found in label.items() if found.turning)
    report.add(Answer(board, cell=losing), analysis)
    report.add(Answer(board, cell=3, changed_board=True), analysis)  # wrote on its board
    report.add(Answer(board, problem=Problem.ERROR, detail="boom"), None)
    assert report.score == 100 * 5 // 16  # 2.5 points of 8 (two positions never asked)
    perfect = report_of(best)
    assert perfect.score == 100
    nearly = report_of(lambda b: first_free(b) if b.move_count == 7 else best(b))
    assert nearly.score == 100 * nearly.labels()[Label.BEST] // 4520 == 94


def test_a_check_stopped_or_interrupted_has_no_verdict_on_its_answers() -> None:
    report = report_of(best)
    assert report.verdict == "perfect"
    report.stopped = "the total budget of 1 s (--budget) was spent"
    assert report.verdict == "unfinished"
    assert "Stopped early: the total budget of 1 s (--budget) was spent" in report.lines(analyze)
    report.interrupted = True
    assert report.verdict == "interrupted"


def test_speed_is_reported_apart_naming_the_slowest_position() -> None:
    empty, other = Board.empty(3), Board.parse("X...O....")
    report = Report(3, 3, limit=1.0)
    report.add(Answer(empty, cell=4, seconds=4.7), analyze(empty))
    report.add(Answer(other, cell=best(other), seconds=0.002), analyze(other))
    report.add(Answer(other, cell=best(other), seconds=0.004), analyze(other))
    assert report.verdict == "perfect"
    assert report.speed_lines() == [
        "Speed: median 4.0 ms, slowest 4.7 s on the empty board",
        "  your empty-board answer took 4.7 s: alpha-beta or a memo makes it instant"
        " (plain minimax plays out every game from there)",
        "Time limit: 1 answer took longer than the 1 s allowed (--max-answer-seconds)",
    ]
    assert report.over_limit() == 1
    quick = Report(3, 1)
    quick.add(Answer(other, cell=best(other), seconds=0.3), analyze(other))
    assert quick.speed_lines() == ["Speed: median 300 ms, slowest 300 ms in X...O...."]


def test_each_line_that_names_no_square_is_shown_once() -> None:
    board = Board.parse("X........")
    report = Report(3, 3)
    for _ in range(2):
        report.add(Answer(board, problem=Problem.ILLEGAL, said="thinking", unreadable=True), None)
    report.add(Answer(board, cell=4), analyze(board), stray=("done", "thinking"))
    assert report.unreadable() == ["thinking", "done"]
    lines = report.lines(analyze)
    assert sum("'thinking'" in line for line in lines) == 1
    assert report.to_json(analyze)["unreadable"] == ["thinking", "done"]
