"""The choices kept between runs (`Settings`), the `Mode` and `BoardSize` among them, and
their JSON.

Pure, with no UI imports and no file I/O: the game, the storage and the
widgets all import from here, and nothing here imports them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ttt_tui.engine import SIZES, Difficulty, Player
from ttt_tui.jsonfields import FORMAT_VERSION, InvalidData, bool_field, enum_field


class Mode(enum.Enum):
    """Who plays each side."""

    HUMAN_VS_AI = "human_vs_ai"
    """You against the computer."""
    TWO_PLAYERS = "two_players"
    """Two people taking turns on one keyboard."""
    AI_VS_AI = "ai_vs_ai"
    """The computer against itself, each side at its own difficulty."""


_NUMBERS = {3: "three", 4: "four"}


class BoardSize(enum.Enum):
    """The boards the game plays, each with its line length (`SIZES`)."""

    THREE = 3
    """3x3, three in a row: the classic game."""
    FOUR = 4
    """4x4, four in a row."""
    FIVE = 5
    """5x5, four in a row."""

    @property
    def n(self) -> int:
        """Squares per side."""
        return self.value

    @property
    def k(self) -> int:
        """Marks in a row that win."""
        return SIZES[self.value]

    @property
    def label(self) -> str:
        """E.g. ``4x4``."""
        return f"{self.n}x{self.n}"

    @property
    def rule(self) -> str:
        """What wins on it, e.g. ``4x4, four in a row``."""
        return f"{self.label}, {_NUMBERS[self.k]} in a row"


@dataclass(frozen=True, slots=True)
class Settings:
    """The choices kept between runs."""

    difficulty: Difficulty = Difficulty.MEDIUM
    """The computer's strength in You-vs-AI."""
    ai_x_difficulty: Difficulty = Difficulty.MEDIUM
    """The strength of the engine playing X in AI-vs-AI."""
    ai_o_difficulty: Difficulty = Difficulty.MEDIUM
    """The strength of the engine playing O in AI-vs-AI."""
    mark: Player = Player.X
    """The human's mark in You-vs-AI."""
    mode: Mode = Mode.HUMAN_VS_AI
    """Who plays each side."""
    board: BoardSize = BoardSize.THREE
    """The board played on."""
    alternate_start: bool = False
    """Whether the side that starts alternates from one game to the next."""
    coach: bool = False
    """Whether the coach shows each move's value."""
    theme: str = "textual-dark"
    """A Textual theme name; the app checks it against its themes when loading."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored in ``settings.json``."""
        return {
            "version": FORMAT_VERSION,
            "difficulty": self.difficulty.value,
            "ai_x_difficulty": self.ai_x_difficulty.value,
            "ai_o_difficulty": self.ai_o_difficulty.value,
            "mark": self.mark.value,
            "mode": self.mode.value,
            "board": self.board.value,
            "alternate_start": self.alternate_start,
            "coach": self.coach,
            "theme": self.theme,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Read a settings object; a missing key takes its default, a bad one raises.

        Raises `ValueError` naming the key for a wrong type or an unknown value.
        """
        settings, problems = cls.read(data)
        if problems:
            raise InvalidData(problems[0])
        return settings

    @classmethod
    def read(
        cls, data: Mapping[str, Any], themes: Collection[str] | None = None
    ) -> tuple[Settings, list[str]]:
        """Read a settings object field by field, keeping every good field.

        A missing key takes its default, and so does a bad one, which is named
        in the problems returned with the settings (``coach: expected true or
        false, got 'yes'``), in the order of the fields. With ``themes``, a
        theme that is not one of them is bad too.
        """
        readers: dict[str, Callable[[Mapping[str, Any], str], object]] = {
            "difficulty": lambda d, k: enum_field(d, k, Difficulty),
            "ai_x_difficulty": lambda d, k: enum_field(d, k, Difficulty),
            "ai_o_difficulty": lambda d, k: enum_field(d, k, Difficulty),
            "mark": lambda d, k: enum_field(d, k, Player),
            "mode": lambda d, k: enum_field(d, k, Mode),
            "board": lambda d, k: enum_field(d, k, BoardSize),
            "alternate_start": bool_field,
            "coach": bool_field,
            "theme": lambda d, k: _theme(d, k, themes),
        }
        values: dict[str, Any] = {}
        problems: list[str] = []
        for key, reader in readers.items():
            if key not in data:
                continue
            try:
                values[key] = reader(data, key)
            except InvalidData as exc:
                problems.append(str(exc))
        return cls(**values), problems


def _theme(data: Mapping[str, Any], key: str, themes: Collection[str] | None) -> str:
    theme = data[key]
    if not isinstance(theme, str) or not theme:
        raise InvalidData(f"{key}: expected a theme name, got {theme!r}")
    if themes is not None and theme not in themes:
        raise InvalidData(f"{key}: no theme is named {theme!r}")
    return theme
