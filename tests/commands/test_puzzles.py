"""`ttt-tui puzzles export`: the puzzles as text and JSON, the same for a seed, and bad
arguments in one line."""

from __future__ import annotations

import json

import pytest

from tests.support.terminal import run_main
from ttt_tui.commands.puzzles import THEMES
from ttt_tui.engine import Board, Outcome, analyze, read_square
from ttt_tui.teach.puzzles import Theme


def test_the_themes_option_takes_are_the_puzzles_themes() -> None:
    assert tuple(theme.value for theme in Theme) == THEMES


def test_each_line_names_position_side_goal_move_line_themes_and_difficulty() -> None:
    result = run_main("puzzles", "export", "--board", "4", "--count", "5", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    for line in lines:
        position, side, sentence, first, solution, themes, difficulty = line.split("\t")
        board = Board.parse(position)
        assert board.n == 4 and board.to_move.value == side
        assert sentence.startswith(f"{side} to play and ")
        name, number = first.split()
        cell = read_square(name, 4)
        assert isinstance(cell, int) and number == f"({cell + 1})"
        assert solution.split()[0] == name
        assert themes == "-" or all(theme in THEMES for theme in themes.split(","))
        assert difficulty.startswith("difficulty ") and int(difficulty.split()[1]) >= 1
        # The move is the only one reaching the goal, asked of the engine again.
        wanted = Outcome.WIN if "win" in sentence else Outcome.DRAW
        analysis = analyze(board)
        assert [c for c, v in analysis.moves.items() if v.outcome is wanted] == [cell]


def test_the_same_seed_prints_the_same_puzzles_and_another_seed_others() -> None:
    first = run_main("puzzles", "export", "--seed", "9").stdout
    assert first == run_main("puzzles", "export", "--seed", "9").stdout
    assert first != run_main("puzzles", "export", "--seed", "10").stdout
    # Every board by default, ten each.
    sizes = [len(line.split("\t")[0].split("/")) for line in first.splitlines()]
    assert sizes == [3] * 10 + [4] * 10 + [5] * 10


def test_json_has_the_puzzle_s_fields_and_a_theme_filters() -> None:
    result = run_main(
        "puzzles", "export", "--board", "5", "--theme", "forcing", "--count", "3", "--json"
    )
    assert result.returncode == 0, result.stderr
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objects) == 3
    for found in objects:
        assert found["n"] == 5 and "forcing" in found["themes"]
        assert found["goal"] == "win" and found["plies"] == len(found["line"]) >= 3
        assert found["line"][0] == found["first"]
        assert found["sentence"] == f"{found['to_move']} to play and win in {found['plies']}"
        board = Board.parse(found["position"])
        for cell in found["line"]:
            board = board.play(cell)
        assert board.status.winner is not None and board.status.winner.value == found["to_move"]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--board", "6"], "argument --board: expected one of 3, 4, 5, got '6'"),
        (["--count", "0"], "argument --count: expected a number of puzzles (1 to 10000), got 0"),
        (["--seed", "-1"], "argument --seed: expected a seed (0 to 9223372036854775807), got -1"),
        (["--theme", "pin"], "argument --theme: invalid choice: 'pin'"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(args: list[str], error: str) -> None:
    result = run_main("puzzles", "export", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"ttt-tui puzzles export: error: {error}")


def test_puzzles_without_an_action_starts_the_game_which_needs_a_terminal() -> None:
    result = run_main("puzzles")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("ttt-tui: the game needs an interactive terminal")
