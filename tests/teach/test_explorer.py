"""The explorer's model, without a screen: what it asks to have analysed and counted, how
it steps, and what each tab shows."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.terminal import ttt
from ttt_tui.engine import Board, analyze
from ttt_tui.engine.board import coordinate
from ttt_tui.engine.minimax import Count, Estimate, Search, StepKind, alpha_beta, run_count
from ttt_tui.teach.explorer import ALL_COUNTED, WALK_TOO_BIG, Explorer, Tab


def studied(explorer: Explorer) -> list[Board]:
    """Answer every analysis the model asks for, as the screen does (the first position of
    the study order not analysed yet, each time); the positions asked."""
    asked: list[Board] = []
    while (
        board := next((b for b in explorer.study_order() if b not in explorer.analyses), None)
    ) is not None:
        asked.append(board)
        explorer.add_analysis(analyze(board))
    return asked


def test_the_root_needs_only_its_own_analysis_and_is_summed_up() -> None:
    root = Board.parse("X........")
    explorer = Explorer(root)
    assert explorer.view().why == ("Proving…",)
    assert explorer.view().board.pending == frozenset(root.legal_moves())
    assert studied(explorer) == [root]
    view = explorer.view()
    assert view.why[0].startswith("O to move: a draw with best play")
    assert view.heading == "Now: O to move, draw"
    assert dict(view.board.verdicts) == analyze(root).moves
    assert view.board.hints == frozenset({4})


def test_a_selected_move_is_explained_from_its_parent_and_its_best_line() -> None:
    root = Board.parse("XOO..X.X.")
    explorer = Explorer(root)
    studied(explorer)
    assert explorer.select((3,))  # O a2
    assert not explorer.select((3,))
    asked = studied(explorer)
    after = root.play(3)
    assert asked[0] == after  # the parent (the root) is known already
    assert explorer.view().why[0] == (
        "O a2 loses in 4: X answers c3, which threatens b2 and a3 at once (a fork);"
        " O can block only one."
    )
    assert explorer.view().heading == "O a2: X to move, win in 3"
    assert explorer.view().board.last_move == 3


def test_the_best_line_steps_forward_and_back_on_the_board() -> None:
    root = Board.parse("XO.......")
    explorer = Explorer(root)
    explorer.set_tab(Tab.LINE)
    assert explorer.step(True) == "Still proving…"
    studied(explorer)
    line = explorer.view().line
    assert line is not None and line.complete and len(line.rows) == 5
    assert line.rows[0].name == "X a2" and line.rows[0].tag == "threatens a3"
    assert "a fork" in line.rows[2].tag
    assert line.note == "X wins."
    first = explorer.view().board
    assert first.board == root and first.hints == frozenset({3})
    assert explorer.view().heading == "Now: X to move, win in 5"
    assert explorer.step(True) is None
    shown = explorer.view().board
    assert (shown.board, shown.last_move) == (root.play(3), 3)
    assert explorer.view().heading == "Best line 1. X a2: O to move, loss in 4"
    for _ in range(4):
        assert explorer.step(True) is None
    assert explorer.step(True) == "The line is at the end of the game."
    assert explorer.view().board.board.status.winner is not None
    for _ in range(5):
        assert explorer.step(False) is None
    assert explorer.step(False) == "The line is at its start."


def test_the_guarantee_needs_the_position_after_hard_s_move() -> None:
    root = Board.parse("XO.......")
    explorer = Explorer(root)
    explorer.set_tab(Tab.GUARANTEE)
    asked = studied(explorer)
    assert asked == [root, root.play(3)]
    lines = explorer.view().guarantee
    assert lines[0] == (
        "Hard plays X a2: X wins in 5 at worst, counting this move;"
        " after O's reply, X wins in 3 at worst."
    )
    assert "  O a3  X wins in 3      O's best: exactly the promise" in lines
    assert lines[-1].startswith("No reply is worse for X than promised")


GUARANTEED = [
    ".........",  # the empty board: Hard draws
    "XO.......",  # Hard wins
    "O...X....",  # after X b2, O a1 (a reply lets X win with its next move)
    "....XXXOO",  # Hard lost already: every reply wins at once
    "X...XXO.O..O..XO",  # 4x4
    ".O.XXX.X...OXOXO.O...X.O.",  # 5x5
]
"""Positions whose Guarantee tab is checked against `analyze`, on every board."""

REPLY_ROW = re.compile(r"^  ([XO]) ([a-e][1-5]) +(.+?) {2,}")


def analyze_says(result: dict[str, object], hard: str) -> str:
    """What `analyze --json` says of a position for Hard, in the Guarantee tab's words."""
    if result["status"] != "in_progress":
        return "a draw" if result["status"] == "draw" else f"{hard} has lost"
    value, plies = result["value"], result["plies"]
    if result["to_move"] != hard:  # pragma: no cover - Hard moves after every reply
        raise AssertionError(result)
    if value == "draw":
        return "a draw"
    verb = "wins" if value == "win" else "loses"
    return f"{hard} {verb} at once" if plies == 1 else f"{hard} {verb} in {plies}"


@pytest.mark.parametrize("position", GUARANTEED)
def test_the_guarantee_counts_as_analyze_does_from_after_the_reply(position: str) -> None:
    """On the empty board the tab said "O b1  X wins in 7" where `analyze XO.......` says
    X wins in 5: it counted from before Hard's own move, without saying so."""
    root = Board.parse(position)
    explorer = Explorer(root)
    explorer.set_tab(Tab.GUARANTEE)
    studied(explorer)
    lines = explorer.view().guarantee
    rows = [m.groups() for line in lines if (m := REPLY_ROW.match(line))]
    hard = root.to_move.value
    played = re.match(rf"Hard plays {hard} (\w+):", lines[0])
    assert played, lines[0]
    move = next(c for c in root.legal_moves() if coordinate(c, root.n) == played[1])
    after = root.play(move)
    replies = [str(after.play(cell)) for cell in after.legal_moves()]
    ran = ttt("analyze", "--json", *replies)
    assert ran.returncode == 0, ran.stderr
    reports = [json.loads(line) for line in ran.stdout.splitlines()]
    for (_, square, words), cell, report in zip(rows, after.legal_moves(), reports, strict=True):
        assert square == coordinate(cell, root.n)
        assert words == analyze_says(report, hard), (square, lines)


def test_the_walk_steps_jumps_to_cuts_and_ends_with_alpha_beta_s_counts() -> None:
    root = Board.parse("XO..X.O..")
    explorer = Explorer(root)
    explorer.set_tab(Tab.WALK)
    assert explorer.view().walk[0].startswith("Alpha-beta on the position itself")
    assert explorer.view().heading == "Now: X to move, proving…"
    assert explorer.step(True) is None
    assert explorer.view().walk[0] == "Step 1: position 1, cuts so far 0"
    assert explorer.view().heading == "Alpha-beta at the position itself: X to move"
    assert explorer.jump(True) is None
    walker = explorer.walker
    assert walker is not None and walker.current is not None
    assert walker.current.kind is StepKind.CUT
    cut_path = " · ".join(
        f"{'XO'[i % 2]} {'abc'[c % 3]}{c // 3 + 1}" for i, c in enumerate(walker.current.path)
    )
    assert explorer.view().heading.startswith(f"Alpha-beta at {cut_path}: ")
    cut_at = walker.index
    assert explorer.step(True) is None and explorer.step(False) is None
    assert walker.index == cut_at
    assert explorer.jump(False) is None  # back to the start: no cut before the first
    assert walker.index == -1
    while explorer.jump(True) is None:
        pass
    assert walker.finished
    count = alpha_beta(root)
    explorer.add_count(root, count)
    done = walker.current
    assert done is not None and (done.nodes, done.cuts) == (count.nodes, count.cuts)
    assert (
        explorer.view()
        .walk[0]
        .endswith(f"position {count.nodes:,} of {count.nodes:,}, cuts so far {count.cuts:,}")
    )
    assert explorer.step(True) == "The walk is over."


def test_no_walk_where_too_many_squares_are_empty() -> None:
    explorer = Explorer(Board.parse("X" + "." * 24))
    explorer.set_tab(Tab.WALK)
    assert explorer.walker is None
    assert explorer.step(True) == WALK_TOO_BIG
    assert explorer.view().walk == (WALK_TOO_BIG,)


def test_counts_run_on_the_search_tab_quickest_first_and_can_be_stopped() -> None:
    root = Board.parse("X...O....")
    explorer = Explorer(root)
    assert explorer.next_count() is None  # not on the Why tab
    explorer.set_tab(Tab.SEARCH)
    order = []
    while (search := explorer.next_count()) is not None:
        order.append(search)
        explorer.count_began(root, search)
        assert explorer.view().counts[[*Search].index(search)].state == "counting…"
        explorer.add_count(root, run_count(root, search))
    assert order == [Search.ENGINE, Search.ALPHA_BETA, Search.MINIMAX]
    rows = explorer.view().counts
    assert [row.search for row in rows] == [Search.MINIMAX, Search.ALPHA_BETA, Search.ENGINE]
    assert rows[0].nodes == "7,332" and all(row.state == "done" for row in rows)
    assert explorer.view().counts_note.startswith("Alpha-beta visits 8x fewer positions")
    assert explorer.toggle_counting() == ALL_COUNTED  # done: nothing to stop or redo
    assert not explorer.counting_stopped
    explorer.select((1,))
    assert explorer.toggle_counting() is None
    assert explorer.next_count() is None
    assert explorer.view().counts[0].state == "stopped"
    assert explorer.toggle_counting() is None
    assert explorer.next_count() is Search.ENGINE


def test_a_finished_game_has_nothing_to_explore() -> None:
    explorer = Explorer(Board.parse("XXXOO...."))
    assert explorer.study_order() == []
    view = explorer.view()
    assert view.heading == "Now: X has won"
    assert view.why == ("The game is over here: X has won. There are no moves to explore.",)
    explorer.set_tab(Tab.SEARCH)
    assert explorer.next_count() is None


@pytest.mark.parametrize("path", [(), (2,)], ids=["the root", "a move that wins"])
def test_a_finished_position_is_searched_on_no_tab(path: tuple[int, ...]) -> None:
    """Finished at the root, or at a selected move that ends the game: no count waits to
    run or can be stopped, and no tab says it is proving, waiting or too big to walk."""
    root = Board.parse("XXXOO....") if not path else Board.parse("XX.OO....")
    explorer = Explorer(root)
    studied(explorer)
    explorer.select(path)
    assert explorer.position.is_game_over()
    nothing = "The game is over here: X has won. There is nothing to search."
    explorer.set_tab(Tab.SEARCH)
    view = explorer.view()
    assert (view.counts, view.counts_note) == ((), nothing)
    assert explorer.toggle_counting() == nothing
    assert explorer.view().counts == () and explorer.next_count() is None
    explorer.set_tab(Tab.WALK)
    assert explorer.view().walk == (nothing,)
    assert explorer.step(True) == explorer.jump(True) == nothing
    for tab in Tab:
        explorer.set_tab(tab)
        assert studied(explorer) == []
        view = explorer.view()
        line = () if view.line is None else (view.line.note,)
        shown = [view.heading, *view.why, *line, *view.walk, *view.guarantee, view.counts_note]
        assert not any(word in text for text in shown for word in ("roving", "waiting"))
        assert WALK_TOO_BIG not in shown


def test_a_view_works_out_only_the_parts_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen reads the heading, the board and the shown tab: a tree move on the Why
    tab must not cost the best line, the counts, the walk or the guarantee."""
    explorer = Explorer(Board.parse("XO......."))
    studied(explorer)

    def unwanted(self: Explorer) -> object:
        raise AssertionError("worked out, though not read")

    for name in ("_line_state", "_count_rows", "_counts_note", "_walk_lines", "_guarantee"):
        monkeypatch.setattr(Explorer, name, unwanted)
    assert explorer.select((3,))
    view = explorer.view()
    assert view.heading.startswith("X a2: O to move")
    assert view.board.last_move == 3
    assert view.why[0].startswith("X a2 wins in 5")


def test_the_time_plain_minimax_would_take_is_told_without_false_precision() -> None:
    """Counted to its budget at half a million positions a second, against a tree
    estimated to take 4,992,647 years: "about 5 million years", not every digit."""
    board = Board.parse("X...O......X....")
    explorer = Explorer(board)
    explorer.set_tab(Tab.SEARCH)
    years = 365.25 * 86_400 * 4_992_647
    plain = Count(
        Search.MINIMAX,
        nodes=1_000_000,
        finished=False,
        verdict=None,
        seconds=2.0,
        estimate=Estimate(nodes=500_000 * years, samples=2_000),
    )
    explorer.add_count(board, plain)
    assert explorer.view().counts_note == (
        "Plain minimax cannot finish here: at this rate, about 5 million years."
    )
