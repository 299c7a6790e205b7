"""The footer and the titles: the keys of the mode at hand, the score's board and who
plays."""

from __future__ import annotations

from tests.support import (
    SIZE,
    ScriptedAI,
    footer_keys,
    make_app,
    play,
    settle,
    start,
)
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.widgets.score import Score


async def test_you_vs_ai_footer_and_score_label() -> None:
    """The footer has the essential keys; the score says it counts this session."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert (await footer_keys(pilot)) == [
            "n New", "u Undo", "c Coach", "i Hint", "s Stats", "? Help", "q Quit",
        ]  # fmt: skip
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session, 3x3",
            "Wins 0 · Draws 0 · Losses 0",
        ]


async def test_the_score_names_its_board_and_the_title_who_plays() -> None:
    """The session's score is kept a board apart, and says which; the title says who
    plays (it said "vs minimax" in two-player mode too)."""
    app = make_app(ScriptedAI(), settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.sub_title == "tic-tac-toe, 2 players"
        await play(pilot, "1", "4", "2", "5", "3")  # X wins on 3x3
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session, 3x3",
            "X wins 1 · O wins 0 · Draws 0",
        ]
        screen.action_board(4)
        await settle(pilot)
        assert screen.sub_title == "4x4, four in a row, 2 players"
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session, 4x4",
            "X wins 0 · O wins 0 · Draws 0",
        ]
        screen.apply(screen.session.set_mode(Mode.HUMAN_VS_AI))
        await settle(pilot)
        assert screen.sub_title == "4x4, four in a row, vs minimax"
