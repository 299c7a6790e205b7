"""Messages that cross widget boundaries."""

from __future__ import annotations

from textual.message import Message

from ttt_tui.engine import Analysis, Cell, Difficulty, Progress
from ttt_tui.session import Work


class AIMoved(Message):
    """The computer picked a move for the game whose turn had this token."""

    def __init__(self, token: int, cell: Cell, level: Difficulty) -> None:
        self.token = token
        """The turn the move was computed for; stale when the game moved on."""
        self.cell = cell
        """The chosen cell."""
        self.level = level
        """The difficulty the move was computed at, which the game records with it."""
        super().__init__()


class AnalysisReady(Message):
    """Minimax finished analysing the position whose turn had this token."""

    def __init__(self, token: int, analysis: Analysis) -> None:
        self.token = token
        """The turn the analysis is for; stale when the game moved on."""
        self.analysis = analysis
        """The verdict on every legal move."""
        super().__init__()


class SearchProgress(Message):
    """A search for the turn with this token is still running, and has got this far."""

    def __init__(self, token: int, work: Work, progress: Progress) -> None:
        self.token = token
        """The turn the search is for; stale when the game moved on."""
        self.work = work
        """Which search: the computer's move or the coach's analysis."""
        self.progress = progress
        """Time, positions searched, what it is proving, and its best move so far."""
        super().__init__()
