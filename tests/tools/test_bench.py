"""The benchmarks: the engine's naive baseline is the tutorials' search; both report ratios."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

from tools import bare_app, bench, report, uibench
from tools.bare_app import BareApp
from ttt_tui.engine import Board, Status, analyze


def _positions_below(board: Board) -> int:
    """Positions reachable from ``board`` by legal moves, ``board`` itself not counted."""
    return sum(1 + _positions_below(board.play(cell)) for cell in board.legal_moves())


@pytest.mark.long  # the whole quick benchmark, 3 to 6 s of CPU: .ci/run runs it
def test_quick_run_counts_the_empty_board_tree_and_prints_ratios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "549,945 nodes visited" in out
    assert "With the root the game tree has 549,946" in out
    assert re.search(
        r"\| naive minimax, first move on empty board +\| +[\d.,]+ [mµ]?s .*1x \(baseline\)", out
    )
    for row in (
        "cold analyze(empty), fresh process",
        "cold import + analyze(empty), fresh process",
        "warm analyze(empty), memo populated",
        "warm choose_move(X...O...X, HARD)",
    ):
        assert re.search(
            re.escape(row) + r" +\| +[\d.,]+ [mµ]?s \|.*\| [\d.,]+x (faster|slower) +\|", out
        ), row
    if bench.build_rust_naive() is None:
        assert "Compiled baseline: not measured" in out
    else:
        assert re.search(r"\| naive minimax compiled \(Rust\), first move, its own clock", out)
        assert re.search(r"549,946 nodes\), built by cargo in ", out)
        assert re.search(
            r"faster than the compiled naive search: [\d.,]+ [mµ]?s against .*, (met|not met)\.",
            out,
        )
    # The bigger boards: each row has its figures, nodes and a verdict on its goal.
    assert re.search(
        r"\| 4x4: cold analyze\(empty\), draw, fresh process +\| +[\d.,]+ [mµ]?s \|", out
    )
    assert re.search(
        r"4x4: .*\| +[\d,]+ \| +[\d.]+ MiB \| under 1 s and 150 MiB: (met|not met)", out
    )
    assert re.search(
        r"5x5: cold proof that the empty board is a draw \(no book\) .*\| +[\d,]+ \|"
        r" +[\d.]+ MiB \| under 2 s and 65,784 nodes: (met|not met)",
        out,
    )
    assert re.search(r"5x5: a Hard move, \d+ moves of 8 games .*p95 under 1 s: (met|not met)", out)
    assert "Hard lost 0;" in out


@pytest.mark.parametrize("position", ["X...O....", "XO..X....", "X...O...X", "XOX.O...."])
def test_naive_counts_every_position_below_the_root(position: str) -> None:
    board = Board.parse(position)
    assert bench.naive_best_move(board).nodes == _positions_below(board)


@pytest.mark.parametrize(
    "position", ["X........", "....X....", "X...O....", "XO..X....", "X...O...X", "XX.OO...."]
)
def test_naive_first_best_move_agrees_with_the_engine(position: str) -> None:
    board = Board.parse(position)
    assert bench.naive_best_move(board).move == analyze(board).best[0]


def test_naive_search_refuses_a_finished_game() -> None:
    board = Board.parse("XXXOO....")
    assert board.status is Status.X_WON
    with pytest.raises(ValueError, match="expected a game in progress, got x_won"):
        bench.naive_best_move(board)


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]  # 1..20
    assert bench.percentile(values, 0.95) == 19.0
    assert bench.percentile(values, 0.5) == 10.0
    assert bench.percentile([3.0], 0.95) == 3.0


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(1.234, "1.23 s"), (0.0053, "5.30 ms"), (0.694, "694 ms"), (12.34e-6, "12.3 µs")],
)
def test_format_time(seconds: float, text: str) -> None:
    assert report.format_time(seconds) == text


@pytest.mark.parametrize(
    ("baseline", "seconds", "text"),
    [
        (0.7, 0.7, "1x (baseline)"),
        (0.7, 0.35, "2.0x faster"),
        (0.694, 0.00522, "133x faster"),
        (0.694, 0.694 / 16_718, "16,700x faster"),
        (0.01, 0.03, "3.0x slower"),
    ],
)
def test_format_ratio(baseline: float, seconds: float, text: str) -> None:
    assert bench.format_ratio(baseline, seconds) == text


def test_bench_imports_no_ui() -> None:
    code = (
        "import sys, tools.bench; print(sorted(m for m in ('textual', 'rich') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


# The UI benchmark (`--ui`): its output's shape and its parts, never its speed.

UI_ROWS = (
    "start to first full frame, wall, median",
    "start to first full frame, wall, p95",
    "start to first full frame, CPU, median",
    "start to first full frame, CPU, p95",
    "cursor move (arrow), key to screen, median",
    "cursor move (arrow), key to screen, p95",
    "play (digit), key to own mark on screen, median",
    "play (digit), key to own mark on screen, p95",
    "play, key to the computer's reply on screen, median",
    "play, key to the computer's reply on screen, p95",
    "CPU per cursor move",
    "CPU per play (ttt-tui: with the computer's reply)",
)
FELT_ROWS = (
    "CPU from launch to the first full frame, median",
    "a browser tab's first frame (serve), median",
    "a browser tab's first frame (serve), p95",
    "explorer on 5x5, Search tab counting: tree key to screen, p95",
    "arrow key to screen, median",
)
FELT_ROW = re.compile(
    r"^\| ((?:CPU|a browser|explorer|arrow)[^|]+?) +\| +([\d.,]+ \S+) \|"
    r" +([\d.,]+ \S+) \(([^)]+)\) \| +([\d.]+x) \| +([\d.]+x) \| (met|not met) +\|$",
    re.MULTILINE,
)
TABLE_ROW = re.compile(r"^\| (.+?) +\| +(.+?) \| +(.+?) \| +(.+?) \|$", re.MULTILINE)
UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6}


def seconds(text: str) -> float:
    """A figure as printed (``35.9 ms``) in seconds."""
    number, unit = text.split()
    return float(number.replace(",", "")) * UNITS[unit]


@pytest.mark.long  # the whole quick benchmark, 3 to 6 s of CPU: .ci/run runs it
def test_ui_quick_run_prints_every_figure_with_consistent_ratios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench.main(["--ui", "--quick", "--renders"]) == 0
    out = capsys.readouterr().out
    # The columns are as wide as their widest figure, so the heading's padding varies.
    assert re.search(r"\|\s*measure\s*\|\s*ttt-tui\s*\|\s*bare Textual\s*\|", out), out
    ui, felt = out.split("\nWhat a person feels,")
    rows = {m[1]: (m[2], m[3], m[4]) for m in TABLE_ROW.finditer(ui) if m[1] != "measure"}
    assert list(rows) == list(UI_ROWS)
    for measure, (game, bare, ratio) in rows.items():
        game_s = seconds(game)
        # CPU is read in clock ticks (10 ms): three cursor moves of a few ms each can
        # come to none in so short a run, on either app; a time on screen never can.
        assert game_s >= 0 if measure.startswith("CPU") else game_s > 0, measure
        if measure.startswith("play, key to the computer's reply"):
            assert (bare, ratio) == ("—", "—")
            continue
        bare_s = seconds(bare)
        if bare_s == 0:  # under one clock tick of CPU in so short a run
            assert ratio == "—", measure
            continue
        assert ratio.endswith("x"), measure
        # Each figure has 3 significant digits and the ratio 2 decimals.
        assert float(ratio[:-1]) == pytest.approx(game_s / bare_s, rel=0.015, abs=0.01), measure
    for measure in UI_ROWS[:10:2]:
        median, high = rows[measure], rows[measure.replace("median", "p95")]
        for m, h in zip(median[:2], high[:2], strict=True):
            if m != "—":
                assert seconds(m) <= seconds(h), measure
    assert re.search(r"Each app: 1 launch, .* 3 cursor moves and 3 plays", out)

    felt_rows = {m[1]: m.groups()[1:] for m in FELT_ROW.finditer(felt)}
    assert list(felt_rows) == list(FELT_ROWS)
    for measure, (game, base, baseline, ratio, goal, verdict) in felt_rows.items():
        assert baseline in (
            "bare Textual",
            "bare Textual under textual-serve",
            "the explorer, nothing counting",
        ), measure
        expected = seconds(game) / seconds(base)
        assert float(ratio[:-1]) == pytest.approx(expected, rel=0.015, abs=0.01), measure
        if ratio != goal:  # else rounded to the goal: either verdict
            assert verdict == ("met" if float(ratio[:-1]) < float(goal[:-1]) else "not met")
    assert re.search(r"^Tabs: 1 tab to each server", felt, re.M)
    assert re.search(r"^Explorer: 3 tree moves to each", felt, re.M)

    goals_part = ui.split("\nGoals (issue 9)")[1].split("\nRenders (")[0]
    goals = re.findall(r"^- (.+)$", goals_part, re.M)
    assert len(goals) == 4
    for goal in goals[:3]:
        assert re.search(r"within [\d.]+x bare: ([\d.]+x, (met|not met)|not measured)", goal)
    assert re.search(r"renders each widget it affects once: (met|not met \(.+\))$", goals[3])

    renders = re.findall(r"^- (.+?): (\d+) renders of (\d+) widgets: (.+)$", ui, re.M)
    assert renders[0][0].startswith("cursor move to ")
    actions = [r[0] for r in renders[1:]]
    assert re.fullmatch(r"play \d", actions[0])
    replies = r"reply \d|play \d and reply \d, in one frame"
    assert any(re.fullmatch(replies, action) for action in actions)
    for _, total, widgets, listing in renders:
        counts = [int(n) for n in re.findall(r" x(\d+)", listing)]
        assert (len(counts), sum(counts)) == (int(widgets), int(total))


BOARD_SCREEN = [
    " ⭘        ttt-tui — tic-tac-toe vs minimax ",
    " ╭───────────────────────╮  Your move (X)  ",
    " │   1     ▶ 2 ◀     3   │  Wins 0 · 1 2  ",
    " │                       │   1. X b1      ",
    " │  ▀▄ ▄▀    5       6   │  Hints: 0      ",
    " │   ▄▀▀▄                │                ",
    " │   7       8       9   │  X (first)     ",
    " ╰───────────────────────╯                ",
    " n New  q Quit  1 2 3                      ",
]


def test_board_labels_are_the_lone_numbers_inside_the_frame() -> None:
    labels = uibench.board_labels(BOARD_SCREEN)
    # 4 has a mark; the numbers in the sidebar and the footer are outside the frame.
    assert sorted(labels) == [1, 2, 3, 5, 6, 7, 8, 9]
    assert labels[2] == (2, 13) and BOARD_SCREEN[2][13] == "2"
    assert uibench.CURSOR_MARK.findall("\n".join(BOARD_SCREEN)) == ["2"]


def test_the_game_subject_sees_its_first_frame_and_marks() -> None:
    subject = uibench.GameSubject()
    assert not subject.first_frame(BOARD_SCREEN)  # a square is taken: not a new game
    fresh = [line.replace("▀▄ ▄▀", "  4  ") for line in BOARD_SCREEN]
    assert subject.first_frame(fresh)
    subject.labels = uibench.board_labels(fresh)
    assert subject.taken(BOARD_SCREEN, 4)
    assert not subject.taken(BOARD_SCREEN, 5)
    assert not subject.taken(fresh, 4)


def test_session_cpu_covers_this_process() -> None:
    if not uibench.cpu_time_available():
        pytest.skip("CPU times come from /proc")
    deadline = time.process_time() + 0.2
    while time.process_time() < deadline:
        pass
    own = time.process_time()
    assert uibench.session_cpu(os.getsid(0)) >= own - 0.02


def test_goals_are_met_up_to_their_limits() -> None:
    def table(cursor: float, cursor_cpu: float, start_cpu: float) -> list[uibench.Row]:
        return [
            uibench.Row("cursor", cursor, 0.010, "cursor_median"),
            uibench.Row("cursor CPU", cursor_cpu, 0.005, "cursor_cpu"),
            uibench.Row("start CPU", start_cpu, 0.200, "start_cpu_median"),
        ]

    met = uibench.goal_lines(table(0.015, 0.010, 0.260), None)
    assert [line.rsplit(", ", 1)[-1] for line in met[:3]] == ["met"] * 3
    assert met[3].endswith("not checked (add --renders)")
    missed = uibench.goal_lines(table(0.016, 0.011, 0.270), [])
    assert [line.rsplit(", ", 1)[-1] for line in missed[:3]] == ["not met"] * 3
    once = uibench.Renders("play 5", {"square 5": 1, "StatusLine#status": 1})
    twice = uibench.Renders("reply 7", {"square 7": 1, "StatusLine#status": 3})
    assert uibench.goal_lines(table(1, 1, 1), [once])[3].endswith(": met")
    assert "StatusLine#status x3" in uibench.goal_lines(table(1, 1, 1), [once, twice])[3]


async def test_every_key_of_the_bare_app_changes_its_text() -> None:
    app = BareApp()
    async with app.run_test(size=uibench.SIZE) as pilot:
        assert str(app.text.content) == bare_app.INITIAL_TEXT
        for key, text in [
            ("right", "key 1: cursor 6"),
            ("right", "key 2: cursor 6"),  # the edge: the text still changes
            ("up", "key 3: cursor 3"),
            ("7", "key 4: played 7"),
        ]:
            await pilot.press(key)
            assert str(app.text.content) == text
