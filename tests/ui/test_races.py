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
import threading
from collections.abc import Callable

import pytest
from textual.message import Message
from textual.pilot import Pilot

from tests.support import (
    SIZE,
    GatedAI,
    Notes,
    StaleWatch,
    agree_to_a_new_game,
    cells_with,
    click_square,
    looks,
    make_app,
    marks,
    settle,
    shown_marks,
    start,
    status,
)
from ttt_tui.engine import (
    Analysis,
    Board,
    CancelCheck,
    Difficulty,
    Player,
    analyze,
)
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.help import HelpScreen
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.status import StatusLine

ROUNDS = int(os.environ.get("TTT_RACE_ROUNDS") or 1)
"""Times the stress test runs each (change, way) pair: once in the normal suite, so
every pair is raced; ``TTT_RACE_ROUNDS`` for more (each round plays from the position
the last one left, so later rounds race on other boards)."""
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
                else:
                    if not await click_mark(pilot, human.other):
                        # The AI's move landed first, the move list grew and pushed
                        # the control down a row under the pointer; aim again.
                        assert way == "loose", label
                        assert await click_mark(pilot, human.other), label
                    await agree_to_a_new_game(pilot)
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


# The bigger boards ---------------------------------------------------------------


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
            await agree_to_a_new_game(pilot)
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


async def wait_for(event: threading.Event) -> None:
    """Await a thread's event without blocking the app's loop."""
    assert await asyncio.to_thread(event.wait, 10), "the worker never got there"


class HeldAnalysis:
    """The real `analyze`, held back in the worker thread until the test lets it go.

    The first call is held until `first_done`; later calls until `later_done`.
    It ignores cancellation, as a search that is nearly done would.
    """

    def __init__(self) -> None:
        self.boards: list[Board] = []
        """The boards analysed, in order."""
        self.first_started = threading.Event()
        self.first_done = threading.Event()
        self.later_done = threading.Event()

    def __call__(self, board: Board, cancelled: CancelCheck | None = None) -> Analysis:
        self.boards.append(board)
        result = analyze(board)
        if len(self.boards) == 1:
            self.first_started.set()
            gate = self.first_done
        else:
            gate = self.later_done
        assert gate.wait(10), "the test never let the analysis finish"
        return result


async def test_a_difficulty_change_while_the_ai_thinks_restarts_its_move() -> None:
    ai = GatedAI(4)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("1")
        await ai.next_call(1)
        assert status(pilot).message == "Thinking… (Medium)"
        await pilot.press("d")
        await ai.next_call(2)
        assert status(pilot).message == "Thinking… (Hard)"
        ai.release_all()
        await settle(pilot)
        assert ai.difficulties == [Difficulty.MEDIUM, Difficulty.HARD]
        assert marks(screen) == "X...O...."
        assert screen.session.game.moves == [0, 4]


async def test_moves_are_refused_while_the_ai_thinks_but_the_ui_stays_live() -> None:
    ai = GatedAI(4)
    app = make_app(ai)
    notes = Notes(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        await pilot.press("1")
        await ai.next_call(1)
        assert screen.session.thinking
        assert status(pilot).message == "Thinking… (Medium)"

        await pilot.press("9")
        assert await click_square(pilot, 2)
        await pilot.press("enter")
        await pilot.pause()
        assert marks(screen) == "X........"
        assert shown_marks(pilot) == "X........"
        assert any("Wait" in text for text in notes.messages)

        board_view = screen.query_one(BoardView)
        cursor = board_view.cursor
        await pilot.press("down")
        assert board_view.cursor == (cursor + 3) % 9
        assert cells_with(pilot, "-cursor") == {board_view.cursor}

        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.screen is screen
        assert marks(screen) == "X........"

        ai.release_all()
        await settle(pilot)
        assert marks(screen) == "X...O...."
        assert status(pilot).message == "Your move (X)"
        assert ai.difficulties == [Difficulty.MEDIUM]


async def test_a_coach_analysis_that_lands_after_a_move_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The analysis of the empty board finishes while X's first move is being played:
    it arrives for a position that is gone, and no verdict of it is shown."""
    held = HeldAnalysis()
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS, coach=True), analyzer=held)
    seen: list[Message] = []
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        await wait_for(held.first_started)
        assert held.boards == [Board.empty()]

        # The moment the worker posts its analysis, before the screen reads it, X
        # plays (as a click does): the analysis reaches the screen after the move,
        # the worst moment for it.
        posted: list[GameScreen.AnalysisReady] = []
        post = screen.post_message

        def noting_post(message: Message) -> bool:
            queued = post(message)
            if isinstance(message, GameScreen.AnalysisReady):
                posted.append(message)
                if len(posted) == 1:
                    screen.apply(screen.session.play(0))
            return queued

        monkeypatch.setattr(screen, "post_message", noting_post)
        held.first_done.set()
        for _ in range(100):
            if posted and any(message is posted[0] for message in seen):
                break
            await pilot.pause()
        else:
            raise AssertionError("the stale analysis never reached the screen")
        await pilot.pause()

        # Its verdicts, for the empty board, would put one on X's square.
        assert marks(screen) == "X........"
        assert posted[0].analysis.board == Board.empty()
        assert screen.session.analysis is None
        assert screen.query_one(BoardView).state.verdicts == {}
        assert all(look.verdict is None for look in looks(pilot))

        # The analysis of the board on screen is the one that shows.
        held.later_done.set()
        await settle(pilot)
        assert held.boards == [Board.empty(), Board.parse("X........")]
        expected = dict(analyze(Board.parse("X........")).moves)
        assert screen.query_one(BoardView).state.verdicts == expected
        assert looks(pilot)[0].verdict is None
