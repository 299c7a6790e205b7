"""How the app looks: SVG snapshots of its main states (pytest-textual-snapshot).

The computer is scripted, there is no thinking delay, and every `run_before`
waits for the worker and a pause, so no spinner or half-drawn frame is caught.
Keys, not clicks, drive the game: a click leaves the mouse hovering over a cell.

After an intended change to the look, regenerate and review:

    pytest tests/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from ttt_tui.app import TicTacToeApp
from ttt_tui.engine import Board, CancelCheck, Cell, Difficulty

SIZE = (100, 30)

SnapCompare = Callable[..., bool]


def scripted(*script: Cell) -> Callable[..., Cell]:
    """A move chooser that plays the first free square of `script` (else the first free one)."""

    def choose(
        board: Board, difficulty: Difficulty, rng: random.Random, cancelled: CancelCheck | None
    ) -> Cell:
        return next(c for c in [*script, *range(board.size)] if board[c] is None)

    return choose


def make_app(*script: Cell) -> TicTacToeApp:
    return TicTacToeApp(ai_delay=0, seed=3, move_chooser=scripted(*script))


async def settle(pilot: Pilot[None]) -> None:
    """Let the computer's move land and the screen catch up."""
    while True:
        try:
            await pilot.app.workers.wait_for_complete()
        except WorkerCancelled:
            continue
        break
    await pilot.pause()


def playing(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """A `run_before` that lays out, then presses keys, letting the computer reply to each."""

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return run_before


def test_opening_screen(snap_compare: SnapCompare) -> None:
    """An empty board, the cursor in the centre, Medium, you play X."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=playing())


def test_game_in_progress(snap_compare: SnapCompare) -> None:
    """X in the centre and top right; O in the corners, its last move tagged."""
    app = make_app(0, 6, 8)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("5", "3"))


def test_won_game(snap_compare: SnapCompare) -> None:
    """You win on the top row: the line is highlighted and the score counts it."""
    app = make_app(8, 7)
    assert snap_compare(app, terminal_size=SIZE, run_before=playing("1", "2", "3"))


def test_help_screen(snap_compare: SnapCompare) -> None:
    """The rules and every key, over the game."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=playing("question_mark"))


def test_too_small_terminal(snap_compare: SnapCompare) -> None:
    """Below the minimum size the layout gives way to a message."""
    assert snap_compare(make_app(), terminal_size=(40, 12), run_before=playing())
