"""What the widgets draw: one immutable snapshot of the game screen, made by the session.

Pure: no UI imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ttt_tui.engine import Board, Cell, Player, Verdict
from ttt_tui.play.settings import Level, Mode, Settings


@dataclass(frozen=True)
class StatusView:
    """The status line: what is happening and what to do next."""

    message: str
    detail: str
    thinking: bool
    won: bool
    """A result worth cheering: the person won, or a game without one ended in a win."""
    lost: bool
    """The person lost to the computer."""
    drawn: bool


@dataclass(frozen=True)
class BoardState:
    """All the board shows."""

    board: Board
    last_move: Cell | None
    line_lost: bool
    verdicts: Mapping[Cell, Verdict]
    """Coach verdicts for the empty cells (none when the coach is off)."""
    hints: frozenset[Cell]
    pending: frozenset[Cell] = frozenset()
    """Empty cells whose verdict the coach is still working out (not proven yet)."""
    named: bool = False
    """Whether a taken square under the cursor names itself and its mark in text
    (``▶ 5 X ◀``), as an empty one shows its number: in screen-reader mode, where the
    terminal's cursor sits there for a screen reader to read."""


@dataclass(frozen=True)
class View:
    """One immutable snapshot of everything on screen, pushed down to the widgets."""

    board: BoardState
    status: StatusView
    score: tuple[tuple[str, str, int], ...]
    """(label, short label, count) for each outcome this session in the current mode."""
    hints_used: int
    moves: tuple[Cell, ...]
    undone: tuple[Cell, ...]
    """Moves undo took back, in the order redo would play them."""
    n: int
    """Squares per side of the board in play."""
    settings: Settings
    mode: Mode
    human: Player
    paused: bool
    is_over: bool
    levels: tuple[Level, Level, Level]
    """The level of each computer: You vs AI's, then AI vs AI's X and O."""
    level_choices: tuple[Level, ...]
    """The levels on offer: the engine's, and the learner's bot's when there is one."""
    slow_search: bool = False
    """Whether the computer's move is taking long enough to report progress (and so
    may be hurried with `Session.move_now`)."""
