"""The stale-result rules on the bigger boards: a search for a board, a game or a turn
that is gone never lands, and the game asked for is playable at once."""

from __future__ import annotations

import asyncio

import pytest

from tests.support import SIZE, GatedAI, StaleWatch, make_app, settle, start
from tests.test_app_race import PREFERENCE, PostWatch
from ttt_tui.engine import Board, Difficulty
from ttt_tui.play.settings import BoardSize


@pytest.mark.parametrize(
    ("change", "board_after"),
    [("board", Board.empty(4)), ("new game", Board.empty(5)), ("undo", Board.empty(5))],
    ids=["board", "new-game", "undo"],
)
async def test_a_change_during_a_5x5_search_stops_it_and_the_game_goes_on(
    change: str, board_after: Board
) -> None:
    ai = GatedAI(*PREFERENCE)
    app = make_app(ai, difficulty=Difficulty.HARD, board=BoardSize.FIVE, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("1", "3")  # square 13, c3
        call = await ai.next_call(1)
        assert call.board == Board.empty(5).play(12)
        assert screen.session.thinking

        if change == "board":
            screen.action_board(4)
        elif change == "new game":
            await pilot.press("n")
        else:
            await pilot.press("u")
        assert await asyncio.to_thread(call.saw_cancel.wait, 10)
        assert screen.session.game.board == board_after
        assert not screen.session.thinking

        # Playable at once: the computer answers on the board in play.
        ai.release_all()
        await pilot.press("6")
        await settle(pilot)
        board = screen.session.game.board
        assert (board.n, len(screen.session.game.moves)) == (board_after.n, 2)
        assert board[5] is not None
        assert call.result is None  # the old search gave up and returned nothing
        assert all(c.board.n == board_after.n for c in ai.asked[1:])


async def test_a_4x4_move_already_posted_when_the_person_undoes_is_dropped() -> None:
    ai = GatedAI(*PREFERENCE)
    app = make_app(ai, difficulty=Difficulty.HARD, board=BoardSize.FOUR, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        watch = PostWatch(screen)
        dropped = StaleWatch(screen.session)
        await pilot.press("1", "1")  # square 11, c3
        call = await ai.next_call(1)
        call.gate.set()
        await watch.after_the_next_move(pilot, screen.action_undo)
        await pilot.pause()
        assert dropped.count == 1
        assert screen.session.game.moves == []
        assert screen.session.game.redo_stack == [[10]]
        ai.release_all()
        await settle(pilot)
        assert screen.session.game.moves == []  # nothing else came
