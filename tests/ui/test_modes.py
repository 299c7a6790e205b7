"""The modes: two players, AI vs AI with its pause and engines, and alternating who
starts."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Checkbox, Static

from tests.support import (
    SIZE,
    GatedAI,
    Notes,
    ScriptedAI,
    agree_to_a_new_game,
    calls_begun,
    click_option,
    click_square,
    footer_keys,
    hinted,
    make_app,
    marks,
    play,
    selected,
    settle,
    shown_marks,
    start,
    start_blocked,
    status,
    stored,
)
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.status import StatusLine


async def test_d_changes_no_hidden_setting_outside_you_vs_ai() -> None:
    """In two players and AI vs AI ``d`` used to change the You-vs-AI difficulty and announce it."""
    for mode, said in [
        (Mode.TWO_PLAYERS, "2 players: there is no computer to set a difficulty for."),
        (Mode.AI_VS_AI, "AI vs AI: set each engine's level in the sidebar."),
    ]:
        ai = GatedAI()
        app = make_app(ai, settings=Settings(mode=mode))
        notes = Notes(app)
        async with app.run_test(size=SIZE) as pilot:
            screen = (
                await start(pilot) if mode is Mode.TWO_PLAYERS else await start_blocked(pilot, ai)
            )
            before = screen.session.settings
            await pilot.press("d")
            await pilot.pause()
            assert screen.session.settings == before
            assert notes.messages == [said]


async def typed(pilot: Pilot[None], line: str) -> None:
    """``line`` typed in the move box, opened with ``:``, and Enter."""
    await pilot.press(":", *line, "enter", "escape")
    await pilot.pause()


def said(screen: Screen[None]) -> str:
    return str(screen.query_one("#announcement", Static).render())


async def test_ai_vs_ai_offers_only_what_works_there() -> None:
    """No Play, Undo, Redo or Hint in the footer; Pause reads Resume while paused, and
    typed in the move box each does nothing where the other is the key's; a click says
    the game is paused; the hint counter is hidden."""
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_blocked(pilot, ai)
        assert (await footer_keys(pilot)) == [
            "n New",
            "c Coach",
            "p Pause",
            "s Stats",
            "e Explore",
            "? Help",
            "q Quit",
        ]
        assert not screen.query_one("#hints-used").display
        await typed(pilot, "resume")
        assert said(screen) == "Resume does nothing now." and not screen.session.paused

        await pilot.press("p")
        await pilot.pause()
        assert screen.session.paused
        assert "p Resume" in (await footer_keys(pilot))
        await typed(pilot, "pause")
        assert said(screen) == "Pause does nothing now." and screen.session.paused
        assert await click_square(pilot, 8)
        await pilot.pause()
        assert notes.messages == ["Paused: the computer plays both sides here; p resumes."]
        assert screen.session.game.moves == []

        await pilot.press("p")
        ai.allow()
        await settle(pilot)
        assert screen.session.game.is_over
        shown = await footer_keys(pilot)
        assert "p Pause" not in shown and "p Resume" not in shown
        before = len(notes.messages)
        await pilot.press("p")
        await pilot.pause()
        assert notes.since(before) == ["AI vs AI is over: press n for a new game."]


async def test_alternate_who_starts_swaps_on_n_even_on_an_empty_board() -> None:
    """``n`` with the option on swapped only after a move, silently; now it always
    swaps and says so."""
    app = make_app(ScriptedAI(), settings=Settings(alternate_start=True))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.human is Player.X
        await play(pilot, "n")
        assert screen.session.game.human is Player.O
        assert notes.messages == ["Sides swapped: you play O."]
        await play(pilot, "n")
        assert screen.session.game.human is Player.X


async def test_in_ai_vs_ai_undo_and_hints_are_refused() -> None:
    app = make_app(settings=Settings(mode=Mode.AI_VS_AI))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.is_over
        moves = list(screen.session.game.moves)
        before = len(notes.messages)
        await play(pilot, "u")
        assert notes.since(before) == ["AI vs AI is over: press n for a new game."]
        assert screen.session.game.moves == moves
        assert not screen.session.game.undo_used
        before = len(notes.messages)
        await play(pilot, "i")
        assert notes.since(before) == []  # the same words are still on screen
        assert screen.session.game.hints_used == 0


async def test_in_ai_vs_ai_a_hint_is_refused_and_not_counted() -> None:
    """Hints are for a person's turn: in AI vs AI ``i`` says why it does nothing,
    shows nothing and counts nothing (the record's hints_used stays 0)."""
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_blocked(pilot, ai)
        await pilot.press("i")
        await pilot.pause()
        assert notes.messages == ["AI vs AI: the computer plays both sides; p pauses."]
        assert screen.session.game.hints_used == 0
        assert not screen.session.hint_requested
        assert hinted(pilot) == set()
        assert not screen.query_one("#hints-used").display


async def test_two_players_by_clicking_the_mode_control() -> None:
    ai = ScriptedAI()
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await click_option(pilot, "#mode", "2 players")
        await settle(pilot)
        assert screen.session.game.mode is Mode.TWO_PLAYERS
        assert selected(pilot, "#mode") == "2 players"
        assert status(pilot).message == "X to move"
        assert not screen.query_one("#difficulty").display  # no computer, no difficulty

        await play(pilot, "1")
        assert status(pilot).message == "O to move"
        await play(pilot, "5", "2", "9", "3")
        assert marks(screen) == "XXX.O...O"
        assert status(pilot).message == "X wins!"
        assert ai.calls == []


async def test_ai_vs_ai_plays_to_the_end_each_side_at_its_own_difficulty() -> None:
    ai = ScriptedAI(4, 0, 8, 2, 6, 3, 5, 7, 1)
    settings = Settings(ai_x_difficulty=Difficulty.EASY, ai_o_difficulty=Difficulty.HARD)
    app = make_app(ai, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await click_option(pilot, "#mode", "AI vs AI")
        await settle(pilot)
        assert screen.session.game.mode is Mode.AI_VS_AI
        assert screen.session.game.is_over
        assert ai.calls
        assert len(ai.calls) == len(screen.session.game.moves)
        for side, difficulty in ai.calls:
            assert difficulty is (Difficulty.EASY if side is Player.X else Difficulty.HARD)
        assert {side for side, _ in ai.calls} == {Player.X, Player.O}
        assert status(pilot).message in {"X wins!", "O wins!", "Draw"}


async def test_ai_vs_ai_with_the_real_engine_at_hard_draws() -> None:
    settings = Settings(
        mode=Mode.AI_VS_AI, ai_x_difficulty=Difficulty.HARD, ai_o_difficulty=Difficulty.HARD
    )
    app = make_app(settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.is_over
        assert status(pilot).message == "Draw"
        assert len(screen.session.game.moves) == 9


async def test_p_pauses_ai_vs_ai_and_no_move_is_made_until_p_again() -> None:
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_blocked(pilot, ai)
        ai.allow(3)
        await calls_begun(ai, 4)  # three moves landed; the fourth is being thought about
        await pilot.pause()
        assert screen.session.game.moves == [0, 1, 2]

        await pilot.press("p")
        await pilot.pause()
        assert screen.session.paused
        assert status(pilot).message == "Paused: p resumes"
        assert screen.query_one("#status", StatusLine).detail == "O (Medium) to move"
        ai.allow()
        await settle(pilot)
        await pilot.pause()
        assert screen.session.game.moves == [0, 1, 2]
        assert shown_marks(pilot) == "XOX......"
        assert len(ai.calls) == 4

        await play(pilot, "p")
        assert not screen.session.paused
        assert screen.session.game.is_over
        assert screen.session.game.moves[:3] == [0, 1, 2]
        # First free square each time: X takes a1 c1 b2 a3 and wins on the diagonal.
        assert screen.session.game.moves == [0, 1, 2, 3, 4, 5, 6]
        assert status(pilot).message == "X wins!"


async def test_switching_mode_starts_a_new_game_and_records_the_abandoned_one() -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        await click_option(pilot, "#mode", "2 players")
        await agree_to_a_new_game(pilot)
        await settle(pilot)
        assert screen.session.game.moves == []
        assert screen.session.game.mode is Mode.TWO_PLAYERS
        records = stored(app.store)
        assert [(r.mode, r.moves, r.result) for r in records] == [
            (Mode.HUMAN_VS_AI, (0, 4), Result.ABANDONED)
        ]
        # The control follows the arrow keys and Enter too; an empty game is not worth
        # a record.
        screen.query_one("#mode", Choice).focus()
        await play(pilot, "left", "enter")
        assert screen.session.game.mode is Mode.HUMAN_VS_AI
        assert selected(pilot, "#mode") == "You vs AI"
        await play(pilot, "right", "right", "enter")
        assert screen.session.game.mode is Mode.AI_VS_AI
        assert screen.session.game.is_over  # the engines played it out by themselves
        records = stored(app.store)
        assert [(r.mode, r.result) for r in records] == [
            (Mode.HUMAN_VS_AI, Result.ABANDONED),
            (Mode.AI_VS_AI, Result.from_status(screen.session.game.status)),
        ]
        assert sum(screen.session.score[BoardSize.THREE, Mode.HUMAN_VS_AI].values()) == 0
        assert sum(screen.session.score[BoardSize.THREE, Mode.AI_VS_AI].values()) == 1


async def test_alternate_start_swaps_your_mark_so_the_ai_opens_the_next_game() -> None:
    ai = ScriptedAI(8, 7, 4)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert await pilot.click("#alternate")
        await pilot.pause()
        assert screen.session.settings.alternate_start
        assert screen.query_one("#alternate", Checkbox).value

        await play(pilot, "1", "2", "3")
        assert status(pilot).message == "You win!"
        await play(pilot, "n")
        assert screen.session.game.human is Player.O
        assert selected(pilot, "#mark") == "O (second)"
        assert screen.session.game.moves == [8]  # the AI opened as X
        assert marks(screen) == "........X"
        assert status(pilot).message == "Your move (O)"

        await play(pilot, "n")
        assert screen.session.game.human is Player.X
        assert screen.session.game.moves == []
        assert status(pilot).message == "Your move (X)"


async def test_alternate_start_swaps_the_engines_difficulties_in_ai_vs_ai() -> None:
    ai = ScriptedAI()
    settings = Settings(
        mode=Mode.AI_VS_AI,
        alternate_start=True,
        ai_x_difficulty=Difficulty.EASY,
        ai_o_difficulty=Difficulty.HARD,
    )
    app = make_app(ai, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.is_over
        assert ai.calls[0] == (Player.X, Difficulty.EASY)
        assert ai.calls[1] == (Player.O, Difficulty.HARD)
        first = len(ai.calls)

        await play(pilot, "n")
        assert screen.session.game.is_over
        assert selected(pilot, "#ai-x-difficulty") == "Hard"
        assert selected(pilot, "#ai-o-difficulty") == "Easy"
        for side, difficulty in ai.calls[first:]:
            assert difficulty is (Difficulty.HARD if side is Player.X else Difficulty.EASY)


@pytest.mark.parametrize("size", [SIZE, (MIN_WIDTH, MIN_HEIGHT)], ids=["100x30", "minimum"])
async def test_the_paused_message_breaks_between_phrases(size: tuple[int, int]) -> None:
    """Each phrase on its own line: a wrap in mid-phrase read "(X Medium to / move)"."""
    ai = GatedAI()
    app = make_app(ai, settings=Settings(mode=Mode.AI_VS_AI, ai_x_difficulty=Difficulty.EASY))
    async with app.run_test(size=size) as pilot:
        screen = await start_blocked(pilot, ai)
        await pilot.press("p")
        ai.allow()
        await settle(pilot)
        line = screen.query_one("#status", StatusLine)
        assert (line.message, line.detail) == ("Paused: p resumes", "X (Easy) to move")
        width, height = line.content_size
        lines = str(line.render()).splitlines()
        assert lines == ["Paused: p resumes", "X (Easy) to move"]
        assert all(len(text) <= width for text in lines)  # so nothing wraps
        assert height == 4  # as tall as the longest status, whatever this one says


async def test_pause_is_offered_in_the_footer_only_in_ai_vs_ai() -> None:
    """The footer shows live bindings: p appears when there is a game to pause."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert "p" not in screen.active_bindings
        screen.apply(screen.session.set_mode(Mode.AI_VS_AI))
        await settle(pilot)
        assert "p" in screen.active_bindings
        screen.apply(screen.session.set_mode(Mode.TWO_PLAYERS))
        await settle(pilot)
        assert "p" not in screen.active_bindings


async def test_hard_against_hard_on_4x4_is_a_draw() -> None:
    settings = Settings(
        mode=Mode.AI_VS_AI,
        board=BoardSize.FOUR,
        ai_x_difficulty=Difficulty.HARD,
        ai_o_difficulty=Difficulty.HARD,
    )
    app = make_app(settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        for _ in range(40):
            if screen.session.game.is_over:
                break
            await settle(pilot)
        assert screen.session.game.is_over
        assert screen.session.game.board.status.value == "draw"
        assert len(marks(screen)) == 16
