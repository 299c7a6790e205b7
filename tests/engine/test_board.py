"""The board: parsing and validating positions, moves, status and lines."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttt_tui.engine import (
    Board,
    IllegalMoveError,
    InvalidPositionError,
    Player,
    Status,
)


def reachable_by_play() -> set[Board]:
    """Every board that `Board.play` reaches from the empty board, finished ones included."""
    seen = {Board.empty()}
    frontier = [Board.empty()]
    while frontier:
        board = frontier.pop()
        for cell in board.legal_moves():
            after = board.play(cell)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return seen


def mask(*cells: int) -> int:
    """A bit mask holding ``cells``."""
    return sum(1 << cell for cell in cells)


# --- Parsing --------------------------------------------------------------------------------


def test_parse_reads_marks_in_either_case_and_every_empty_character() -> None:
    """x/X and o/O are marks; '.', '-' and '_' are empty; '/' between rows is optional."""
    board = Board.parse("x-o/_X./..o")
    assert board == Board.parse("X.O.X...O")
    assert [board[c] for c in (0, 2, 4, 8)] == [Player.X, Player.O, Player.X, Player.O]
    assert all(board[c] is None for c in (1, 3, 5, 6, 7))
    assert board.to_move is Player.X
    assert board.move_count == 4


def test_parse_ignores_surrounding_whitespace() -> None:
    """A trailing newline from a file does not make a position unreadable."""
    assert Board.parse("  X........\n") == Board.parse("X........")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.......", "expected 9, 16 or 25 cells, got 8"),
        ("X.........", "expected 9, 16 or 25 cells, got 10"),
        ("", "expected 9, 16 or 25 cells, got 0"),
        ("." * 36, "expected 9, 16 or 25 cells, got 36"),
        ("X..O..Z..", "unknown character 'Z' at cell 7"),
        ("X.. .O...", "unknown character ' ' at cell 4"),
        ("O........", "O has more marks than X \\(1 against 0\\)"),
        ("XX.......", "X has 2 more marks than O \\(2 against 0\\)"),
        ("XXX/OOO/X..", "both X and O have a line"),
        ("XXX/OO./..O", "X has a line but O moved last"),
        ("OOO/XX./XX.", "O has a line but X moved last"),
        ("O" + "." * 15, "O has more marks than X \\(1 against 0\\)"),
        ("XXXX/OOO./O.../....", "X has a line but O moved last"),
        ("XXXX./OOO../O..../...../.....", "X has a line but O moved last"),
    ],
)
def test_parse_names_the_problem(text: str, message: str) -> None:
    """Each unreadable or impossible position is rejected with a message saying why."""
    assert issubclass(InvalidPositionError, ValueError)
    with pytest.raises(InvalidPositionError, match=message):
        Board.parse(text)


def test_wins_that_no_single_last_move_made_are_rejected() -> None:
    """Two disjoint lines cannot both be completed by one move.

    On 3x3 no such position has legal counts (two disjoint lines take six marks,
    leaving the loser five cells it must fill), so use a 4x4 board: X holds both
    diagonals, O seven of the other eight cells without a line.
    """
    x = mask(0, 5, 10, 15, 3, 6, 9, 12)
    o = mask(1, 2, 4, 7, 8, 11, 13)
    with pytest.raises(InvalidPositionError, match="could not all come from one last move"):
        Board(x, o, 4, 4).validate()
    # Without one anti-diagonal mark (and with one O fewer) the same win is fine.
    legal = Board(x & ~mask(12), o & ~mask(13), 4, 4)
    legal.validate()
    assert legal.status is Status.X_WON


def test_parse_accepts_exactly_the_positions_play_reaches() -> None:
    """Of all 3**9 fillings of the grid, parse accepts exactly the 5,478 reachable by play."""
    reachable = reachable_by_play()
    assert len(reachable) == 5478
    accepted = set()
    for chars in itertools.product("XO.", repeat=9):
        with contextlib.suppress(InvalidPositionError):
            accepted.add(Board.parse("".join(chars)))
    assert accepted == reachable


def test_str_round_trips() -> None:
    """`str` writes X, O and '.' in reading order, and parse reads it back."""
    board = Board.empty().play(4).play(0).play(8)
    assert str(board) == "O...X...X"
    assert Board.parse(str(board)) == board
    assert board.rows() == ["O..", ".X.", "..X"]


# --- Moves and status -----------------------------------------------------------------------


def test_play_alternates_sides() -> None:
    """X moves first, then O, and the original board is unchanged."""
    empty = Board.empty()
    after = empty.play(4)
    assert after[4] is Player.X
    assert after.to_move is Player.O
    assert after.play(0)[0] is Player.O
    assert empty.move_count == 0


@pytest.mark.parametrize(
    ("text", "cell", "message"),
    [
        ("X........", 0, "cell 0 is already taken"),
        ("X...O....", 4, "cell 4 is already taken"),
        ("X........", 9, "cell 9 is off the board; expected 0 to 8"),
        ("X........", -1, "cell -1 is off the board"),
        ("XXX/OO./...", 8, "the game is over"),
        ("XOX/XOO/OXX", 0, "already taken"),
    ],
)
def test_illegal_moves_raise(text: str, cell: int, message: str) -> None:
    """Occupied cells, cells off the board and moves after the end are refused."""
    assert issubclass(IllegalMoveError, ValueError)
    with pytest.raises(IllegalMoveError, match=message):
        Board.parse(text).play(cell)


@pytest.mark.parametrize(
    ("text", "status", "winner"),
    [
        (".........", Status.IN_PROGRESS, None),
        ("XX./OO./...", Status.IN_PROGRESS, None),
        ("XXX/OO./...", Status.X_WON, Player.X),
        ("X.O/XO./O.X", Status.O_WON, Player.O),
        ("XOX/XOO/OXX", Status.DRAW, None),
    ],
)
def test_status(text: str, status: Status, winner: Player | None) -> None:
    """Wins, draws and games still on are told apart."""
    board = Board.parse(text)
    assert board.status is status
    assert status.winner is winner
    assert board.is_game_over() is (status is not Status.IN_PROGRESS)
    if board.is_game_over():
        assert board.legal_moves() == []
    else:
        assert board.legal_moves() == [i for i, ch in enumerate(str(board)) if ch == "."]


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("XXX/OO./...", {0, 1, 2}),
        ("X.O/XO./O.X", {2, 4, 6}),
        ("XXX/OXO/OOX", {0, 1, 2, 4, 8}),  # X's last move at 0 made two lines
        ("XOX/XOO/OXX", set()),
        ("XX./OO./...", set()),
    ],
)
def test_winning_cells(text: str, cells: set[int]) -> None:
    """The cells of every completed line, and nothing else."""
    found = Board.parse(text).winning_cells()
    assert {c for c in range(9) if found >> c & 1} == cells


# --- Properties -----------------------------------------------------------------------------


def play_out(picks: list[int]) -> Board:
    """Play from the empty board, each pick choosing among the legal moves."""
    board = Board.empty()
    for pick in picks:
        legal = board.legal_moves()
        if not legal:
            break
        board = board.play(legal[pick % len(legal)])
    return board


game_prefixes = st.lists(st.integers(min_value=0, max_value=8), max_size=9).map(play_out)


@settings(max_examples=200, deadline=None)
@given(board=game_prefixes)
def test_played_positions_round_trip(board: Board) -> None:
    """Any position reached by play is valid and survives `str` and `parse`."""
    board.validate()
    assert Board.parse(str(board)) == board


@settings(max_examples=200, deadline=None)
@given(board=game_prefixes, data=st.data())
def test_parse_accepts_any_spelling(board: Board, data: st.DataObject) -> None:
    """Mixed case, mixed empty characters and slashes anywhere all read the same position."""
    spelled = []
    for char in str(board):
        if char == ".":
            spelled.append(data.draw(st.sampled_from(".-_")))
        else:
            spelled.append(data.draw(st.sampled_from([char, char.lower()])))
        if data.draw(st.booleans()):
            spelled.append("/")
    assert Board.parse("".join(spelled)) == board
