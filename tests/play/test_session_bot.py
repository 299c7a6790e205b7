"""The learner's bot as a level (`ttt-tui --bot`), in the Session without any UI: where it
plays, what is asked of it, a move it did not give, and how the game goes on; recorded
as ``bot``, never as one of the engine's levels, and never kept in the settings."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.session import Changed, MoveRequest, Refusal, Refused, Session, status_text
from ttt_tui.play.settings import BOT, Level, Mode, Settings
from ttt_tui.storage.model import GameRecord, Stats, record_of, stats_entry

MOMENT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def bot_session(settings: Settings | None = None, *, offered: bool = True) -> Session:
    session = Session(settings or Settings(), now=lambda: MOMENT, bot_offered=offered)
    session.begin()
    return session


def move_request(session: Session) -> MoveRequest:
    requests = [r for r in session.take_requests() if isinstance(r, MoveRequest)]
    assert len(requests) == 1
    return requests[0]


def test_the_bot_starts_as_the_computer_and_as_x_and_the_engine_keeps_its_levels() -> None:
    session = bot_session(Settings(difficulty=Difficulty.EASY))
    assert session.view().levels == (BOT, BOT, Difficulty.MEDIUM)
    assert session.view().level_choices == (*Difficulty, BOT)
    session.play(4)
    assert move_request(session).difficulty is BOT
    assert status_text(session) == "Thinking… (Your bot)"
    assert session.settings.difficulty is Difficulty.EASY

    ai = bot_session(Settings(mode=Mode.AI_VS_AI, ai_o_difficulty=Difficulty.HARD))
    assert move_request(ai).difficulty is BOT
    ai.apply_move(ai.token, 4, BOT)
    assert move_request(ai).difficulty is Difficulty.HARD


def test_without_a_bot_its_level_is_neither_offered_nor_taken() -> None:
    session = bot_session(offered=False)
    assert session.view().levels == (Difficulty.MEDIUM,) * 3
    assert session.view().level_choices == tuple(Difficulty)
    refused = session.set_difficulty(BOT)
    assert isinstance(refused, Refused) and refused.why is Refusal.NO_BOT


def test_choosing_a_level_over_the_bot_keeps_it_and_choosing_the_bot_keeps_no_setting() -> None:
    session = bot_session()
    reply = session.set_difficulty(Difficulty.HARD)
    assert isinstance(reply, Changed) and reply.notice == "Difficulty: Hard"
    assert reply.settings is not None and reply.settings.difficulty is Difficulty.HARD
    reply = session.set_difficulty(BOT)
    assert isinstance(reply, Changed) and reply.notice == "Difficulty: Your bot"
    assert reply.settings is None  # the next run, without a bot, plays Hard
    assert session.set_difficulty(BOT) is None


def test_d_goes_round_every_level_the_bot_included() -> None:
    session = bot_session(Settings(difficulty=Difficulty.MEDIUM))
    seen = []
    for _ in range(4):
        session.cycle_difficulty()
        seen.append(session.level_of(None))
    assert seen == [Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD, BOT]


def test_a_move_the_bot_did_not_give_is_told_once_and_not_asked_for_again() -> None:
    session = bot_session()
    session.play(4)
    request = move_request(session)
    reply = session.bot_gave_no_move(request.token, "no answer in 2 s")
    assert isinstance(reply, Changed) and reply.bot_failed == "no answer in 2 s"
    assert session.take_requests() == []
    assert session.bot_stopped == "no answer in 2 s"
    assert status_text(session) == "Your bot gave no move"
    assert session.view().status.detail == "No answer in 2 s.\nPick a level to go on."
    # Told once: the same failure again, or one for an older turn, is dropped.
    assert session.bot_gave_no_move(request.token, "no answer in 2 s") is None
    assert session.bot_gave_no_move(request.token - 1, "late") is None


def test_after_a_failure_hard_goes_on_or_the_bot_is_asked_again() -> None:
    session = bot_session()
    session.play(4)
    session.bot_gave_no_move(move_request(session).token, "it failed")
    session.set_difficulty(Difficulty.HARD)
    assert move_request(session).difficulty is Difficulty.HARD

    again = bot_session()
    again.play(4)
    again.bot_gave_no_move(move_request(again).token, "it failed")
    reply = again.set_difficulty(BOT)  # already its level: it asks the bot again
    assert isinstance(reply, Changed)
    assert move_request(again).difficulty is BOT


def test_in_ai_vs_ai_the_failing_side_goes_on_with_hard_alone() -> None:
    session = bot_session(Settings(mode=Mode.AI_VS_AI))
    session.bot_gave_no_move(move_request(session).token, "it failed")
    assert status_text(session) == "X (Your bot) gave no move"
    assert session.seat_to_move() is Player.X
    session.set_difficulty(Difficulty.HARD, Player.X)
    assert move_request(session).difficulty is Difficulty.HARD
    assert session.level_of(Player.O) is Difficulty.MEDIUM


def test_the_bot_s_moves_are_recorded_as_bot_and_counted_under_bot() -> None:
    session = bot_session(Settings(mode=Mode.AI_VS_AI, ai_o_difficulty=Difficulty.HARD))
    moves: list[tuple[int, Level]] = [
        (0, BOT),
        (4, Difficulty.HARD),
        (1, BOT),
        (2, Difficulty.HARD),
    ]
    for cell, level in moves:
        move_request(session)
        session.apply_move(session.token, cell, level)
    ended = session.close_game()
    assert ended is not None
    line = record_of(ended).to_json()
    data = json.loads(line)
    assert data["levels"] == ["bot", "hard", "bot", "hard"]
    assert (data["x_difficulty"], data["o_difficulty"]) == ("bot", "hard")
    record = GameRecord.from_json(line)
    assert record.x_difficulty is BOT and record.levels == (BOT, Difficulty.HARD) * 2
    assert stats_entry(record) is None  # abandoned: not counted

    finished = bot_session()
    for cell in (0, 1, 3, 2):  # X a1, O (the bot) b1, X a2, O c1; X a3 wins
        if finished.game.ai_to_move:
            move_request(finished)
            finished.apply_move(finished.token, cell, BOT)
        else:
            finished.play(cell)
    reply = finished.play(6)
    assert isinstance(reply, Changed) and reply.ended is not None
    assert stats_entry(record_of(reply.ended)) == ("human_vs_ai/bot", "win")


def test_the_bot_s_row_comes_after_the_engine_s_levels_in_the_stats() -> None:
    stats = Stats().record("human_vs_ai/bot", "loss").record("human_vs_ai/hard", "draw")
    rows = stats.rows(3, include_empty=True)
    assert [row.difficulties for row in rows if row.mode is Mode.HUMAN_VS_AI] == [
        (Difficulty.EASY,),
        (Difficulty.MEDIUM,),
        (Difficulty.HARD,),
        (BOT,),
    ]
    assert Stats.from_json(stats.to_json()) == stats
