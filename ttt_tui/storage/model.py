"""What the store keeps, and its JSON: settings, game records, all-time stats, their keys.

A computer side that played every one of its moves at one level is recorded
at that level; one whose level changed during the game is recorded as
``"mixed"`` (`MIXED`), and the game counts in its mode's mixed stats row, never
in a level's row. Nobody is credited with beating Hard unless Hard played every
move.

Pure: no file I/O, no UI imports, nothing from the game or the store. Readers
raise `ValueError` (`InvalidData`, or `NewerFormat` for a newer file) with a
message that names what is wrong; the store turns it into a notice.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ttt_tui.engine import SIZES, Difficulty, Player, mover_of
from ttt_tui.play.game import EndedGame, Game, SavedGame
from ttt_tui.play.results import Result, StatsOutcome, outcomes_for, stats_outcome
from ttt_tui.play.settings import (
    LEVELS,
    PLAYABLE_MODES,
    BoardSize,
    Level,
    Mode,
    Settings,
    parse_level,
)
from ttt_tui.storage.jsonfields import (
    FORMAT_VERSION,
    InvalidData,
    bool_field,
    enum_field,
    json_object,
    optional_enum_field,
    parse_object,
    time_field,
    whole_number,
)

# Settings -----------------------------------------------------------------------


def settings_json(settings: Settings) -> dict[str, Any]:
    """The JSON object stored in ``settings.json``."""
    return {
        "version": FORMAT_VERSION,
        "difficulty": settings.difficulty.value,
        "ai_x_difficulty": settings.ai_x_difficulty.value,
        "ai_o_difficulty": settings.ai_o_difficulty.value,
        "mark": settings.mark.value,
        "mode": settings.mode.value,
        "board": settings.board.value,
        "alternate_start": settings.alternate_start,
        "coach": settings.coach,
        "theme": settings.theme,
        "screen_reader": settings.screen_reader,
    }


def settings_from_json(data: Mapping[str, Any]) -> Settings:
    """Read a settings object; a missing key takes its default, a bad one raises.

    Raises `ValueError` naming the key for a wrong type or an unknown value.
    """
    settings, problems = read_settings(data)
    if problems:
        raise InvalidData(problems[0])
    return settings


def read_settings(
    data: Mapping[str, Any], themes: Collection[str] | None = None
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
        "mode": _playable_mode,
        "board": lambda d, k: enum_field(d, k, BoardSize),
        "alternate_start": bool_field,
        "coach": bool_field,
        "theme": lambda d, k: _theme(d, k, themes),
        "screen_reader": bool_field,
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
    return Settings(**values), problems


def _playable_mode(data: Mapping[str, Any], key: str) -> Mode:
    mode = enum_field(data, key, Mode)
    if mode not in PLAYABLE_MODES:
        choices = ", ".join(mode.value for mode in PLAYABLE_MODES)
        raise InvalidData(f"{key}: expected one of {choices}, got {mode.value!r}")
    return mode


def _theme(data: Mapping[str, Any], key: str, themes: Collection[str] | None) -> str:
    theme = data[key]
    if not isinstance(theme, str) or not theme:
        raise InvalidData(f"{key}: expected a theme name, got {theme!r}")
    if themes is not None and theme not in themes:
        raise InvalidData(f"{key}: no theme is named {theme!r}")
    return theme


# Levels -------------------------------------------------------------------


class Mixed(enum.Enum):
    """The level of a computer side whose moves were not all computed at one level."""

    MIXED = "mixed"
    """The computer's level changed during the game."""


MIXED = Mixed.MIXED
"""Recorded for a computer side whose level changed during the game."""

_SIDE_LEVELS = ", ".join([*(level.value for level in LEVELS), MIXED.value])


def side_level(levels: Iterable[Level], in_force: Level) -> Level | Mixed:
    """The level a computer side is recorded at, from the levels its moves were computed at.

    The one level if every move was computed at it, `MIXED` if they were
    computed at more than one, and ``in_force`` (the level in force when the
    game ended) if the side never moved.
    """
    distinct = set(levels)
    if not distinct:
        return in_force
    if len(distinct) > 1:
        return MIXED
    return distinct.pop()


def _side_level(data: Mapping[str, Any], key: str) -> Level | Mixed | None:
    value = data[key]
    if value is None:
        return None
    if value == MIXED.value:
        return MIXED
    try:
        return parse_level(value)
    except ValueError:
        raise InvalidData(f"{key}: expected one of {_SIDE_LEVELS} or null, got {value!r}") from None


def _levels(value: Any) -> tuple[Level | None, ...]:
    if not isinstance(value, list):
        raise InvalidData(f"levels: expected a list of levels, got {value!r}")
    levels: list[Level | None] = []
    for item in value:
        try:
            levels.append(None if item is None else parse_level(item))
        except ValueError:
            choices = ", ".join(level.value for level in LEVELS)
            raise InvalidData(f"levels: expected one of {choices} or null, got {item!r}") from None
    return tuple(levels)


# Stats ----------------------------------------------------------------------


CLASSIC = 3
"""Squares per side of the classic board, whose stats keys carry no board."""


def _board_prefix(n: int) -> str:
    """What comes before a stats key of an n x n board: nothing for 3x3, ``4x4/`` for 4x4."""
    if n not in SIZES:
        sides = ", ".join(map(str, SIZES))
        raise ValueError(f"expected a board of {sides} squares a side, got {n}")
    return "" if n == CLASSIC else f"{n}x{n}/"


def stats_key(
    mode: Mode,
    *,
    difficulty: Level | Mixed | None = None,
    x_difficulty: Level | Mixed | None = None,
    o_difficulty: Level | Mixed | None = None,
    n: int = CLASSIC,
) -> str:
    """The stats key of a game: ``human_vs_ai/hard``, ``two_players``, ``ai_vs_ai/easy-hard``
    on 3x3; ``4x4/human_vs_ai/hard`` and ``5x5/two_players`` on the bigger boards.

    You-vs-AI needs the computer's ``difficulty``; AI-vs-AI needs both
    ``x_difficulty`` and ``o_difficulty``. Raises `ValueError` otherwise. A
    game in which a computer side is `MIXED` counts under its mode's mixed
    key, ``human_vs_ai/mixed`` or ``ai_vs_ai/mixed``, never under a level.
    """
    board = _board_prefix(n)
    if mode is Mode.HUMAN_VS_AI:
        if difficulty is None:
            raise ValueError("a You-vs-AI stats key needs the computer's difficulty")
        return f"{board}{mode.value}/{difficulty.value}"
    if mode is Mode.AI_VS_AI:
        if x_difficulty is None or o_difficulty is None:
            raise ValueError("an AI-vs-AI stats key needs both sides' difficulties")
        if MIXED in (x_difficulty, o_difficulty):
            return f"{board}{mode.value}/{MIXED.value}"
        return f"{board}{mode.value}/{x_difficulty.value}-{o_difficulty.value}"
    return f"{board}{mode.value}"


_BOARD_PREFIXES = {_board_prefix(n): n for n in SIZES if n != CLASSIC}


def _parse_stats_key(key: str) -> tuple[int, Mode, tuple[Level, ...], bool]:
    """The board size, mode, difficulties and mixedness a key names; raises `ValueError`
    for anything else."""
    n, unsized = CLASSIC, key
    for prefix, size in _BOARD_PREFIXES.items():
        if key.startswith(prefix):
            n, unsized = size, key[len(prefix) :]
    mode, difficulties, mixed = _parse_unsized_key(unsized, key)
    return n, mode, difficulties, mixed


def _parse_unsized_key(key: str, whole: str) -> tuple[Mode, tuple[Level, ...], bool]:
    mode_text, _, rest = key.partition("/")
    try:
        mode = Mode(mode_text)
        if mode in (Mode.HUMAN_VS_AI, Mode.AI_VS_AI) and rest == MIXED.value:
            return mode, (), True
        if mode is Mode.HUMAN_VS_AI:
            difficulties: tuple[Level, ...] = (parse_level(rest),)
        elif mode is Mode.AI_VS_AI:
            x_text, dash, o_text = rest.partition("-")
            if not dash:
                raise ValueError(rest)
            difficulties = (parse_level(x_text), parse_level(o_text))
        elif key != mode.value:
            raise ValueError(rest)
        else:
            difficulties = ()
    except ValueError:
        raise InvalidData(f"unknown stats key {whole!r}") from None
    return mode, difficulties, False


@dataclass(frozen=True, slots=True)
class StatsRow:
    """One line of the stats screen: a mode (and difficulties) and its counts."""

    key: str
    """The stats key, e.g. ``human_vs_ai/hard``."""
    n: int
    """Squares per side of the board the row counts games on."""
    mode: Mode
    """The mode the row counts."""
    difficulties: tuple[Level, ...]
    """The computer's difficulty in You-vs-AI; X's then O's in AI-vs-AI; none otherwise
    (and none in a mixed row)."""
    counts: tuple[tuple[StatsOutcome, int], ...]
    """Each outcome of the mode (`outcomes_for`) with its count, in display order."""
    mixed: bool = False
    """Whether the row counts the mode's games in which the computer's level changed."""

    @property
    def total(self) -> int:
        """Games counted in this row."""
        return sum(count for _, count in self.counts)

    def count(self, outcome: str) -> int:
        """The count of one outcome."""
        counts: dict[str, int] = dict(self.counts)
        return counts.get(outcome, 0)


@dataclass(frozen=True)
class Stats:
    """All-time counts by stats key (`stats_key`) and outcome. Treat as immutable."""

    counts: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Outcome counts by key. A key once counted holds every outcome of its mode
    (`outcomes_for`); a missing key counts zero."""

    def count(self, key: str, outcome: str) -> int:
        """How many games under ``key`` ended in ``outcome``."""
        return self.counts.get(key, {}).get(outcome, 0)

    def record(self, key: str, outcome: str) -> Stats:
        """A copy with one more ``outcome`` under ``key``.

        Raises `ValueError` for a malformed key or an outcome the key's mode
        does not count (``win`` for two players, say).
        """
        _, mode, _, _ = _parse_stats_key(key)
        if outcome not in outcomes_for(mode):
            raise ValueError(
                f"expected one of {', '.join(outcomes_for(mode))} for {key}, got {outcome!r}"
            )
        counts = {k: dict(v) for k, v in self.counts.items()}
        row = counts.setdefault(key, dict.fromkeys(outcomes_for(mode), 0))
        row[outcome] += 1
        return Stats(counts)

    def rows(self, n: int | None = None, *, include_empty: bool = False) -> list[StatsRow]:
        """Rows for a stats screen: of one board size (``n``) or of all, smallest board
        first; within a board You-vs-AI first, then two players, then AI-vs-AI.

        Within a mode the levels come in order, then the mixed row. With
        ``include_empty`` (and a board) the three You-vs-AI difficulties and two
        players appear even with no games; AI-vs-AI pairs and mixed rows appear
        once played.
        """
        keys = set(self.counts)
        if include_empty and n is not None:
            keys.update(stats_key(Mode.HUMAN_VS_AI, difficulty=d, n=n) for d in Difficulty)
            keys.add(stats_key(Mode.TWO_PLAYERS, n=n))
        modes, levels = list(Mode), list(LEVELS)
        rows = []
        for key in keys:
            size, mode, difficulties, mixed = _parse_stats_key(key)
            if n is not None and size != n:
                continue
            counts = tuple((o, self.count(key, o)) for o in outcomes_for(mode))
            rows.append(StatsRow(key, size, mode, difficulties, counts, mixed))
        rows.sort(
            key=lambda r: (
                r.n,
                modes.index(r.mode),
                r.mixed,
                [levels.index(d) for d in r.difficulties],
            )
        )
        return rows

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored in ``stats.json``."""
        return {
            "version": FORMAT_VERSION,
            "counts": {row.key: dict(row.counts) for row in self.rows()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Stats:
        """Read a stats object. Raises `ValueError` for an unknown key or outcome or a bad count."""
        counts: dict[str, dict[str, int]] = {}
        for key, row in json_object(data.get("counts", {}), "counts").items():
            _, mode, _, _ = _parse_stats_key(key)
            allowed = outcomes_for(mode)
            counts[key] = dict.fromkeys(allowed, 0)
            for outcome, value in json_object(row, key).items():
                if outcome not in allowed:
                    raise InvalidData(f"{key}: expected {', '.join(allowed)}, got {outcome!r}")
                counts[key][outcome] = whole_number(value, f"{key}/{outcome}")
        return cls(counts)

    @classmethod
    def from_counts(cls, counted: Iterable[tuple[str, str, int]]) -> Stats:
        """The stats of (key, outcome, count) rows, as the database keeps them. Raises
        `ValueError` for an unknown key or outcome."""
        counts: dict[str, dict[str, int]] = {}
        for key, outcome, count in counted:
            _, mode, _, _ = _parse_stats_key(key)
            allowed = outcomes_for(mode)
            if outcome not in allowed:
                raise InvalidData(f"{key}: expected {', '.join(allowed)}, got {outcome!r}")
            counts.setdefault(key, dict.fromkeys(allowed, 0))[outcome] = count
        return cls(counts)

    @classmethod
    def from_records(cls, records: Iterable[GameRecord]) -> Stats:
        """The counts of these games, counted one by one as `Store.record_game` does."""
        stats = cls()
        for record in records:
            entry = stats_entry(record)
            if entry is not None:
                stats = stats.record(*entry)
        return stats


# Game records ---------------------------------------------------------------


def _aware(moment: datetime, name: str) -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{name}: expected a time with a time zone, got {moment.isoformat()}")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as written to ``games.jsonl``.

    The constructor checks that the sides agree with the mode: in You-vs-AI
    ``human_mark`` is set and only the computer's side has a difficulty; with
    two players neither side has one; in AI-vs-AI both do. When ``levels`` is
    known it has one entry per move, a level exactly for the computer's moves,
    and each computer side that moved is recorded at `side_level` of its moves.
    """

    started: datetime
    """When the first move could be made; must carry a time zone."""
    ended: datetime
    """When the game finished or was abandoned; must carry a time zone."""
    mode: Mode
    """Who played each side."""
    x_difficulty: Level | Mixed | None
    """The computer's level on X (`side_level` of its moves: `MIXED` if it changed
    during the game), or None when a person played X."""
    o_difficulty: Level | Mixed | None
    """The computer's level on O, as for X, or None when a person played O."""
    human_mark: Player | None
    """The human's mark in You-vs-AI; None in the other modes."""
    moves: tuple[int, ...]
    """Cells played, 0-based in reading order, X's move first."""
    result: Result
    """How it ended."""
    undo_used: bool = False
    """Whether any move was taken back."""
    hints_used: int = 0
    """How many hints were asked for."""
    levels: tuple[Level | None, ...] | None = None
    """The level each move was computed at, None for a person's move; None when
    not known (a line written before levels were recorded)."""
    n: int = CLASSIC
    """Squares per side of the board (3 on lines written before board sizes)."""
    k: int = CLASSIC
    """Marks in a row that won on that board."""
    opponent: str | None = None
    """The friend's name in an online game (as their ttt-tui gave it); None in the
    other modes."""

    def __post_init__(self) -> None:
        _aware(self.started, "started")
        _aware(self.ended, "ended")
        if SIZES.get(self.n) != self.k:
            boards = ", ".join(f"{n}x{n} with {k} in a row" for n, k in SIZES.items())
            raise ValueError(f"n, k: expected one of {boards}, got {self.n}x{self.n} with {self.k}")
        sides = (self.x_difficulty is not None, self.o_difficulty is not None)
        if self.opponent is not None and self.mode is not Mode.ONLINE:
            raise ValueError(f"opponent: expected null in {self.mode.value}")
        if self.mode is Mode.ONLINE:
            if self.human_mark is None:
                raise ValueError("human_mark: an online game needs the player's mark")
            expected = (False, False)
        elif self.mode is Mode.HUMAN_VS_AI:
            if self.human_mark is None:
                raise ValueError("human_mark: a You-vs-AI game needs the human's mark")
            expected = (False, True) if self.human_mark is Player.X else (True, False)
        else:
            if self.human_mark is not None:
                raise ValueError(f"human_mark: expected null in {self.mode.value}")
            expected = (True, True) if self.mode is Mode.AI_VS_AI else (False, False)
        if sides != expected:
            raise ValueError(
                f"x_difficulty/o_difficulty: expected a difficulty exactly for the"
                f" computer's side in {self.mode.value}"
            )
        cells = self.n * self.n
        if len(set(self.moves)) != len(self.moves) or any(not 0 <= m < cells for m in self.moves):
            raise ValueError(
                f"moves: expected distinct cells 0 to {cells - 1}, got {list(self.moves)}"
            )
        if self.hints_used < 0:
            raise ValueError(f"hints_used: expected >= 0, got {self.hints_used}")
        if self.levels is not None:
            self._check_levels(self.levels)

    def _check_levels(self, levels: tuple[Level | None, ...]) -> None:
        if len(levels) != len(self.moves):
            raise ValueError(
                f"levels: expected one per move ({len(self.moves)}), got {len(levels)}"
            )
        for player, recorded in ((Player.X, self.x_difficulty), (Player.O, self.o_difficulty)):
            own = [level for ply, level in enumerate(levels) if mover_of(ply) is player]
            if recorded is None:
                if any(level is not None for level in own):
                    raise ValueError(f"levels: a person played {player.value}, expected null")
                continue
            played = [level for level in own if level is not None]
            if len(played) != len(own):
                raise ValueError(f"levels: the computer played {player.value}, expected a level")
            if not played:
                continue  # recorded at the level in force at the end
            expected = side_level(played, played[0])
            if expected is not recorded:
                name = f"{player.value.lower()}_difficulty"
                shown = ", ".join(sorted({level.value for level in played}))
                raise ValueError(
                    f"{name}: expected {expected.value!r} for moves played at {shown},"
                    f" got {recorded.value!r}"
                )

    @property
    def computer_difficulty(self) -> Level | Mixed | None:
        """The computer's level in You-vs-AI, else None."""
        if self.human_mark is None:
            return None
        return self.o_difficulty if self.human_mark is Player.X else self.x_difficulty

    def to_json(self) -> str:
        """The record as one line of JSON, without the newline."""
        data: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "started": self.started.isoformat(),
            "ended": self.ended.isoformat(),
            "mode": self.mode.value,
            "n": self.n,
            "k": self.k,
            "x_difficulty": None if self.x_difficulty is None else self.x_difficulty.value,
            "o_difficulty": None if self.o_difficulty is None else self.o_difficulty.value,
            "human_mark": None if self.human_mark is None else self.human_mark.value,
            "moves": list(self.moves),
            "result": self.result.value,
            "undo_used": self.undo_used,
            "hints_used": self.hints_used,
        }
        if self.levels is not None:
            data["levels"] = [None if level is None else level.value for level in self.levels]
        if self.opponent is not None:
            data["opponent"] = self.opponent
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> GameRecord:
        """Read one line of ``games.jsonl``. Raises `ValueError` saying what is wrong."""
        return cls._from_object(parse_object(line))

    @classmethod
    def _from_object(cls, data: Mapping[str, Any]) -> GameRecord:
        try:
            started, ended = (time_field(data[name], name) for name in ("started", "ended"))
            moves = data["moves"]
            if not isinstance(moves, list):
                raise InvalidData(f"moves: expected a list of cells, got {moves!r}")
            levels = data.get("levels")
            return cls(
                started=started,
                ended=ended,
                mode=enum_field(data, "mode", Mode),
                x_difficulty=_side_level(data, "x_difficulty"),
                o_difficulty=_side_level(data, "o_difficulty"),
                human_mark=optional_enum_field(data, "human_mark", Player),
                moves=tuple(whole_number(m, "moves") for m in moves),
                result=enum_field(data, "result", Result),
                undo_used=bool_field(data, "undo_used"),
                hints_used=whole_number(data["hints_used"], "hints_used"),
                levels=None if levels is None else _levels(levels),
                n=whole_number(data.get("n", CLASSIC), "n"),
                k=whole_number(data.get("k", CLASSIC), "k"),
                opponent=_opponent(data.get("opponent")),
            )
        except KeyError as exc:
            raise InvalidData(f"missing {exc.args[0]}") from None


def _opponent(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidData(f"opponent: expected a name or null, got {value!r}")


def record_of(game: EndedGame) -> GameRecord:
    """The record of an ended game.

    Each computer side is recorded at `side_level` of the levels its moves were
    computed at; one that never moved, at the level in force when the game ended.
    """

    def side(player: Player, in_force: Level | None) -> Level | Mixed | None:
        if in_force is None:
            return None
        own = [
            level
            for ply, level in enumerate(game.levels)
            if mover_of(ply) is player and level is not None
        ]
        return side_level(own, in_force)

    return GameRecord(
        started=game.started,
        ended=game.ended,
        mode=game.mode,
        x_difficulty=side(Player.X, game.in_force[0]),
        o_difficulty=side(Player.O, game.in_force[1]),
        human_mark=game.human,
        moves=game.moves,
        result=game.result,
        undo_used=game.undo_used,
        hints_used=game.hints_used,
        levels=game.levels,
        n=game.n,
        k=game.k,
    )


def stats_entry(record: GameRecord) -> tuple[str, StatsOutcome] | None:
    """The stats key and outcome a record counts under, or None if it is not counted."""
    outcome = stats_outcome(record.result, record.human_mark)
    if outcome is None:
        return None
    key = stats_key(
        record.mode,
        difficulty=record.computer_difficulty,
        x_difficulty=record.x_difficulty,
        o_difficulty=record.o_difficulty,
        n=record.n,
    )
    return key, outcome


# The games file ---------------------------------------------------------------

_RESET_KEY = "stats_reset"
"""The key of the line in ``games.jsonl`` that marks a stats reset."""


def reset_line(moment: datetime) -> str:
    """The ``games.jsonl`` line that marks a stats reset at ``moment``."""
    data = {"version": FORMAT_VERSION, _RESET_KEY: moment.isoformat()}
    return json.dumps(data, separators=(",", ":"))


def parse_games_line(line: str) -> GameRecord | datetime:
    """One line of ``games.jsonl``: a game, or when the stats were reset (`reset_line`).

    Raises `ValueError` saying what is wrong, `NewerFormat` for a newer format.
    """
    data = parse_object(line)
    if _RESET_KEY in data:
        return time_field(data[_RESET_KEY], _RESET_KEY)
    return GameRecord._from_object(data)


# A game in play -----------------------------------------------------------------


def _level_list(levels: tuple[Level | None, ...]) -> list[str | None]:
    return [None if level is None else level.value for level in levels]


def saved_game_json(saved: SavedGame) -> str:
    """A game kept to be resumed, as one JSON object."""
    data = {
        "version": FORMAT_VERSION,
        "settings": settings_json(saved.settings),
        "started": saved.started.isoformat(),
        "moves": list(saved.moves),
        "levels": _level_list(saved.levels),
        "redo_stack": [list(group) for group in saved.redo_stack],
        "redo_levels": [_level_list(levels) for levels in saved.redo_levels],
        "undo_used": saved.undo_used,
        "hints_used": saved.hints_used,
        "paused": saved.paused,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _cells(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise InvalidData(f"{where}: expected a list of cells, got {value!r}")
    return tuple(whole_number(cell, where) for cell in value)


def saved_game_from_json(text: str) -> SavedGame:
    """Read a game kept to be resumed. Raises `ValueError` saying what is wrong,
    `NewerFormat` for a newer format, and for a game its settings could not have
    played (an illegal move, a level on a person's move)."""
    data = parse_object(text)
    try:
        redo_stack, redo_levels = data["redo_stack"], data["redo_levels"]
        if not isinstance(redo_stack, list) or not isinstance(redo_levels, list):
            raise InvalidData("redo_stack, redo_levels: expected lists")
        saved = SavedGame(
            settings=settings_from_json(json_object(data["settings"], "settings")),
            started=time_field(data["started"], "started"),
            moves=_cells(data["moves"], "moves"),
            levels=_levels(data["levels"]),
            redo_stack=tuple(_cells(group, "redo_stack") for group in redo_stack),
            redo_levels=tuple(_levels(levels) for levels in redo_levels),
            undo_used=bool_field(data, "undo_used"),
            hints_used=whole_number(data["hints_used"], "hints_used"),
            paused=bool_field(data, "paused"),
        )
    except KeyError as exc:
        raise InvalidData(f"missing {exc.args[0]}") from None
    Game.restore(saved)
    return saved
