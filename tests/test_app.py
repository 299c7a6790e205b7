"""Pilot tests: drive the app by mouse and keyboard, check the model and what is on screen.

The computer is either the real engine with a fixed seed or a scripted chooser
that plays the first free square of a list, so every game here is replayable.
"""

from __future__ import annotations

import asyncio
import io
import threading
from dataclasses import replace

import pytest
from rich.console import Console
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import CommandPalette
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from tests.support import (
    SIZE,
    GatedAI,
    Notes,
    ScriptedAI,
    cells_with,
    click_option,
    click_square,
    drag,
    looks,
    make_app,
    marks,
    option_middle,
    play,
    resize,
    selected,
    settle,
    shown_marks,
    start,
    status,
)
from ttt_tui.app import TicTacToeApp
from ttt_tui.engine import (
    Analysis,
    Board,
    CancelCheck,
    Difficulty,
    Player,
    analyze,
)
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH, GameScreen
from ttt_tui.screens.help import HelpScreen
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.choice import Choice

# Helpers ---------------------------------------------------------------------


async def wait_for(event: threading.Event) -> None:
    """Await a thread's event without blocking the app's loop."""
    assert await asyncio.to_thread(event.wait, 10), "the worker never got there"


def score(pilot: Pilot[None]) -> str:
    """The score's counts as drawn, under its "This session" label."""
    label, counts = str(pilot.app.screen.query_one("#score").render()).splitlines()
    assert label == "This session"
    return counts


# Playing ---------------------------------------------------------------------


async def test_click_on_an_empty_cell_plays_there_and_the_ai_replies() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert status(pilot).message == "Your move (X)"

        assert await click_square(pilot, 0)
        await settle(pilot)

        assert screen.session.game.moves[0] == 0
        assert len(screen.session.game.moves) == 2
        assert marks(screen)[0] == "X"
        assert marks(screen).count("O") == 1
        assert shown_marks(pilot) == marks(screen)
        assert status(pilot).message == "Your move (X)"


async def test_arrows_and_hjkl_move_the_cursor_and_wrap() -> None:
    route = [
        (None, 4),  # starts in the centre
        ("right", 5),
        ("right", 3),  # wraps to the start of the row
        ("left", 5),  # and back
        ("down", 8),
        ("down", 2),  # wraps to the top
        ("up", 8),
        ("h", 7),
        ("l", 8),
        ("j", 2),
        ("k", 8),
        ("l", 6),
        ("h", 8),
    ]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        board_view = screen.query_one("#board", BoardView)
        for key, cursor in route:
            if key is not None:
                await pilot.press(key)
            assert board_view.cursor == cursor, key
            assert cells_with(pilot, "-cursor") == {cursor}, key
        assert marks(screen) == "........."


async def test_enter_and_space_play_the_square_under_the_cursor() -> None:
    app = make_app(ScriptedAI(0, 1))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "right", "enter")
        assert marks(screen) == "O....X..."
        await play(pilot, "down", "space")
        assert marks(screen) == "OO...X..X"
        assert shown_marks(pilot) == marks(screen)
        assert status(pilot).message == "Your move (X)"


async def test_digits_play_their_square_directly() -> None:
    app = make_app(ScriptedAI(8, 0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        for digit in "123456789":
            await play(pilot, "n", digit)
            cell = int(digit) - 1
            assert screen.session.game.moves[0] == cell, digit
            assert shown_marks(pilot)[cell] == "X", digit
            # The keyboard's cursor stays where the arrows left it.
            assert cells_with(pilot, "-cursor") == {4}, digit
            # The computer replied in its first free scripted square.
            assert screen.session.game.moves[1] == (0 if cell == 8 else 8), digit


async def test_a_taken_square_is_refused_with_a_notification() -> None:
    app = make_app(ScriptedAI(4))
    notes = Notes(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        await play(pilot, "5")
        assert marks(screen) == "X...O...."
        assert any("taken" in text for text in notes.messages)
        await play(pilot, "1")
        assert marks(screen) == "X...O...."


# Difficulty and mark ---------------------------------------------------------


async def test_an_option_is_picked_only_by_a_press_and_release_on_it() -> None:
    """As with the board's squares: a press on one option and a release on another
    picked the one under the release (Textual makes a Click of a release over the
    widget the press was on); now it picks nothing, and a drag that comes back to the
    option it began on picks that option."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        difficulty = screen.query_one("#difficulty", Choice)
        easy, hard = option_middle(difficulty, "Easy"), option_middle(difficulty, "Hard")
        await drag(pilot, 1, easy, hard)
        await drag(pilot, 1, hard, easy)
        assert screen.session.settings.difficulty is Difficulty.MEDIUM
        await drag(pilot, 1, easy, hard, easy)
        assert screen.session.settings.difficulty is Difficulty.EASY
        await drag(pilot, 1, hard)
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert selected(pilot, "#difficulty") == "Hard"


async def test_clicking_hard_sets_the_difficulty() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert selected(pilot, "#difficulty") == "Medium"
        await click_option(pilot, "#difficulty", "Hard")
        await pilot.pause()
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert selected(pilot, "#difficulty") == "Hard"
        await click_option(pilot, "#difficulty", "Easy")
        await pilot.pause()
        assert screen.session.settings.difficulty is Difficulty.EASY
        assert selected(pilot, "#difficulty") == "Easy"


async def test_d_cycles_easy_medium_hard_and_round() -> None:
    app = make_app(difficulty=Difficulty.EASY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert selected(pilot, "#difficulty") == "Easy"
        for expected in (Difficulty.MEDIUM, Difficulty.HARD, Difficulty.EASY):
            await pilot.press("d")
            assert screen.session.settings.difficulty is expected
            assert selected(pilot, "#difficulty") == expected.value.capitalize()


async def test_focused_difficulty_control_follows_left_and_right() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        screen.query_one("#difficulty", Choice).focus()
        await pilot.pause()
        for key, expected in [
            ("right", Difficulty.HARD),
            ("right", Difficulty.EASY),  # wraps
            ("left", Difficulty.HARD),
            ("left", Difficulty.MEDIUM),
        ]:
            await pilot.press(key)
            assert screen.session.settings.difficulty is expected, key
            assert selected(pilot, "#difficulty") == expected.value.capitalize()
        # The arrows went to the control, not the board.
        assert screen.query_one(BoardView).cursor == 4


async def test_a_difficulty_change_mid_game_applies_from_the_ai_s_next_move() -> None:
    ai = ScriptedAI(4, 8, 6)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        await play(pilot, "d")
        assert ai.difficulties == [Difficulty.MEDIUM]
        assert selected(pilot, "#difficulty") == "Hard"
        assert marks(screen) == "X...O...."  # the change did not restart the game
        await play(pilot, "3")
        assert ai.difficulties == [Difficulty.MEDIUM, Difficulty.HARD]
        assert marks(screen) == "X.X.O...O"


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


async def test_choosing_o_starts_a_new_game_with_the_ai_opening_as_x() -> None:
    app = make_app(ScriptedAI(4, 0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "9")
        assert marks(screen) == "....O...X"

        await click_option(pilot, "#mark", "O (second)")
        await settle(pilot)

        assert screen.session.game.human is Player.O
        assert marks(screen) == "....X...."
        assert shown_marks(pilot) == "....X...."
        assert selected(pilot, "#mark") == "O (second)"
        assert status(pilot).message == "Your move (O)"
        await play(pilot, "1")
        assert marks(screen) == "OX..X...."
        assert screen.session.game.moves == [4, 0, 1]


# The end of a game -----------------------------------------------------------

ENDINGS = [
    pytest.param((8, 7), "123", "You win!", {0, 1, 2}, "-won", id="human-wins"),
    pytest.param((0, 1, 2), "459", "AI wins", {0, 1, 2}, "-lost", id="ai-wins"),
    # X on squares 1 3 8 4 9 and O on 5 2 6 7 fill the board with no line.
    pytest.param((4, 1, 5, 6), "13849", "Draw", set(), "-drawn", id="draw"),
]
"""The computer's script, the person's keys, and how the game ends."""


@pytest.mark.parametrize(("script", "digits", "message", "line", "css_class"), ENDINGS)
async def test_a_finished_game_shows_the_result_and_locks_the_board(
    script: tuple[int, ...], digits: str, message: str, line: set[int], css_class: str
) -> None:
    app = make_app(ScriptedAI(*script))
    notes = Notes(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        await play(pilot, *digits)

        assert screen.session.game.is_over
        assert status(pilot).message == message
        assert status(pilot).has_class(css_class)
        assert cells_with(pilot, "-win") == line
        # A loss is drawn in the losing colour, not the winner's green.
        assert cells_with(pilot, "-lost") == (line if css_class == "-lost" else set())
        assert status(pilot).detail == "n: new game\nu: undo, to study it"
        wins, draws, losses = (message == "You win!", message == "Draw", message == "AI wins")
        assert score(pilot) == f"Wins {wins:d} · Draws {draws:d} · Losses {losses:d}"

        final = marks(screen)
        moves = list(screen.session.game.moves)
        free = [cell for cell in range(9) if final[cell] == "."]
        keys = [str(cell + 1) for cell in free] or ["5"]
        await play(pilot, *keys)
        if free:
            assert await click_square(pilot, free[0])
        assert await click_square(pilot, 4)
        await play(pilot, "enter")

        assert marks(screen) == final
        assert screen.session.game.moves == moves
        assert shown_marks(pilot) == final
        assert any("over" in text for text in notes.messages)
        # Finishing is counted once, however often the board is poked afterwards.
        assert score(pilot) == f"Wins {wins:d} · Draws {draws:d} · Losses {losses:d}"


async def test_the_score_adds_up_across_games() -> None:
    ai = ScriptedAI(8, 7)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "3")
        assert score(pilot) == "Wins 1 · Draws 0 · Losses 0"
        ai.script = [0, 1, 2]
        await play(pilot, "n", "4", "5", "9")
        assert status(pilot).message == "AI wins"
        assert score(pilot) == "Wins 1 · Draws 0 · Losses 1"
        await play(pilot, "n")
        assert marks(screen) == "........."
        assert cells_with(pilot, "-win") == set()
        assert status(pilot).message == "Your move (X)"
        assert score(pilot) == "Wins 1 · Draws 0 · Losses 1"


# Input while the computer thinks ---------------------------------------------


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


# Size ------------------------------------------------------------------------


async def test_a_tiny_terminal_shows_a_message_and_the_game_survives_it() -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert not screen.has_class("-too-small")

        for width, height in [(20, 8), (1, 1), (0, 0), (MIN_WIDTH - 1, MIN_HEIGHT)]:
            await resize(pilot, width, height)
            assert screen.has_class("-too-small"), (width, height)
            message = str(screen.query_one("#too-small", Static).render())
            assert f"{width}x{height}" in message
            assert f"{MIN_WIDTH}x{MIN_HEIGHT}" in message
            assert not screen.query_one("#main").display

        await resize(pilot, MIN_WIDTH, MIN_HEIGHT)
        assert not screen.has_class("-too-small")

        await resize(pilot, *SIZE)
        assert not screen.has_class("-too-small")
        assert screen.query_one("#main").display
        assert not screen.query_one("#too-small").display
        assert marks(screen) == "X...O...."
        assert shown_marks(pilot) == "X...O...."
        # The layout is back: a click lands on its square again.
        assert await click_square(pilot, 8)
        await settle(pilot)
        assert marks(screen)[8] == "X"


@pytest.mark.parametrize("width", [4, 6, MIN_WIDTH - 1])
async def test_the_palette_stays_shut_below_the_minimum_size(width: int) -> None:
    """Textual 8.2's palette crashes laid out a few columns wide (found by the fuzzer):
    it neither opens in a tiny terminal nor survives the terminal shrinking under it."""
    app = make_app(seed=1, search_process=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await resize(pilot, width, 24)
        assert not isinstance(app.screen, CommandPalette)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette)
        await resize(pilot, *SIZE)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
    assert app.return_code in (None, 0)


async def test_q_quits_even_when_the_terminal_is_too_small() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await resize(pilot, 20, 8)
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0
        assert not app.is_running


async def test_q_quits() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        assert app.return_code is None
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0
        assert not app.is_running


# Help and the command palette ------------------------------------------------

KEY_NAMES = {"up": "↑", "down": "↓", "left": "←", "right": "→", "question_mark": "?"}
"""How the help writes keys whose binding name is a word."""


def help_text(screen: HelpScreen) -> str:
    """Everything the help screen says, as plain text."""
    console = Console(width=68, record=True, file=io.StringIO())
    for static in screen.query(Static):
        console.print(static.content)
    return console.export_text()


def documented(binding: Binding, words: set[str]) -> bool:
    """Whether the help's words name one of the binding's keys."""
    keys = binding.key.split(",")
    if keys[0].isdigit() and binding.action.startswith("digit"):
        return {"0", "9"} <= words  # "0 – 9"
    shown = {KEY_NAMES.get(key, key) for key in keys}
    if binding.key_display:
        shown.add(binding.key_display)
    return bool({name.lower() for name in shown} & words)


def test_every_binding_says_what_it_does_for_the_help() -> None:
    """The help is made from the bindings' tooltips: a binding without one would be
    missing from it. Only the AI vs AI explanation and the way back to 3x3 from a
    terminal too small for a bigger board (which that message gives) stay out."""
    bindings = [*BoardView.BINDINGS, *GameScreen.BINDINGS, *TicTacToeApp.BINDINGS]
    silent = [b.action for b in bindings if isinstance(b, Binding) and not b.tooltip]
    assert sorted(silent) == ["board(3)", "board(4)", "computer_plays_both"]


async def test_help_lists_every_binding_and_closes_with_escape() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)

        words = set(help_text(help_screen).lower().split())
        bindings = [*BoardView.BINDINGS, *GameScreen.BINDINGS, *TicTacToeApp.BINDINGS]
        assert all(isinstance(binding, Binding) for binding in bindings)
        missing = [
            b.key
            for b in bindings
            if isinstance(b, Binding) and b.tooltip and not documented(b, words)
        ]
        assert not missing, f"the help does not mention {missing}"
        assert "ctrl+p" in words

        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert app.screen is screen


async def type_in_palette(pilot: Pilot[None], text: str) -> list[str]:
    """Open the command palette, type, and return the prompts it offers, best first."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*("space" if ch == " " else ch for ch in text))
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    options = pilot.app.screen.query_one(OptionList)
    return [
        str(options.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(options.option_count)
    ]


async def test_command_palette_starts_a_new_game_and_sets_the_difficulty() -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert marks(screen) == "X...O...."

        offered = await type_in_palette(pilot, "new game")
        assert offered[0] == "New game"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert marks(screen) == "........."

        offered = await type_in_palette(pilot, "hard")
        assert offered[0] == "Difficulty: Hard"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert selected(pilot, "#difficulty") == "Hard"


# Holes the planted bugs found (issue 8) ---------------------------------------


async def test_game_keys_do_nothing_while_the_terminal_is_too_small() -> None:
    """Every key bound on the game screen is ignored while the board is hidden,
    and works again once the terminal is big enough."""
    app = make_app(ScriptedAI(4, 8))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert marks(screen) == "X...O...."
        board_view = screen.query_one(BoardView)
        settings, moves = screen.session.settings, list(screen.session.game.moves)
        cursor = board_view.cursor

        await resize(pilot, MIN_WIDTH - 16, MIN_HEIGHT - 6)
        assert screen.has_class("-too-small")
        game_keys = [
            *"123456789",
            *("up", "down", "left", "right", "h", "j", "k", "l", "enter", "space"),
            *"ndurcips",
        ]
        for key in game_keys:
            await play(pilot, key)
            assert app.screen is screen, key
            assert screen.session.game.moves == moves, key
            assert screen.session.settings == settings, key
            assert board_view.cursor == cursor, key
            assert not screen.session.hint_requested, key
        assert screen.session.game.redo_stack == []

        await resize(pilot, *SIZE)
        assert not screen.has_class("-too-small")
        assert shown_marks(pilot) == "X...O...."
        await play(pilot, "3")
        assert marks(screen) == "X.X.O...O"


async def test_a_click_on_a_taken_square_changes_nothing() -> None:
    """Clicking your own mark or the computer's leaves the board, the moves and the
    drawing as they were, and says the square is taken."""
    app = make_app(ScriptedAI(4, 8))
    notes = Notes(app)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        assert await click_square(pilot, 0)
        await settle(pilot)
        assert marks(screen) == "X...O...."
        for taken in (0, 4):
            assert await click_square(pilot, taken)
            await settle(pilot)
            assert marks(screen) == "X...O....", taken
            assert screen.session.game.moves == [0, 4], taken
            assert shown_marks(pilot) == "X...O....", taken
            assert not screen.session.game.is_over
        assert any("taken" in text for text in notes.messages)
        # The click still counts as a click: the next free square plays.
        assert await click_square(pilot, 1)
        await settle(pilot)
        assert marks(screen) == "XX..O...O"


WINNING_LINES = {
    "top-row": (0, 1, 2),
    "middle-row": (3, 4, 5),
    "bottom-row": (6, 7, 8),
    "left-column": (0, 3, 6),
    "middle-column": (1, 4, 7),
    "right-column": (2, 5, 8),
    "diagonal": (0, 4, 8),
    "anti-diagonal": (2, 4, 6),
}
"""Every line of three, as the board lights it."""


class BoardOnly(App[None]):
    """The board widget alone, to be handed positions as the game screen hands them."""

    def compose(self) -> ComposeResult:
        yield BoardView()


async def test_the_board_lights_every_winning_line_for_either_side() -> None:
    """Each of the eight lines, won by X and by O, is lit on exactly its squares, and
    one move earlier nothing is. (`test_a_win_on_two_lines_at_once_lights_both` and
    `test_a_finished_game_shows_the_result_and_locks_the_board` play theirs.)"""
    app = BoardOnly()
    async with app.run_test(size=SIZE) as pilot:
        board_view = app.query_one(BoardView)
        for name, line in WINNING_LINES.items():
            others = [cell for cell in range(9) if cell not in line]
            # X takes the line while O plays elsewhere; then O takes it, X elsewhere.
            for winner, moves in (
                (Player.X, [line[0], others[0], line[1], others[1], line[2]]),
                (Player.O, [others[0], line[0], others[1], line[1], others[3], line[2]]),
            ):
                board = Board.empty()
                for cell in moves[:-1]:
                    board = board.play(cell)
                board_view.state = replace(board_view.state, board=board)
                await pilot.pause()
                assert cells_with(pilot, "-win") == set(), (name, winner)
                board = board.play(moves[-1])
                board_view.state = replace(board_view.state, board=board)
                await pilot.pause()
                assert board.status.winner is winner, (name, winner)
                assert cells_with(pilot, "-win") == set(line), (name, winner)


async def test_a_win_on_two_lines_at_once_lights_both() -> None:
    """X's last move in the centre finishes both diagonals: all five squares are lit."""
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "3", "4", "7", "6", "9", "8", "5")
        assert screen.session.game.is_over
        assert cells_with(pilot, "-win") == {0, 2, 4, 6, 8}


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
