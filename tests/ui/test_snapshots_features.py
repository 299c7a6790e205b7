"""Snapshots of the coach, a hint, the history after undo, the stats screen and AI vs AI paused.

Every game is scripted (the computer plays the first free square of a list),
with no thinking delay and every worker finished before the shot, so no
spinner or half-drawn state can get in. Notifications are cleared first: they
time out on the clock. Update with ``pytest --snapshot-update`` and look at
the SVGs under ``tests/__snapshots__/test_snapshots_features/``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot

from tests.support import SIZE, GatedAI, ScriptedAI, make_app, playing_quietly, settle
from ttt_tui.engine import Difficulty
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.stats import StatsScreen

SnapCompare = Callable[..., bool]


def test_coach_mid_game(snap_compare: SnapCompare) -> None:
    """X a1 c1 against O b2 b1: only b3 holds the draw; every other square loses."""
    app = make_app(ScriptedAI(4, 1))
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly("c", "1", "3"))


def test_hint_shown(snap_compare: SnapCompare) -> None:
    """X a1, O b1: the hint marks the squares that win."""
    app = make_app(ScriptedAI(1))
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly("1", "i"))


def test_history_after_undo(snap_compare: SnapCompare) -> None:
    """Four moves, then undo: the last two are listed as undone, O a1 highlighted."""
    app = make_app(ScriptedAI(0, 8))
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly("5", "3", "u"))


def test_stats_screen_with_counts(snap_compare: SnapCompare) -> None:
    """A win and a loss at medium, a draw at hard; saving off, so no path on screen."""
    ai = ScriptedAI(8, 7)

    async def run_before(pilot: Pilot[None]) -> None:
        await playing_quietly("1", "2", "3")(pilot)
        ai.script = [0, 1, 2]
        await playing_quietly("n", "4", "5", "9")(pilot)
        ai.script = [4, 1, 5, 6]
        await playing_quietly("d", "n", "1", "3", "8", "4", "9")(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(pilot.app.screen, StatsScreen)
        pilot.app.clear_notifications()
        await pilot.pause()

    app = make_app(ai)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_ai_vs_ai_paused_mid_game(snap_compare: SnapCompare) -> None:
    """Easy X against Hard O, paused after four moves: the whole two-line status shows."""
    ai = GatedAI(4, 0, 8, 2)
    settings = Settings(
        mode=Mode.AI_VS_AI, ai_x_difficulty=Difficulty.EASY, ai_o_difficulty=Difficulty.HARD
    )

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        ai.allow(4)
        # The fifth call has begun only once the fourth move has landed.
        assert await asyncio.to_thread(ai.wait_calls, 5)
        await pilot.press("p")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.paused
        assert screen.session.game.moves == [4, 0, 8, 2]
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(make_app(ai, settings), terminal_size=SIZE, run_before=run_before)


def test_explorer_on_3x3(snap_compare: SnapCompare) -> None:
    """X b2 against O a1, then the explorer: X b1 opened, O c1 selected and explained,
    its position on the board with X's replies valued."""
    app = make_app(ScriptedAI(0))
    keys = ("5", "e", "down", "enter", "down")
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly(*keys))


def test_explorer_alpha_beta_walk(snap_compare: SnapCompare) -> None:
    """The same position on the Alpha-beta tab, at its first cut: the reason in words,
    alpha and beta, and the cut position on the board."""
    app = make_app(ScriptedAI(0))
    keys = ("5", "e", "a", "right_square_bracket")
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly(*keys))


def test_explorer_on_5x5(snap_compare: SnapCompare) -> None:
    """Six marks on 5x5: every move of X valued in the tree and on the board, the best starred."""
    app = make_app(ScriptedAI(0, 24, 4), board=BoardSize.FIVE)
    keys = ("1", "3", "7", "1", "9", "e")
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly(*keys))


def test_review_of_a_lost_3x3_game(snap_compare: SnapCompare) -> None:
    """X threw a won game away at move 5: the move selected, its label and sentence,
    the turning points and each side's counts."""
    app = make_app(ScriptedAI(0, 1, 2))
    keys = ("4", "5", "9", "v", "left")
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly(*keys))


def test_review_of_a_5x5_game(snap_compare: SnapCompare) -> None:
    """X makes four in a row on 5x5 while O plays along the bottom: every move graded."""
    app = make_app(ScriptedAI(24, 23, 22), board=BoardSize.FIVE)
    keys = ("6", "7", "8", "9", "v")
    assert snap_compare(app, terminal_size=SIZE, run_before=playing_quietly(*keys))
