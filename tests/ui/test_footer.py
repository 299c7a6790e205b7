"""The footer and the titles: the keys of the mode at hand, the score's board and who
plays."""

from __future__ import annotations

from tests.support import (
    SIZE,
    FooterKey,
    ScriptedAI,
    footer_keys,
    make_app,
    play,
    resize,
    settle,
    start,
)
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.explorer import ExplorerScreen
from ttt_tui.screens.game import EXPLORE_KEY_WIDTH
from ttt_tui.widgets.score import Score


async def test_you_vs_ai_footer_and_score_label() -> None:
    """The footer has the essential keys; the score says it counts this session."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert (await footer_keys(pilot)) == [
            "n New", "u Undo", "c Coach", "i Hint", "s Stats", "e Explore", "? Help", "q Quit",
        ]  # fmt: skip
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session, 3x3",
            "Wins 0 · Draws 0 · Losses 0",
        ]


async def test_redo_is_offered_while_there_is_something_to_redo() -> None:
    """The footer never offered r, even right after an undo."""
    app = make_app(ScriptedAI(4, 8))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "2")
        assert "r Redo" not in await footer_keys(pilot)
        await play(pilot, "u")
        keys = await footer_keys(pilot)
        assert keys[:3] == ["n New", "u Undo", "r Redo"]
        await play(pilot, "r")
        assert "r Redo" not in await footer_keys(pilot)
        await play(pilot, "u", "3")  # a new move: nothing left to redo
        assert "r Redo" not in await footer_keys(pilot)


async def test_explore_is_offered_where_the_footer_has_room_and_e_works_anywhere() -> None:
    """The footer never offered e: the explorer was found only through the help or the
    palette. Where it is shown, the widest footer (Redo too) still fits whole."""
    app = make_app(ScriptedAI(4, 8))
    async with app.run_test(size=(EXPLORE_KEY_WIDTH, 30)) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "u")
        assert "e Explore" in await footer_keys(pilot)
        for key in screen.query(FooterKey):
            assert key.region.right <= EXPLORE_KEY_WIDTH, f"{key.description} is cut"

        await resize(pilot, EXPLORE_KEY_WIDTH - 1, 30)
        assert "e Explore" not in await footer_keys(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen

        await resize(pilot, EXPLORE_KEY_WIDTH, 30)
        assert "e Explore" in await footer_keys(pilot)


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
