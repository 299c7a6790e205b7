"""A new game asked for by changing the board, the mode or the mark (a key, the
sidebar, the palette), asked first where a game in progress would be lost."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from ttt_tui.engine import Player
from ttt_tui.play.results import MODE_LABELS
from ttt_tui.play.session import Reply, Session
from ttt_tui.play.settings import BoardSize, Mode
from ttt_tui.screens.confirm import ConfirmScreen


class NewGameQuestion:
    """Starts the new game the person asked for through ``started`` (the session's
    reply), once they agree that a game in progress be recorded as abandoned; no, or
    Escape, keeps the game exactly as it was and calls ``kept`` (the sidebar shows the
    old choice again)."""

    def __init__(
        self,
        screen: Screen[None],
        session: Session,
        started: Callable[[Reply], None],
        kept: Callable[[], None],
    ) -> None:
        self._screen = screen
        self._session = session
        self._started = started
        self._kept = kept

    def board(self, board: BoardSize) -> None:
        """Play on ``board``."""
        if board is not self._session.settings.board:
            self._ask(f"Start a new {board.label} game?", lambda: self._session.set_board(board))

    def mode(self, mode: Mode) -> None:
        """Play in ``mode``."""
        if mode is not self._session.game.mode:
            label = MODE_LABELS[mode].long
            self._ask(f"Start a new game, {label}?", lambda: self._session.set_mode(mode))

    def mark(self, mark: Player) -> None:
        """Play ``mark``."""
        if mark is not self._session.game.human:
            self._ask(f"Start a new game as {mark.value}?", lambda: self._session.set_mark(mark))

    def _ask(self, question: str, start: Callable[[], Reply]) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self._started(start())
            else:
                self._kept()

        if not self._session.would_abandon:
            answered(True)
            return
        question += " This one will be recorded as abandoned."
        self._screen.app.push_screen(ConfirmScreen(question, "New game", "Keep playing"), answered)
