"""The choices kept between runs (`Settings`), the `Mode` and `BoardSize` among them.

Pure, with no UI imports and no file I/O: the game, the storage and the
widgets all import from here, and nothing here imports them. Their JSON is the
storage's (`ttt_tui.storage.model`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ttt_tui.engine import SIZES, Difficulty, Player


class Mode(enum.Enum):
    """Who plays each side."""

    HUMAN_VS_AI = "human_vs_ai"
    """You against the computer."""
    TWO_PLAYERS = "two_players"
    """Two people taking turns on one keyboard."""
    AI_VS_AI = "ai_vs_ai"
    """The computer against itself, each side at its own difficulty."""
    ONLINE = "online"
    """You against a friend on another computer (`ttt-tui host`, `ttt-tui join`): a
    mode games are recorded in, never one chosen in the game or kept in the settings."""


PLAYABLE_MODES = (Mode.HUMAN_VS_AI, Mode.TWO_PLAYERS, Mode.AI_VS_AI)
"""The modes the game itself plays, which the sidebar, the palette and the settings
offer; online games are played by `ttt-tui host` and `ttt-tui join`."""


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


class BotLevel(enum.Enum):
    """The learner's own bot (`ttt-tui --bot`), chosen where a level is chosen."""

    BOT = "bot"


BOT = BotLevel.BOT
"""The learner's bot as a level: recorded as ``bot``, never as one of the engine's."""

Level = Difficulty | BotLevel
"""What plays a computer's side: one of the engine's difficulties, or the learner's bot."""

LEVELS: tuple[Level, ...] = (*Difficulty, BOT)
"""Every level, in the order the game offers them."""


def level_name(level: Level) -> str:
    """How the game names a level: ``Easy``, ``Medium``, ``Hard``, ``Your bot``."""
    return "Your bot" if level is BOT else level.value.capitalize()


def short_level_name(level: Level) -> str:
    """A level's name where its whole name does not fit: ``Med``, ``Bot``."""
    return {Difficulty.MEDIUM: "Med", BOT: "Bot"}.get(level) or level_name(level)


def parse_level(text: object) -> Level:
    """The level named ``text`` (``easy`` ... ``bot``); raises `ValueError`."""
    for level in LEVELS:
        if text == level.value:
            return level
    raise ValueError(f"no level is named {text!r}")


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
    screen_reader: bool = False
    """Whether the game is set up for a screen reader or a braille display: the
    terminal's cursor shown on what has the focus, and every event said in words on
    one line (`ttt_tui.play.speech`)."""

    def __post_init__(self) -> None:
        if self.mode not in PLAYABLE_MODES:
            raise ValueError(f"mode: the game does not play {self.mode.value} itself")
