"""The game in words (`ttt_tui.play.speech`): every announcement's wording, and the move
box's commands and answers, bad input included, without any UI."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ttt_tui.engine import Board, Difficulty
from ttt_tui.play.session import Session
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.play.speech import (
    HELP,
    Act,
    Ask,
    Heard,
    Play,
    Unclear,
    announcement,
    answer,
    board_sentence,
    read_command,
    threats_sentence,
)

MOMENT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def session_for(**settings: object) -> Session:
    session = Session(Settings(**settings), now=lambda: MOMENT)  # type: ignore[arg-type]
    session.begin()
    return session


def heard(session: Session) -> Heard:
    return Heard(session.game, tuple(session.game.moves))


def computer_plays(session: Session, cell: int) -> None:
    session.take_requests()
    session.apply_move(session.token, cell, session.difficulty_for(session.game.board.to_move))


def test_a_move_and_the_reply_are_said_the_same_way_every_time() -> None:
    session = session_for(difficulty=Difficulty.HARD)
    assert announcement(Heard(), session) == "3x3, you play X. Your move."
    before = heard(session)
    session.play(4)
    assert announcement(before, session) == "X plays b2. Hard is thinking."
    computer_plays(session, 0)
    assert announcement(before, session) == "X plays b2. O plays a1. Your move."


def test_a_win_names_its_line_and_a_draw_says_so() -> None:
    session = session_for(mode=Mode.TWO_PLAYERS)
    for cell in (0, 3, 1, 4):
        session.play(cell)
    before = heard(session)
    session.play(2)
    assert announcement(before, session) == (
        "X plays c1 and wins: a1, b1, c1. Press n for a new game."
    )
    drawn = session_for(mode=Mode.TWO_PLAYERS)
    for cell in (0, 1, 2, 4, 3, 5, 7, 6):
        drawn.play(cell)
    before = heard(drawn)
    drawn.play(8)
    assert announcement(before, drawn) == "X plays c3. A draw. Press n for a new game."


def test_undo_a_new_game_and_the_other_modes_are_said_too() -> None:
    session = session_for(mode=Mode.TWO_PLAYERS)
    session.play(4)
    session.play(0)
    before = heard(session)
    session.undo()
    assert announcement(before, session) == "Taken back: O a1. O to move."
    before = heard(session)
    session.new_game()
    assert announcement(before, session) == "New game, 3x3. X to move."

    ai = session_for(mode=Mode.AI_VS_AI, ai_x_difficulty=Difficulty.EASY)
    assert announcement(Heard(), ai) == "3x3, AI vs AI. X (Easy) is thinking."
    ai.set_paused(True)
    assert announcement(Heard(), ai) == "3x3, AI vs AI. Paused, X (Easy) to move; p resumes."


def test_on_4x4_a_square_is_said_column_then_row() -> None:
    """Off the diagonal, so that a square said row first (d2 for b4) is wrong."""
    session = session_for(mode=Mode.TWO_PLAYERS, board=BoardSize.FOUR)
    before = heard(session)
    session.play(1)  # b1
    session.play(7)  # d2
    assert announcement(before, session) == "X plays b1. O plays d2. X to move."
    for cell in (2, 11, 0):  # X c1, O d3, X a1
        session.play(cell)
    before = heard(session)
    session.undo()
    assert announcement(before, session) == "Taken back: X a1. X to move."
    before = heard(session)
    session.play(3)  # X d1 ...
    session.play(12)  # O a4
    session.play(0)  # ... and X a1: the top row
    assert announcement(before, session) == (
        "X plays d1. O plays a4. X plays a1 and wins: a1, b1, c1, d1. Press n for a new game."
    )


def test_on_5x5_a_square_is_said_column_then_row() -> None:
    session = session_for(difficulty=Difficulty.HARD, board=BoardSize.FIVE)
    assert announcement(Heard(), session) == "5x5, you play X. Your move."
    before = heard(session)
    session.play(9)  # e2
    assert announcement(before, session) == "X plays e2. Hard is thinking."
    computer_plays(session, 21)  # b5
    assert announcement(before, session) == "X plays e2. O plays b5. Your move."
    assert answer("last", session) == "Last move: O plays b5."
    session = session_for(mode=Mode.TWO_PLAYERS, board=BoardSize.FIVE)
    for cell in (1, 0, 6, 5, 11, 10):  # X down column b, O down column a
        session.play(cell)
    before = heard(session)
    session.play(16)
    assert announcement(before, session) == (
        "X plays b4 and wins: b1, b2, b3, b4. Press n for a new game."
    )


@pytest.mark.parametrize(
    ("typed", "n", "command"),
    [
        ("c3", 3, Play(8)),
        (" B2 ", 3, Play(4)),
        ("5", 3, Play(4)),
        ("16", 4, Play(15)),
        ("e5", 5, Play(24)),
        ("board", 3, Ask("board")),
        (":board", 3, Ask("board")),  # the box opened with :, and : typed again by habit
        (": c3", 3, Play(8)),
        (":", 3, Unclear("Type a square such as b2, or help")),
        ("Threats", 3, Ask("threats")),
        ("new  game", 3, Act("new_game")),
        ("undo", 3, Act("undo")),
        ("move now", 3, Act("move_now")),
        ("", 3, Unclear("Type a square such as b2, or help")),
        ("z9", 3, Unclear("There is no square z9: they are a1 to c3, or 1 to 9")),
        ("10", 3, Unclear("There is no square 10: they are a1 to c3, or 1 to 9")),
        ("²", 3, Unclear("Unknown command: ². Type a square such as b2, or help")),
        ("dance", 3, Unclear("Unknown command: dance. Type a square such as b2, or help")),
    ],
)
def test_the_move_box_reads_squares_questions_and_actions(
    typed: str, n: int, command: object
) -> None:
    assert read_command(typed, n) == command


def test_the_board_and_its_threats_in_words() -> None:
    board = Board.parse("X.O/.X./...")
    assert board_sentence(board) == (
        "Row 1: X, empty, O. Row 2: empty, X, empty. Row 3: empty, empty, empty."
    )
    assert threats_sentence(board) == "X wins at c3 (a1 to c3)."
    assert threats_sentence(Board.parse("XX./OO./...")) == (
        "X wins at c1 (a1 to c1). O wins at c2 (a2 to c2)."
    )
    assert threats_sentence(Board.empty(3)) == "No threats: no line is one move from completion."
    assert threats_sentence(Board.parse("XXX./..../O.O./....")) == ("X wins at d1 (a1 to d1).")


def test_the_move_box_answers_last_score_and_help() -> None:
    session = session_for(mode=Mode.TWO_PLAYERS, board=BoardSize.FOUR)
    assert answer("last", session) == "No moves yet."
    session.play(5)
    assert answer("last", session) == "Last move: X plays b2."
    assert answer("score", session) == "This session: X wins 0, O wins 0, Draws 0."
    assert answer("help", session) == HELP
    assert "board, last, threats, score, help" in HELP and "new game" in HELP
