"""The explorer's counts: plain minimax, alpha-beta, the engine's work, the tree estimate
and the alpha-beta walk, checked against `analyze` and against each other.

By default a sample of positions; ``TTT_LONG=1`` checks every 3x3 position
in play (4,520) and a sample of 4x4 and 5x5 positions near their end.
"""

from __future__ import annotations

import functools
import random

import pytest

from tests.engine.reference import every_3x3_position, sample_3x3
from ttt_tui.engine import Board, GameOverError, Outcome, SearchCancelled, Verdict, analyze, minimax
from ttt_tui.engine.minimax import (
    INFINITY,
    WALK_EMPTY,
    CountProgress,
    Search,
    StepKind,
    alpha_beta,
    engine_count,
    estimate_tree,
    leaf_score,
    plain_minimax,
    position_at,
    run_count,
    score_of,
    verdict_of,
    walk,
)
from ttt_tui.engine.solver import solver_for


def near_end(n: int, empty: int, count: int, seed: int) -> list[Board]:
    """Seeded random games on an n x n board, stopped with ``empty`` squares left."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board.empty(n)
        while not board.is_game_over() and board.empty_mask.bit_count() > empty:
            board = board.play(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            found.append(board)
    return found


def tree_size(board: Board) -> int:
    """Positions plain minimax visits from ``board``, counted another way: a memoised sum
    over positions (each one's subtree counted once, however many paths reach it)."""

    @functools.cache
    def size(text: str) -> int:
        position = Board.parse(text)
        if position.is_game_over():
            return 1
        return 1 + sum(size(str(position.play(cell))) for cell in position.legal_moves())

    return size(str(board))


# Plain minimax -------------------------------------------------------------------------------


def test_the_empty_board_tree_has_549_946_positions() -> None:
    """The number every tutorial quotes, counted independently of the search."""
    assert tree_size(Board.empty(3)) == 549_946


@pytest.mark.long
def test_plain_minimax_on_the_empty_board_visits_549_946_positions() -> None:
    count = plain_minimax(Board.empty(3))
    assert (count.nodes, count.finished) == (549_946, True)
    assert count.verdict == Verdict(Outcome.DRAW, 9)
    assert (count.root_done, count.root_moves) == (9, 9)


@pytest.mark.parametrize("position", ["X........", "XO.......", "X...O....", "XOX.O...."])
def test_plain_minimax_visits_the_whole_tree_and_finds_the_engine_s_value(
    position: str,
) -> None:
    board = Board.parse(position)
    count = plain_minimax(board)
    assert count.finished
    assert count.nodes == tree_size(board)
    assert count.verdict == analyze(board).value
    assert count.estimate is None


def test_plain_minimax_stops_at_its_budget_and_estimates_the_rest() -> None:
    board = Board.parse("X...O......X....")
    count = plain_minimax(board, budget=5_000)
    assert (count.nodes, count.finished, count.verdict) == (5_000, False, None)
    assert count.root_done == 0 and count.root_moves == 13
    assert count.estimate is not None and count.estimate.nodes > 1e9
    assert count.estimate.samples == minimax.SAMPLES


def test_the_estimate_is_close_on_the_empty_board_and_the_same_every_time() -> None:
    """Knuth's random paths, seeded: within 10% of the true 549,946, and repeatable."""
    first = estimate_tree(Board.empty(3))
    assert abs(first.nodes - 549_946) / 549_946 < 0.10
    assert estimate_tree(Board.empty(3)) == first


# Alpha-beta and its walk ---------------------------------------------------------------------


@pytest.mark.parametrize("board", sample_3x3(12), ids=str)
def test_alpha_beta_and_its_walk_agree_and_find_the_engine_s_value(board: Board) -> None:
    count = alpha_beta(board)
    steps = list(walk(board))
    done = steps[-1]
    assert done.kind is StepKind.DONE
    assert (done.nodes, done.cuts) == (count.nodes, count.cuts)
    assert sum(step.kind is StepKind.ENTER for step in steps) == count.nodes
    assert sum(step.kind is StepKind.CUT for step in steps) == count.cuts
    assert count.verdict == analyze(board).value == verdict_of(board, done.value or 0)
    assert count.nodes <= tree_size(board)


def test_alpha_beta_on_the_empty_board() -> None:
    """Moves in reading order: 20,866 positions and 4,856 cuts, against 549,946."""
    count = alpha_beta(Board.empty(3))
    assert (count.nodes, count.cuts, count.finished) == (20_866, 4_856, True)
    assert count.verdict == Verdict(Outcome.DRAW, 9)


def test_alpha_beta_stops_at_its_budget() -> None:
    count = alpha_beta(Board.parse("X...O......X...."), budget=2_000)
    assert (count.nodes, count.finished, count.verdict) == (2_000, False, None)
    assert count.estimate is None
    assert count.cuts > 0


def test_the_walk_is_the_same_every_time() -> None:
    board = Board.parse("XO..X.O..")
    assert list(walk(board)) == list(walk(board))


def test_walk_steps_say_what_a_search_does() -> None:
    """Enter, return, cut and done steps hold together: a cut skips at least one move and
    closes the window; an exact value coming back is the position's true value; the
    first step enters the root with an open window."""
    board = Board.parse("XO..X.O..")
    steps = list(walk(board))
    first = steps[0]
    assert (first.kind, first.path, first.alpha, first.beta) == (
        StepKind.ENTER,
        (),
        -INFINITY,
        INFINITY,
    )
    cuts = [step for step in steps if step.kind is StepKind.CUT]
    assert cuts and all(step.pruned and step.alpha >= step.beta for step in cuts)
    for step in steps:
        if step.kind is not StepKind.RETURN:
            continue
        child = position_at(board, step.path)
        true = leaf_score(child)
        if true is None:
            true = score_of(child, analyze(child).value)
        assert true is not None and step.value is not None
        # Exact, or a bound on the right side of the true value.
        if step.bound == 0:
            assert step.value == true, step
        elif step.bound == 1:
            assert true >= step.value, step
        else:
            assert true <= step.value, step


def test_a_finished_game_scores_squares_left_plus_one() -> None:
    """X completes a1-a3 with four squares left: +5; O's win scores below zero."""
    won = Board.parse("XO.XO....").play(6)
    assert won.status.winner is not None
    assert leaf_score(won) == 5
    lost = Board.parse("XO.XO...X").play(7)  # O completes b1-b3, three squares left
    assert lost.status.winner is not None
    assert leaf_score(lost) == -4
    assert leaf_score(Board.parse("XOXXOOOXX")) == 0


def test_scores_and_verdicts_translate_both_ways() -> None:
    for board in sample_3x3(30, seed=3):
        value = analyze(board).value
        score = score_of(board, value)
        assert score is not None
        assert verdict_of(board, score) == value


# The engine's work ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "nodes"), [(".........", 42), ("X........", 23), ("X...O....", 17)]
)
def test_the_engine_s_counts_shown_to_learners_are_pinned(position: str, nodes: int) -> None:
    """The positions the engine expands from empty tables, as the Search tab shows them
    beside plain minimax's 549,946: a slip in its tables or its depths moves them."""
    count = engine_count(Board.parse(position))
    assert (count.nodes, count.finished) == (nodes, True)


def test_the_engine_count_is_from_empty_tables_and_leaves_the_game_s_alone() -> None:
    board = Board.parse("X...O....")
    solver = solver_for(3, 3, board.geometry.lines)
    analyze(board)
    table = dict(solver.table)
    first, second = engine_count(board), engine_count(board)
    assert first.nodes == second.nodes > 0
    assert first.verdict == analyze(board).value
    assert dict(solver.table) == table


# Cancelling and progress ---------------------------------------------------------------------


@pytest.mark.parametrize("search", list(Search))
def test_a_count_can_be_cancelled(search: Search) -> None:
    with pytest.raises(SearchCancelled):
        run_count(Board.parse("X........"), search, cancelled=lambda: True)


def test_a_count_reports_its_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minimax, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(minimax, "CHECK_EVERY", 1_000)
    reports: list[CountProgress] = []
    count = plain_minimax(Board.parse("X........"), progress=reports.append)
    assert len(reports) > 10
    assert all(report.search is Search.MINIMAX for report in reports)
    nodes = [report.nodes for report in reports]
    assert nodes == sorted(nodes) and nodes[-1] == count.nodes
    assert reports[-1].root_done == reports[-1].root_moves == 8


def test_a_finished_game_cannot_be_counted() -> None:
    with pytest.raises(GameOverError):
        alpha_beta(Board.parse("XXXOO...."))


# The long run --------------------------------------------------------------------------------


@pytest.mark.long
def test_every_3x3_position_agrees_with_analyze() -> None:
    """Plain minimax and alpha-beta find the engine's value on all 4,520 positions in play;
    the walk ends with alpha-beta's counts; plain minimax visits the whole tree."""
    for board in every_3x3_position():
        value = analyze(board).value
        plain, pruned = plain_minimax(board), alpha_beta(board)
        assert plain.verdict == pruned.verdict == value, board
        assert plain.nodes == tree_size(board), board
        assert engine_count(board).verdict == value, board
        done = list(walk(board))[-1]
        assert (done.nodes, done.cuts) == (pruned.nodes, pruned.cuts), board


@pytest.mark.long
@pytest.mark.parametrize("n", [4, 5])
def test_bigger_boards_near_their_end_agree_with_analyze(n: int) -> None:
    for board in near_end(n, WALK_EMPTY, 40, seed=n):
        value = analyze(board).value
        pruned = alpha_beta(board, budget=None)
        assert pruned.verdict == value, board
        engine = engine_count(board).verdict
        assert engine is not None and engine.outcome is value.outcome, board
        done = list(walk(board))[-1]
        assert (done.nodes, done.cuts) == (pruned.nodes, pruned.cuts), board
    for board in near_end(n, 7, 10, seed=n + 10):
        assert plain_minimax(board, budget=None).verdict == analyze(board).value, board
