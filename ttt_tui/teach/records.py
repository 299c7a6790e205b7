"""Recorded games in words: who played, and one line a game, as the list of past games
and ``ttt-tui games list`` show them.

A record is read through `Recorded`, the fields the words need, so that this layer
knows nothing of how the storage keeps games (`ttt_tui.storage.GameRecord` has them
all). Pure: no UI imports.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import MODE_LABELS, Result
from ttt_tui.play.settings import BotLevel, Mode, level_name
from ttt_tui.teach.review import RESULT_WORDS


class Recorded(Protocol):
    """What the words read of a recorded game."""

    @property
    def ended(self) -> datetime:
        """When it ended, with a time zone."""

    @property
    def n(self) -> int:
        """Squares per side of its board."""

    @property
    def moves(self) -> Sequence[int]:
        """Its moves, X's first."""

    @property
    def result(self) -> Result:
        """How it ended."""

    @property
    def mode(self) -> Mode:
        """Who played each side."""

    @property
    def human_mark(self) -> Player | None:
        """The person's mark in You-vs-AI, else None."""

    @property
    def x_difficulty(self) -> enum.Enum | None:
        """The computer's level on X (a `Level`, or mixed), None for a person."""

    @property
    def o_difficulty(self) -> enum.Enum | None:
        """The computer's level on O, as for X."""

    @property
    def computer_difficulty(self) -> enum.Enum | None:
        """The computer's level in You-vs-AI, else None."""

    @property
    def opponent(self) -> str | None:
        """The friend's name in an online game, else None."""


def _level(level: enum.Enum | None) -> str:
    if level is None:
        return "?"
    if isinstance(level, Difficulty | BotLevel):
        return level_name(level)
    return str(level.value).capitalize()  # "mixed": the level changed during the game


def players(record: Recorded) -> str:
    """Who played: ``You (X) vs Hard``, ``2 players``, ``Easy vs Hard``."""
    if record.mode is Mode.HUMAN_VS_AI:
        mark = record.human_mark or Player.X
        return f"You ({mark.value}) vs {_level(record.computer_difficulty)}"
    if record.mode is Mode.AI_VS_AI:
        return f"{_level(record.x_difficulty)} vs {_level(record.o_difficulty)}"
    if record.mode is Mode.ONLINE:
        mark = record.human_mark or Player.X
        return f"You ({mark.value}) vs {record.opponent or 'a friend'}"
    return MODE_LABELS[record.mode].long


def game_line(record: Recorded) -> str:
    """One game in a list: ``2026-11-25 20:31  3x3  You (X) vs Hard  O won, 6 moves``,
    its end in local time."""
    when = record.ended.astimezone().strftime("%Y-%m-%d %H:%M")
    moves = len(record.moves)
    result = RESULT_WORDS[record.result.value]
    return (
        f"{when}  {record.n}x{record.n}  {players(record):<17}"
        f" {result}, {moves} move{'' if moves == 1 else 's'}"
    )
