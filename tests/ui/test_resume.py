"""A game left unfinished comes back: kept after every change, offered at the next launch,
put back exactly as it was with ``y``, recorded as abandoned with ``n``; a served tab's
game (an app without resuming) is never offered, and never offers another's."""

from __future__ import annotations

from pathlib import Path

from tests.support import (
    SIZE,
    Notes,
    ScriptedAI,
    left_games,
    make_app,
    records,
    settle,
    start,
    until,
)
from tests.support import play as play_keys
from ttt_tui.app import TicTacToeApp
from ttt_tui.engine import Player
from ttt_tui.play.game import SavedGame
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.confirm import ResumeQuestion
from ttt_tui.screens.game import GameScreen
from ttt_tui.storage import Store


async def leave_a_game(directory: Path, *keys: str, settings: Settings | None = None) -> SavedGame:
    """Play ``keys`` in an app that keeps its game, quit with q, and say what was kept."""
    app = make_app(ScriptedAI(8, 7, 6, 5), settings, store=Store(directory), resume=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play_keys(pilot, *keys)
        kept = screen.session.snapshot()
        assert kept is not None
        await pilot.press("q")
        await pilot.pause()
    assert records(directory) == []
    return kept


async def asked(pilot: object, app: TicTacToeApp) -> ResumeQuestion:
    """Wait for the question, and return it."""
    await until(pilot, lambda: isinstance(app.screen, ResumeQuestion), "the question")  # type: ignore[arg-type]
    assert isinstance(app.screen, ResumeQuestion)
    return app.screen


async def test_y_puts_the_game_back_exactly_as_it_was_left(tmp_path: Path) -> None:
    """Board, mode, mark, the computer's level, the coach, the moves with their levels, a
    hint used, and what undo took back (redo works after resuming)."""
    kept = await leave_a_game(tmp_path, "c", "1", "i", "4", "u")
    assert kept.settings.coach and kept.hints_used == 1 and kept.redo_stack

    app = make_app(ScriptedAI(8, 7, 6, 5), store=Store(tmp_path), resume=True)
    async with app.run_test(size=SIZE) as pilot:
        question = await asked(pilot, app)
        assert "Resume your 3x3 game from" in question.question
        await pilot.press("y")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.snapshot() == kept
        assert screen.session.settings.coach is True
        assert screen.session.analysis is not None  # the coach is on at once
        await play_keys(pilot, "r")  # the undone moves come back
        assert screen.session.game.moves == [*kept.moves, *kept.redo_stack[-1]]


async def test_the_board_and_the_mode_come_back_too(tmp_path: Path) -> None:
    kept = await leave_a_game(
        tmp_path, "5", settings=Settings(board=BoardSize.FOUR, mode=Mode.TWO_PLAYERS)
    )
    app = make_app(store=Store(tmp_path), resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await asked(pilot, app)
        await pilot.press("y")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.game.mode is Mode.TWO_PLAYERS
        assert screen.session.game.board.n == 4
        assert screen.session.game.board.to_move is Player.O
        assert screen.session.snapshot() == kept


async def test_n_records_it_as_abandoned_and_starts_afresh(tmp_path: Path) -> None:
    kept = await leave_a_game(tmp_path, "1")
    app = make_app(ScriptedAI(8), store=Store(tmp_path), resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await asked(pilot, app)
        await pilot.press("n")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.game.moves == []
        await pilot.press("q")
        await pilot.pause()
    [record] = records(tmp_path)
    assert (record["moves"], record["result"]) == (list(kept.moves), "abandoned")
    assert left_games(tmp_path) == []


async def test_q_on_the_question_quits_and_it_is_asked_again_next_time(tmp_path: Path) -> None:
    kept = await leave_a_game(tmp_path, "1")
    for _ in range(2):
        app = make_app(store=Store(tmp_path), resume=True)
        async with app.run_test(size=SIZE) as pilot:
            await asked(pilot, app)
            await pilot.press("q")
            await pilot.pause()
        assert not app.is_running
    assert records(tmp_path) == []
    [left] = left_games(tmp_path)
    assert left["moves"] == list(kept.moves)


async def test_a_served_tab_never_offers_a_left_game_and_keeps_none(tmp_path: Path) -> None:
    """Resuming is the terminal player's: a tab's game (resume off) leaves the terminal's
    game where it is, and its own unfinished game is recorded as abandoned."""
    await leave_a_game(tmp_path, "1")
    app = make_app(ScriptedAI(8), store=Store(tmp_path))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play_keys(pilot, "2")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")
        await pilot.pause()
    assert notes.messages == []
    assert [r["result"] for r in records(tmp_path)] == ["abandoned"]
    assert len(left_games(tmp_path)) == 1
