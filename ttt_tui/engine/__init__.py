"""Pure game logic: boards, rules, search and difficulty. No UI imports."""

from ttt_tui.engine.board import (
    Board,
    Cell,
    IllegalMoveError,
    InvalidPositionError,
    Player,
    Status,
    coordinate,
)
from ttt_tui.engine.search import (
    Analysis,
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
    "choose_move",
    "coordinate",
]
