"""The engine on 4x4 and 5x5: agreement with a simple solver, symmetry, Hard's play.

The default run samples; ``TTT_LONG=1`` runs the long versions (marked ``long``)
(thousands of positions, many games), as CI's engine step does.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.reference import Reference, rank
from ttt_tui.engine import (
    SIZES,
    Board,
    Difficulty,
    Outcome,
    Player,
    Status,
    Verdict,
    analyze,
    choose_move,
    evaluate,
    solver,
)

BIG = [4, 5]
"""The board sizes this file is about (3x3 has its exhaustive proofs elsewhere)."""


@functools.cache
def reference(n: int) -> Reference:
    """The simple solver for one size, its memo shared across tests."""
    return Reference(n, SIZES[n])


def as_result(verdict: Verdict) -> tuple[str, int | None]:
    """An engine verdict in the reference's terms."""
    return (verdict.outcome.value, verdict.plies)


def mismatches(n: int, positions: list[str]) -> list[str]:
    """Where `analyze` disagrees with the reference: value, any move, or the best set."""
    ref = reference(n)
    wrong = []
    for cells in positions:
        analysis = analyze(Board.parse(cells))
        want_moves = ref.moves(cells)
        want_value = max(want_moves.values(), key=rank)
        want_best = tuple(c for c in sorted(want_moves) if want_moves[c] == want_value)
        got_moves = {c: as_result(v) for c, v in analysis.moves.items()}
        got = (as_result(analysis.value), got_moves, analysis.best)
        if got != (want_value, want_moves, want_best) or not analysis.complete:
            wrong.append(f"{cells}: got {got}, want {(want_value, want_moves, want_best)}")
    return wrong


# --- Agreement with the simple solver -------------------------------------------------------

# (size, empty cells left, positions): cheap in the default run.
SAMPLES = [(4, 6, 40), (4, 7, 8), (5, 6, 25), (5, 7, 10)]
LONG_SAMPLES = [(4, 6, 600), (4, 8, 600), (4, 9, 200), (5, 6, 600), (5, 8, 600), (5, 9, 150)]


@pytest.mark.parametrize(("n", "empties", "count"), SAMPLES)
def test_analyze_agrees_with_the_simple_solver(n: int, empties: int, count: int) -> None:
    """Every move's outcome and exact plies, the value and the best set match."""
    positions = reference(n).sample(random.Random(f"{n}/{empties}"), empties, count)
    wrong = mismatches(n, positions)
    assert not wrong, f"{len(wrong)} of {count} differ, e.g. {wrong[:2]}"


@pytest.mark.long
@pytest.mark.parametrize(("n", "empties", "count"), LONG_SAMPLES)
def test_analyze_agrees_with_the_simple_solver_long(n: int, empties: int, count: int) -> None:
    """The same, on thousands of positions."""
    positions = reference(n).sample(random.Random(f"long/{n}/{empties}"), empties, count)
    wrong = mismatches(n, positions)
    assert not wrong, f"{len(wrong)} of {count} differ, e.g. {wrong[:2]}"


# --- The values of the empty boards ----------------------------------------------------------


def test_the_empty_4x4_board_is_a_draw_from_every_opening() -> None:
    """(4,4,4) is a draw, and so is every first move: 16 plies of a full board."""
    analysis = analyze(Board.empty(4))
    assert analysis.value == Verdict(Outcome.DRAW, 16)
    assert set(analysis.moves.values()) == {Verdict(Outcome.DRAW, 16)}
    assert analysis.best == tuple(range(16))
    assert analysis.complete


def test_the_empty_5x5_board_is_a_draw_from_every_opening() -> None:
    """(5,5,4) is a draw: X cannot force a win, nor O after any first move. The search
    proves the value itself; the moves' values come from the opening book, whose own
    test proves them."""
    assert evaluate(Board.empty(5), book=False) == Verdict(Outcome.DRAW, 25)
    analysis = analyze(Board.empty(5))
    assert analysis.value == Verdict(Outcome.DRAW, 25)
    assert set(analysis.moves.values()) == {Verdict(Outcome.DRAW, 25)}


def test_a_5x5_reply_can_lose() -> None:
    """Not every reply holds: with X on c3 and O on a1, X wins in 7, and every Hard move says so."""
    board = Board.parse("O...........X............")
    assert evaluate(board, exact=True) == Verdict(Outcome.WIN, 7)
    for seed in range(3):
        cell = choose_move(board, Difficulty.HARD, random.Random(seed))
        assert move_verdict(board, cell) == Verdict(Outcome.WIN, 7)


# --- Symmetry --------------------------------------------------------------------------------


def symmetries(n: int) -> list[tuple[int, ...]]:
    """The 8 symmetries of the n x n square as cell permutations, built here from scratch."""
    perms = []
    for turns, flip in itertools.product(range(4), (False, True)):
        perm = []
        for cell in range(n * n):
            row, col = divmod(cell, n)
            if flip:
                row, col = row, n - 1 - col
            for _ in range(turns):
                row, col = col, n - 1 - row
            perm.append(row * n + col)
        perms.append(tuple(perm))
    assert len(set(perms)) == 8
    return perms


def transformed(cells: str, perm: tuple[int, ...]) -> str:
    """The position with each cell moved by ``perm``."""
    image = ["."] * len(cells)
    for cell, char in enumerate(cells):
        image[perm[cell]] = char
    return "".join(image)


@st.composite
def positions(draw: st.DrawFn, n: int, least_marks: int) -> str:
    """A position reached by legal play, with at least ``least_marks`` marks, still on."""
    size = n * n
    marks = draw(st.integers(min_value=least_marks, max_value=size - 2))
    order = draw(st.permutations(range(size)))
    cells = ["."] * size
    for ply, cell in enumerate(order[:marks]):
        cells[cell] = "X" if ply % 2 == 0 else "O"
    text = "".join(cells)
    board = Board.parse(text) if _legal(text) else None
    if board is None or board.status is not Status.IN_PROGRESS:
        from hypothesis import reject

        reject()
    return text


def _legal(text: str) -> bool:
    try:
        Board.parse(text)
    except ValueError:
        return False
    return True


def check_symmetric(cells: str, perm: tuple[int, ...]) -> None:
    """The image's analysis is the original's, cell for cell."""
    before = analyze(Board.parse(cells))
    after = analyze(Board.parse(transformed(cells, perm)))
    assert after.value == before.value
    assert after.moves == {perm[c]: v for c, v in before.moves.items()}
    assert after.best == tuple(sorted(perm[c] for c in before.best))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.sampled_from([3, 4]))
def test_values_are_symmetric_on_3x3_and_4x4(data: st.DataObject, n: int) -> None:
    """Rotating or reflecting any position maps its analysis cell for cell."""
    cells = data.draw(positions(n, 0))
    check_symmetric(cells, data.draw(st.sampled_from(symmetries(n))))


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_values_are_symmetric_on_5x5(data: st.DataObject) -> None:
    """The same on 5x5, in positions of 14 marks or more (cheap to value fully)."""
    cells = data.draw(positions(5, 14))
    check_symmetric(cells, data.draw(st.sampled_from(symmetries(5))))


# --- Hard ------------------------------------------------------------------------------------

OPPONENTS = ["random", "easy", "medium", "hard"]


def opponent_move(name: str, board: Board, rng: random.Random) -> int:
    """The opponent's move: uniformly random, or a difficulty's."""
    if name == "random":
        return rng.choice(board.legal_moves())
    return choose_move(board, Difficulty(name), rng)


def move_verdict(board: Board, cell: int) -> Verdict:
    """The exact value of playing ``cell``, for the side that plays it."""
    after = board.play(cell)
    status = after.status
    if status.winner is not None:
        return Verdict(Outcome.WIN, 1)
    if status is Status.DRAW:
        return Verdict(Outcome.DRAW, 1)
    value = evaluate(after, exact=True)
    assert value.plies is not None
    flipped = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.DRAW: Outcome.DRAW}
    return Verdict(flipped[value.outcome], value.plies + 1)


def play_hard_game(n: int, opponent: str, hard: Player, seed: str) -> Status:
    """One game of Hard against an opponent; every Hard move must keep the exact value."""
    rng_hard, rng_other = random.Random(f"h{seed}"), random.Random(f"o{seed}")
    board = Board.empty(n)
    while board.status is Status.IN_PROGRESS:
        if board.to_move is hard:
            value = evaluate(board, exact=True)
            cell = choose_move(board, Difficulty.HARD, rng_hard)
            assert move_verdict(board, cell) == value, (str(board), cell, value)
        else:
            cell = opponent_move(opponent, board, rng_other)
        board = board.play(cell)
    return board.status


def hard_games(
    n: int, games: int, pairings: list[tuple[str, Player]] | None = None
) -> dict[str, int]:
    """Results of ``games`` games per opponent and side, from Hard's point of view."""
    results = {"won": 0, "drawn": 0, "lost": 0}
    if pairings is None:
        pairings = list(itertools.product(OPPONENTS, Player))
    for (opponent, hard), game in itertools.product(pairings, range(games)):
        status = play_hard_game(n, opponent, hard, f"{n}/{opponent}/{hard.value}/{game}")
        winner = status.winner
        results["drawn" if winner is None else "won" if winner is hard else "lost"] += 1
    return results


def test_hard_never_loses_and_keeps_every_value_on_4x4() -> None:
    """Against random, Easy, Medium and Hard, as X and as O, twice each."""
    results = hard_games(4, 2)
    assert results["lost"] == 0
    assert results["won"] + results["drawn"] == 16


def test_hard_never_loses_and_keeps_every_value_on_5x5() -> None:
    """Two 5x5 games: as X against random, as O against Hard (every pairing in the long run)."""
    results = hard_games(5, 1, [("random", Player.X), ("hard", Player.O)])
    assert results == {"won": 1, "drawn": 1, "lost": 0}


@pytest.mark.long
@pytest.mark.parametrize(("n", "games"), [(4, 40), (5, 8)])
def test_hard_never_loses_and_keeps_every_value_long(n: int, games: int) -> None:
    """The same over many seeded games."""
    results = hard_games(n, games)
    assert results["lost"] == 0
    assert results["won"] > 0


def test_hard_takes_the_quickest_5x5_win() -> None:
    """X can win now on the top row, or later elsewhere: Hard wins now, whatever the seed."""
    board = Board.parse("XXX../OO.../O..../...../.X...")
    moves = {choose_move(board, Difficulty.HARD, random.Random(s)) for s in range(10)}
    assert moves == {3}


class Offered(random.Random):
    """A random generator that records what it is asked to choose among: the moves a
    level finds equally good, which Hard then picks from."""

    def __init__(self) -> None:
        super().__init__(0)
        self.offered: list[set[int]] = []

    # typeshed types the argument as a protocol of its own, not importable at run time.
    def choice(self, seq: Sequence[Any]) -> Any:  # type: ignore[override]
        self.offered.append(set(seq))
        return super().choice(seq)


def hard_candidates(cells: str) -> set[int]:
    """The moves Hard chooses among in a won or lost position, as it offers them to its
    random generator, from empty tables."""
    solver.clear_tables()
    offered = Offered()
    choose_move(Board.parse(cells), Difficulty.HARD, offered)
    assert len(offered.offered) == 1, offered.offered
    return offered.offered[0]


def quickest_wins(cells: str) -> set[int]:
    """The simple solver's quickest wins for the side to move."""
    results = reference(int(len(cells) ** 0.5)).moves(cells)
    value = max(results.values(), key=rank)
    assert value[0] == "win"
    return {cell for cell, result in results.items() if result == value}


QUIET_WINS = {
    "O..O.X..XOOO...X...XX.XOX": {6},
    ".OXX.OX.OXXX..O.X...OOXOO": {7, 18},
}
"""5x5 positions outside the opening book whose quickest wins (the simple solver's,
checked again in the long run) include a quiet move, one that makes no line of three
with the fourth square free: only a search some plies deep finds it. In the first the
slower wins (1 and 12, in 7 plies) are there to be picked by mistake."""


def makes_a_threat(cells: str, cell: int) -> bool:
    """Whether playing ``cell`` makes a line one mark short of four, its last square free."""
    board = Board.parse(cells)
    mover = board.to_move.value
    after = cells[:cell] + mover + cells[cell + 1 :]
    return any(
        [after[i] for i in line].count(mover) == 3 and [after[i] for i in line].count(".") == 1
        for line in reference(5).lines
    )


@pytest.mark.parametrize("cells", QUIET_WINS)
def test_hard_offers_exactly_the_quickest_wins_even_when_they_are_quiet(cells: str) -> None:
    """Hard's candidates, as it hands them to its random generator, are exactly the
    quickest wins: a table entry that says a position fails for more plies than it was
    searched to (a slip that leaves every value right) added a slower win to them, or
    took a quickest one away."""
    assert Board.parse(cells).move_count > 2  # past the opening book
    assert not all(makes_a_threat(cells, cell) for cell in QUIET_WINS[cells])
    assert hard_candidates(cells) == QUIET_WINS[cells]


@pytest.mark.long
@pytest.mark.parametrize("cells", QUIET_WINS)
def test_the_quiet_wins_are_the_simple_solver_s_quickest(cells: str) -> None:
    assert quickest_wins(cells) == QUIET_WINS[cells]


@pytest.mark.parametrize("n", BIG)
@pytest.mark.parametrize("outcome", ["win", "loss"])
def test_hard_wins_fastest_and_loses_slowest(n: int, outcome: str) -> None:
    """In won and lost positions with moves of different lengths, Hard offers exactly
    the quickest wins or the slowest losses to its random generator, as the simple
    solver counts them. The positions come from seeded random play (lost ones are rare:
    1,683 tries find three on 4x4), at most 5,000 tries
    for three."""
    ref = reference(n)
    rng = random.Random(f"lengths/{n}/{outcome}")
    checked = []
    for _ in range(5000):
        cells = ref.random_position(rng, 6)
        if cells is None:
            continue
        # The engine finds candidates cheaply; the simple solver has the last word.
        analysis = analyze(Board.parse(cells))
        lengths = {v.plies for v in analysis.moves.values() if v.outcome.value == outcome}
        if analysis.value.outcome.value != outcome or len(lengths) < 2:
            continue
        results = ref.moves(cells)
        value = max(results.values(), key=rank)
        best = {c for c, r in results.items() if r == value}
        assert hard_candidates(cells) == best, cells
        checked.append(cells)
        if len(checked) == 3:
            return
    raise AssertionError(f"only {len(checked)} positions of three in 5,000 tries")


def test_hard_draws_uniformly_on_5x5() -> None:
    """In a drawn 5x5 position Hard's moves vary with the seed and all hold the draw."""
    board = Board.empty(5).play(12)  # X in the centre: O to move, a draw
    picks = {choose_move(board, Difficulty.HARD, random.Random(s)) for s in range(12)}
    assert len(picks) > 3
    for cell in picks:
        assert move_verdict(board, cell).outcome is Outcome.DRAW


# --- Easy and Medium on the big boards -------------------------------------------------------


WIN_NOW = {4: "XXX./OOO./..../....", 5: "XXX../OOO../...../...../....."}
"""X to move, with one cell (3) that completes its line."""

MUST_BLOCK = {4: "XXX./O.../O.../....", 5: "XXX../O..../O..../...../....."}
"""O to move, with no win of its own and X threatening to complete its line on cell 3."""


@pytest.mark.parametrize("n", BIG)
@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_every_level_takes_a_win_it_sees(n: int, difficulty: Difficulty) -> None:
    """Easy, Medium and Hard all complete the line, whatever the seed."""
    board = Board.parse(WIN_NOW[n])
    assert {choose_move(board, difficulty, random.Random(s)) for s in range(10)} == {3}


@pytest.mark.parametrize("n", BIG)
def test_medium_blocks_and_easy_does_not_always(n: int) -> None:
    """Medium sees two plies ahead and blocks; Easy sees one and often plays elsewhere."""
    board = Board.parse(MUST_BLOCK[n])
    assert {choose_move(board, Difficulty.MEDIUM, random.Random(s)) for s in range(10)} == {3}
    assert {choose_move(board, Difficulty.EASY, random.Random(s)) for s in range(30)} - {3}
