"""Game review: labels from proven values, checked against the deliberately simple
solver on seeded games of every board, and the review's words."""

from __future__ import annotations

import functools
import random

import pytest

from tests.engine.reference import Reference, rank
from ttt_tui.engine import SIZES, Board, Difficulty, Outcome, Verdict, analyze, choose_move
from ttt_tui.teach.review import (
    Label,
    ReviewError,
    grade,
    parse_moves,
    parse_square,
    positions,
    review_moves,
)

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


@pytest.mark.parametrize(
    ("before", "played", "label"),
    [
        (Verdict(D, 9), Verdict(D, 9), Label.BEST),
        (Verdict(W, 5), Verdict(W, 5), Label.BEST),
        (Verdict(W, 5), Verdict(W, 7), Label.INACCURACY),
        (Verdict(L, 6), Verdict(L, 6), Label.BEST),
        (Verdict(L, 6), Verdict(L, 2), Label.INACCURACY),
        (Verdict(W, 3), Verdict(D, 7), Label.MISTAKE),
        (Verdict(D, 8), Verdict(L, 4), Label.MISTAKE),
        (Verdict(W, 3), Verdict(L, 4), Label.BLUNDER),
        (Verdict(W, None), Verdict(W, None), Label.GOOD),
        (Verdict(W, 11), Verdict(W, None), Label.GOOD),
        (Verdict(L, None), Verdict(L, 6), Label.GOOD),
        (Verdict(W, None), Verdict(D, 20), Label.MISTAKE),
    ],
)
def test_each_label_as_the_issue_defines_it(before: Verdict, played: Verdict, label: Label) -> None:
    assert grade(before, played) is label


@functools.cache
def reference(n: int) -> Reference:
    return Reference(n, SIZES[n])


def reference_label(before: tuple[str, int], played: tuple[str, int]) -> Label:
    """The labels worked out again from the simple solver's (outcome, plies) pairs."""
    order = {"loss": 0, "draw": 1, "win": 2}
    drop = order[before[0]] - order[played[0]]
    if drop:
        return Label.BLUNDER if drop == 2 else Label.MISTAKE
    return Label.BEST if before[0] == "draw" or before == played else Label.INACCURACY


def seeded_game(n: int, seed: int) -> tuple[int, ...]:
    """A game mixing Hard's moves and random ones, so every label turns up."""
    rng = random.Random(f"{n}/{seed}")
    board, cells = Board.empty(n), []
    while not board.is_game_over():
        if n == 3 and rng.random() < 0.5:
            cell = choose_move(board, Difficulty.HARD, rng)
        else:
            cell = rng.choice(board.legal_moves())
        cells.append(cell)
        board = board.play(cell)
    return tuple(cells)


def disagreements(n: int, cells: tuple[int, ...], most_empty: int) -> list[str]:
    """Where the review and the simple solver disagree, on every move played with at
    most ``most_empty`` squares empty."""
    ref = reference(n)
    found = review_moves(n, cells, analyze)
    wrong = []
    for move, board in zip(found.moves, positions(n, cells), strict=True):
        if bin(board.empty_mask).count("1") > most_empty:
            continue
        moves = ref.moves(str(board))
        before = max(moves.values(), key=rank)
        played = moves[move.cell]
        want = (before, played, reference_label(before, played))
        got = (
            (move.before.outcome.value, move.before.plies),
            (move.played.outcome.value, move.played.plies),
            move.label,
        )
        best = tuple(cell for cell in sorted(moves) if moves[cell] == before)
        if got != want or move.best != best:
            wrong.append(f"{board} move {move.ply}: got {got} {move.best}, want {want} {best}")
    return wrong


def test_every_move_of_seeded_3x3_games_agrees_with_the_simple_solver() -> None:
    seen: set[Label] = set()
    for seed in range(120):
        cells = seeded_game(3, seed)
        assert not disagreements(3, cells, 9)
        seen |= {move.label for move in review_moves(3, cells, analyze).moves}
    assert seen == {Label.BEST, Label.INACCURACY, Label.MISTAKE, Label.BLUNDER}


@pytest.mark.parametrize(
    ("n", "games", "most_empty"),
    # Random 5x5 openings take the engine seconds each: 30 s in all, for the long run.
    [(4, 6, 8), pytest.param(5, 4, 7, marks=pytest.mark.long)],
)
def test_seeded_4x4_and_5x5_games_agree_where_the_simple_solver_finishes(
    n: int, games: int, most_empty: int
) -> None:
    checked = 0
    for seed in range(games):
        cells = seeded_game(n, seed)
        assert not disagreements(n, cells, most_empty)
        checked += sum(1 for b in positions(n, cells) if bin(b.empty_mask).count("1") <= most_empty)
    assert checked >= 3, "too few moves near enough the end for the simple solver"


def test_the_review_reads_a_game_and_names_its_turning_points() -> None:
    found = review_moves(3, parse_moves("b2 b1 a1 c3 c1 a3 a2 c2", 3), analyze)
    assert [move.line() for move in found.moves[:2]] == [
        "1. X b2  best: draw",
        "2. O b1  mistake: draw -> loss in 6; best a1, c1, a3, c3 (draw)",
    ]
    assert [move.ply for move in found.turning_points] == [2, 5, 7, 8]
    assert found.turning_text(found.moves[1]) == (
        "O gave the draw away at move 2: O b1 let X force a win, starting with a1"
        " (threatening c3). Instead, a1, c1, a3 or c3 held the draw."
    )
    assert found.turning_text(found.moves[6]) == (
        "X gave the draw away at move 7: X a2 left O's threat at b3 open, and O completes"
        " a3–c3. Instead, b3 held the draw."
    )
    assert found.turning_text(found.moves[7]) == (
        "O let the win slip at move 8: O c2 only draws. Instead, b3 won at once."
    )
    assert found.summary(found.moves[0].player) == "X: 2 best, 2 mistakes"
    assert found.result == "in_progress"
    assert found.moves[1].detail() == (
        "Move 2: O b1, mistake. Before it, O held the draw; O b1 loses in 6."
        " Instead, a1, c1, a3 or c3 held the draw."
    )


def test_a_fork_is_named_as_one() -> None:
    found = review_moves(3, parse_moves("c1 b2 b3 b1 c3 a3 c2", 3), analyze)
    move = found.moves[3]
    assert move.label is Label.MISTAKE
    assert found.turning_text(move) == (
        "O gave the draw away at move 4: O b1 let X fork at c3, threatening c2 and a3 at once."
        " Instead, a2, c2, a3 or c3 held the draw."
    )


def test_a_blunder_throws_a_win_to_a_loss() -> None:
    found = review_moves(3, parse_moves("a2 c1 b2 b3 a3 a1 c3 b1", 3), analyze)
    move = found.moves[6]
    assert (move.before.outcome, move.played.outcome, move.label) == (W, L, Label.BLUNDER)
    assert found.result == "o_won"
    assert found.turning_text(move) == (
        "X threw a won game to a loss at move 7: X c3 left O's threat at b1 open, and O"
        " completes a1–c1. Instead, c2 won at once."
    )


def test_the_json_has_every_field_the_issue_names() -> None:
    found = review_moves(4, parse_moves("1, 6, 11", 4), analyze).to_json()
    assert set(found) == {"n", "k", "result", "moves", "turning_points"}
    assert (found["n"], found["k"], found["result"]) == (4, 4, "in_progress")
    first = found["moves"][0]
    assert set(first) == {"ply", "player", "cell", "square", "before", "played", "best", "label"}
    assert (first["ply"], first["player"], first["cell"], first["square"]) == (1, "X", 0, "a1")
    assert first["before"] == {"value": "draw", "plies": 16}


@pytest.mark.parametrize(
    ("text", "n", "message"),
    [
        ("b2 b2", 3, "move 2 (O b2): the square is taken"),
        ("a1 b1 a2 b2 a3 c3", 3, "move 6 (O c3): the game was already over"),
        ("b2 z9", 3, "square 'z9' is off the 3x3 board (a1 to c3)"),
        ("a1 e5", 4, "square 'e5' is off the 4x4 board (a1 to d4)"),
        ("a1 26", 5, "square '26' is off the 5x5 board (1 to 25)"),
        ("a1 b-2", 3, "unknown square 'b-2'"),
        ("a1 ²", 3, "unknown square '²'"),  # a digit to Python, no number to int()
        ("a1 a10", 3, "square 'a10' is off the 3x3 board (a1 to c3)"),
        (" , ", 3, "no moves given"),
    ],
)
def test_a_bad_game_names_the_problem_and_the_move(text: str, n: int, message: str) -> None:
    with pytest.raises(ReviewError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        review_moves(n, parse_moves(text, n), analyze)


def test_squares_by_name_or_number() -> None:
    assert [parse_square(text, 5) for text in ("a1", "E5", "13", " c3 ")] == [0, 24, 12, 12]


def test_an_abandoned_game_keeps_its_recorded_result() -> None:
    assert review_moves(3, (4, 0), analyze, "abandoned").result == "abandoned"
    assert review_moves(3, (0, 3, 1, 4, 2), analyze, "abandoned").result == "x_won"
