"""`python -m ttt_tui`: the analyze command and the command line's error paths."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.terminal import DEADLINE, ROOT, game_env, run_main, ttt
from ttt_tui import __version__
from ttt_tui.commands.analyze import run_analyze
from ttt_tui.engine import Board, analyze, minimax
from ttt_tui.engine.minimax import Search, run_count

IN_PROGRESS_KEYS = {"position", "n", "k", "to_move", "status", "value", "plies", "moves", "best"}
FINISHED_KEYS = {"position", "n", "k", "to_move", "status"}


def json_lines(text: str) -> list[dict[str, Any]]:
    """One parsed object per output line; fails on anything that is not JSON."""
    return [json.loads(line) for line in text.splitlines()]


# --- Text output ----------------------------------------------------------------------------


def test_text_shows_board_values_and_best_move() -> None:
    """The board is drawn, each empty cell is valued and the best one is marked."""
    result = run_main("analyze", "X........")
    assert result.returncode == 0
    assert result.stderr == ""
    out = result.stdout
    assert " X | 2 | 3" in out
    assert "O to move: draw with best play" in out
    lines = out.splitlines()
    assert "  2 (b1)  loss in 6" in lines
    assert "  5 (b2)  draw  <- best" in lines
    assert sum("<- best" in line for line in lines) == 1
    assert sum("loss in 6" in line for line in lines) == 7


def test_text_reports_finished_games() -> None:
    """A won or drawn position says so instead of valuing moves."""
    result = run_main("analyze", "XXX/OO./...", "XOX/XOO/OXX")
    assert result.returncode == 0
    assert "game over: X won" in result.stdout
    assert "game over: draw" in result.stdout
    assert "<- best" not in result.stdout


def test_text_bad_input_is_one_line_on_stderr() -> None:
    """A bad position gets one line naming it on stderr; the rest are still analysed."""
    result = run_main("analyze", "X........", "XQ.......", "OO.......")
    assert result.returncode == 2
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert "XQ......." in errors[0] and "unknown character 'Q'" in errors[0]
    assert "OO......." in errors[1] and "O has more marks than X" in errors[1]
    assert "Traceback" not in result.stderr
    assert "position X........" in result.stdout
    assert "<- best" in result.stdout


# --- JSON output ----------------------------------------------------------------------------


def test_json_example_matches_spec() -> None:
    """X........ is a draw in 8 for O, with the centre the only move that holds."""
    result = run_main("analyze", "--json", "X........")
    assert result.returncode == 0
    [report] = json_lines(result.stdout)
    assert set(report) == IN_PROGRESS_KEYS
    assert report == {
        "position": "X........",
        "n": 3,
        "k": 3,
        "to_move": "O",
        "status": "in_progress",
        "value": "draw",
        "plies": 8,
        "moves": [
            {"cell": cell, "value": "draw", "plies": 8}
            if cell == 4
            else {"cell": cell, "value": "loss", "plies": 6}
            for cell in range(1, 9)
        ],
        "best": [4],
    }


def test_json_moves_and_best_are_sorted() -> None:
    """Moves come in cell order, each with exactly cell, value and plies; best is sorted."""
    [report] = json_lines(run_main("analyze", "--json", ".........").stdout)
    assert [move["cell"] for move in report["moves"]] == list(range(9))
    assert all(set(move) == {"cell", "value", "plies"} for move in report["moves"])
    assert report["best"] == list(range(9))
    assert (report["value"], report["plies"]) == ("draw", 9)


def test_json_one_object_per_input_in_order() -> None:
    """Valid, finished and bad positions each give one object, in the order given."""
    inputs = ["x-o/_X./..o", "XX", "XXX/OO./...", "XOX/XOO/OXX", "X........"]
    result = run_main("analyze", "--json", *inputs)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    reports = json_lines(result.stdout)
    assert len(reports) == len(inputs)
    playing, bad, won, drawn, last = reports
    assert set(playing) == IN_PROGRESS_KEYS
    assert (playing["position"], playing["to_move"]) == ("X.O.X...O", "X")
    assert bad == {"position": "XX", "error": "expected 9, 16 or 25 cells, got 2"}
    assert won == {"position": "XXXOO....", "n": 3, "k": 3, "to_move": None, "status": "x_won"}
    assert drawn == {"position": "XOXXOOOXX", "n": 3, "k": 3, "to_move": None, "status": "draw"}
    assert set(won) == set(drawn) == FINISHED_KEYS
    assert last["position"] == "X........"


def test_json_winning_position_values() -> None:
    """A win in one is reported with its plies, and only winning cells are best."""
    [report] = json_lines(run_main("analyze", "--json", "XX./OO./...").stdout)
    assert (report["value"], report["plies"]) == ("win", 1)
    assert report["best"] == [2]
    assert {"cell": 2, "value": "win", "plies": 1} in report["moves"]
    assert all(move["plies"] > 1 for move in report["moves"] if move["cell"] != 2)


def test_exit_status_zero_when_all_good() -> None:
    """Only bad input makes the exit status 2."""
    result = run_main("analyze", "--json", "X........", "XXX/OO./...")
    assert result.returncode == 0
    assert len(json_lines(result.stdout)) == 2


# --- Bigger boards ---------------------------------------------------------------------------


def test_text_draws_a_4x4_board_and_names_squares() -> None:
    """16 cells are a 4x4 board with 4 in a row; numbers are padded, squares named a1..d4."""
    result = run_main("analyze", "XXX./OOO./..../....")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  X |  X |  X |  4" in lines
    assert "----+----+----+----" in lines
    assert " 13 | 14 | 15 | 16" in lines
    assert "X to move: win in 1 with best play" in lines
    assert "   4 (d1)  win in 1  <- best" in lines
    # Only d2 blocks O's own row; every other move lets O win next.
    assert "   8 (d2)  draw" in lines
    assert "  16 (d4)  loss in 2" in lines


def test_text_draws_a_5x5_board_with_squares_to_e5() -> None:
    """25 cells are a 5x5 board with 4 in a row; the last square is e5."""
    position = "XXX../OO.../O..../...../....."
    result = run_main("analyze", position)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  X |  X |  X |  4 |  5" in lines
    assert " 21 | 22 | 23 | 24 | 25" in lines
    assert "   4 (d1)  win in 1  <- best" in lines
    assert any(line.startswith("  25 (e5)  ") for line in lines)


def test_json_gives_the_size_and_line_length() -> None:
    """Each object says n and k; a 5x5 report keeps the same keys as 3x3."""
    result = run_main("analyze", "--json", "X" + "." * 15, "XXX../OO.../O..../...../.....")
    assert result.returncode == 0, result.stderr
    four, five = json_lines(result.stdout)
    assert (four["n"], four["k"], five["n"], five["k"]) == (4, 4, 5, 4)
    assert set(four) == set(five) == IN_PROGRESS_KEYS
    assert (four["value"], four["plies"]) == ("draw", 15)
    assert [m["cell"] for m in four["moves"]] == list(range(1, 16))
    assert (five["value"], five["plies"], five["best"]) == ("win", 1, [3])


# --- stdin ----------------------------------------------------------------------------------


def test_dash_reads_positions_from_stdin() -> None:
    """'-' reads one position a line, skipping blank lines, in place among the arguments."""
    result = ttt(
        "analyze",
        "--json",
        "X........",
        "-",
        ".........",
        stdin="xo.......\n\n  \nbad\nXXX/OO./...\r\n",
    )
    assert result.returncode == 2
    positions = [report["position"] for report in json_lines(result.stdout)]
    assert positions == ["X........", "XO.......", "bad", "XXXOO....", "........."]


# --- Top-level options ----------------------------------------------------------------------


def test_version() -> None:
    """--version prints the program and version and exits 0."""
    result = run_main("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"ttt-tui {__version__}"


def test_help() -> None:
    """--help, for the program and for analyze, exits 0 and describes the commands."""
    top = run_main("--help")
    assert top.returncode == 0
    assert "usage: ttt-tui" in top.stdout and "analyze" in top.stdout
    sub = run_main("analyze", "--help")
    assert sub.returncode == 0
    assert "--json" in sub.stdout


def test_help_names_the_data_directory_and_the_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--help says where data is kept, how to move it, and where the keys are listed."""
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "here"))
    top = run_main("--help")
    assert f"\n  {tmp_path / 'here'}\n" in top.stdout  # whole on its own line, to copy
    text = " ".join(top.stdout.split())
    assert "Set TTT_TUI_DATA_DIR to use another directory" in text and "--no-save" in text
    assert "press ? for every key" in text


def test_analyze_help_says_how_cells_are_numbered() -> None:
    """Text mode numbers squares from 1, JSON from 0, on every board: the help says so."""
    text = " ".join(run_main("analyze", "--help").stdout.split())
    assert "numbered from 1 in text" in text and "from 0 in --json" in text
    assert "9, 16 or 25 cells" in text


def test_bad_difficulty_is_a_usage_error() -> None:
    """An unknown difficulty exits 2 with argparse's usage and a message naming it."""
    result = run_main("--difficulty", "nope")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "usage: ttt-tui" in result.stderr
    assert "error: argument --difficulty: expected one of easy, medium, hard, got 'nope'" in (
        result.stderr
    )
    assert "Traceback" not in result.stderr


def test_analyze_needs_a_position() -> None:
    """`analyze` with no positions is a usage error, not an empty success."""
    result = run_main("analyze")
    assert result.returncode == 2
    assert "usage:" in result.stderr


# The game tree and the searches' counts ------------------------------------------


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
    result = run_main("analyze", "--tree", "1", "--stats", "XO.X.O...")
    assert result.returncode == 0, result.stderr
    assert "  X a3: win in 1 *" in result.stdout
    assert "  the engine  " in result.stdout
    bad = run_main("analyze", "--tree", "0", "X........")
    assert bad.returncode == 2
    assert "argument --tree: expected a number of plies (1 or more), got 0" in bad.stderr
    helped = " ".join(run_main("analyze", "--help").stdout.split())
    assert "--tree DEPTH" in helped and "--stats" in helped


BAD_POSITIONS = {
    "analyze-wrong-length": ("X.......", "expected 9, 16 or 25 cells, got 8"),
    "analyze-unknown-char": (
        "X.Z......",
        "unknown character 'Z' at cell 3; expected X, O, '.', '-' or '_'",
    ),
    "analyze-o-ahead": ("OO.......", "O has more marks than X (2 against 0); X moves first"),
    "analyze-x-two-ahead": (
        "XX.......",
        "X has 2 more marks than O (2 against 0); the sides take turns",
    ),
    "analyze-both-lines": ("XXX/OOO/...", "both X and O have a line"),
    "analyze-winner-count": (
        "XXXOO.O..",
        "X has a line but O moved last; the game ended when X won",
    ),
    "analyze-4x4-o-ahead": ("O" + "." * 15, "O has more marks than X (1 against 0); X moves first"),
}


@pytest.mark.parametrize(("position", "error"), BAD_POSITIONS.values(), ids=BAD_POSITIONS.keys())
def test_bad_position_is_named_and_the_others_still_analysed(
    tmp_path: Path, position: str, error: str
) -> None:
    """One stderr line names the position and the problem; good ones around it still print."""
    result = run_main("analyze", "X........", position, "XX.OO....", data=tmp_path / "data")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"ttt-tui analyze: {position!r}: {error}"]
    out = result.stdout
    assert "position X........\n" in out
    assert "position XX.OO....\n" in out
    assert "X to move: win in 1 with best play" in out


def test_bad_positions_in_json_are_error_objects(tmp_path: Path) -> None:
    """With --json each problem is an object on stdout in its place; the status is still 2."""
    positions = [position for position, _ in BAD_POSITIONS.values()]
    result = run_main("analyze", "--json", *positions, "X........", data=tmp_path / "data")
    assert result.returncode == 2
    assert result.stderr == ""
    *bad, good = (json.loads(line) for line in result.stdout.splitlines())
    assert bad == [{"position": p, "error": e} for p, e in BAD_POSITIONS.values()]
    assert good["position"] == "X........"
    assert good["best"] == [4]


def test_stdin_undecodable(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 become one named bad position; the lines around it are analysed."""
    result = ttt(
        "analyze",
        "-",
        data=tmp_path / "data",
        stdin=b"X........\n\xff\xfe.......\n\x80\n..X......\n",
    )
    assert result.returncode == 2
    stderr = result.stderr
    assert "Traceback" not in stderr
    assert "UnicodeDecodeError" not in stderr
    assert stderr.splitlines() == [
        "ttt-tui analyze: '\ufffd\ufffd.......': unknown character '\ufffd' at cell 1;"
        " expected X, O, '.', '-' or '_'",
        "ttt-tui analyze: '\ufffd': expected 9, 16 or 25 cells, got 1",
    ]
    out = result.stdout
    assert "position X........\n" in out
    assert "position ..X......\n" in out


def test_broken_pipe(tmp_path: Path) -> None:
    """``ttt-tui analyze - | head -1``: the reader leaves early; no traceback and status 0."""
    positions = tmp_path / "positions.txt"
    # About 1.5 MB of output, far more than a pipe holds, so the writer must meet EPIPE.
    positions.write_text("X........\n" * 5000)
    with positions.open("rb") as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ttt_tui", "analyze", "-"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=game_env(tmp_path / "data"),
        )
        assert proc.stdout is not None and proc.stderr is not None
        try:
            first = proc.stdout.readline()
            proc.stdout.close()
            stderr = proc.stderr.read().decode()
            status = proc.wait(timeout=DEADLINE)
        finally:
            proc.kill()
            proc.wait()
    assert first == b"position X........\n"
    assert "Traceback" not in stderr
    assert "BrokenPipeError" not in stderr
    assert stderr == ""
    assert status == 0


@pytest.mark.parametrize("stdin", [b"", b"\n  \n\n"], ids=["empty", "blank-lines"])
def test_no_positions_on_stdin_is_said_with_status_2(tmp_path: Path, stdin: bytes) -> None:
    result = ttt("analyze", "-", data=tmp_path / "data", stdin=stdin)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "ttt-tui analyze: no positions given (standard input held none)\n"


def test_a_huge_bad_line_is_quoted_short_and_many_are_counted(tmp_path: Path) -> None:
    """A 120 KB line is quoted in at most 60 characters; of 494 bad lines ten are named
    and the rest counted, and the good line among them is still analysed."""
    huge = "X" * 120_000
    binary = ["\x00" * 40] * 493
    stdin = "\n".join([huge, "X........", *binary]).encode()
    result = ttt("analyze", "-", data=tmp_path / "data", stdin=stdin)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 11
    assert lines[0].startswith("ttt-tui analyze: 'XXXXX") and "…'" in lines[0]
    assert len(lines[0]) < 200
    assert all(len(line) < 200 for line in lines)
    assert lines[-1] == "ttt-tui analyze: and 484 more bad positions"
    assert "position X........" in result.stdout

    json_result = ttt("analyze", "--json", "-", data=tmp_path / "data", stdin=stdin)
    objects = json_lines(json_result.stdout)
    assert len(objects) == 495
    assert objects[0]["position"] == "X" * 59 + "…"
    assert json_result.stderr == ""
