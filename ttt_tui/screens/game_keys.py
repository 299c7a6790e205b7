"""The game screen's keys: its bindings, which of them work now, and which the footer lists.

One binding a key and action. A key works while `works` says so (the screen's
``check_action``: a key that does not is left out of the footer and passes to
the next binding of it). A key that works is listed in the footer as
`listed` says: redo with nothing to redo, and the review, the explorer and the
puzzles where the footer has no room for them, are not listed and still do what
their keys say; the pause key reads "Resume" while paused.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from ttt_tui.play.session import Work
from ttt_tui.play.settings import BoardSize, Mode

if TYPE_CHECKING:
    from ttt_tui.play.session import Session

SQUARE_TIP = "play a square by its number (1 top-left; 16 is 1 then 6)"
DIFFICULTY_TIP = "next difficulty (You vs AI)"
UNDO_TIP = "undo to your last turn / redo"

EXPLORE_KEY_WIDTH = 90
"""The narrowest terminal whose footer has room for the explorer's key."""

REVIEW_KEY_WIDTH = 80
"""The narrowest terminal whose footer has room for the review's key (a game over)."""

PUZZLES_KEY_WIDTH = 110
"""The narrowest terminal whose footer has room for the puzzles' key beside every other."""

BINDINGS: list[BindingType] = [
    # Squares by number work wherever the focus is; the board's own keys
    # (arrows, Enter) work when it has the focus.
    *(
        Binding(
            str(digit),
            f"digit({digit})",
            f"Square {digit}",
            show=False,
            tooltip=SQUARE_TIP,
        )
        for digit in range(10)
    ),
    # A number waiting for its second digit (1 on 4x4) is played by Enter or Space
    # wherever the focus is, before a focused sidebar control takes the key.
    Binding("enter,space", "play_typed", show=False, priority=True),
    # Where a bigger board does not fit, 3 or 4 goes to a smaller board that
    # does; the "too small" message says so, and nothing else needs them.
    *(Binding(str(n), f"board({n})", f"{n}x{n} board", show=False) for n in (3, 4)),
    Binding("n", "new_game", "New", tooltip="new game"),
    Binding("d", "cycle_difficulty", "Difficulty", show=False, tooltip=DIFFICULTY_TIP),
    Binding("u", "undo", "Undo", tooltip=UNDO_TIP),
    Binding("r", "redo", "Redo", tooltip=UNDO_TIP),
    Binding("c", "toggle_coach", "Coach", tooltip="coach: minimax's verdict on each square"),
    Binding("i", "hint", "Hint", tooltip="hint: highlight the best moves (your turn)"),
    # "Resume" in the footer while paused (`shown`).
    Binding("p", "pause", "Pause", tooltip="pause or resume AI vs AI"),
    # In AI vs AI the keys above that need a person say why they do nothing.
    Binding("u,r,i,p", "computer_plays_both", show=False),
    Binding("s", "stats", "Stats", tooltip="all-time stats"),
    # Taken before the focused widget sees it, so that the keys typed right after
    # (":c3" in one go) go to the box and not to the board.
    Binding(
        "colon",
        "move_box",
        "Move box",
        show=False,
        priority=True,
        tooltip="type a square by name (b2) or a command (board, threats, undo)",
    ),
    # Also taken first, while the box has the focus: "escape, q" typed in one go
    # closes the box and quits, the q going to the game and not into the box.
    Binding("escape", "close_move_box", "Close", priority=True, tooltip="close the move box"),
    Binding("v", "review", "Review", tooltip="review the game: every move graded"),
    Binding(
        "e",
        "explore",
        "Explore",
        tooltip="explorer: the game tree, why each move is good or bad, minimax step by step",
    ),
    Binding("z", "puzzles", "Puzzles", tooltip="puzzles: find the only move, proven by the engine"),
    Binding(
        "f",
        "play_friend",
        "Friend",
        show=False,
        tooltip="play a friend: a room and its invites (in a terminal: ttt-tui host)",
    ),
    Binding(
        "m",
        "move_now",
        "Move now",
        tooltip="move now: the computer plays the best move it has found (Hard: once proven)",
    ),
]
"""The game screen's keys; the help lists those with a tooltip."""

PERSON_ACTIONS = frozenset({"undo", "redo", "hint"})
"""Actions for games with a person in them: off (and out of the footer) in AI vs AI."""


def works(
    action: str,
    parameters: tuple[object, ...],
    session: Session,
    *,
    too_small: bool,
    fitting: Collection[BoardSize],
    box_focused: bool,
    typed: bool,
) -> bool:
    """Whether a key bound to ``action`` does something now. While the terminal is too
    small for the board in play, only 3 or 4 for a smaller board that fits (one of
    ``fitting``). Else pause or resume only in AI vs AI; undo, redo and hints only in
    games with a person in them; the review once the game is over; Escape while the move
    box has the focus; Enter or Space while a number waits for its second digit
    (``typed``)."""
    if action == "board":
        return too_small and BoardSize(parameters[0]) in fitting
    if too_small:
        return False
    game = session.game
    ai_vs_ai = game.mode is Mode.AI_VS_AI
    if action == "pause":  # the key either way; pause(True) or pause(False) if it changes
        changes = not parameters or parameters[0] is not session.paused
        return ai_vs_ai and not game.is_over and changes
    if action == "computer_plays_both":
        return ai_vs_ai
    if action == "close_move_box":
        return box_focused
    if action == "move_now":
        return session.thinking and Work.MOVE in session.progress
    if action == "play_typed":
        return typed
    if action in PERSON_ACTIONS:
        return not ai_vs_ai
    if action == "review":
        return game.is_over
    return True


def listed(binding: Binding, session: Session, width: int) -> Binding:
    """``binding``, one that works, as the footer of a terminal ``width`` columns wide
    lists it: redo only while there is something to redo, the review, the explorer and
    the puzzles only where the footer has room for them (else ``show`` False), and the
    pause key as "Resume" while paused."""
    action = binding.action
    if action == "pause" and session.paused:
        return replace(binding, description="Resume")
    if action == "redo":
        shown = bool(session.game.redo_stack)
    elif action == "review":
        shown = width >= REVIEW_KEY_WIDTH
    elif action == "explore":
        shown = width >= EXPLORE_KEY_WIDTH
    elif action == "puzzles":
        shown = width >= PUZZLES_KEY_WIDTH
    else:
        return binding
    return binding if shown else replace(binding, show=False)
