"""How games end, in words: the result a record keeps, the outcome the stats and the
session score count, and the labels people see for them and for the modes.

The engine's `Status` says where a board stands; `Result.from_status` turns it
into the result of a game, which may also have been abandoned. `stats_outcome`
turns a result into what is counted: the person's view (`WIN`, `DRAW`, `LOSS`)
when one person plays the computer, the sides' (`X_WON`, `O_WON`, `DRAW`)
otherwise. Every label of an outcome or a mode comes from here. Pure: no UI
imports and no file I/O.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from ttt_tui.engine import Player, Status
from ttt_tui.play.settings import Mode


class Result(enum.Enum):
    """How a recorded game ended."""

    X_WON = "x_won"
    """X made a line."""
    O_WON = "o_won"
    """O made a line."""
    DRAW = "draw"
    """The board filled with no line."""
    ABANDONED = "abandoned"
    """The game was left unfinished: a new game, a mode change or quitting."""

    @classmethod
    def from_status(cls, status: Status) -> Result:
        """The result for a board's status; a game still in progress was abandoned."""
        if status is Status.IN_PROGRESS:
            return cls.ABANDONED
        return cls(status.value)


class StatsOutcome(enum.StrEnum):
    """What the stats and the session score count a finished game as.

    Members are strings (``"win"``), the words ``stats.json`` keeps; they come
    in the order of the Stats screen's columns.
    """

    WIN = "win"
    """The person beat the computer."""
    DRAW = "draw"
    """Nobody made a line."""
    LOSS = "loss"
    """The computer beat the person."""
    X_WON = "x_won"
    """X made a line, in a game with no one person against the computer."""
    O_WON = "o_won"
    """O made a line, in a game with no one person against the computer."""


HUMAN_OUTCOMES = (StatsOutcome.WIN, StatsOutcome.DRAW, StatsOutcome.LOSS)
"""Stats outcomes of a You-vs-AI game, from the human's side, in display order."""
SIDE_OUTCOMES = (StatsOutcome.X_WON, StatsOutcome.O_WON, StatsOutcome.DRAW)
"""Stats outcomes of a two-player or AI-vs-AI game, in display order."""


def outcomes_for(mode: Mode) -> tuple[StatsOutcome, ...]:
    """The outcomes counted for a mode, in display order."""
    return HUMAN_OUTCOMES if mode in (Mode.HUMAN_VS_AI, Mode.ONLINE) else SIDE_OUTCOMES


def stats_outcome(result: Result, human_mark: Player | None) -> StatsOutcome | None:
    """The stats outcome of a result: the human's view if there is one human, else the side's.

    None for an abandoned game, which is not counted.
    """
    if result is Result.ABANDONED:
        return None
    if human_mark is None or result is Result.DRAW:
        return StatsOutcome(result.value)
    won = (result is Result.X_WON) == (human_mark is Player.X)
    return StatsOutcome.WIN if won else StatsOutcome.LOSS


class Label(NamedTuple):
    """A name shown to people, with a short form for where the full one does not fit."""

    long: str
    """The full name, e.g. ``Wins``."""
    short: str
    """The short form, e.g. ``W``."""


OUTCOME_LABELS: dict[StatsOutcome, Label] = {
    StatsOutcome.WIN: Label("Wins", "W"),
    StatsOutcome.DRAW: Label("Draws", "D"),
    StatsOutcome.LOSS: Label("Losses", "L"),
    StatsOutcome.X_WON: Label("X wins", "X"),
    StatsOutcome.O_WON: Label("O wins", "O"),
}
"""Each outcome's label, in the session score and as a Stats column heading."""

MODE_LABELS: dict[Mode, Label] = {
    Mode.HUMAN_VS_AI: Label("You vs AI", "vs AI"),
    Mode.TWO_PLAYERS: Label("2 players", "2P"),
    Mode.AI_VS_AI: Label("AI vs AI", "AI-AI"),
    Mode.ONLINE: Label("Online", "Online"),
}
"""Each mode's name, in the sidebar, the Stats screen, the help and the command palette."""
