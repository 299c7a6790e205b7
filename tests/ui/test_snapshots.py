"""How the app looks: SVG snapshots of its main states (pytest-textual-snapshot).

The computer is scripted, there is no thinking delay, and every `run_before`
waits for the worker and a pause, so no spinner or half-drawn frame is caught.
Keys, not clicks, drive the game: a click leaves the mouse hovering over a cell.

After an intended change to the look, regenerate and review:

    pytest tests/ui/test_snapshots.py tests/ui/test_snapshots_features.py --snapshot-update
"""

from __future__ import annotations

from collections.abc import Callable

from tests.support import SIZE, ScriptedAI, make_app, playing
from ttt_tui.play.settings import BoardSize
from ttt_tui.screens.game import MIN_SIZES

SnapCompare = Callable[..., bool]


def test_opening_screen(snap_compare: SnapCompare) -> None:
    """An empty board, the cursor in the centre, Medium, you play X."""
    assert snap_compare(make_app(ScriptedAI(), seed=3), terminal_size=SIZE, run_before=playing())


def test_game_in_progress(snap_compare: SnapCompare) -> None:
    """X in the centre and top right; O in the corners, its last move tagged."""
    app = make_app(ScriptedAI(0, 6, 8), seed=3)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("5", "3"))


def test_won_game(snap_compare: SnapCompare) -> None:
    """You win on the top row: the line is highlighted and the score counts it."""
    app = make_app(ScriptedAI(8, 7), seed=3)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("1", "2", "3"))


def test_help_screen(snap_compare: SnapCompare) -> None:
    """The rules and every key, over the game."""
    assert snap_compare(
        make_app(ScriptedAI(), seed=3), terminal_size=SIZE, run_before=playing("question_mark")
    )


def test_too_small_terminal(snap_compare: SnapCompare) -> None:
    """Below the minimum size the layout gives way to a message."""
    assert snap_compare(
        make_app(ScriptedAI(), seed=3), terminal_size=(40, 12), run_before=playing()
    )


def test_game_at_the_minimum_size(snap_compare: SnapCompare) -> None:
    """56x16, the smallest advertised: every footer key whole, short score labels."""
    app = make_app(ScriptedAI(0, 6, 8), seed=3)
    assert snap_compare(app, terminal_size=(56, 16), run_before=playing("5", "3"))


def test_game_at_80x24(snap_compare: SnapCompare) -> None:
    """A classic terminal: the footer keeps Help and Quit."""
    app = make_app(ScriptedAI(0, 6, 8), seed=3)
    assert snap_compare(app, terminal_size=(80, 24), run_before=playing("5", "3"))


def test_lost_game(snap_compare: SnapCompare) -> None:
    """The computer's line in the losing colour, and what to do next."""
    app = make_app(ScriptedAI(0, 1, 2), seed=3)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("4", "5", "9"))


def test_stats_at_the_minimum_size(snap_compare: SnapCompare) -> None:
    """Short headings, explained, so every column fits 56 columns."""
    app = make_app(ScriptedAI(8, 7), seed=3)
    assert snap_compare(app, terminal_size=(56, 16), run_before=playing("1", "2", "3", "s"))


def test_4x4_at_its_minimum_size(snap_compare: SnapCompare) -> None:
    """64x20: sixteen squares, marks drawn alike, the history naming squares to d4."""
    app = make_app(ScriptedAI(0, 15, 3), seed=3, board=BoardSize.FOUR)
    keys = ("1", "1", "6", "8")  # 11, then 6 (O took 16), then 8
    size = MIN_SIZES[BoardSize.FOUR]
    assert snap_compare(app, terminal_size=size, run_before=playing(*keys))


def test_5x5_at_its_minimum_size(snap_compare: SnapCompare) -> None:
    """72x24: twenty-five squares, numbered to 25, the history naming squares to e5."""
    app = make_app(ScriptedAI(0, 24, 4), seed=3, board=BoardSize.FIVE)
    keys = ("1", "3", "7", "1", "9")  # 13, 7, 19
    size = MIN_SIZES[BoardSize.FIVE]
    assert snap_compare(app, terminal_size=size, run_before=playing(*keys))


def test_5x5_too_small(snap_compare: SnapCompare) -> None:
    """Between 3x3's minimum and 5x5's: the message names 5x5's and offers 3x3."""
    app = make_app(ScriptedAI(), seed=3, board=BoardSize.FIVE)
    assert snap_compare(app, terminal_size=(64, 20), run_before=playing())
