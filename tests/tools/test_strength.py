"""Difficulty strength: seeded, reproducible, and ordered Easy < Medium < Hard."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from tools import strength
from tools.strength import Matchup, Opponent, Record, Strength
from ttt_tui.engine import Board, Cell, Difficulty, Player, Status

GAMES = 200
SEED = 7


@pytest.fixture(scope="module")
def measured() -> Strength:
    return strength.measure(GAMES, SEED)


def _scripted(cells: list[Cell]) -> strength.Policy:
    """Plays the first cell of ``cells`` that is still empty."""

    def policy(board: Board, rng: random.Random) -> Cell:
        return next(c for c in cells if c in board.legal_moves())

    return policy


@pytest.mark.parametrize(
    ("x_cells", "o_cells", "status"),
    [
        ([0, 1, 2], [8, 7, 6], Status.X_WON),  # X 0, O 8, X 1, O 7, X 2
        ([0, 1, 5, 3], [4, 2, 6], Status.O_WON),  # X 0, O 4, X 1, O 2, X 5, O 6
        ([0, 2, 3, 7, 8], [1, 4, 5, 6], Status.DRAW),
    ],
)
def test_play_match_alternates_from_x_to_the_end(
    x_cells: list[Cell], o_cells: list[Cell], status: Status
) -> None:
    result = strength.play_match(
        _scripted(x_cells), _scripted(o_cells), random.Random(0), random.Random(0)
    )
    assert result is status


def test_perfect_against_perfect_always_draws() -> None:
    hard = strength.difficulty_policy(Difficulty.HARD)
    results = {
        strength.play_match(hard, hard, random.Random(i), random.Random(-i)) for i in range(50)
    }
    assert results == {Status.DRAW}


def test_record_counts_from_the_measured_side() -> None:
    record = Record()
    record.add(Status.O_WON, Player.O)
    record.add(Status.X_WON, Player.O)
    record.add(Status.DRAW, Player.O)
    record.add(Status.O_WON, Player.O)
    assert (record.wins, record.draws, record.losses, record.games) == (2, 1, 1, 4)
    assert (record.win_pct, record.draw_pct, record.loss_pct) == (50.0, 25.0, 25.0)


def test_every_row_plays_the_asked_number_of_games(measured: Strength) -> None:
    assert list(measured.records) == strength.all_matchups()
    assert len(measured.records) == 12
    assert all(r.games == GAMES for r in measured.records.values())


@pytest.mark.parametrize("opponent", list(Opponent))
@pytest.mark.parametrize("side", list(Player))
def test_hard_never_loses(measured: Strength, opponent: Opponent, side: Player) -> None:
    assert measured.records[Matchup(Difficulty.HARD, opponent, side)].losses == 0


@pytest.mark.parametrize("side", list(Player))
def test_easy_loses_more_to_perfect_than_medium(measured: Strength, side: Player) -> None:
    easy = measured.records[Matchup(Difficulty.EASY, Opponent.PERFECT, side)]
    medium = measured.records[Matchup(Difficulty.MEDIUM, Opponent.PERFECT, side)]
    assert easy.losses > medium.losses > 0


def test_nobody_beats_a_perfect_opponent(measured: Strength) -> None:
    assert all(r.wins == 0 for m, r in measured.records.items() if m.opponent is Opponent.PERFECT)


def test_same_seed_same_numbers(measured: Strength) -> None:
    again = strength.measure(GAMES, SEED)
    assert again.records == measured.records


def test_a_row_does_not_depend_on_the_others(measured: Strength) -> None:
    row = Matchup(Difficulty.MEDIUM, Opponent.RANDOM, Player.O)
    alone = strength.measure(GAMES, SEED, [row])
    assert alone.records == {row: measured.records[row]}


def test_another_seed_other_numbers(measured: Strength) -> None:
    other = strength.measure(GAMES, SEED + 1)
    assert other.records != measured.records


def test_ordering_check_flags_ties_and_hard_losses() -> None:
    same = Strength(10, 0)
    for m in strength.all_matchups():
        same.records[m] = Record(wins=5, draws=3, losses=2)
    problems = strength.ordering_problems(same)
    assert "vs random, as X, easy -> medium: win % does not rise (50.0 -> 50.0)" in problems
    assert "vs perfect, both sides, medium -> hard: loss % does not fall (20.0 -> 20.0)" in problems
    assert "hard lost 2 of 10 games vs perfect as O" in problems


def test_main_prints_the_table_with_games_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert strength.main(["--games", "30", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "30 games a row, seed 3" in out
    assert "| level  | opponent | plays | win % | draw % | loss % |" in out
    assert out.count("\n| hard ") == 4
    assert "| hard   | perfect  | O     |   0.0 |  100.0 |    0.0 |" in out


def test_strength_imports_no_ui() -> None:
    code = (
        "import sys, tools.strength; "
        "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_bigger_boards_play_their_own_games() -> None:
    """--size picks the board: games end on it, and its rows have their own seeds."""
    rows = [Matchup(Difficulty.EASY, Opponent.RANDOM, Player.X)]
    four = strength.measure(20, SEED, rows, n=4)
    assert four.n == 4 and four.records[rows[0]].games == 20
    assert strength.game_rngs(SEED, rows[0], 0, 4)[0].random() != (
        strength.game_rngs(SEED, rows[0], 0)[0].random()
    )
    hard = [Matchup(Difficulty.HARD, Opponent.RANDOM, side) for side in Player]
    five = strength.measure(1, SEED, hard, n=5)
    assert all(record.losses == 0 for record in five.records.values())


def test_main_names_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert strength.main(["--size", "4", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "on 4x4 (4 in a row): 2 games a row, seed 1" in out
    assert "--size 4 --games 2 --seed 1" in out


def test_an_unknown_size_is_refused() -> None:
    with pytest.raises(ValueError, match=r"expected a size in \[3, 4, 5\], got 6"):
        strength.measure(1, SEED, n=6)
