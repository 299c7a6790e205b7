"""The search against an independent brute force, and the difficulty policies."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.reference import Result, rank
from ttt_tui.engine import (
    Board,
    Difficulty,
    GameOverError,
    Player,
    SearchCancelled,
    Status,
    analyze,
    choose_move,
    solver,
)

# --- An independent brute force over 9-character strings ------------------------------------

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
FLIP = {"win": "loss", "loss": "win", "draw": "draw"}
EMPTY = "." * 9

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


def won(cells: str, mark: str) -> bool:
    """Whether ``mark`` holds one of the eight lines."""
    return any(all(cells[i] == mark for i in line) for line in LINES)


def finished(cells: str) -> bool:
    """Whether somebody has a line or the board is full."""
    return won(cells, "X") or won(cells, "O") or "." not in cells


def mover(cells: str) -> str:
    """The side to move: X when the counts are level."""
    return "X" if cells.count("X") == cells.count("O") else "O"


def place(cells: str, cell: int, mark: str) -> str:
    """``cells`` with ``mark`` written on ``cell``."""
    return cells[:cell] + mark + cells[cell + 1 :]


def empties(cells: str) -> list[int]:
    """The empty cells, ascending."""
    return [i for i, char in enumerate(cells) if char == "."]


@functools.cache
def brute_moves(cells: str) -> dict[int, Result]:
    """Each legal move's exact result for the side to move, by plain recursion."""
    me = mover(cells)
    results: dict[int, Result] = {}
    for cell in empties(cells):
        after = place(cells, cell, me)
        if won(after, me):
            results[cell] = ("win", 1)
        elif "." not in after:
            results[cell] = ("draw", 1)
        else:
            outcome, plies = brute_value(after)
            results[cell] = (FLIP[outcome], plies + 1)
    return results


def brute_value(cells: str) -> Result:
    """The position's exact result for the side to move."""
    return max(brute_moves(cells).values(), key=rank)


def brute_best(cells: str) -> tuple[int, ...]:
    """The moves that reach the position's value, ascending."""
    top = rank(brute_value(cells))
    return tuple(cell for cell, result in sorted(brute_moves(cells).items()) if rank(result) == top)


def reachable_positions() -> set[str]:
    """Every position reachable from the empty board by legal play, terminal ones included."""
    seen = {EMPTY}
    frontier = [EMPTY]
    while frontier:
        cells = frontier.pop()
        if finished(cells):
            continue
        for cell in empties(cells):
            after = place(cells, cell, mover(cells))
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return seen


@functools.cache
def reachable() -> list[str]:
    """`reachable_positions`, sorted: worked out by the first test that needs them, not
    as each worker collects."""
    return sorted(reachable_positions())


@functools.cache
def in_progress() -> list[str]:
    """The reachable positions where the game goes on."""
    return [cells for cells in reachable() if not finished(cells)]


@functools.cache
def terminal() -> list[str]:
    """The reachable positions where the game has ended."""
    return [cells for cells in reachable() if finished(cells)]


def as_result(verdict: Any) -> Result:
    """An engine `Verdict` in the brute force's terms."""
    return (verdict.outcome.value, verdict.plies)


class RecordingRandom(random.Random):
    """An rng whose `choice` records the candidates offered and takes the first."""

    def __init__(self) -> None:
        super().__init__(0)
        self.offered: list[list[Any]] = []

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        """Record the candidates, return the first."""
        self.offered.append([seq[i] for i in range(len(seq))])
        return seq[0]


def candidates(board: Board, difficulty: Difficulty) -> list[int]:
    """Every move `choose_move` would pick between at this level, from one call."""
    rng = RecordingRandom()
    chosen = choose_move(board, difficulty, rng)
    assert len(rng.offered) == 1, "choose_move should make exactly one random choice"
    assert chosen == rng.offered[0][0]
    return rng.offered[0]


def analysis_mismatches() -> list[str]:
    """Every in-progress position where `analyze` disagrees with the brute force."""
    wrong = []
    for cells in in_progress():
        analysis = analyze(Board.parse(cells))
        got_moves = {cell: as_result(v) for cell, v in analysis.moves.items()}
        got = (as_result(analysis.value), got_moves, tuple(analysis.best))
        want = (brute_value(cells), brute_moves(cells), brute_best(cells))
        if got != want:
            wrong.append(f"{cells}: got {got}, want {want}")
    return wrong


# --- Exact values ---------------------------------------------------------------------------


def test_position_counts() -> None:
    """There are 5,478 reachable positions, 4,520 of them still in progress."""
    assert len(reachable()) == 5478
    assert len(in_progress()) == 4520
    assert len(terminal()) == 958


def test_analyze_agrees_with_brute_force_everywhere() -> None:
    """Every move's outcome and plies, the value and the best set match on all 4,520."""
    wrong = analysis_mismatches()
    assert not wrong, f"{len(wrong)} mismatches, e.g. {wrong[:3]}"


def test_empty_board_is_a_draw_from_every_opening() -> None:
    """All nine openings draw in nine plies."""
    analysis = analyze(Board.empty())
    assert str(analysis.value) == "draw"
    assert analysis.value.plies == 9
    assert analysis.best == tuple(range(9))
    assert analysis.board == Board.empty()


def test_analyze_refuses_finished_games() -> None:
    """Every terminal position raises GameOverError, a ValueError, for analysis and moves."""
    assert issubclass(GameOverError, ValueError)
    for cells in terminal():
        board = Board.parse(cells)
        with pytest.raises(GameOverError, match="the game is over"):
            analyze(board)
        for difficulty in Difficulty:
            with pytest.raises(GameOverError, match="the game is over"):
                choose_move(board, difficulty, random.Random(0))


# --- Hard -----------------------------------------------------------------------------------


@functools.cache
def hard_game_outcomes(board: Board, hard: Player) -> Counter[str]:
    """Outcomes of every game from ``board``: all replies, every one of Hard's tied choices."""
    status = board.status
    if status is not Status.IN_PROGRESS:
        return Counter({"hard" if status.winner is hard else status.value: 1})
    if board.to_move is hard:
        moves = candidates(board, Difficulty.HARD)
        assert sorted(moves) == list(analyze(board).best), str(board)
    else:
        moves = board.legal_moves()
    total: Counter[str] = Counter()
    for cell in moves:
        total += hard_game_outcomes(board.play(cell), hard)
    return total


@pytest.mark.parametrize("hard", list(Player))
def test_hard_never_loses(hard: Player) -> None:
    """Against every line of play, down every tied choice, Hard never loses."""
    outcomes = hard_game_outcomes(Board.empty(), hard)
    loser = "x_won" if hard is Player.O else "o_won"
    assert outcomes[loser] == 0
    # The proof covered real games, including ones Hard won and ones it drew.
    assert outcomes["hard"] > 0
    assert outcomes["draw"] > 0


def test_hard_keeps_the_value_everywhere() -> None:
    """From every in-progress position, Hard's move keeps the brute-force value."""
    for cells in in_progress():
        board = Board.parse(cells)
        want = brute_value(cells)
        for seed in range(3):
            cell = choose_move(board, Difficulty.HARD, random.Random(seed))
            assert brute_moves(cells)[cell] == want, (cells, seed, cell)


def test_hard_takes_the_quickest_win() -> None:
    """Every move wins here, but only the corner wins at once."""
    board = Board.parse("X.O/.X./O..")
    analysis = analyze(board)
    assert str(analysis.moves[8]) == "win in 1"
    assert {str(analysis.moves[c]) for c in (1, 3, 5, 7)} == {"win in 3"}
    assert analysis.best == (8,)
    for seed in range(20):
        assert choose_move(board, Difficulty.HARD, random.Random(seed)) == 8


def test_hard_stalls_a_lost_game() -> None:
    """O is lost, but blocking the diagonal loses in 4 rather than 2."""
    board = Board.parse("X../.../O.X")
    analysis = analyze(board)
    assert str(analysis.value) == "loss in 4"
    assert str(analysis.moves[4]) == "loss in 4"
    assert {str(v) for c, v in analysis.moves.items() if c != 4} == {"loss in 2"}
    assert analysis.best == (4,)
    for seed in range(20):
        assert choose_move(board, Difficulty.HARD, random.Random(seed)) == 4


def test_hard_varies_its_opening() -> None:
    """Over seeds, Hard opens on more than one cell: all nine are equal."""
    openings = {choose_move(Board.empty(), Difficulty.HARD, random.Random(s)) for s in range(40)}
    assert len(openings) > 1


# --- Easy and Medium ------------------------------------------------------------------------


def winning_cells_for(cells: str, mark: str) -> list[int]:
    """The empty cells where ``mark`` would complete a line."""
    return [c for c in empties(cells) if won(place(cells, c, mark), mark)]


def easy_choices(cells: str) -> list[int]:
    """What Easy's docstring promises: a win it can see, otherwise anywhere."""
    return winning_cells_for(cells, mover(cells)) or empties(cells)


def medium_choices(cells: str) -> list[int]:
    """A win, else any move that leaves no win in one, else anywhere."""
    me = mover(cells)
    them = "O" if me == "X" else "X"
    safe = [c for c in empties(cells) if not winning_cells_for(place(cells, c, me), them)]
    return winning_cells_for(cells, me) or safe or empties(cells)


@pytest.mark.parametrize(
    ("difficulty", "policy"),
    [(Difficulty.EASY, easy_choices), (Difficulty.MEDIUM, medium_choices)],
)
def test_weak_levels_choose_among_exactly_their_horizon(
    difficulty: Difficulty, policy: Callable[[str], list[int]]
) -> None:
    """Easy and Medium pick at random among exactly the moves their horizon allows."""
    for cells in in_progress():
        assert sorted(candidates(Board.parse(cells), difficulty)) == policy(cells), cells


@pytest.mark.parametrize("difficulty", [Difficulty.EASY, Difficulty.MEDIUM])
def test_weak_levels_take_an_immediate_win(difficulty: Difficulty) -> None:
    """Whenever a win in one exists, Easy and Medium take one."""
    positions = [c for c in in_progress() if winning_cells_for(c, mover(c))]
    assert len(positions) > 1000
    for cells in positions:
        wins = winning_cells_for(cells, mover(cells))
        for seed in range(3):
            assert choose_move(Board.parse(cells), difficulty, random.Random(seed)) in wins


def test_medium_blocks_a_single_threat() -> None:
    """With no win of its own and one cell to block, Medium blocks it, whatever the seed."""
    checked = 0
    for cells in in_progress():
        me = mover(cells)
        threats = winning_cells_for(cells, "O" if me == "X" else "X")
        if winning_cells_for(cells, me) or len(threats) != 1:
            continue
        checked += 1
        for seed in range(3):
            assert (
                choose_move(Board.parse(cells), Difficulty.MEDIUM, random.Random(seed))
                == (threats[0])
            ), cells
    assert checked > 500


def test_easy_does_not_always_block() -> None:
    """Easy sees only its own move, so over seeds it sometimes misses a block."""
    board = Board.parse("XX./O../...")  # O to move; X threatens cell 2
    moves = {choose_move(board, Difficulty.EASY, random.Random(s)) for s in range(40)}
    assert moves - {2}


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_choices_are_replayable_from_a_seed(difficulty: Difficulty) -> None:
    """The same seed gives the same move; different seeds can differ where there are ties."""
    for cells in in_progress()[::15]:
        board = Board.parse(cells)
        for seed in (0, 1, 12345):
            first = choose_move(board, difficulty, random.Random(seed))
            assert choose_move(board, difficulty, random.Random(seed)) == first, (cells, seed)
    picks = {choose_move(Board.empty(), difficulty, random.Random(s)) for s in range(40)}
    assert len(picks) > 1


# --- Symmetry -------------------------------------------------------------------------------


def _rotate(cell: int) -> int:
    row, col = divmod(cell, 3)
    return col * 3 + (2 - row)


def _mirror(cell: int) -> int:
    row, col = divmod(cell, 3)
    return row * 3 + (2 - col)


def _symmetries() -> list[tuple[int, ...]]:
    perms = []
    for turns, flip in itertools.product(range(4), (False, True)):
        perm = []
        for cell in range(9):
            image = _mirror(cell) if flip else cell
            for _ in range(turns):
                image = _rotate(image)
            perm.append(image)
        perms.append(tuple(perm))
    return perms


SYMMETRIES = _symmetries()


def test_there_are_eight_symmetries() -> None:
    """The helper really builds the eight distinct symmetries of the square."""
    assert len(set(SYMMETRIES)) == 8
    assert all(sorted(perm) == list(range(9)) for perm in SYMMETRIES)


@settings(max_examples=150, deadline=None)
@given(cells=st.deferred(lambda: st.sampled_from(in_progress())), perm=st.sampled_from(SYMMETRIES))
def test_analysis_is_symmetric(cells: str, perm: tuple[int, ...]) -> None:
    """Rotating or reflecting a position maps its analysis cell for cell."""
    image = ["."] * 9
    for cell, char in enumerate(cells):
        image[perm[cell]] = char
    before = analyze(Board.parse(cells))
    after = analyze(Board.parse("".join(image)))
    assert after.value == before.value
    assert after.moves == {perm[cell]: verdict for cell, verdict in before.moves.items()}
    assert after.best == tuple(sorted(perm[cell] for cell in before.best))


# --- Cancellation ---------------------------------------------------------------------------


def test_cancelled_search_raises_and_leaves_the_memo_sound() -> None:
    """A cancelled search raises SearchCancelled; later searches are still exact."""
    solver.clear_tables()
    asked: list[bool] = []

    def always() -> bool:
        asked.append(True)
        return True

    with pytest.raises(SearchCancelled, match="the caller cancelled the search"):
        analyze(Board.empty(), cancelled=always)
    assert asked
    with pytest.raises(SearchCancelled, match="the caller cancelled the search"):
        choose_move(Board.empty(), Difficulty.HARD, random.Random(0), cancelled=always)

    # Cancelled part-way through, a search leaves a partly filled table behind
    # (tests/engine/test_progress.py does that on 5x5, where a search is long enough).
    solver.clear_tables()
    assert analyze(Board.empty(), cancelled=lambda: False).best == tuple(range(9))
    wrong = analysis_mismatches()
    assert not wrong, f"{len(wrong)} mismatches after a cancelled search, e.g. {wrong[:3]}"


@pytest.mark.parametrize("text", ["XX.OO....", "XX.OOX..O", "XXX./OOO./..../...."])
def test_best_moves_in_a_position_won_at_once_gives_the_winning_squares(text: str) -> None:
    # It used to time the win after the winning move, on a board already won, and fail.
    from ttt_tui.engine.search import Outcome, Verdict, best_moves

    board = Board.parse(text)
    verdict, moves = best_moves(board)
    assert verdict == Verdict(Outcome.WIN, 1)
    assert moves == tuple(sorted(analyze(board).best))
    assert all(board.play(cell).status.winner is board.to_move for cell in moves)
