"""The search benchmark: what it reads off the screen, and (in CI) one quick run."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.terminal import ROOT
from tools import searchbench
from ttt_tui.engine import Board, coordinate
from ttt_tui.teach.explorer import Explorer

# What the game and the explorer showed in an 80x24 pty (pyte), trailing spaces cut.
GAME_SCREEN = """\
 ⭘                 ttt-tui — 5x5, four in a row, vs minimax
 ╭────────────────────────────────────────────╮
 │                            ▄▀▀▀▄           │   O to move
 │   1        2        3      █   █      5    │  This session
 │                            ▀▄▄▄▀           │  X wins 0 · O wins 0 · Draws 0
 │                                            │  Hints this game: 0
 │          ▀▄ ▄▀    ▄▀▀▀▄                    │
 │   6        █      █   █      9        10   │  Moves
 │          ▄▀ ▀▄    ▀▄▄▄▀                    │   1. X e3
 │                                            │   2. O c2
 │                                     ▀▄ ▄▀  │   3. X c5
 │  11       12       13       14        █    │   4. O d1
 │                                     ▄▀ ▀▄  │   5. X b2
 │                                            │
 │                                            │
 │  16       17       18       19        20   │  Mode
 │                                            │  You vs AI     2P    AI vs AI
 │                                            │
 │                   ▀▄ ▄▀                    │  Board
 │  21       22        █       24        25   │     3x3       4x4      5x5
 │                   ▄▀ ▀▄                    │
 │                                            │  ▐X▌ Coach  (c)               ▆
 ╰────────────────────────────────────────────╯  ▐X▌ Alternate who starts
 n New  u Undo  c Coach  i Hint  s Stats  ? Help  q Quit            ▏^p palette
""".splitlines()
EXPLORER_TOP = """\
 ⭘                     ttt-tui — tic-tac-toe vs minimax
╭──────────────────────────────────────────────╮ ╭────────────────────────────╮
│ ▼ Now: O to move, win in 9                   │ │                            │
│ ├─ ▶ O a1: draw                              │ │ …     X     O     …     …  │
│ ├─ ▶ O b1: win in 13                         │ │                            │
│ ├─ ▶ O c1: win in 13                       ▁ │ │ …     …     …     …     X  │
│ ├─ ▶ O e1: draw                              │ │                            │
│ ├─ ▶ O a2: loss in 8                         │ │ …     …     …     …     …  │
│ ├─ ▶ O d2: draw                              │ │                            │
│ ├─ ▶ O e2: draw                              │ │ …     …     X     …     …  │
│ ├─ ▶ O a3: loss in 8                         │ ╰────────────────────────────╯
╰──────────────────────────────────────────────╯ O a1: X to move, proving…
""".splitlines()
"""The explorer on `EXPLORED`, a1 selected and being analysed: the tree's root label
reads like the root's heading, ``Now: O to move``."""
WHY_TAB = """\
 Why (w)  Best line (b)  Search (s)  Alpha-beta (a)  Guarantee (g)
╸━━━━━━━╺━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
 O a1 only draws (c3 wins in 9): on the best line neither side ever makes a
 threat, and the board fills with no line.

 Proving… 1,804 positions, 0.2 s (valuing e1)





 esc Game  , Back  . Step  ] Cut  x Stop count  ? Help  q Quit      ▏^p palette
""".splitlines()
SEARCH_TAB = """\
 Why (w)  Best line (b)  Search (s)  Alpha-beta (a)  Guarantee (g)
╸━━━━━━━╺━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
  search         positions
  plain minimax             waiting
  alpha-beta                waiting
  the engine                counting…

 Positions visited to value this position; x stops or restarts counting.



 esc Game  , Back  . Step  ] Cut  x Stop count  ? Help  q Quit      ▏^p palette
""".splitlines()


def test_the_benchmark_s_position_and_keys_fit_each_other() -> None:
    """SETUP plays LONG from the empty board; CYCLE visits only empty squares."""
    board = Board.empty(5)
    typed = b"".join(searchbench.SETUP).decode()
    for number in ("15", "8", "23"):
        assert typed.startswith(number)
        typed = typed[len(number) :]
        board = board.play(int(number) - 1)
    assert board == searchbench.LONG
    assert all(board[square - 1] is None for _, square in searchbench.CYCLE)
    assert searchbench.LONG[18 - 1] is None  # where "up" from 23 leaves the cursor


def test_the_screen_readers() -> None:
    assert searchbench.cursor_at(18)(["│  ▶ 18 ◀  │"])
    assert searchbench.cursor_at(8)(["│  ▶8◀  │"])
    assert not searchbench.cursor_at(8)(["│  ▶ 18 ◀  │"])
    assert searchbench.searching(["title", "│ 13 proving… │", "footer"])
    assert not searchbench.searching(["title", "│ 13 draw │", "footer"])


def test_the_explorer_s_position_keys_and_headings_fit_each_other() -> None:
    """EXPLORED_SETUP plays EXPLORED, whose fifth move the game lists as EXPLORED_PLAYED;
    its first move is a1, and the explorer's headings begin as the benchmark expects."""
    board = Board.empty(5)
    typed = b"".join(searchbench.EXPLORED_SETUP).decode()
    for number in ("15", "8", "23", "4", "7"):
        assert typed.startswith(number)
        typed = typed[len(number) :]
        board = board.play(int(number) - 1)
    assert board == searchbench.EXPLORED
    assert coordinate(7 - 1, 5) == "b2"
    assert searchbench.EXPLORED_PLAYED.endswith("5. X b2")
    assert min(board.legal_moves()) == 0
    explorer = Explorer(searchbench.EXPLORED)
    assert explorer.view().heading.startswith(searchbench.ROOT_HEADING)
    explorer.select((0,))
    assert explorer.view().heading.startswith(searchbench.CHILD_HEADING)


def test_the_explorer_heading_is_read_under_the_small_board_not_in_the_tree() -> None:
    screen = [*EXPLORER_TOP, *WHY_TAB]
    assert searchbench.explorer_heading(screen) == "O a1: X to move, proving…"
    assert searchbench.heading_is(searchbench.CHILD_HEADING)(screen)
    assert not searchbench.heading_is(searchbench.ROOT_HEADING)(screen)  # the tree's root
    root = [*EXPLORER_TOP[:-1], EXPLORER_TOP[-1].replace("O a1: X to move", "Now: O to move")]
    assert searchbench.heading_is(searchbench.ROOT_HEADING)(root)
    assert not searchbench.heading_is(searchbench.CHILD_HEADING)(root)
    assert searchbench.explorer_heading(GAME_SCREEN) == ""
    assert searchbench.explorer_heading([]) == ""


def test_the_explorer_heading_may_take_two_lines() -> None:
    screen = [
        "title",
        "╭───╮ ╭───╮",
        "│ a │ │ x │",
        "│ b │ ╰───╯",
        "│ c │ O a1: X to move,",
        "╰───╯ loss in 12",
        "tabs",
    ]
    assert searchbench.explorer_heading(screen) == "O a1: X to move, loss in 12"


def test_analysed_and_counting_are_read_off_the_explorer() -> None:
    assert not searchbench.analysed([*EXPLORER_TOP, *WHY_TAB])  # the heading, Proving…
    done = [line.replace("proving…", "draw") for line in EXPLORER_TOP]
    assert not searchbench.analysed([*done, *WHY_TAB])  # Proving… in the Why tab
    assert searchbench.analysed([*done, *WHY_TAB[:-8], *WHY_TAB[-6:]])
    assert searchbench.analysed(GAME_SCREEN)
    assert searchbench.counting([*EXPLORER_TOP, *SEARCH_TAB])
    finished = [line.replace("counting…", "done") for line in SEARCH_TAB]
    assert not searchbench.counting([*EXPLORER_TOP, *finished])  # the footer's "Stop count"
    assert not searchbench.counting([*EXPLORER_TOP, *WHY_TAB])


def test_cpu_is_shown_as_a_share_of_one_core() -> None:
    assert searchbench.Busy(10.0, 2.5, None).shares() == ("25%", "none")
    assert searchbench.Busy(2.0, 1.9, 0.0).shares() == ("95%", "0%")


@pytest.mark.long  # three games in ptys
def test_a_quick_run_prints_every_table_and_goal() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tools.bench", "--search", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for name in (
        "idle (coach off, no search)",
        "searching in the search process",
        "searching in a thread of the app",
        "idle (Why tab, nothing counting)",
        "counting in the search process",
        "counting in a thread of the app",
    ):
        assert re.search(rf"\| {re.escape(name)} +\| +[\d.]+ m?s \| +[\d.]+ m?s \|", out), out
    assert re.search(r"Key to screen for 3 cursor moves a variant \(of 3: ", out), out
    assert re.search(r"p95 while searching within 1.5x idle: [\d.]+x, (met|not met)", out)
    assert re.search(r"p95 while counting within 1.5x idle: [\d.]+x, (met|not met)", out)
    assert re.search(r"nothing left to count: \d+ times? \(counting in the search process\)", out)
    # Counted in the search process in one, in the app itself in the other.
    assert re.search(r"\| counting in the search process +\| +\d+% \| +\d+% \|", out), out
    assert re.search(r"\| counting in a thread of the app +\| +\d+% \| +none \|", out), out
    assert re.search(r"a search stops within 100 ms: worst [\d.]+ m?s, (met|not met)", out)
