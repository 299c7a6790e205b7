"""The explorer's words: tactics read off the board, why a move is worth what it is, the
best line, Hard's guarantee, the walk in words, and the tree as text and JSON.

By default a sample; ``TTT_LONG=1`` explains every move of every 3x3 position
in play and checks Hard's guarantee on all of them.
"""

from __future__ import annotations

import pytest

from tests.engine.reference import every_3x3_position, sample_3x3
from ttt_tui.engine import (
    Board,
    Outcome,
    Player,
    Verdict,
    analyze,
    cells_of,
    coordinate,
    rank,
    search,
    solver,
)
from ttt_tui.engine.minimax import Count, Estimate, Search, StepKind, walk
from ttt_tui.teach.explain import (
    Ply,
    at_least,
    best_line,
    big_number,
    count_words,
    flipped,
    guarantee,
    guarantee_lines,
    narrate,
    pick,
    rough,
    shortened,
    step_words,
    summary,
    tactic,
    tactic_tag,
    threats,
    tree_json,
    tree_lines,
    verdict_phrase,
    why,
)


def explain(position: str, square: str) -> str:
    """Why the side to move's move on ``square`` is worth what it is."""
    board = Board.parse(position)
    cell = next(c for c in board.legal_moves() if coordinate(c, board.n) == square)
    return why(analyze(board), cell, best_line(board.play(cell), analyze))


def wins_with(board: Board, player: Player, cell: int) -> bool:
    """Whether ``player`` would have a line with a mark on ``cell`` (told by the board)."""
    bit = 1 << cell
    marked = (
        Board(board.x | bit, board.o, board.n)
        if player is Player.X
        else Board(board.x, board.o | bit, board.n)
    )
    return marked.status.winner is player


# Tactics -------------------------------------------------------------------------------------


@pytest.mark.parametrize("board", sample_3x3(25, seed=5), ids=str)
def test_tactics_are_what_the_board_says(board: Board) -> None:
    """Threats, forks, blocks and forced moves, checked square by square on the board."""
    mover = board.to_move
    for cell in board.legal_moves():
        found = tactic(board, cell)
        after = board.play(cell)
        assert bool(found.completes) == (after.status.winner is mover)
        if after.is_game_over():
            continue
        ahead = {c for c in after.legal_moves() if wins_with(after, mover, c)}
        assert set(cells_of(found.threatens)) == ahead
        assert found.fork == (len(ahead) >= 2)
        theirs = {c for c in board.legal_moves() if wins_with(board, mover.other, c)}
        assert bool(found.blocks) == (cell in theirs)
        mine = {c for c in board.legal_moves() if wins_with(board, mover, c)}
        assert found.forced == (not mine and theirs == {cell})
    assert set(cells_of(threats(board, mover))) == {
        c for c in board.legal_moves() if wins_with(board, mover, c)
    }


# Why, in words -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "square", "expected"),
    [
        (
            # The better move and the reply take the same square: each named with its mark.
            "....X....",
            "b1",
            "O b1 loses in 6 (O a1 draws): X answers a1, threatening c3, then O c3 (forced:"
            " it blocks a1–c3), then X a2, which threatens c2 and a3 at once (a fork); O can"
            " block only one.",
        ),
        (
            "........X",
            "c1",
            "O c1 loses in 6 (O b2 draws): X answers a1, threatening b2, then O b2, blocking"
            " a1–c3 and threatening a3, then X a3, which threatens a2 and b3 at once (a"
            " fork); O can block only one.",
        ),
        (
            "X...O...X",
            "c1",
            "O c1 loses in 4 (O b1 draws): it threatens a3; X answers a3, which threatens a2"
            " and b3 at once (a fork); O can block only one.",
        ),
        (
            "XOO..X.X.",
            "a2",
            "O a2 loses in 4: X answers c3, which threatens b2 and a3 at once (a fork);"
            " O can block only one.",
        ),
        (
            ".....O.XX",
            "a3",
            "O a3 loses in 4: it blocks a3–c3 (forced); X answers b2, which threatens a1 and"
            " b1 at once (a fork); O can block only one.",
        ),
        (
            "....XOOXX",
            "a1",
            "O a1 loses in 2: X already threatens a1 and b1 (a fork); blocking one leaves b1,"
            " where X completes b1–b3.",
        ),
        (
            "X.O.X....",
            "b1",
            "O b1 loses in 2 (O c3 draws): it leaves X's threat at c3 open, and X completes"
            " a1–c3 next.",
        ),
        ("X.O.X.O..", "c3", "X c3 wins at once: it completes a1–c3."),
        (
            "XO.......",
            "b2",
            "X b2 wins in 5: it threatens c3; O answers c3 (forced: it blocks a1–c3), then"
            " X a2, which threatens c2 and a3 at once (a fork); O can block only one.",
        ),
        (
            ".......OX",
            "b1",
            "X b1 only draws (X c1 wins in 5): O answers a1; on the best line the threat is"
            " blocked at once, and the board fills with no line.",
        ),
    ],
)
def test_why_names_forks_blocks_and_forced_moves(position: str, square: str, expected: str) -> None:
    assert explain(position, square) == expected


def test_a_block_that_is_neither_forced_nor_a_threat_is_named_plainly() -> None:
    # O faces three threats (b1, b2, c2): blocking b1 is not forced (it saves nothing)
    # and makes no threat of O's own. A best line never shows such a move (it stops at
    # the fork), so it is narrated from a line given by hand.
    board = Board.parse("X.XO..O.X")
    block = next(c for c in board.legal_moves() if coordinate(c, 3) == "b1")
    after = board.play(block)
    win = pick(analyze(after))
    line = [
        Ply(board, block, analyze(board).moves[block]),
        Ply(after, win, analyze(after).moves[win]),
    ]
    assert narrate(line) == "O answers b1, blocking a1–c1, then X b2 and completes a1–c3"


@pytest.mark.parametrize("board", sample_3x3(15, seed=8), ids=str)
def test_every_why_starts_with_the_move_and_its_proven_value(board: Board) -> None:
    check_why(board)


def check_why(board: Board) -> None:
    analysis = analyze(board)
    for cell, verdict in analysis.moves.items():
        line = best_line(board.play(cell), analyze)
        text = why(analysis, cell, line)
        name = f"{board.to_move.value} {coordinate(cell, board.n)} "
        assert text.startswith(name), text
        said = text[len(name) :]
        if verdict.outcome is Outcome.DRAW and rank(analysis.value) > rank(verdict):
            assert said.startswith("only draws"), text
        else:
            assert said.startswith(verdict_phrase(verdict)), text
        assert text.endswith(".")
        if "(a fork)" in text:
            assert verdict.outcome is not Outcome.DRAW, text
        # A fork that decides the game, the move's own or the one its line comes to, is
        # named as one: a move that blocks and forks is a fork first.
        own = tactic(board, cell)
        if verdict.outcome is Outcome.WIN and own.fork and not own.completes:
            assert "(a fork)" in text, text
        decisive = next((ply for ply in line if decides(ply)), None)
        if decisive is not None and not tactic(decisive.board, decisive.cell).completes:
            assert "(a fork)" in text, text
            assert "a fork" in tactic_tag(decisive), tactic_tag(decisive)


def decides(ply: Ply) -> bool:
    """Whether a ply of a best line decides the game: a winning move that completes a
    line or makes a fork."""
    t = tactic(ply.board, ply.cell)
    return ply.verdict.outcome is Outcome.WIN and bool(t.completes or t.fork)


TAGS = {
    ("........X", 2): [
        ("X a1", "threatens b2"),
        ("O b2", "blocks a1–c3, threatens a3"),
        ("X a3", "blocks c1–a3; a fork: threatens a2 and b3"),
        ("O b1", "threatens b3"),
        ("X a2", "completes a1–a3"),
    ],
    ("XO.......", 4): [
        ("O c3", "forced: blocks a1–c3"),
        ("X a2", "a fork: threatens c2 and a3"),
        ("O c1", "threatens c2"),
        ("X c2", "completes a2–c2"),
    ],
    ("X.O.X....", 8): [
        ("X c2", "blocks c1–c3, threatens a2"),
        ("O a2", "forced: blocks a2–c2"),
        ("X b1", "threatens b3"),
        ("O b3", "blocks b1–b3, threatens a3"),
        ("X a3", "forced: blocks a3–c3"),
    ],
}
"""The best line after chosen moves, each ply with its tag, word for word: a fork that
also blocks, a forced block, a draw's blocks."""


@pytest.mark.parametrize(("position", "cell"), TAGS, ids=lambda value: str(value))
def test_chosen_best_lines_are_tagged_word_for_word(position: str, cell: int) -> None:
    line = best_line(Board.parse(position).play(cell), analyze)
    assert [(ply.name, tactic_tag(ply)) for ply in line] == TAGS[position, cell]


def test_a_position_is_summed_up_by_its_moves() -> None:
    text = summary(analyze(Board.parse("X........")))
    assert text == (
        "O to move: a draw with best play from both sides. 1 move draws (b2);"
        " 7 moves lose (b1, c1, a2, c2, a3, b3 and c3)."
    )
    won = summary(analyze(Board.parse("XO.......")))
    assert won.startswith("X to move wins in 5 with best play from both sides.")


# The best line -------------------------------------------------------------------------------


@pytest.mark.parametrize("board", sample_3x3(15, seed=9), ids=str)
def test_the_best_line_plays_best_moves_to_the_position_s_result(board: Board) -> None:
    line = best_line(board, analyze)
    value = analyze(board).value
    assert len(line) == value.plies
    for ply in line:
        assert ply.cell in analyze(ply.board).best
    end = line[-1].after
    winner = end.status.winner
    if value.outcome is Outcome.DRAW:
        assert winner is None and end.is_game_over()
    else:
        assert (winner is board.to_move) == (value.outcome is Outcome.WIN)


def test_pick_prefers_a_win_then_a_forced_block_then_a_fork() -> None:
    assert pick(analyze(Board.parse("XX.OO...."))) == 2  # win at c1
    assert pick(analyze(Board.parse("X...X..O."))) == 8  # the only block, c3
    # Equally good moves (all lose in the same time), none a win or a forced block: the
    # fork, though not first in reading order.
    for position, fork in (("..OX.XXO.", 1), ("...X.XOOX", 4)):
        forking = analyze(Board.parse(position))
        assert forking.best[0] != fork and tactic(forking.board, fork).fork
        assert pick(forking) == fork


# Hard's guarantee ----------------------------------------------------------------------------


@pytest.mark.parametrize("board", sample_3x3(20, seed=13), ids=str)
def test_every_reply_to_hard_keeps_hard_s_result(board: Board) -> None:
    check_guarantee(board)


def check_guarantee(board: Board) -> None:
    position = analyze(board)
    move = pick(position)
    after = board.play(move)
    found = guarantee(position, None if after.is_game_over() else analyze(after))
    assert found.move in position.best
    assert found.promised == position.value
    assert [reply.cell for reply in found.replies] == after.legal_moves()
    assert found.holds
    for reply in found.replies:
        assert at_least(reply.result, found.after_reply)
        if reply.best:
            assert reply.result == found.after_reply
        replied = after.play(reply.cell)
        if not replied.is_game_over():
            assert reply.result == analyze(replied).value
    lines = guarantee_lines(found)
    assert lines[0].startswith(f"Hard plays {board.to_move.value} {coordinate(move, 3)}")
    if found.replies:
        assert lines[-1].startswith("No reply is worse for")


def test_a_weaker_opponent_only_lets_hard_win_sooner() -> None:
    position = analyze(Board.parse("XO......."))
    found = guarantee(position, analyze(Board.parse("XO.X.....")))
    assert found.promised == Verdict(Outcome.WIN, 5)
    assert found.after_reply == Verdict(Outcome.WIN, 3)
    assert {reply.result.outcome for reply in found.replies} == {Outcome.WIN}
    assert min(r.result.plies or 0 for r in found.replies) == 1
    assert guarantee_lines(found)[-1] == (
        "No reply is worse for X than promised: a weaker O can only let X win sooner."
    )


def test_flipped_and_at_least() -> None:
    assert flipped(Verdict(Outcome.LOSS, 4)) == Verdict(Outcome.WIN, 4)
    assert shortened(Verdict(Outcome.WIN, 5), 2) == Verdict(Outcome.WIN, 3)
    assert flipped(Verdict(Outcome.DRAW, 4)) == Verdict(Outcome.DRAW, 4)
    assert at_least(Verdict(Outcome.WIN, 3), Verdict(Outcome.WIN, 5))
    assert not at_least(Verdict(Outcome.WIN, 7), Verdict(Outcome.WIN, 5))
    assert at_least(Verdict(Outcome.WIN, None), Verdict(Outcome.DRAW, 4))


# The walk in words ---------------------------------------------------------------------------


def test_each_step_of_the_walk_is_explained() -> None:
    board = Board.parse("XO..X.O..")
    kinds = set()
    for step in walk(board):
        lines = step_words(board, step)
        kinds.add(step.kind)
        assert lines and all(isinstance(line, str) for line in lines)
        if step.kind is StepKind.CUT:
            assert "cannot matter" in lines[1]
            for cell in step.pruned:
                assert coordinate(cell, 3) in lines[1]
        if step.kind is StepKind.ENTER and step.value is None:
            assert "α = " in lines[1] and "β = " in lines[1]
        if step.kind is StepKind.DONE:
            assert f"{step.nodes:,} positions visited, {step.cuts:,} cuts" in lines[1]
    assert kinds == set(StepKind)


def test_a_cut_names_where_the_opponent_already_does_better() -> None:
    board = Board.parse("XO..X.O..")
    cut = next(step for step in walk(board) if step.kind is StepKind.CUT)
    words = " ".join(step_words(board, cut))
    assert "elsewhere (" in words and "will never let the game come here" in words


# Counts and the tree as text -----------------------------------------------------------------


def test_counts_in_words() -> None:
    done = Count(Search.ALPHA_BETA, 20_866, True, Verdict(Outcome.DRAW, 9), cuts=4_856)
    assert count_words(done).startswith("20,866 positions, 4,856 cuts in ")
    assert count_words(done).endswith("found: draw")
    stopped = Count(
        Search.MINIMAX, 1_000_000, False, None, root_moves=13, estimate=Estimate(1.1e10, 2000)
    )
    assert count_words(stopped) == (
        "stopped after 1,000,000 positions (0 of 13 moves finished); the whole tree is about"
        " 1.1 × 10^10 positions (an estimate from 2,000 random games)"
    )
    assert big_number(549_946) == "549,946"
    assert big_number(2.34e13) == "2.3 × 10^13"


def test_an_estimate_is_told_to_two_figures_in_words() -> None:
    """No false precision: 4,992,647 years is about 5 million years."""
    assert [rough(value) for value in (7, 750, 12_345, 4_992_647, 2.14e9, 3.4e13)] == [
        "7",
        "750",
        "12 thousand",
        "5 million",
        "2.1 billion",
        "34 trillion",
    ]
    assert rough(3.4e15) == "3.4 × 10^15"


def test_the_tree_as_text_and_json_agrees_with_analyze() -> None:
    board = Board.parse("X.O.X....")
    lines = list(tree_lines(board, 2, analyze))
    top = [line for line in lines if not line.startswith("    ")]
    assert top[0] == "  O b1: loss in 2"
    assert "  O c3: draw *" in top
    assert len(top) == 6
    nodes = tree_json(board, 2, analyze)
    analysis = analyze(board)
    assert [node["cell"] for node in nodes] == sorted(analysis.moves)
    for node in nodes:
        verdict = analysis.moves[node["cell"]]
        assert (node["value"], node["plies"]) == (verdict.outcome.value, verdict.plies)
        assert node["best"] == (node["cell"] in analysis.best)
        after = analyze(board.play(node["cell"]))
        assert [child["cell"] for child in node["children"]] == sorted(after.moves)
        assert all("children" not in child for child in node["children"])


def test_a_5x5_tree_keeps_unknown_lengths_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the length of a win costs too much to prove, the tree says "win" with plies
    null, and every other node carries exactly the value the engine proved."""
    position = Board.parse(".X.XO.......O.X..O.XXO...")  # O to move, a win in 3
    monkeypatch.setitem(search.DISTANCE_BUDGET, 5, 1)  # one node: some lengths unproven
    solver.clear_tables()
    try:
        analysis = analyze(position)
        nodes = tree_json(position, 1, lambda board: analysis)
        lines = list(tree_lines(position, 1, lambda board: analysis))
    finally:
        solver.clear_tables()
    unknown = [cell for cell, verdict in analysis.moves.items() if verdict.plies is None]
    assert unknown, "a budget of one node leaves a length unknown"
    assert {node["cell"]: (node["value"], node["plies"]) for node in nodes} == {
        cell: (verdict.outcome.value, verdict.plies) for cell, verdict in analysis.moves.items()
    }
    for cell in unknown:
        outcome = analysis.moves[cell].outcome.value
        label = f"O {coordinate(cell, 5)}: {outcome}"
        assert any(line.strip().removesuffix(" *") == label for line in lines), label


# The long run --------------------------------------------------------------------------------


@pytest.mark.long
def test_every_3x3_move_is_explained_and_every_guarantee_holds() -> None:
    for board in every_3x3_position():
        check_why(board)
        check_guarantee(board)
