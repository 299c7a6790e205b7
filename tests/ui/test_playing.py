"""Playing a game: squares by click, arrows, Enter and digits on every board, taken
squares, the end of a game, its winning lines and the score."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Checkbox

from tests.support import (
    SIZE,
    Notes,
    ScriptedAI,
    board_view,
    cells_with,
    click_option,
    click_square,
    looks,
    make_app,
    marks,
    play,
    settle,
    shown_marks,
    start,
    status,
    until,
)
from ttt_tui.engine import (
    Board,
    Difficulty,
    Player,
)
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.widgets import board as board_widget
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.history import History


def score(pilot: Pilot[None]) -> str:
    """The score's counts as drawn, under its "This session, 3x3" label."""
    label, counts = str(pilot.app.screen.query_one("#score").render()).splitlines()
    assert label == "This session, 3x3"
    return counts


ENDINGS = [
    pytest.param((8, 7), "123", "You win!", {0, 1, 2}, "-won", id="human-wins"),
    pytest.param((0, 1, 2), "459", "AI wins", {0, 1, 2}, "-lost", id="ai-wins"),
    # X on squares 1 3 8 4 9 and O on 5 2 6 7 fill the board with no line.
    pytest.param((4, 1, 5, 6), "13849", "Draw", set(), "-drawn", id="draw"),
]
"""The computer's script, the person's keys, and how the game ends."""

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
        assert status(pilot).detail == "n: new game · v: review\nu: undo, to study it"
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


async def test_only_the_left_button_plays_a_square_or_picks_an_option() -> None:
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        for button in (2, 3):  # middle, right
            assert await click_square(pilot, 4, button=button)
            await click_option(pilot, "#difficulty", "Hard", button=button)
            await settle(pilot)
        assert screen.session.game.moves == []
        assert screen.session.settings.difficulty is Difficulty.MEDIUM
        assert await click_square(pilot, 4, button=1)
        await settle(pilot)
        assert screen.session.game.moves == [4, 0]
        await click_option(pilot, "#difficulty", "Hard")
        assert screen.session.settings.difficulty is Difficulty.HARD


async def test_typed_numbers_name_the_squares_of_a_4x4_board() -> None:
    """2-9 play at once; 1 waits for a second digit (16 is 1 then 6) or for Enter; a
    number past the last square is refused and plays nothing."""
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS, board=BoardSize.FOUR))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.game.board == Board.empty(4)
        board = board_view(pilot)
        assert board.cursor == 10  # the middle of 4x4: c3

        await play(pilot, "2")
        assert screen.session.game.moves == [1]
        assert board.cursor == 10  # a one-digit play leaves the cursor where it was

        await play(pilot, "1")
        assert screen.session.game.moves == [1]  # waiting: 1, or 10 to 16?
        assert board.cursor == 0
        await play(pilot, "6")
        assert screen.session.game.moves == [1, 15]
        assert board.cursor == 15

        await play(pilot, "1", "enter")
        assert screen.session.game.moves == [1, 15, 0]

        await play(pilot, "1", "7")
        await play(pilot, "0")
        assert screen.session.game.moves == [1, 15, 0]
        assert notes.messages[-2:] == [
            "There is no square 17: they are 1 to 16.",
            "There is no square 0: they are 1 to 16.",
        ]


SHORT_WAIT = 0.3
"""The wait for a second digit, where a test lets it run out."""


@pytest.mark.parametrize(
    ("board", "digit"),
    [(BoardSize.FOUR, 1), (BoardSize.FIVE, 1), (BoardSize.FIVE, 2)],
    ids=["4x4-1", "5x5-1", "5x5-2"],
)
@pytest.mark.parametrize("key", ["enter", "space"])
async def test_a_number_typed_with_the_sidebar_focused_is_played_and_shown_waiting(
    board: BoardSize, digit: int, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a sidebar control focused, 1 then Enter played nothing on 4x4 and 5x5, and
    Enter went to the control instead (it turned "Alternate who starts" on); nothing on
    screen said a digit was waiting."""
    app = make_app(settings=Settings(mode=Mode.TWO_PLAYERS, board=board))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        view = board_view(pilot)
        alternate = screen.query_one("#alternate", Checkbox)
        alternate.focus()
        await pilot.pause()
        await play(pilot, str(digit))
        assert view.border_subtitle == f"Square {digit}… Enter, or a second digit"
        assert screen.session.game.moves == []
        await play(pilot, key)
        assert screen.session.game.moves == [digit - 1]
        assert not alternate.value and not screen.session.settings.alternate_start
        assert view.border_subtitle == ""
        assert alternate.has_focus

        # The wait ends by itself: then the key is the focused control's again. (Whether
        # the subtitle shows in between is a race with the short wait on a busy machine;
        # the same digit showed it above.)
        monkeypatch.setattr(board_widget, "TYPING_SECONDS", SHORT_WAIT)
        await pilot.press(str(digit))
        await until(
            pilot,
            lambda: view.border_subtitle == "" and view.typed == 0,
            "the wait for a second digit to run out",
        )
        await play(pilot, key)
        assert screen.session.game.moves == [digit - 1]
        assert alternate.value


async def test_a_5x5_game_by_mouse_with_undo_redo_and_squares_named_to_e5() -> None:
    app = make_app(ScriptedAI(24, 0), settings=Settings(board=BoardSize.FIVE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert await click_square(pilot, 12)
        await settle(pilot)
        assert screen.session.game.moves == [12, 24]
        history = screen.query_one(History)
        assert [history.describe(ply, cell) for ply, cell in enumerate(history.moves)] == [
            " 1. X c3",
            " 2. O e5",
        ]
        assert [look.mark for look in looks(pilot)].count(None) == 23

        await play(pilot, "u")
        assert screen.session.game.moves == []
        await play(pilot, "r")
        assert screen.session.game.moves == [12, 24]
        assert len(looks(pilot)) == 25
