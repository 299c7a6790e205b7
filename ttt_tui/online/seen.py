"""What a player's (or a watcher's) client makes of the server's states: the status
line, the sentences a screen reader is told when something changed, and the record
of a finished game for the player's own data directory.

Pure: no network, no UI. The times left are counted by the caller from when each state
arrived (`RoomView` says how long was left then).
"""

from __future__ import annotations

from datetime import datetime

from ttt_tui.engine import SIZES, Board, Player, coordinate
from ttt_tui.online.protocol import RoomView
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode
from ttt_tui.storage.model import GameRecord


def left_words(seconds: float) -> str:
    """A time left, as said: ``1 minute 40 left``, ``2 minutes left``, ``45 seconds left``."""
    whole = max(0, round(seconds))
    minutes, rest = divmod(whole, 60)
    if minutes == 0:
        return f"{rest} second{'' if rest == 1 else 's'} left"
    said = f"{minutes} minute{'' if minutes == 1 else 's'}"
    return f"{said} {rest} left" if rest else f"{said} left"


def board_of(view: RoomView) -> Board:
    """The position the state's moves make."""
    board = Board.empty(view.n)
    for cell in view.moves:
        board = board.play(cell)
    return board


def other(mark: str) -> str:
    """The other mark's letter."""
    return "O" if mark == "X" else "X"


def who(view: RoomView, mark: str) -> str:
    """A mark's player as the status names them: ``You`` or their name."""
    return "You" if view.you == mark else view.seats[mark].name


def ending_words(view: RoomView) -> str:
    """How the game ended, from this client's side; empty while it is on."""
    ending = view.ending
    if ending is None:
        return ""
    kind, winner, by = ending.get("kind"), ending.get("winner"), ending.get("by")
    if kind == "draw":
        return "A draw."
    if kind == "won" and winner in ("X", "O"):
        if view.you == winner:
            return "You won!"
        return f"{view.seats[winner].name} ({winner}) won."
    if by in ("X", "O"):
        if view.you == by:
            gone = "You left" if kind == "left" else "You were away too long"
            return f"{gone}: the game is over."
        name = view.seats[by].name
        if kind == "left":
            return f"{name} ({by}) left the game."
        return f"{name} ({by}) did not come back in time: the game is abandoned."
    return "The game is over."


def rematch_words(view: RoomView) -> str:
    """What the rematch stands at, once a game has ended."""
    if view.ending is None or view.you is None:
        return ""
    theirs = view.seats[other(view.you)]
    if view.seats[view.you].rematch:
        return f"Waiting for {theirs.name} to agree to another game."
    if theirs.rematch:
        return f"{theirs.name} wants another game: press n to agree."
    if not theirs.present:
        gone_by = view.ending.get("by") == other(view.you)
        return "" if gone_by else f"{theirs.name} has gone."
    return "Press n for another game (you swap marks)."


def status(view: RoomView, left: dict[str, float | None], connected: bool = True) -> str:
    """The status line: whose turn, who is away and for how long (``left``, by mark, as
    counted now), or how it ended."""
    if not connected:
        return "Connection lost: reconnecting…"
    if not view.started:
        if view.you is None:
            return "Waiting for the players."
        return "Waiting for your friend to join: give them the invite."
    if view.ending is not None:
        return " ".join(part for part in (ending_words(view), rematch_words(view)) if part)
    for mark in ("X", "O"):
        seconds = left.get(mark)
        if seconds is not None and mark != view.you:
            return f"{view.seats[mark].name} ({mark}) is reconnecting, {left_words(seconds)}."
    mover = "X" if len(view.moves) % 2 == 0 else "O"
    if view.you == mover:
        return f"Your move ({mover})."
    name = view.seats[mover].name
    return f"{name}'s move ({mover})." if view.you else f"{mover} to move ({name})."


def changes(before: RoomView | None, after: RoomView, left: dict[str, float | None]) -> str:
    """The sentences a screen reader is told of what changed from ``before`` to
    ``after``: each new move, who came, went or came back, and the end of a game."""
    said: list[str] = []
    same_game = before is not None and before.game == after.game
    if before is not None and not same_game:
        said.append(f"Game {after.game}: you play {after.you}." if after.you else "A new game.")
    known = before.moves if same_game and before is not None else ()
    if len(after.moves) >= len(known) and after.moves[: len(known)] == known:
        for ply in range(len(known), len(after.moves)):
            mark = "X" if ply % 2 == 0 else "O"
            said.append(f"{mark} plays {coordinate(after.moves[ply], after.n)}.")
    for mark in ("X", "O"):
        if mark == after.you:
            continue
        seat, name = after.seats[mark], after.seats[mark].name
        was = before.seats[mark] if before is not None else None
        if seat.present and (was is None or not was.present):
            said.append(f"{name} ({mark}) is here.")
        elif (
            not seat.present
            and was is not None
            and was.present
            and (after.ending is None or after.ending.get("by") != mark)
        ):
            seconds = left.get(mark)
            if seconds is not None:
                said.append(f"{mark} is reconnecting, {left_words(seconds)}.")
            else:
                said.append(f"{name} ({mark}) has gone.")
        if was is not None and seat.rematch and not was.rematch:
            said.append(f"{name} wants another game.")
    if after.ending is not None and (before is None or before.ending is None or not same_game):
        said.append(ending_words(after))
    elif after.ending is None and after.started and after.you is not None:
        mover = "X" if len(after.moves) % 2 == 0 else "O"
        if mover == after.you and (before is None or len(known) != len(after.moves)):
            said.append("Your move.")
    return " ".join(said)


def record_of_view(view: RoomView, started: datetime, ended: datetime) -> GameRecord | None:
    """The record of an ended game for this player's own data directory: mode online,
    the opponent's name, the player's mark; a game that ended by a player leaving or
    not coming back is recorded as abandoned (the stats leave it out). None for a
    watcher, a game not ended, or one with no move."""
    if view.you is None or view.ending is None or not view.moves:
        return None
    kind, winner = view.ending.get("kind"), view.ending.get("winner")
    if kind == "draw":
        result = Result.DRAW
    elif kind == "won" and winner in ("X", "O"):
        result = Result.X_WON if winner == "X" else Result.O_WON
    else:
        result = Result.ABANDONED
    return GameRecord(
        started=started,
        ended=ended,
        mode=Mode.ONLINE,
        x_difficulty=None,
        o_difficulty=None,
        human_mark=Player(view.you),
        moves=view.moves,
        result=result,
        levels=(None,) * len(view.moves),
        n=view.n,
        k=SIZES[view.n],
        opponent=view.seats[other(view.you)].name,
    )
