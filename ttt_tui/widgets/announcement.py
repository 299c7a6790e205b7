"""The announcement line: the game in plain sentences, for a screen reader or a braille
display to read (shown in screen-reader mode)."""

from __future__ import annotations

import time

from textual.widgets import Static

from ttt_tui.play.session import Session
from ttt_tui.play.settings import Mode
from ttt_tui.play.speech import Heard, announcement
from ttt_tui.widgets.relayout import relayout_if_resized

WARNING_SECONDS = 2.0
"""How long a warning about ignored input stays on screen."""


class Announcement(Static):
    """Says what changed in the game since the listener was last told (`tell`), why input
    did nothing (`warn`, also in a toast), and the app's notices (`announce`), each in
    place of the last."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._heard = Heard()
        """What the line last told about: the game and its moves then."""
        self._told = ""
        """What the line last said of the game (a warning may follow it)."""
        self._last_warning = ""
        self._last_warning_until = 0.0

    def say(self, sentences: str) -> None:
        """Write sentences in place of the last ones. Hidden, the line keeps its words for
        when it is shown, and lays nothing out: Textual would lay the whole screen out
        again for every move."""
        self.update(sentences, layout=False)
        if self.display:
            relayout_if_resized(self)

    def tell(self, session: Session, notice: str) -> None:
        """Say what changed since the listener was last told: the moves, the game's end,
        whose turn it is; and the notice of the change, if it had one. While the
        computer thinks its reply, what the person played stays on the line, so that
        the reply comes with it: ``X plays b2. O plays a1. Your move.``"""
        game = session.game
        told = announcement(self._heard, session)
        if notice:
            told = f"{notice}. {told}"
        elif told == self._told:
            return  # nothing new; a warning said since stays
        self._told = told
        waiting = game.mode is Mode.HUMAN_VS_AI and game.ai_to_move and not game.is_over
        if not waiting:
            self._heard = Heard(game, tuple(game.moves))
        self.say(told)

    def announce(self, notice: str) -> None:
        """Say a notice (the app's, in screen-reader mode, in place of a toast), unless the
        line says it already: the game's own warnings and changes are said there with
        their sentences."""
        if notice.rstrip(".") not in str(self.render()):
            self.say(" ".join(notice.split()))

    def warn(self, message: str) -> None:
        """Say briefly why input did nothing, here and in a toast; the same words are not
        stacked in toasts again while they are still on screen, however fast the keys
        come."""
        self.say(message)
        now = time.monotonic()
        if message == self._last_warning and now < self._last_warning_until:
            return
        self._last_warning, self._last_warning_until = message, now + WARNING_SECONDS
        self.notify(message, severity="warning", timeout=WARNING_SECONDS)
