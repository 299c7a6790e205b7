"""The Session without any UI: replies, requests, records, the score and the view."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from ttt_tui.engine import Board, Difficulty, Player, analyze
from ttt_tui.play.game import EndedGame
from ttt_tui.play.results import Result
from ttt_tui.play.session import (
    AnalysisRequest,
    Changed,
    MoveRequest,
    Refusal,
    Refused,
    Reply,
    Session,
    Work,
    status_text,
)
from ttt_tui.play.settings import BoardSize, Mode, Settings

MOMENT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def make_session(**settings: object) -> Session:
    session = Session(
        dataclasses.replace(Settings(), **settings),  # type: ignore[arg-type]
        now=lambda: MOMENT,
    )
    session.begin()
    return session


def ended(*replies: Reply) -> list[EndedGame]:
    """The games these replies say to record, in order."""
    return [o.ended for o in replies if isinstance(o, Changed) and o.ended is not None]


def saved(*replies: Reply) -> list[Settings]:
    """The settings these replies say to save, in order."""
    return [o.settings for o in replies if isinstance(o, Changed) and o.settings is not None]


def move_request(session: Session) -> MoveRequest:
    requests = [r for r in session.take_requests() if isinstance(r, MoveRequest)]
    assert len(requests) == 1
    return requests[0]


def test_a_move_then_the_computer_is_asked_for_its_reply() -> None:
    session = make_session(difficulty=Difficulty.HARD)
    assert session.take_requests() == []
    reply = session.play(0)
    assert isinstance(reply, Changed)
    request = move_request(session)
    assert request.token == session.token
    assert request.board == session.game.board
    assert request.difficulty is Difficulty.HARD
    assert session.thinking
    assert session.take_requests() == []  # already in flight: asked for once
    assert isinstance(session.apply_move(request.token, 4, Difficulty.HARD), Changed)
    assert session.game.moves == [0, 4]
    assert not session.thinking


def test_a_move_for_an_old_turn_is_dropped_and_its_search_cancelled() -> None:
    """The old turn's answer comes when the computer is to move again, in another
    position: only its token tells it apart from the answer now wanted."""
    session = make_session()
    session.play(0)
    old = move_request(session)
    reply = session.undo()
    assert isinstance(reply, Changed)
    assert reply.cancel == frozenset({Work.MOVE})
    session.play(8)
    new = move_request(session)
    assert new.token != old.token and session.game.ai_to_move
    assert session.apply_move(old.token, 4, Difficulty.MEDIUM) is None
    assert session.game.moves == [8]
    assert session.thinking  # still waiting for the answer it asked for
    assert isinstance(session.apply_move(new.token, 4, Difficulty.MEDIUM), Changed)
    assert session.game.moves == [8, 4]


def test_a_move_while_the_computer_is_to_move_is_refused() -> None:
    session = make_session()
    session.play(0)
    assert session.play(1) == Refused(Refusal.NOT_YOUR_TURN)
    assert session.game.moves == [0]


def test_a_taken_square_is_refused_by_its_number() -> None:
    session = make_session(mode=Mode.TWO_PLAYERS)
    session.play(4)
    reply = session.play(4)
    assert reply == Refused(Refusal.SQUARE_TAKEN, 4)
    assert isinstance(reply, Refused)
    assert reply.message == "Square 5 is taken."


def test_in_ai_vs_ai_a_persons_move_is_refused() -> None:
    session = make_session(mode=Mode.AI_VS_AI)
    assert session.play(0) == Refused(Refusal.COMPUTER_PLAYS_BOTH)
    assert isinstance(session.set_paused(True), Changed)
    assert session.play(0) == Refused(Refusal.PAUSED_COMPUTER_PLAYS_BOTH)
    assert session.take_requests() == []  # paused: no move wanted


def test_a_finished_game_is_recorded_and_scored_once() -> None:
    session = make_session(mode=Mode.TWO_PLAYERS)
    moves = [session.play(cell) for cell in (0, 3, 1, 4, 2)]  # X takes the top row
    assert all(isinstance(reply, Changed) for reply in moves)
    (game,) = ended(*moves)
    assert game.result is Result.X_WON and game.moves == (0, 3, 1, 4, 2)
    assert game.ended == MOMENT and game.human is None and game.in_force == (None, None)
    assert session.score[BoardSize.THREE, Mode.TWO_PLAYERS]["x_won"] == 1
    assert status_text(session) == "X wins!"
    assert session.play(8) == Refused(Refusal.GAME_OVER)
    after = [session.undo(), session.redo()]  # the same ending again: not counted again
    assert all(isinstance(reply, Changed) for reply in after)
    assert ended(*after) == []
    assert session.score[BoardSize.THREE, Mode.TWO_PLAYERS]["x_won"] == 1
    assert session.close_game() is None  # recorded already


def test_a_new_game_records_the_old_one_as_abandoned_and_alternates() -> None:
    session = make_session(mode=Mode.TWO_PLAYERS)
    first = [session.play(4), session.new_game()]
    assert [game.result for game in ended(*first)] == [Result.ABANDONED]
    assert ended(session.new_game()) == []  # nothing played: nothing recorded

    session = make_session(alternate_start=True)
    reply = session.new_game(alternate=True)
    assert reply.notice == "Sides swapped: you play O."
    assert session.game.human is Player.O
    assert [settings.mark for settings in saved(reply)] == [Player.O]
    assert move_request(session).board == session.game.board  # the computer opens


def test_an_unfinished_game_is_abandoned_once_as_the_session_ends() -> None:
    session = make_session(difficulty=Difficulty.HARD)
    session.play(4)
    request = move_request(session)
    session.apply_move(request.token, 0, Difficulty.HARD)
    game = session.close_game()
    assert game is not None and game.result is Result.ABANDONED
    assert game.moves == (4, 0) and game.levels == (None, Difficulty.HARD)
    assert game.human is Player.X and game.in_force == (None, Difficulty.HARD)
    assert session.close_game() is None


def test_settings_are_saved_once_per_change_and_not_for_no_change() -> None:
    session = make_session(mode=Mode.AI_VS_AI)
    assert session.set_difficulty(Difficulty.MEDIUM, Player.X) is None  # already medium
    reply = session.set_difficulty(Difficulty.HARD, Player.O)
    assert isinstance(reply, Changed)
    assert reply.notice == "O engine: Hard"  # which engine: both have a level
    assert [s.ai_o_difficulty for s in saved(reply)] == [Difficulty.HARD]
    assert session.cycle_difficulty() == Refused(Refusal.ENGINES_IN_SIDEBAR)
    assert session.set_mode(Mode.AI_VS_AI) is None
    switched = session.set_mode(Mode.HUMAN_VS_AI)
    assert isinstance(switched, Changed)
    assert [s.mode for s in saved(switched)] == [Mode.HUMAN_VS_AI]
    assert saved(session.set_theme("nord")) != [] and session.set_theme("nord") is None


def test_the_coach_asks_for_an_analysis_and_shows_it() -> None:
    session = make_session(mode=Mode.TWO_PLAYERS)
    assert session.take_requests() == []
    session.set_coach(True)
    (request,) = session.take_requests()
    assert isinstance(request, AnalysisRequest)
    assert session.view().board.verdicts == {}
    assert isinstance(session.apply_analysis(request.token, analyze(request.board)), Changed)
    assert set(session.view().board.verdicts) == set(range(9))
    # Turning the coach off keeps the analysis (it is still right for the position).
    session.set_coach(False)
    assert session.view().board.verdicts == {}
    assert session.analysis is not None


def test_a_hint_is_counted_once_per_position() -> None:
    session = make_session(mode=Mode.TWO_PLAYERS)
    assert isinstance(session.hint(), Changed)
    assert session.hint() is None
    assert session.game.hints_used == 1
    (request,) = session.take_requests()
    assert isinstance(request, AnalysisRequest)
    session.apply_analysis(request.token, analyze(request.board))
    assert session.view().board.hints == frozenset(analyze(request.board).best)


def test_the_view_is_a_value_that_changes_only_with_the_session() -> None:
    session = make_session()
    first = session.view()
    assert session.view() == first
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.paused = True  # type: ignore[misc]
    session.play(0)
    assert session.view() != first
    assert first.moves == ()


def test_an_analysis_for_a_position_that_is_gone_is_dropped() -> None:
    """The coach's analysis of the empty board comes after X has played: dropped, and no
    verdict of it shown; the analysis of the position now is asked for and shown."""
    session = make_session(mode=Mode.TWO_PLAYERS, coach=True)
    (old,) = session.take_requests()
    assert isinstance(old, AnalysisRequest) and old.board == Board.empty()
    played = session.play(0)
    assert isinstance(played, Changed) and played.cancel == frozenset({Work.ANALYSIS})
    assert session.apply_analysis(old.token, analyze(old.board)) is None
    assert session.analysis is None
    assert session.view().board.verdicts == {}
    (fresh,) = session.take_requests()
    assert isinstance(fresh, AnalysisRequest)
    assert fresh.board == session.game.board and fresh.token != old.token
    assert isinstance(session.apply_analysis(fresh.token, analyze(fresh.board)), Changed)
    assert set(session.view().board.verdicts) == set(fresh.board.legal_moves())
