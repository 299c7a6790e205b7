"""Pure game logic: boards, rules, search and difficulty. No UI imports."""

from ttt_tui.engine.board import (
    Board,
    Cell,
    IllegalMoveError,
    InvalidPositionError,
    Player,
    Status,
    cells_of,
    coordinate,
    mover_of,
)
from ttt_tui.engine.search import (
    Analysis,
    CancelCheck,
    Difficulty,
    GameOverError,
    Outcome,
    SearchCancelled,
    Verdict,
    analyze,
    choose_move,
)

__all__ = [
    "Analysis",
    "CancelCheck",
    "Board",
    "Cell",
    "Difficulty",
    "GameOverError",
    "IllegalMoveError",
    "InvalidPositionError",
    "Outcome",
    "Player",
    "SearchCancelled",
    "Status",
    "Verdict",
    "analyze",
    "cells_of",
    "choose_move",
    "coordinate",
    "mover_of",
]
