"""The Session without any UI: outcomes, requests, records, the score and the view."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from ttt_tui.engine import Difficulty, Player, analyze
from ttt_tui.play.results import Result
from ttt_tui.play.session import (
    AnalysisRequest,
    Changed,
    MoveRequest,
    Refusal,
    Refused,
    Session,
    Work,
    status_text,
)
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.storage import GameRecord

MOMENT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


class Saved:
    """What a session saved: every settings change and every game record."""

    def __init__(self) -> None:
        self.settings: list[Settings] = []
        self.records: list[GameRecord] = []


def make_session(**settings: object) -> tuple[Session, Saved]:
    saved = Saved()
    session = Session(
        dataclasses.replace(Settings(), **settings),  # type: ignore[arg-type]
        save_settings=saved.settings.append,
        record_game=saved.records.append,
        now=lambda: MOMENT,
    )
    session.begin()
    return session, saved


def move_request(session: Session) -> MoveRequest:
    requests = [r for r in session.requests() if isinstance(r, MoveRequest)]
    assert len(requests) == 1
    return requests[0]


def test_a_move_then_the_computer_is_asked_for_its_reply() -> None:
    session, _ = make_session(difficulty=Difficulty.HARD)
    assert session.requests() == []
    outcome = session.play(0)
    assert isinstance(outcome, Changed)
    request = move_request(session)
    assert request.token == session.token
    assert request.board == session.game.board
    assert request.difficulty is Difficulty.HARD
    assert session.thinking
    assert session.requests() == []  # already in flight: asked for once
    assert isinstance(session.apply_move(request.token, 4, Difficulty.HARD), Changed)
    assert session.game.moves == [0, 4]
    assert not session.thinking


def test_a_move_for_an_old_turn_is_dropped_and_its_search_cancelled() -> None:
    session, _ = make_session()
    session.play(0)
    request = move_request(session)
    outcome = session.undo()
    assert isinstance(outcome, Changed)
    assert outcome.cancel == frozenset({Work.MOVE})
    assert session.apply_move(request.token, 4, Difficulty.MEDIUM) is None
    assert session.game.moves == []


def test_a_move_while_the_computer_is_to_move_is_refused() -> None:
    session, _ = make_session()
    session.play(0)
    assert session.play(1) == Refused(Refusal.NOT_YOUR_TURN)
    assert session.game.moves == [0]


def test_a_taken_square_is_refused_by_its_number() -> None:
    session, _ = make_session(mode=Mode.TWO_PLAYERS)
    session.play(4)
    outcome = session.play(4)
    assert outcome == Refused(Refusal.SQUARE_TAKEN, 4)
    assert isinstance(outcome, Refused)
    assert outcome.message == "Square 5 is taken."


def test_in_ai_vs_ai_a_persons_move_is_refused() -> None:
    session, _ = make_session(mode=Mode.AI_VS_AI)
    assert session.play(0) == Refused(Refusal.COMPUTER_PLAYS_BOTH)
    assert isinstance(session.set_paused(True), Changed)
    assert session.play(0) == Refused(Refusal.PAUSED_COMPUTER_PLAYS_BOTH)
    assert session.requests() == []  # paused: no move wanted


def test_a_finished_game_is_recorded_and_scored_once() -> None:
    session, saved = make_session(mode=Mode.TWO_PLAYERS)
    for cell in (0, 3, 1, 4, 2):  # X takes the top row
        assert isinstance(session.play(cell), Changed)
    assert [r.result for r in saved.records] == [Result.X_WON]
    assert session.score[BoardSize.THREE, Mode.TWO_PLAYERS]["x_won"] == 1
    assert status_text(session) == "X wins!"
    assert session.play(8) == Refused(Refusal.GAME_OVER)
    assert isinstance(session.undo(), Changed)
    assert isinstance(session.redo(), Changed)  # the same ending again: not counted again
    assert len(saved.records) == 1
    assert session.score[BoardSize.THREE, Mode.TWO_PLAYERS]["x_won"] == 1


def test_a_new_game_records_the_old_one_as_abandoned_and_alternates() -> None:
    session, saved = make_session(mode=Mode.TWO_PLAYERS)
    session.play(4)
    session.new_game()
    assert [r.result for r in saved.records] == [Result.ABANDONED]
    session.new_game()  # nothing played: nothing recorded
    assert len(saved.records) == 1

    session, saved = make_session(alternate_start=True)
    outcome = session.new_game(alternate=True)
    assert outcome.notice == "Sides swapped: you play O."
    assert session.game.human is Player.O
    assert saved.settings[-1].mark is Player.O
    assert move_request(session).board == session.game.board  # the computer opens


def test_settings_are_saved_once_per_change_and_not_for_no_change() -> None:
    session, saved = make_session(mode=Mode.AI_VS_AI)
    assert session.set_difficulty(Difficulty.MEDIUM, Player.X) is None  # already medium
    outcome = session.set_difficulty(Difficulty.HARD, Player.O)
    assert isinstance(outcome, Changed)
    assert outcome.notice == "O engine: Hard"  # which engine: both have a level
    assert [s.ai_o_difficulty for s in saved.settings] == [Difficulty.HARD]
    assert session.cycle_difficulty() == Refused(Refusal.ENGINES_IN_SIDEBAR)
    assert session.set_mode(Mode.AI_VS_AI) is None
    assert isinstance(session.set_mode(Mode.HUMAN_VS_AI), Changed)
    assert saved.settings[-1].mode is Mode.HUMAN_VS_AI
    assert len(saved.settings) == 2


def test_the_coach_asks_for_an_analysis_and_shows_it() -> None:
    session, _ = make_session(mode=Mode.TWO_PLAYERS)
    assert session.requests() == []
    session.set_coach(True)
    (request,) = session.requests()
    assert isinstance(request, AnalysisRequest)
    assert session.view().board.verdicts == {}
    assert isinstance(session.apply_analysis(request.token, analyze(request.board)), Changed)
    assert set(session.view().board.verdicts) == set(range(9))
    # Turning the coach off keeps the analysis (it is still right for the position).
    session.set_coach(False)
    assert session.view().board.verdicts == {}
    assert session.analysis is not None


def test_a_hint_is_counted_once_per_position() -> None:
    session, _ = make_session(mode=Mode.TWO_PLAYERS)
    assert isinstance(session.hint(), Changed)
    assert session.hint() is None
    assert session.game.hints_used == 1
    (request,) = session.requests()
    assert isinstance(request, AnalysisRequest)
    session.apply_analysis(request.token, analyze(request.board))
    assert session.view().board.hints == frozenset(analyze(request.board).best)


def test_the_view_is_a_value_that_changes_only_with_the_session() -> None:
    session, _ = make_session()
    first = session.view()
    assert session.view() == first
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.paused = True  # type: ignore[misc]
    session.play(0)
    assert session.view() != first
    assert first.moves == ()
