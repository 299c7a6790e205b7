"""A CS50 file's functions graded from values made up here (the host's plain JSON),
and the diagnoses read off them and off made-up answers (the real bots run in
tests/commands/test_check_cs50.py)."""

from __future__ import annotations

from typing import Any

import pytest

from ttt_tui.engine import Board, Status
from ttt_tui.engine.board import geometry
from ttt_tui.teach.check import Answer, Problem, Report, judged
from ttt_tui.teach.cs50 import (
    FUNCTIONS,
    RAISES,
    FunctionCheck,
    cases,
    functions_lines,
    graded,
    reachable_positions,
)
from ttt_tui.teach.diagnose import function_bugs, line_words, missed_lines, off_by_one

DIAGONAL = 1 << 0 | 1 << 4 | 1 << 8
"""a1-b2-c3 as a mask."""


def right_values(name: str) -> list[dict[str, Any]]:
    """What a correct function gives for each of `cases`."""
    return [
        {"raised": "ValueError: taken"} if case.expected == RAISES else {"value": case.expected}
        for case in cases(name)
    ]


def test_the_positions_and_calls_cover_every_reachable_board() -> None:
    boards = reachable_positions()
    assert len(boards) == 5478 == len({str(b) for b in boards})
    finished = [b for b in boards if b.is_game_over()]
    assert len(finished) == 958
    in_play = len(boards) - len(finished)
    assert len(cases("winner")) == len(cases("terminal")) == 5478
    assert len(cases("player")) == len(cases("actions")) == in_play == 4520
    assert len(cases("utility")) == 958
    legal = sum(len(b.legal_moves()) for b in boards)
    taken = sum(1 for b in boards if not b.is_game_over() and b.move_count)
    assert len(cases("result")) == legal + taken
    assert sum(1 for case in cases("result") if case.expected == RAISES) == taken


@pytest.mark.parametrize("name", FUNCTIONS)
def test_right_values_pass(name: str) -> None:
    check = graded(name, right_values(name))
    assert check.passed and check.checked == len(cases(name))
    assert check.lines() == [f"  {name}: right on all {len(cases(name)):,} calls"]


def test_a_wrong_value_is_shown_with_its_board_and_the_command() -> None:
    values = right_values("utility")
    values[0] = {"value": True}  # `True == 1`, but not what utility returns
    check = graded("utility", values)
    assert not check.passed and len(check.wrong) == 1
    board = cases("utility")[0].board
    text = "\n".join(check.lines())
    assert f"utility(board) returned True; it should return {cases('utility')[0].expected}" in text
    assert f"try: ttt-tui analyze {board}" in text


def test_result_must_raise_on_a_taken_square_and_leave_the_board() -> None:
    values = right_values("result")
    first_illegal = next(i for i, c in enumerate(cases("result")) if c.expected == RAISES)
    values[first_illegal] = {"value": "XX......."}
    values[0] = {"value": values[0]["value"], "changed": True}
    check = graded("result", values)
    assert [w.case for w in check.wrong] == [cases("result")[0], cases("result")[first_illegal]]
    assert check.changed == check.wrong[:1]
    assert check.wrong[1].should("result") == "raise an exception (the square is taken)"
    assert check.wrong[1].did("result") == "returned the board XX......."


def test_calls_cut_short_say_why() -> None:
    check = graded("winner", right_values("winner")[:10], "no answer in 2 s to 500 calls")
    assert check.checked == 10 and not check.passed
    assert check.lines() == [
        "  winner: right on the first 10 calls, then no answer in 2 s to 500 calls"
    ]
    ended = graded("player", [], "it exited with status 3 without answering")
    assert ended.lines() == ["  player: it exited with status 3 without answering"]


def test_a_winner_blind_to_a_diagonal_is_named() -> None:
    values = right_values("winner")
    for i, case in enumerate(cases("winner")):
        board = case.board
        if board.status.winner is not None and not any(
            marks & line == line for marks in (board.x, board.o) for line in LINES_BUT_DIAGONAL
        ):
            values[i] = {"value": None}
    check = graded("winner", values)
    assert missed_lines(check) == [DIAGONAL]
    (words,) = function_bugs([check])
    assert words.startswith("winner() misses the diagonal a1-b2-c3")
    assert "ttt-tui analyze " in words


LINES_BUT_DIAGONAL = [line for line in geometry(3, 3).lines if line != DIAGONAL]


def test_lines_are_named_by_their_squares() -> None:
    assert line_words(DIAGONAL) == "the diagonal a1-b2-c3"
    assert line_words(7 << 3) == "the row a2-b2-c2"
    assert line_words(0b010010010) == "the column b1-b2-b3"


def test_a_full_board_taken_for_a_draw_is_named() -> None:
    values = right_values("utility")
    for i, case in enumerate(cases("utility")):
        if case.board.move_count == 9 and case.board.status is not Status.DRAW:
            values[i] = {"value": 0}
    (words,) = function_bugs([graded("utility", values)])
    assert 'it tests "board full" before "a line made"' in words


@pytest.mark.parametrize(
    ("kind", "shift", "words"),
    [
        ("minimax", 1, "Its answers look 1-based: (2, 2) for b2"),
        ("choose_move", -1, "Its answers look 0-based: 0 for a1"),
    ],
)
def test_answers_off_by_one_are_named_with_the_raw_answer(
    kind: str, shift: int, words: str
) -> None:
    """Each answer is a free square counted from the other end by one; the example is
    an illegal one, off the board if one is (0 is no square's number from 1)."""
    answers: list[Answer] = []
    for board in [Board.parse("........X"), Board.parse("X.......O"), Board.parse("OX.X.....")]:
        cell = next(c for c in (0, 4, 6) if board[c] is None)
        row, col = divmod(cell, 3)
        said: Any = [row + shift, col + shift] if kind == "minimax" else cell + 1 + shift
        answers.append(judged(board, kind, said))
    assert any(a.problem is Problem.ILLEGAL for a in answers)
    found = off_by_one(answers)
    assert found is not None and found.startswith(words)


def test_right_answers_are_not_called_off_by_one() -> None:
    board = Board.parse("X........")
    assert off_by_one([judged(board, "minimax", [1, 1])]) is None


def test_a_bot_that_never_answers_is_named() -> None:
    report = Report(3, 2)
    for board in (Board.parse("........."), Board.parse("X........")):
        late = "no answer in 2 s: a program must flush its output"
        report.add(Answer(board, problem=Problem.TIMEOUT, detail=late), None)
    assert "It never answered: no answer in 2 s: a program must flush its output." in (
        report.diagnosis()
    )


def test_functions_all_right_take_one_line() -> None:
    checks = [graded(name, right_values(name)) for name in FUNCTIONS]
    calls = sum(len(cases(name)) for name in FUNCTIONS)
    assert functions_lines(checks) == [
        "CS50's functions right on every position they apply to: player, actions, result,"
        f" winner, terminal, utility ({calls:,} calls)"
    ]
    checks[0] = FunctionCheck("player", missing=True)
    assert functions_lines(checks)[1] == "  player: missing (not defined in the file)"
    assert functions_lines([]) == []


def test_result_expects_the_engine_s_move() -> None:
    for case in cases("result"):
        if case.expected != RAISES:
            assert case.action is not None
            row, col = case.action
            assert case.expected == str(case.board.play(row * 3 + col))
        else:
            assert case.action is not None and case.board[case.action[0] * 3 + case.action[1]]


def test_a_player_for_the_other_side_is_named_only_when_it_names_the_other_side() -> None:
    swapped = [{"value": "O" if case.expected == "X" else "X"} for case in cases("player")]
    (words,) = function_bugs([graded("player", swapped)])
    assert words.startswith("player() answers for the other side on every board")
    raising = [{"raised": "NameError: name 'x' is not defined"} for _ in cases("player")]
    assert function_bugs([graded("player", raising)]) == []
