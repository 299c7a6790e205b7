"""An attempt at a puzzle move by move, and how the next puzzle is chosen."""

from __future__ import annotations

import datetime
import random

import pytest

from ttt_tui.engine import Outcome, analyze
from ttt_tui.play.rating import puzzle_rating
from ttt_tui.teach.puzzle_run import Phase, Run, for_streak, near_rating, of_the_day
from ttt_tui.teach.puzzles import Goal, from_record, record, shipped

WIN_IN_5 = from_record(".X./.../O.. win 0,2,4,3,7 5 win-in-n 3 1")
BLOCK = from_record("X.O/.X./... hold 8 2 block 1 0")
TWO_WAYS = from_record(".O./X.X/... win 4,7,0,2,8 5 block,win-in-n 3 0")
"""After its first two moves, a1 and c1 both win."""


def test_the_solution_line_solves_and_the_engine_defends_along_it() -> None:
    run = Run(WIN_IN_5)
    assert run.play(0) is Phase.DEFENDER
    assert not run.reply_needs_analysis()
    assert run.reply() == 2
    assert not run.needs_analysis(4)
    assert run.play(4) is Phase.DEFENDER
    assert run.reply() == 3
    assert run.play(7) is Phase.SOLVED
    assert run.board.status.winner is WIN_IN_5.solver


def test_a_wrong_first_move_is_missed_at_once() -> None:
    run = Run(WIN_IN_5)
    assert run.play(4) is Phase.MISSED
    assert run.wrong == 4 and run.before_wrong == WIN_IN_5.board
    with pytest.raises(ValueError, match="player's turn"):
        run.play(0)
    run.retry()
    assert run.phase is Phase.SOLVER and run.board == WIN_IN_5.board


def test_a_hold_is_solved_by_its_one_move() -> None:
    assert Run(BLOCK).play(8) is Phase.SOLVED
    assert Run(BLOCK).play(1) is Phase.MISSED


def test_off_the_line_any_winning_move_is_taken_and_the_engine_finds_the_reply() -> None:
    run = Run(TWO_WAYS)
    run.play(TWO_WAYS.first)
    run.reply()
    board = run.board
    analysis = analyze(board)
    winning = [c for c, v in analysis.moves.items() if v.outcome is Outcome.WIN]
    other = next(c for c in winning if c != TWO_WAYS.line[2])
    assert run.needs_analysis(other)
    with pytest.raises(ValueError, match="needs the analysis"):
        run.play(other)
    assert run.play(other, analysis) is Phase.DEFENDER
    assert run.reply_needs_analysis()
    defence = analyze(run.board)
    assert run.reply(defence) == min(defence.best)
    # The game goes on until the player wins or fails.
    while not run.finished:
        here = analyze(run.board)
        if run.phase is Phase.SOLVER:
            best = here.best[0]
            run.play(best, here if run.needs_analysis(best) else None)
        else:
            run.reply(here)
    assert run.phase is Phase.SOLVED


def test_a_move_that_gives_the_win_away_later_is_missed() -> None:
    run = Run(WIN_IN_5)
    run.play(0)
    run.reply()
    analysis = analyze(run.board)
    losing = next(c for c, v in analysis.moves.items() if v.outcome is not Outcome.WIN)
    assert run.play(losing, analysis) is Phase.MISSED


def test_the_puzzle_of_the_day_depends_on_the_date_alone() -> None:
    day = datetime.date(2026, 11, 27)
    assert of_the_day(day) == of_the_day(datetime.date(2026, 11, 27))
    days = {record(of_the_day(day + datetime.timedelta(days=d))) for d in range(30)}
    assert len(days) > 20
    daily = of_the_day(day)
    assert daily.plies >= (3 if daily.goal is Goal.WIN else 4)


def test_the_next_puzzle_is_near_the_rating_and_not_one_just_seen() -> None:
    rng = random.Random(1)
    easy = near_rating(1100.0, rng)
    hard = near_rating(2600.0, rng)
    assert puzzle_rating(easy.difficulty) < puzzle_rating(hard.difficulty)
    boards = {near_rating(1300.0, random.Random(s)).board.n for s in range(20)}
    assert boards == {3, 4, 5}, "equally near puzzles come from every board"
    only_5 = near_rating(1500.0, rng, boards=(5,))
    assert only_5.board.n == 5
    first = near_rating(1500.0, random.Random(2), boards=(3,))
    again = near_rating(1500.0, random.Random(2), boards=(3,), avoid={record(first)})
    assert again != first


def test_a_streak_gets_harder() -> None:
    early = [for_streak(0, random.Random(s)).difficulty for s in range(10)]
    late = [for_streak(20, random.Random(s)).difficulty for s in range(10)]
    assert max(early) < min(late)
    assert all(p.goal in Goal for p in shipped(3))


def test_a_miss_is_explained_with_the_line_that_refutes_it() -> None:
    from ttt_tui.teach.explain import best_line
    from ttt_tui.teach.puzzle_run import announcement, miss_words, solution_words

    run = Run(BLOCK)
    run.play(1)
    after = run.board
    text = miss_words(analyze(run.before_wrong), 1, best_line(after, analyze))
    assert text.startswith("O b1 loses in 2: ")
    assert "c3 draws" not in text, "the answer is not given away before a retry"
    assert "leaves X's threat at c3 open" in text
    assert text.endswith("The refutation: X c3.")
    assert solution_words(BLOCK) == "Solution: O c3 (holds the draw)."
    assert solution_words(WIN_IN_5) == "Solution: X a1, O c1, X b2, O a2, X b3 (wins)."
    assert announcement(BLOCK) == (
        "Puzzle, 3x3: O to play and hold the draw. Board:"
        " Row 1: X, empty, O. Row 2: empty, X, empty. Row 3: empty, empty, empty."
    )


def test_revealing_plays_the_solution_and_ends_the_attempt() -> None:
    run = Run(WIN_IN_5)
    run.play(4)
    run.reveal()
    assert run.phase is Phase.SHOWN and run.finished and run.wrong is None
    assert tuple(run.played) == WIN_IN_5.line
    assert run.board.status.winner is WIN_IN_5.solver


def test_a_theme_and_a_board_filter_the_next_puzzle() -> None:
    from ttt_tui.teach.puzzle_run import themes_on
    from ttt_tui.teach.puzzles import Theme

    assert Theme.FORCING not in themes_on((3,))
    assert themes_on((5,)) == list(Theme)
    for seed in range(5):
        fork = near_rating(1500.0, random.Random(seed), boards=(4,), theme=Theme.FORK)
        assert fork.board.n == 4 and Theme.FORK in fork.themes
        streak = for_streak(3, random.Random(seed), boards=(3,), theme=Theme.BLOCK)
        assert streak.board.n == 3 and Theme.BLOCK in streak.themes
    with pytest.raises(ValueError, match="no puzzle on boards"):
        near_rating(1500.0, random.Random(0), boards=(3,), theme=Theme.FORCING)


def test_the_review_offers_a_thrown_away_result_as_a_puzzle() -> None:
    from ttt_tui.engine import Player
    from ttt_tui.teach.puzzle_run import retry_offered
    from ttt_tui.teach.review import positions, review

    # X a3, O a1, X b2, O c1, X a2 (only b1 held the draw), O b1: O won.
    cells = (6, 0, 4, 2, 3, 1)
    analyses = [analyze(board) for board in positions(3, cells)]
    found = review(3, cells, analyses, "o_won")
    mistake = found.moves[4]
    assert mistake.label.turning and mistake.player is Player.X
    assert retry_offered(mistake, analyses[4], "o_won", Player.X)
    assert retry_offered(mistake, analyses[4], "o_won", None)
    assert not retry_offered(mistake, analyses[4], "o_won", Player.O), "not O's move"
    assert not retry_offered(mistake, analyses[4], "x_won", Player.X), "X won anyway"
    assert not retry_offered(mistake, analyses[4], "abandoned", Player.X)
    assert not any(
        retry_offered(move, analyses[index], "o_won", Player.X)
        for index, move in enumerate(found.moves)
        if not move.label.turning
    )
    # A blunder where two moves kept the win is no puzzle: X c2 won at once, X c1 later.
    cells = (3, 0, 4, 1, 8, 2)
    analyses = [analyze(board) for board in positions(3, cells)]
    blunder = review(3, cells, analyses, "o_won").moves[4]
    assert blunder.label.turning
    assert not retry_offered(blunder, analyses[4], "o_won", Player.X)
