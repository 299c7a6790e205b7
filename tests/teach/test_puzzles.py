"""Puzzles: every shipped puzzle's only move proven, its line, its themes and its
difficulty.

By default all of 3x3 (against the brute force of `tests.engine.reference`) and a
seeded sample of 4x4 and 5x5; ``TTT_LONG=1`` proves every shipped puzzle again and
rebuilds the whole set.
"""

from __future__ import annotations

import random

import pytest

from tests.engine.reference import Reference, every_3x3_position, rank
from ttt_tui.engine import Board, Outcome, Player, analyze, cells_of
from ttt_tui.teach import puzzle_set
from ttt_tui.teach.puzzles import (
    Goal,
    Puzzle,
    Theme,
    canonical_key,
    choose,
    digest,
    from_record,
    prove,
    record,
    shipped,
)

REFERENCE = Reference(3, 3)


def sample(n: int, count: int, seed: int = 33) -> list[Puzzle]:
    """A seeded sample of the shipped puzzles of a board."""
    pool = shipped(n)
    return random.Random(seed).sample(pool, min(count, len(pool)))


def lines_completed_by(board: Board, player: Player, cell: int) -> int:
    """How many lines ``player`` would complete with a mark on ``cell``."""
    mine = board.marks(player) | 1 << cell
    return sum(1 for line in board.geometry.lines_through[cell] if mine & line == line)


def winning_squares(board: Board, player: Player) -> set[int]:
    """The empty squares where a mark of ``player``'s completes a line."""
    return {c for c in cells_of(board.empty_mask) if lines_completed_by(board, player, c)}


def expected_themes(puzzle: Puzzle) -> set[Theme]:
    """Each theme's property, checked on the board here, apart from the code under test."""
    board, first, solver = puzzle.board, puzzle.first, puzzle.solver
    after = board.play(first)
    found: set[Theme] = set()
    won_now = after.status.winner is solver
    if puzzle.goal is Goal.WIN and won_now:
        found.add(Theme.WIN_IN_ONE)
    if not won_now and first in winning_squares(board, solver.other):
        found.add(Theme.BLOCK)
    if puzzle.goal is Goal.WIN and not won_now and len(winning_squares(after, solver)) >= 2:
        found.add(Theme.FORK)
    if puzzle.goal is Goal.HOLD and not winning_squares(board, solver.other):
        forks = [
            cell
            for cell in cells_of(board.empty_mask)
            if len(winning_squares(Board(*_with(board, solver.other, cell)), solver.other)) >= 2
        ]
        if forks:
            found.add(Theme.BLOCK_THE_FORK)
    if puzzle.goal is Goal.WIN and puzzle.plies >= 3:
        found.add(Theme.WIN_IN_N)
        position, forcing = board, True
        for index, cell in enumerate(puzzle.line[:-1]):
            position = position.play(cell)
            if index % 2 == 0 and not winning_squares(position, solver):
                forcing = False
        if board.k >= 4 and forcing:
            found.add(Theme.FORCING)
    return found


def _with(board: Board, player: Player, cell: int) -> tuple[int, int, int, int]:
    """The masks of ``board`` with a mark of ``player``'s added on ``cell``."""
    if player is Player.X:
        return board.x | 1 << cell, board.o, board.n, board.k
    return board.x, board.o | 1 << cell, board.n, board.k


def check_by_engine(puzzle: Puzzle) -> None:
    """The engine's analyses, a ply at a time: the first move alone reaches the goal, the
    line's every move is a best one and the line ends in the solver's win."""
    analysis = analyze(puzzle.board)
    wanted = Outcome.WIN if puzzle.goal is Goal.WIN else Outcome.DRAW
    assert analysis.value.outcome is wanted
    for cell, verdict in analysis.moves.items():
        assert (verdict.outcome is wanted) == (cell == puzzle.first), (record(puzzle), cell)
    if puzzle.goal is Goal.HOLD:
        losses = [v.plies for c, v in analysis.moves.items() if c != puzzle.first]
        assert all(
            v.outcome is Outcome.LOSS for c, v in analysis.moves.items() if c != puzzle.first
        )
        if None not in losses:
            assert max(p for p in losses if p is not None) == puzzle.plies
        return
    position = puzzle.board
    for index, cell in enumerate(puzzle.line):
        if index:  # the first move was checked above; lengths may be unknown on 5x5
            moves = analyze(position).moves
            if index % 2 == 0:
                assert moves[cell].outcome is Outcome.WIN
            else:
                assert moves[cell].outcome is Outcome.LOSS
        position = position.play(cell)
    assert position.status.winner is puzzle.solver
    assert len(puzzle.line) == puzzle.plies


def test_the_shipped_set_is_as_proven_and_reads_back_line_for_line() -> None:
    assert digest(puzzle_set.RECORDS) == puzzle_set.DIGEST
    for line in puzzle_set.RECORDS:
        assert record(from_record(line)) == line
    for n in (3, 4, 5):
        keys = [canonical_key(p.board) for p in shipped(n)]
        assert len(keys) == len(set(keys)), "one puzzle a position up to symmetry"


def test_every_3x3_puzzle_is_in_the_set_and_every_one_is_proven_by_brute_force() -> None:
    found: dict[int, Board] = {}
    for board in every_3x3_position():
        cells = str(board)
        moves = REFERENCE.moves(cells)
        value = max(moves.values(), key=rank)
        keeping = [c for c, r in moves.items() if r[0] == value[0]]
        if len(moves) >= 3 and value[0] in ("win", "draw") and len(keeping) == 1:
            found.setdefault(canonical_key(board), board)
    puzzles = {canonical_key(p.board): p for p in shipped(3)}
    assert set(puzzles) == set(found)
    for puzzle in puzzles.values():
        cells = str(puzzle.board)
        moves = REFERENCE.moves(cells)
        goal = "win" if puzzle.goal is Goal.WIN else "draw"
        for cell, result in moves.items():
            assert (result[0] == goal) == (cell == puzzle.first)
        if puzzle.goal is Goal.HOLD:
            assert max(r[1] for c, r in moves.items() if c != puzzle.first) == puzzle.plies
            continue
        assert moves[puzzle.first] == ("win", puzzle.plies)
        position = puzzle.board
        for cell in puzzle.line:
            here = REFERENCE.moves(str(position))
            best = max(here.values(), key=rank)
            assert rank(here[cell]) == rank(best), "quickest win, slowest loss"
            position = position.play(cell)
        assert position.status.winner is puzzle.solver
        assert expected_themes(puzzle) == set(puzzle.themes)


@pytest.mark.parametrize(("n", "count"), [(4, 12), (5, 3)])
def test_a_seeded_sample_of_4x4_and_5x5_puzzles_is_proven_by_the_engine(n: int, count: int) -> None:
    for puzzle in sample(n, count):
        check_by_engine(puzzle)
        assert expected_themes(puzzle) == set(puzzle.themes), record(puzzle)


def test_proving_again_gives_the_shipped_puzzle() -> None:
    for puzzle in [*sample(3, 20), *sample(4, 5), *sample(5, 1, seed=5)]:
        assert prove(puzzle.board) == puzzle


@pytest.mark.long
@pytest.mark.parametrize("n", [4, 5])
def test_every_shipped_puzzle_is_proven_again(n: int) -> None:
    for puzzle in shipped(n):
        assert prove(puzzle.board) == puzzle
        check_by_engine(puzzle)
        assert expected_themes(puzzle) == set(puzzle.themes), record(puzzle)


@pytest.mark.long
def test_the_tool_builds_the_shipped_set_again() -> None:
    from tools import puzzles as tool

    assert tuple(record(p) for p in tool.build()) == puzzle_set.RECORDS


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("...../...../...../...../.....", "every move draws"),
        ("XO./.../...", "X has several winning moves"),
        ("XX./.O./X.O", "O has lost: X threatens c1 and a2"),
        ("XOX/OOX/X..", "two moves are left"),
    ],
)
def test_a_position_without_a_single_move_to_find_is_no_puzzle(text: str, why: str) -> None:
    assert prove(Board.parse(text)) is None, why


def test_the_goal_is_said_in_one_sentence() -> None:
    win = prove(Board.parse(".X./.../O.."))
    hold = prove(Board.parse("X.O/.X./..."))
    assert win is not None and hold is not None
    assert win.goal_words() == "X to play and win in 5"
    assert hold.goal_words() == "O to play and hold the draw"
    quick = next(p for p in shipped(4) if p.plies == 1 and p.goal is Goal.WIN)
    assert quick.goal_words().endswith("to play and win at once")


HAND_CHOSEN = [
    # A block with no other move that even looks active.
    "OX./XO./... hold 8 2 block 0 0",
    # A block beside one tempting threat that fails.
    "X.O/.X./... hold 8 2 block 1 0",
    # A fork: two threats at once, which Medium finds only by chance.
    "XXO/O../... win 4,5,7 3 fork,win-in-n 2 1",
    # A win in five on 3x3: three moves of one's own to see.
    ".X./.../O.. win 0,2,4,3,7 5 win-in-n 3 1",
    # A 5x5 win in eleven.
    "...../XO.../...O./O...X/...XX win 11,14,9,21,22,3,7,8,12,0,10 11 win-in-n 0 1",
    # A 5x5 win in fifteen.
    "X.X../...../O.O../..X../..O.. win 13,3,16,18,6,11,9,21,7,8,19,1,14,4,24 15 win-in-n 2 1",
]


def test_difficulty_orders_hand_chosen_puzzles_as_a_person_would() -> None:
    puzzles = [from_record(line) for line in HAND_CHOSEN]
    shipped_records = set(puzzle_set.RECORDS)
    for line in HAND_CHOSEN:
        assert line in shipped_records, line
    levels = [p.difficulty for p in puzzles]
    assert levels == sorted(levels) and len(set(levels)) == len(levels), levels


def test_choose_is_the_same_for_a_seed_and_filters_by_theme() -> None:
    first = choose(4, 10, seed=7)
    assert first == choose(4, 10, seed=7)
    assert first != choose(4, 10, seed=8)
    assert [p.difficulty for p in first] == sorted(p.difficulty for p in first)
    forks = choose(5, 50, seed=1, theme=Theme.FORK)
    assert forks and all(Theme.FORK in p.themes for p in forks)
    assert len(choose(3, 10_000, seed=0)) == len(shipped(3))


def analysed_line(puzzle: Puzzle) -> list[int]:
    """The solution line as the lowest of each position's best moves, analysed."""
    line: list[int] = []
    board = puzzle.board
    while not board.is_game_over() and puzzle.goal is Goal.WIN:
        cell = min(analyze(board).best)
        line.append(cell)
        board = board.play(cell)
    return line


def test_a_puzzle_from_an_analysis_and_its_line_is_the_one_proven() -> None:
    from ttt_tui.teach.puzzles import from_analysis

    for puzzle in [*shipped(3), *sample(4, 10)]:
        assert from_analysis(analyze(puzzle.board), analysed_line(puzzle)) == puzzle
    # No puzzle: several winning moves, or a line that is not the win's.
    assert from_analysis(analyze(Board.parse("XO./.../...")), [4]) is None
    win = from_record(".X./.../O.. win 0,2,4,3,7 5 win-in-n 3 1")
    assert from_analysis(analyze(win.board), [0, 2, 4]) is None
