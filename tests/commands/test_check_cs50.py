"""`ttt-tui check` on CS50 files with each classic bug (tests/commands/cs50_bots.py):
each function's grade, counted against what the file's own function gives when
called here, and each bug named; and line-protocol bots whose moves only a
modelled bug explains, and one that never flushes its output."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.commands.cs50_bots import LINE_BOT, MINIMAX_ONLY, UNFLUSHED_COMMAND, source
from tests.commands.test_check import load
from tests.support.terminal import run_main
from ttt_tui.bots.bot import UNFLUSHED, load_bot
from ttt_tui.bots.player import BotFailed, BotPlayer
from ttt_tui.engine import Board, Status
from ttt_tui.teach.cs50 import FUNCTIONS, reachable_positions


def check(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = run_main("check", "--json", "--timeout", "60", *map(str, args))
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def bot(tmp_path: Path, name: str) -> Path:
    """The CS50 test bot ``name`` (`source`) as a file."""
    return write(tmp_path, name, source(name))


def grid(board: Board) -> list[list[str | None]]:
    cells = [None if c == "." else c for c in str(board)]
    return [cells[r * 3 : r * 3 + 3] for r in range(3)]


def wrong_winners(path: Path) -> int:
    """Boards where the file's own winner(), called here, differs from the engine."""
    module = load(path)
    return sum(
        1
        for board in reachable_positions()
        if module.winner(grid(board))
        != (None if board.status.winner is None else board.status.winner.value)
    )


def test_a_correct_cs50_file_has_every_function_right(tmp_path: Path) -> None:
    status, report = check("--side", "O", bot(tmp_path, "correct"))
    assert (status, report["verdict"], report["diagnosis"]) == (0, "perfect", [])
    assert list(report["functions"]) == list(FUNCTIONS)
    assert all(f["wrong"] == 0 and not f["missing"] for f in report["functions"].values())
    assert report["functions"]["result"]["checked"] > 20000
    assert report["asked_twice"] > 0 and report["unstable"] == []


def test_a_winner_that_misses_a_diagonal_is_named(tmp_path: Path) -> None:
    path = bot(tmp_path, "winner_misses_diagonal")
    status, report = check("--side", "O", path)
    winner = report["functions"]["winner"]
    assert winner["wrong"] == wrong_winners(path) > 0
    first = Board.parse(winner["first"]["position"])
    assert winner["first"]["got"] == {"value": None}
    assert winner["first"]["expected"] == first.status.winner.value  # type: ignore[union-attr]
    assert (status, report["verdict"]) == (1, "loses")
    assert report["diagnosis"][0].startswith("winner() misses the diagonal a1-b2-c3")
    assert f"ttt-tui analyze {first}" in report["diagnosis"][0]


def test_a_full_board_called_a_draw_is_named(tmp_path: Path) -> None:
    path = bot(tmp_path, "full_board_first")
    status, report = check("--side", "X", path)
    full_with_line = sum(
        1 for b in reachable_positions() if b.move_count == 9 and b.status is not Status.DRAW
    )
    assert report["functions"]["utility"]["wrong"] == full_with_line
    assert report["functions"]["winner"]["wrong"] == 0
    assert (status, report["verdict"]) == (1, "loses")
    assert "utility() calls a full board a draw" in report["diagnosis"][0]


def test_a_result_that_writes_on_its_board_is_named(tmp_path: Path) -> None:
    status, report = check("--side", "O", bot(tmp_path, "result_in_place"))
    result = report["functions"]["result"]
    legal = sum(len(b.legal_moves()) for b in reachable_positions())
    assert result["changed_board"] == legal
    assert (status, report["verdict"]) == (1, "loses")
    assert report["diagnosis"][0].startswith("result() wrote on the board it was given in")


def test_a_player_for_the_wrong_side_is_named(tmp_path: Path) -> None:
    status, report = check("--side", "O", bot(tmp_path, "wrong_side"))
    player = report["functions"]["player"]
    assert player["wrong"] == player["checked"] == 4520
    assert player["first"]["got"] == {"value": "O"} and player["first"]["expected"] == "X"
    assert (status, report["verdict"]) == (1, "loses")
    assert "player() answers for the other side" in report["diagnosis"][0]


def test_a_function_that_raises_shows_its_last_line(tmp_path: Path) -> None:
    status, report = check("--side", "O", bot(tmp_path, "utility_raises"))
    utility = report["functions"]["utility"]
    draws = sum(1 for b in reachable_positions() if b.status is Status.DRAW)
    assert utility["wrong"] == draws
    assert utility["first"]["got"] == {"raised": "KeyError: None"}
    assert status == 1


def test_missing_functions_are_reported_not_failed(tmp_path: Path) -> None:
    """A file whose end-of-game function has another name: ``utility`` is missing,
    the rest are checked, and its perfect moves keep the verdict perfect."""
    renamed = source("correct").replace("utility", "outcome")
    status, report = check("--side", "O", write(tmp_path, "renamed", renamed))
    assert report["functions"]["utility"]["missing"] is True
    assert report["functions"]["winner"]["wrong"] == 0
    assert (status, report["verdict"]) == (0, "perfect")
    text = run_main("check", "--side", "O", str(tmp_path / "renamed.py")).stdout
    assert "  utility: missing (not defined in the file)" in text
    assert text.index("utility: missing") < text.index("3x3:")


def test_a_minimax_only_file_has_every_function_missing(tmp_path: Path) -> None:
    status, report = check("--side", "O", write(tmp_path, "only", MINIMAX_ONLY))
    assert all(f["missing"] for f in report["functions"].values())


def test_answers_off_by_one_show_the_raw_answer(tmp_path: Path) -> None:
    status, report = check("--side", "O", bot(tmp_path, "one_based"))
    assert status == 1 and report["illegal"] > 0
    (words,) = [d for d in report["diagnosis"] if "1-based" in d]
    found = re.search(r"look 1-based: \((\d), (\d)\) for ([a-c])([1-3]) in ([XO.]{9})", words)
    assert found is not None, words
    row, col, letter, number, position = found.groups()
    assert (letter, int(number)) == ("abc"[int(col) - 1], int(row))
    assert Board.parse(position)[(int(row) - 1) * 3 + int(col) - 1] is None


def test_a_random_choice_is_caught_asking_twice(tmp_path: Path) -> None:
    status, report = check("--side", "X", bot(tmp_path, "random_choice"))
    (words,) = [d for d in report["diagnosis"] if "answers the same position differently" in d]
    pairs = re.search(r"\((\d), (\d)\) \([a-c][1-3]\), then \((\d), (\d)\) \([a-c][1-3]\)", words)
    assert pairs is not None, words
    assert pairs.groups()[:2] != pairs.groups()[2:]
    assert 0 < len(report["unstable"]) <= report["asked_twice"] <= report["positions"]
    first = report["unstable"][0]
    assert first["answers"][0] != first["answers"][1]
    assert f"ttt-tui analyze {first['position']}" in words
    assert (status, report["verdict"]) == (0, "slow")


@pytest.mark.parametrize(
    ("bug", "words"),
    [
        ("full_first", 'it tests "board full" before "a line made"'),
        ("other_side", "it plays as if the other player were to move"),
    ],
)
def test_a_line_protocol_bot_with_a_modelled_bug_is_named(
    tmp_path: Path, bug: str, words: str
) -> None:
    path = write(
        tmp_path,
        bug,
        LINE_BOT.format(full_first=bug == "full_first", other_side=bug == "other_side"),
    )
    status, report = check("--cmd", f"{sys.executable} {path}")
    assert (status, report["verdict"]) == (1, "loses")
    assert any(words in d and "ttt-tui analyze" in d for d in report["diagnosis"]), report[
        "diagnosis"
    ]


async def test_a_command_that_never_flushes_is_told_to(tmp_path: Path) -> None:
    path = write(tmp_path, "unflushed", UNFLUSHED_COMMAND)
    player = BotPlayer(load_bot(None, f"{sys.executable} {path}", 0.5, option="--bot-cmd"))
    try:
        with pytest.raises(BotFailed, match=re.escape(f"no answer in 0.5 s{UNFLUSHED}")):
            await player.choose_move(Board.empty(3))
    finally:
        await player.close()
