"""The offer made when the learner's bot gives no move: go on with Hard, or try it again."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ttt_tui.engine import Difficulty
from ttt_tui.play.session import Reply, Session
from ttt_tui.play.settings import BOT
from ttt_tui.screens.confirm import ConfirmScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from ttt_tui.bots.player import BotPlayer


class BotOffer:
    """Says once what the bot did instead of a move, and offers to go on with Hard or to
    try the bot again (started afresh, so that a file fixed meanwhile is read again).

    Made over the game's screen only: under another one (the stats, the help, the
    palette) it waits until the game's is back on top (`resumed`). The answer goes
    to ``apply`` as the session's reply, unless the game moved on meanwhile.
    """

    def __init__(
        self,
        screen: Screen[None],
        session: Session,
        bot: BotPlayer | None,
        apply: Callable[[Reply], None],
    ) -> None:
        self._screen = screen
        self._session = session
        self._bot = bot
        self._apply = apply
        self._waiting = False
        """Whether the offer waits for the screen over the game's to close."""

    def make(self, why: str) -> None:
        """Offer Hard, the bot having given no move (``why`` says what it did instead)."""
        app = self._screen.app
        if app.screen is not self._screen:
            self._waiting = True
            return
        session = self._session
        seat = session.seat_to_move()
        token = session.token

        def answered(hard: bool | None) -> None:
            if session.token != token or session.bot_stopped is None:
                return  # the game moved on meanwhile
            if hard:
                self._apply(session.set_difficulty(Difficulty.HARD, seat))
            else:
                assert self._bot is not None
                self._bot.restart()
                self._apply(session.set_difficulty(BOT, seat))

        who = "Your bot" if seat is None else f"Your bot, playing {seat.value},"
        app.push_screen(
            ConfirmScreen(f"{who} gave no move: {why}.\n\nGo on with Hard?", "Hard", "Try again"),
            answered,
        )

    def resumed(self) -> None:
        """The game's screen is back on top: an offer that waited for it is made now, if
        the bot still has given no move."""
        if self._waiting:
            self._waiting = False
            if (why := self._session.bot_stopped) is not None:
                self.make(why)
