"""`ttt-tui analyze --tree DEPTH` and `--stats`: the tree as indented text and nested JSON,
and the three searches' counts; the plain `analyze` output is left as it was."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from tests.support.terminal import ttt
from tests.test_cli import IN_PROGRESS_KEYS, json_lines
from ttt_tui.commands.analyze import run_analyze
from ttt_tui.engine import Board, analyze, minimax
from ttt_tui.engine.minimax import Search, run_count


def analysed(*positions: str, as_json: bool = False, **options: Any) -> tuple[int, str, str]:
    """Run `ttt-tui analyze` in this process: status, output, errors."""
    out, err = io.StringIO(), io.StringIO()
    status = run_analyze(list(positions), as_json, out, err, **options)
    return status, out.getvalue(), err.getvalue()


def test_tree_text_is_indented_with_values_and_best_moves() -> None:
    status, out, err = analysed("X.O.X....", tree=2)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "position X.O.X...."
    assert "O to move: draw with best play" in lines
    assert "game tree, 2 plies deep (* marks the best moves):" in lines
    start = lines.index("game tree, 2 plies deep (* marks the best moves):") + 1
    tree = lines[start:]
    assert tree[0] == "  O b1: loss in 2"
    assert tree[1] == "    X a2: win in 3"
    assert "  O c3: draw *" in tree
    assert "    X c2: draw *" in tree
    top = [line for line in tree if not line.startswith("    ")]
    assert len(top) == len(Board.parse("X.O.X....").legal_moves())
    # The tree replaces the list of moves: each is in it once, at the top level.
    assert not any("<- best" in line for line in lines)


def test_tree_json_is_nested_objects_beside_the_usual_report() -> None:
    status, out, _ = analysed("XO.X.O...", as_json=True, tree=2)
    assert status == 0
    [report] = json_lines(out)
    assert set(report) == IN_PROGRESS_KEYS | {"tree"}
    board = Board.parse("XO.X.O...")
    analysis = analyze(board)
    nodes = report["tree"]
    assert [node["cell"] for node in nodes] == sorted(analysis.moves)
    for node in nodes:
        assert set(node) == {"move", "cell", "player", "value", "plies", "best", "children"}
        verdict = analysis.moves[node["cell"]]
        assert (node["value"], node["plies"], node["player"]) == (
            verdict.outcome.value,
            verdict.plies,
            "X",
        )
        after = board.play(node["cell"])
        if after.is_game_over():
            assert node["children"] == []
        else:
            assert len(node["children"]) == len(after.legal_moves())
            assert all("children" not in child for child in node["children"])


def test_stats_count_the_three_searches() -> None:
    status, out, _ = analysed("X...O....", stats=True)
    assert status == 0
    lines = out.splitlines()
    head = lines.index("positions each search visits to value it:")
    stats = lines[head + 1 :]
    assert [line.split()[0:2] for line in stats] == [
        ["plain", "minimax"],
        ["alpha-beta", f"{run_count(Board.parse('X...O....'), Search.ALPHA_BETA).nodes:,}"],
        ["the", "engine"],
    ]
    assert "7,332 positions in" in stats[0] and stats[0].endswith("found: draw")
    assert " cuts in " in stats[1]


def test_stats_json_and_an_unfinished_plain_minimax(monkeypatch: pytest.MonkeyPatch) -> None:
    # A smaller budget than the real 1,000,000, to keep the test quick.
    monkeypatch.setattr(minimax, "BUDGET", 20_000)
    monkeypatch.setattr(minimax, "SAMPLES", 200)
    status, out, _ = analysed("X...O......X....", as_json=True, stats=True)
    assert status == 0
    [report] = json_lines(out)
    stats = report["stats"]
    assert set(stats) == {"minimax", "alpha-beta", "engine"}
    plain = stats["minimax"]
    assert (plain["nodes"], plain["finished"], plain["value"]) == (20_000, False, None)
    assert plain["estimate"] > 1e9
    engine = stats["engine"]
    assert (engine["finished"], engine["value"], engine["cuts"]) == (True, "draw", None)
    assert stats["alpha-beta"]["cuts"] > 0


def test_finished_games_get_no_tree_and_no_stats() -> None:
    status, out, _ = analysed("XXX/OO./...", tree=3, stats=True)
    assert status == 0 and "game over: X won" in out and "game tree" not in out
    status, out, _ = analysed("XXX/OO./...", as_json=True, tree=3, stats=True)
    assert "tree" not in json.loads(out) and "stats" not in json.loads(out)


def test_the_command_line_takes_the_options_and_checks_the_depth() -> None:
    result = ttt("analyze", "--tree", "1", "--stats", "XO.X.O...")
    assert result.returncode == 0, result.stderr
    assert "  X a3: win in 1 *" in result.stdout
    assert "  the engine  " in result.stdout
    bad = ttt("analyze", "--tree", "0", "X........")
    assert bad.returncode == 2
    assert "argument --tree: expected at least 1, got 0" in bad.stderr
    helped = " ".join(ttt("analyze", "--help").stdout.split())
    assert "--tree DEPTH" in helped and "--stats" in helped
