"""The offer made as the game starts of a game an earlier run left unfinished."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from ttt_tui.play.game import abandoned
from ttt_tui.play.session import Reply, Session
from ttt_tui.screens.confirm import ResumeQuestion
from ttt_tui.storage.saver import Saver
from ttt_tui.storage.store import LeftGame

if TYPE_CHECKING:
    from textual.app import App


def resume_question(left: LeftGame) -> str:
    """Whether to resume the game an earlier run left, asked with the day and time it
    was left (the day only if not today)."""
    when = left.saved.astimezone()
    day = "" if when.date() == datetime.now().astimezone().date() else f"{when:%b} {when.day}, "
    return (
        f"Resume your {left.game.board.label} game from {day}{when:%H:%M}?"
        " If not, it is recorded as abandoned."
    )


def offer_left(
    app: App[object],
    left: LeftGame,
    session: Session,
    saver: Saver,
    resume: Callable[[Reply], None],
) -> None:
    """Ask whether to resume ``left``: ``y`` hands the session's reply to resuming it to
    ``resume``, ``n`` records it as abandoned, and quitting leaves it for the next launch
    to ask about. Not asked once a game in ``session`` has begun (the next launch asks)."""
    if session.game.moves or session.game.redo_stack:
        saver.release_left(left)
        return

    def answered(yes: bool | None) -> None:
        if yes:
            saver.resume_left(left)
            resume(session.resume(left.game))
        elif yes is False:
            saver.abandon_left(left, abandoned(left.game, session.now()))
        else:
            saver.release_left(left)

    app.push_screen(ResumeQuestion(resume_question(left), "Resume", "Start afresh"), answered)
