"""The Session and long searches, without any UI: progress, 'move now', the coach's
verdicts as they are proven, and the board in play."""

from __future__ import annotations

from ttt_tui.bots.player import thinking as thinking_for
from ttt_tui.engine import Analysis, Board, Difficulty, Outcome, Progress, Verdict
from ttt_tui.play.session import (
    AnalysisRequest,
    Changed,
    MoveRequest,
    Refusal,
    Refused,
    Session,
    Work,
    status_detail,
)
from ttt_tui.play.settings import BoardSize, Mode, Settings


def thinking(difficulty: Difficulty = Difficulty.HARD) -> tuple[Session, MoveRequest]:
    """A 5x5 session whose computer is asked for its reply to X c3."""
    session = Session(Settings(difficulty=difficulty, board=BoardSize.FIVE))
    session.begin()
    assert isinstance(session.play(12), Changed)
    [request] = [r for r in session.take_requests() if isinstance(r, MoveRequest)]
    return session, request


def progress(best: int | None, proven: bool, nodes: int = 1234) -> Progress:
    return Progress(nodes, 1.5, 7, "proving the draw", best, proven)


def test_a_search_s_progress_shows_in_the_status_and_only_for_its_turn() -> None:
    session, request = thinking()
    assert status_detail(session) == ""
    assert session.report(request.token + 1, Work.MOVE, progress(7, False)) is None  # stale
    assert session.report(request.token, Work.ANALYSIS, progress(7, False)) is None  # not asked
    assert isinstance(session.report(request.token, Work.MOVE, progress(7, False)), Changed)
    assert status_detail(session) == (
        "1.5 s · 1,234 positions · depth 7\nproving the draw\nm: not proven yet"
    )
    assert session.view().slow_search
    session.report(request.token, Work.MOVE, progress(7, True, 5678))
    assert (
        status_detail(session) == "1.5 s · 5,678 positions · depth 7\nproving the draw\nm: move now"
    )


def test_the_learner_s_bot_thinking_shows_how_long_it_has_been() -> None:
    """The bot's progress is only the time it has taken (`ttt_tui.bots.player.thinking`
    words it): no positions, no depth, no move to play now."""
    session = Session(Settings(board=BoardSize.FIVE), bot_offered=True)
    session.begin()
    assert isinstance(session.play(12), Changed)
    [request] = [r for r in session.take_requests() if isinstance(r, MoveRequest)]
    said = thinking_for(6.2, 30)
    assert isinstance(session.report(request.token, Work.MOVE, said), Changed)
    assert status_detail(session) == "Your bot is thinking… 6 s\n(it has up to 30 s)"
    assert not session.can_move_now


def test_move_now_plays_hard_s_best_only_once_proven() -> None:
    session, request = thinking()
    assert session.move_now() == Refused(Refusal.NO_MOVE_YET)
    session.report(request.token, Work.MOVE, progress(7, False))
    assert session.move_now() == Refused(Refusal.NOT_PROVEN)
    session.report(request.token, Work.MOVE, progress(7, True))
    reply = session.move_now()
    assert isinstance(reply, Changed) and Work.MOVE in reply.cancel
    assert session.game.moves == [12, 7]
    assert session.game.levels == [None, Difficulty.HARD]
    assert not session.thinking and not session.view().slow_search
    assert session.move_now() == Refused(Refusal.NOT_THINKING)
    # The search's own answer, when it comes, is for a turn that is over.
    assert session.apply_move(request.token, 9, Difficulty.HARD) is None


def test_below_hard_the_best_so_far_needs_no_proof() -> None:
    session, request = thinking(Difficulty.MEDIUM)
    session.report(request.token, Work.MOVE, progress(3, False))
    assert isinstance(session.move_now(), Changed)
    assert session.game.moves == [12, 3]


def test_the_coach_shows_proven_squares_and_marks_the_rest_pending() -> None:
    session = Session(Settings(mode=Mode.TWO_PLAYERS, board=BoardSize.FOUR, coach=True))
    session.begin()
    [request] = session.take_requests()
    assert isinstance(request, AnalysisRequest)
    board = Board.empty(4)
    assert session.view().board.pending == frozenset(range(16))
    partial = Analysis(
        board, Verdict(Outcome.DRAW, 16), {0: Verdict(Outcome.DRAW, 16)}, (0,), complete=False
    )
    report = Progress(50, 0.2, None, "valuing b1", 0, True, partial)
    session.report(request.token, Work.ANALYSIS, report)
    view = session.view().board
    assert dict(view.verdicts) == {0: Verdict(Outcome.DRAW, 16)}
    assert view.pending == frozenset(range(1, 16))


def test_a_new_board_is_a_new_game_on_it_and_the_score_is_kept_per_board() -> None:
    session = Session(Settings(mode=Mode.TWO_PLAYERS))
    session.begin()
    for cell in (0, 3, 1, 4, 2):  # X wins the top row on 3x3
        session.play(cell)
    assert session.set_board(BoardSize.THREE) is None  # already there
    assert isinstance(session.set_board(BoardSize.FIVE), Changed)
    assert session.game.board == Board.empty(5)
    assert session.settings.board is BoardSize.FIVE
    assert session.score[BoardSize.THREE, Mode.TWO_PLAYERS]["x_won"] == 1
    assert session.view().score == (("X wins", "X", 0), ("O wins", "O", 0), ("Draws", "D", 0))
    assert session.view().n == 5


def test_in_ai_vs_ai_undo_redo_and_hints_say_the_computer_plays_both() -> None:
    session = Session(Settings(mode=Mode.AI_VS_AI))
    session.begin()
    for ask in (session.undo, session.redo, session.hint):
        assert ask() == Refused(Refusal.COMPUTER_PLAYS_BOTH)
    assert session.game.hints_used == 0
