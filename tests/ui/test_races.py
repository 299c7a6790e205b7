"""The computer's move must never land in a game that has moved on.

The AI runs in a thread worker. When the game changes under it (new game,
difficulty, mark) the screen cancels the worker and names the new turn with a
fresh token; a move that was already on its way is dropped by the token check
(`GameScreen.stale_results` counts those). These tests hold the chooser on
Events so each interleaving is set up on purpose, not left to timing.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable

import pytest
from textual.message import Message
from textual.pilot import Pilot

from tests.support import SIZE, GatedAI, StaleWatch, make_app, marks, settle, start
from ttt_tui.engine import Board, Difficulty, Player
from ttt_tui.screens.game import GameScreen
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.status import StatusLine

ROUNDS = int(os.environ.get("TTT_RACE_ROUNDS") or 1)
"""Times the stress test runs each (change, way) pair: once in the normal suite, so
every pair is raced; ``TTT_RACE_ROUNDS`` for more (`.ci/run` runs 5: each round plays
from the position the last one left, so later rounds race on other boards)."""
CHANGES = ("new game", "difficulty", "mark")
WAYS = ("forced", "held", "loose")
PREFERENCE = (4, 0, 2, 6, 8, 1, 3, 5, 7)
"""The order in which the test chooser takes free squares."""


class PostWatch:
    """Makes a change the moment an AI move is posted to the screen, before the screen
    has read it: the move is already on its way when the game moves on."""

    def __init__(self, screen: GameScreen) -> None:
        self.change: Callable[[], None] | None = None
        """What to do once the next AI move is posted."""
        self.changed = False
        """Whether the change was made, right behind a posted move."""
        original: Callable[[Message], bool] = screen.post_message

        def post_message(message: Message) -> bool:
            queued = original(message)
            if isinstance(message, GameScreen.AIMoved) and self.change is not None:
                change, self.change = self.change, None
                change()
                self.changed = True
            return queued

        screen.post_message = post_message  # type: ignore[method-assign]

    async def after_the_next_move(self, pilot: Pilot[None], change: Callable[[], None]) -> None:
        """Make ``change`` right behind the next AI move posted; wait until it is made."""
        self.change, self.changed = change, False
        for _ in range(500):
            if self.changed:
                return
            await pilot.pause(0.01)
        raise AssertionError("no AI move was posted")


def assert_consistent(screen: GameScreen, ai: GatedAI) -> None:
    """Every computer move in the game was computed for exactly the position it landed on."""
    game = screen.session.game
    board = Board.empty()
    answered = {(str(call.board), call.result) for call in ai.asked if call.result is not None}
    for cell in game.moves:
        if not game.is_human(board.to_move):
            assert (str(board), cell) in answered, (
                f"AI move {cell} on {board} was never computed for that position"
            )
        board = board.play(cell)
    assert board == game.board
    if not game.is_over:
        assert game.is_human(game.board.to_move), "settled, so it is the person's turn"
        x, o = marks(screen).count("X"), marks(screen).count("O")
        assert x == o if game.human is Player.X else x == o + 1


async def test_new_game_cancels_the_search_in_flight() -> None:
    ai = GatedAI(*PREFERENCE)
    app = make_app(ai, seed=11)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("1")
        call = await ai.next_call(1)
        assert screen.session.thinking
        assert not call.saw_cancel.is_set()

        await pilot.press("n")
        assert await asyncio.to_thread(call.saw_cancel.wait, 10)

        ai.release_all()
        await settle(pilot)
        assert call.result is None
        assert marks(screen) == "........."
        assert screen.session.game.moves == []
        assert not screen.session.thinking
        assert screen.query_one("#status", StatusLine).message == "Your move (X)"
        assert len(ai.calls) == 1


@pytest.mark.parametrize(
    ("change", "board_after", "human_after"),
    [
        ("new game", ".........", Player.X),
        ("difficulty", "X........", Player.X),  # same position, the AI to move again
        ("mark", ".........", Player.O),  # a new game the AI opens
    ],
    ids=["new-game", "difficulty", "mark"],
)
async def test_a_move_already_posted_for_an_abandoned_turn_is_dropped(
    change: str, board_after: str, human_after: Player
) -> None:
    ai = GatedAI(*PREFERENCE)
    app = make_app(ai, seed=11)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        watch = PostWatch(screen)
        dropped = StaleWatch(screen.session)
        await pilot.press("1")
        call = await ai.next_call(1)

        # Let the worker post its move and, before the screen reads it, change the
        # game as the key or click would.
        def make_the_change() -> None:
            if change == "new game":
                screen.action_new_game()
            elif change == "difficulty":
                screen.action_cycle_difficulty()
            else:
                screen.apply(screen.session.set_mark(Player.O))

        call.gate.set()
        await watch.after_the_next_move(pilot, make_the_change)
        await pilot.pause()

        assert call.result == 4
        assert dropped.count == 1
        assert marks(screen) == board_after
        assert screen.session.game.human is human_after

        ai.release_all()
        await settle(pilot)
        assert dropped.count == 1
        assert_consistent(screen, ai)
        if change == "difficulty":
            assert ai.difficulties == [Difficulty.MEDIUM, Difficulty.HARD]
            assert screen.session.game.moves == [0, 4]


async def test_no_move_from_an_old_game_ever_lands() -> None:
    """New games, difficulty and mark changes thrown at a thinking AI, three ways:

    - forced race: the AI's move is already posted when the change happens,
      so only the token check can stop it;
    - held: the change happens while the AI is still thinking; it must see
      the cancellation;
    - loose race: the AI is let go as the key is pressed; any outcome is
      allowed except a move landing in the wrong game.
    """
    rng = random.Random(2024)
    ai = GatedAI(*PREFERENCE)
    app = make_app(ai, seed=11)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        watch = PostWatch(screen)
        dropped = StaleWatch(screen.session)
        plan = [(change, way) for _ in range(ROUNDS) for change in CHANGES for way in WAYS]
        step = 0
        while step < len(plan):
            if screen.session.game.is_over:
                ai.release_all()  # the computer may open the new game
                await pilot.press("n")
                await settle(pilot)
            ai.hold()
            assert_consistent(screen, ai)

            free = [cell for cell in range(9) if screen.session.game.board[cell] is None]
            count = len(ai.calls)
            await pilot.press(str(rng.choice(free) + 1))
            if screen.session.game.is_over:
                continue
            call = await ai.next_call(count + 1)
            before = list(screen.session.game.moves)
            human = screen.session.game.human
            stale = dropped.count
            change, way = plan[step]
            label = f"step {step}: {change}, {way}"
            step += 1

            if way == "forced":

                def make_the_change(change: str = change, human: Player = human) -> None:
                    if change == "new game":
                        screen.action_new_game()  # what n does
                    elif change == "difficulty":
                        screen.action_cycle_difficulty()  # what d does
                    else:
                        screen.apply(screen.session.set_mark(human.other))  # a click on the mark

                call.gate.set()
                await watch.after_the_next_move(pilot, make_the_change)
                await pilot.pause()
                assert dropped.count == stale + 1, label
            else:
                if way == "loose":
                    call.gate.set()
                if change == "new game":
                    await pilot.press("n")
                elif change == "difficulty":
                    await pilot.press("d")
                elif not await click_mark(pilot, human.other):
                    # The AI's move landed first, the move list grew and pushed
                    # the control down a row under the pointer; aim again.
                    assert way == "loose", label
                    assert await click_mark(pilot, human.other), label
                if way == "held":
                    assert await asyncio.to_thread(call.saw_cancel.wait, 10), label

            # Straight after the change, before the computer may move again.
            moves = screen.session.game.moves
            if change == "difficulty":
                assert moves[: len(before)] == before, label
                assert len(moves) <= len(before) + 1, label
                if way != "loose":
                    assert moves == before, label
                    retry = await ai.next_call(count + 2)
                    assert retry.difficulty is screen.session.settings.difficulty, label
                    assert retry.board == call.board, label
            else:
                assert moves == [], label
                assert marks(screen) == ".........", label
                assert screen.session.game.human is (human.other if change == "mark" else human), (
                    label
                )

            ai.release_all()
            await settle(pilot)
            assert_consistent(screen, ai)

        assert dropped.count >= ROUNDS * len(CHANGES)  # at least every forced race


async def click_mark(pilot: Pilot[None], mark: Player) -> bool:
    """Click the half of the mark control that picks `mark`; whether the click landed on it."""
    choice = pilot.app.screen.query_one("#mark", Choice)
    index = [value for value, _ in choice.options].index(mark)
    region = choice.option_region(index).translate(choice.content_offset)
    return await pilot.click("#mark", offset=(region.x + region.width // 2, region.y))
