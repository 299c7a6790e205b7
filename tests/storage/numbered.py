"""Game records told apart by a number, for the storage tests and the processes they
start: light to import (no Textual, no app), so that a writer process starts quickly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ttt_tui.engine import SIZES, Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode
from ttt_tui.storage import GameRecord

T0 = datetime(2026, 11, 22, 6, 15, tzinfo=UTC)
"""When the first numbered game started."""

RESULTS = (Result.X_WON, Result.O_WON, Result.DRAW, Result.ABANDONED)
LEVELS = tuple(Difficulty)


def numbered(number: int, result: Result | None = None, n: int = 3) -> GameRecord:
    """A game told apart from every other by ``number`` (its start and its hints), in
    one of three modes and, unless ``result`` is given, one of four results, each by the
    number, so that a run of numbers counts under several stats keys."""
    moment = T0 + timedelta(seconds=number)
    result = RESULTS[number % len(RESULTS)] if result is None else result
    mode = (Mode.HUMAN_VS_AI, Mode.TWO_PLAYERS, Mode.AI_VS_AI)[number % 3]
    level = LEVELS[number // 3 % len(LEVELS)]
    x, o, human = {
        Mode.HUMAN_VS_AI: (None, level, Player.X),
        Mode.TWO_PLAYERS: (None, None, None),
        Mode.AI_VS_AI: (level, LEVELS[number % len(LEVELS)], None),
    }[mode]
    return GameRecord(
        started=moment,
        ended=moment + timedelta(seconds=30),
        mode=mode,
        x_difficulty=x,
        o_difficulty=o,
        human_mark=human,
        moves=(0, 4),
        result=result,
        hints_used=number,
        n=n,
        k=SIZES[n],
    )


def number_of(record: GameRecord) -> int:
    """The number `numbered` made ``record`` with."""
    return record.hints_used
