"""Settings, all-time stats and game records on disk. No UI imports.

Three files live in the data directory (`default_data_dir`):

``settings.json``
    The choices kept between runs (`Settings`).
``stats.json``
    All-time counts by mode and difficulty (`Stats`).
``games.jsonl``
    One JSON object a line for every finished or abandoned game (`GameRecord`),
    and a ``{"version": 1, "stats_reset": TIME}`` line where the stats were
    reset (`Store.reset_stats`).

A computer side that played every one of its moves at one level is recorded
at that level; one whose level changed during the game is recorded as
``"mixed"`` (`MIXED`), and the game counts in its mode's mixed stats row, never
in a level's row. Nobody is credited with beating Hard unless Hard played every
move.

Nothing is lost:

- Every write is atomic: the new content goes to a temporary file in the same
  directory (``.NAME.<pid>.<token>.tmp``), which is flushed, fsynced and then
  renamed over the old file with `os.replace`; the directory is fsynced after
  the rename where the platform allows. A kill at any moment leaves either the
  old file or the new one, plus at worst a temporary file, which the next
  `Store` removes once the process that wrote it is gone.
- ``games.jsonl`` is append-only in meaning but rewritten atomically: each
  new game reads the existing file, checks every line, and writes old lines
  plus the new one through the same temp-and-rename path. A plain append
  could leave a torn last line after a kill, a full disk (a short write) or a
  power cut; the rewrite never does. Game files are small (about 250 bytes a
  game, so 10,000 games is 2.5 MB), which keeps the rewrite cheap.
- A file that cannot be read as what it should be (bad JSON, a truncated or
  empty file, a wrong type, an unknown value) is renamed to
  ``NAME.corrupt-<UTC timestamp>``, with a notice for the user naming what
  was wrong; the other files are untouched. What can be saved is: for
  ``settings.json`` whose top level is a good object, every good field is kept
  and only the bad ones fall back to their defaults; for ``games.jsonl`` the
  readable lines are kept in the new file; ``stats.json`` is rebuilt from the
  games in ``games.jsonl`` recorded since the last reset (counted as live).
- A file whose ``version`` is newer than `FORMAT_VERSION` was written by a
  newer ttt-tui: it is neither moved nor overwritten, the app uses defaults for
  it, and saving to that file stays off for the session.
- If the directory cannot be created, read or written (permission denied, a
  regular file in its place, a full disk), everything keeps working in memory
  and the user gets one notice that saving is off. No public method of
  `Store` raises for an I/O problem.

A `Store` is meant for one thread (the UI's). Two ttt-tui processes sharing a
directory never corrupt a file, but a game finished in one while the other
writes may be missed by the other's next stats update.
"""

from __future__ import annotations

import contextlib
import enum
import json
import os
import re
import secrets
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from ttt_tui.engine import Difficulty, Player, mover_of
from ttt_tui.jsonfields import (
    FORMAT_VERSION,
    InvalidData,
    NewerFormat,
    bool_field,
    decode,
    enum_field,
    json_bytes,
    json_object,
    optional_enum_field,
    parse_object,
    time_field,
    whole_number,
)
from ttt_tui.results import Result, StatsOutcome, outcomes_for, stats_outcome
from ttt_tui.settings import Mode, Settings

__all__ = [
    "DATA_DIR_ENV",
    "FORMAT_VERSION",
    "GAMES_FILE",
    "MIXED",
    "SETTINGS_FILE",
    "STATS_FILE",
    "GameRecord",
    "Mixed",
    "Stats",
    "StatsRow",
    "Store",
    "default_data_dir",
    "side_level",
    "stats_entry",
    "stats_key",
]

APP_NAME = "ttt-tui"
"""The name of the data directory that platformdirs picks."""

DATA_DIR_ENV = "TTT_TUI_DATA_DIR"
"""Environment variable that, when set and not empty, replaces the data directory."""

SETTINGS_FILE = "settings.json"
"""File name of the settings."""
STATS_FILE = "stats.json"
"""File name of the all-time stats."""
GAMES_FILE = "games.jsonl"
"""File name of the game records, one JSON object a line."""

_DATA_FILES = (SETTINGS_FILE, STATS_FILE, GAMES_FILE)

_TEMP_NAME = re.compile(
    r"^\.(?P<name>" + "|".join(re.escape(name) for name in _DATA_FILES) + r")"
    r"\.(?P<pid>\d+)\.[0-9a-f]+\.tmp$"
)
"""Temporary files written by `_write_atomic`; nothing else matches."""

_STALE_TEMP_SECONDS = 3600.0
"""Age after which a temp file is removed even if its writer's pid looks alive."""


def default_data_dir() -> Path:
    """Where ttt-tui keeps its files: `DATA_DIR_ENV` if set, else the platform's place."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(user_data_dir(APP_NAME, appauthor=False))


def _utcnow() -> datetime:
    """The current time in UTC; tests replace it to force name clashes."""
    return datetime.now(UTC)


# Levels -------------------------------------------------------------------


class Mixed(enum.Enum):
    """The level of a computer side whose moves were not all computed at one level."""

    MIXED = "mixed"
    """The computer's level changed during the game."""


MIXED = Mixed.MIXED
"""Recorded for a computer side whose level changed during the game."""

_SIDE_LEVELS = ", ".join([*(d.value for d in Difficulty), MIXED.value])


def side_level(levels: Iterable[Difficulty], in_force: Difficulty) -> Difficulty | Mixed:
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


def _side_level(data: Mapping[str, Any], key: str) -> Difficulty | Mixed | None:
    value = data[key]
    if value is None:
        return None
    if value == MIXED.value:
        return MIXED
    try:
        return Difficulty(value)
    except ValueError:
        raise InvalidData(f"{key}: expected one of {_SIDE_LEVELS} or null, got {value!r}") from None


def _levels(value: Any) -> tuple[Difficulty | None, ...]:
    if not isinstance(value, list):
        raise InvalidData(f"levels: expected a list of levels, got {value!r}")
    levels: list[Difficulty | None] = []
    for item in value:
        try:
            levels.append(None if item is None else Difficulty(item))
        except ValueError:
            choices = ", ".join(d.value for d in Difficulty)
            raise InvalidData(f"levels: expected one of {choices} or null, got {item!r}") from None
    return tuple(levels)


# Stats ----------------------------------------------------------------------


def stats_key(
    mode: Mode,
    *,
    difficulty: Difficulty | Mixed | None = None,
    x_difficulty: Difficulty | Mixed | None = None,
    o_difficulty: Difficulty | Mixed | None = None,
) -> str:
    """The stats key of a game: ``human_vs_ai/hard``, ``two_players``, ``ai_vs_ai/easy-hard``.

    You-vs-AI needs the computer's ``difficulty``; AI-vs-AI needs both
    ``x_difficulty`` and ``o_difficulty``. Raises `ValueError` otherwise. A
    game in which a computer side is `MIXED` counts under its mode's mixed
    key, ``human_vs_ai/mixed`` or ``ai_vs_ai/mixed``, never under a level.
    """
    if mode is Mode.HUMAN_VS_AI:
        if difficulty is None:
            raise ValueError("a You-vs-AI stats key needs the computer's difficulty")
        return f"{mode.value}/{difficulty.value}"
    if mode is Mode.AI_VS_AI:
        if x_difficulty is None or o_difficulty is None:
            raise ValueError("an AI-vs-AI stats key needs both sides' difficulties")
        if MIXED in (x_difficulty, o_difficulty):
            return f"{mode.value}/{MIXED.value}"
        return f"{mode.value}/{x_difficulty.value}-{o_difficulty.value}"
    return str(mode.value)


def _parse_stats_key(key: str) -> tuple[Mode, tuple[Difficulty, ...], bool]:
    """The mode, difficulties and mixedness a key names; raises `ValueError` for anything else."""
    mode_text, _, rest = key.partition("/")
    try:
        mode = Mode(mode_text)
        if mode is not Mode.TWO_PLAYERS and rest == MIXED.value:
            return mode, (), True
        if mode is Mode.HUMAN_VS_AI:
            difficulties: tuple[Difficulty, ...] = (Difficulty(rest),)
        elif mode is Mode.AI_VS_AI:
            x_text, dash, o_text = rest.partition("-")
            if not dash:
                raise ValueError(rest)
            difficulties = (Difficulty(x_text), Difficulty(o_text))
        elif key != mode.value:
            raise ValueError(rest)
        else:
            difficulties = ()
    except ValueError:
        raise InvalidData(f"unknown stats key {key!r}") from None
    return mode, difficulties, False


@dataclass(frozen=True, slots=True)
class StatsRow:
    """One line of the stats screen: a mode (and difficulties) and its counts."""

    key: str
    """The stats key, e.g. ``human_vs_ai/hard``."""
    mode: Mode
    """The mode the row counts."""
    difficulties: tuple[Difficulty, ...]
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
        mode, _, _ = _parse_stats_key(key)
        if outcome not in outcomes_for(mode):
            raise ValueError(
                f"expected one of {', '.join(outcomes_for(mode))} for {key}, got {outcome!r}"
            )
        counts = {k: dict(v) for k, v in self.counts.items()}
        row = counts.setdefault(key, dict.fromkeys(outcomes_for(mode), 0))
        row[outcome] += 1
        return Stats(counts)

    def rows(self, *, include_empty: bool = False) -> list[StatsRow]:
        """Rows for a stats screen, You-vs-AI first, then two players, then AI-vs-AI.

        Within a mode the levels come in order, then the mixed row. With
        ``include_empty`` the three You-vs-AI difficulties and two players
        appear even with no games; AI-vs-AI pairs and mixed rows appear once
        played.
        """
        keys = set(self.counts)
        if include_empty:
            keys.update(stats_key(Mode.HUMAN_VS_AI, difficulty=d) for d in Difficulty)
            keys.add(stats_key(Mode.TWO_PLAYERS))
        modes, levels = list(Mode), list(Difficulty)
        rows = []
        for key in keys:
            mode, difficulties, mixed = _parse_stats_key(key)
            counts = tuple((o, self.count(key, o)) for o in outcomes_for(mode))
            rows.append(StatsRow(key, mode, difficulties, counts, mixed))
        rows.sort(
            key=lambda r: (
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
            mode, _, _ = _parse_stats_key(key)
            allowed = outcomes_for(mode)
            counts[key] = dict.fromkeys(allowed, 0)
            for outcome, value in json_object(row, key).items():
                if outcome not in allowed:
                    raise InvalidData(f"{key}: expected {', '.join(allowed)}, got {outcome!r}")
                counts[key][outcome] = whole_number(value, f"{key}/{outcome}")
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
    x_difficulty: Difficulty | Mixed | None
    """The computer's level on X (`side_level` of its moves: `MIXED` if it changed
    during the game), or None when a person played X."""
    o_difficulty: Difficulty | Mixed | None
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
    levels: tuple[Difficulty | None, ...] | None = None
    """The level each move was computed at, None for a person's move; None when
    not known (a line written before levels were recorded)."""

    def __post_init__(self) -> None:
        _aware(self.started, "started")
        _aware(self.ended, "ended")
        sides = (self.x_difficulty is not None, self.o_difficulty is not None)
        if self.mode is Mode.HUMAN_VS_AI:
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
        if len(set(self.moves)) != len(self.moves) or any(m < 0 for m in self.moves):
            raise ValueError(f"moves: expected distinct cells >= 0, got {list(self.moves)}")
        if self.hints_used < 0:
            raise ValueError(f"hints_used: expected >= 0, got {self.hints_used}")
        if self.levels is not None:
            self._check_levels(self.levels)

    def _check_levels(self, levels: tuple[Difficulty | None, ...]) -> None:
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
    def computer_difficulty(self) -> Difficulty | Mixed | None:
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
            )
        except KeyError as exc:
            raise InvalidData(f"missing {exc.args[0]}") from None


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
    )
    return key, outcome


# Files ------------------------------------------------------------------------


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable where the platform lets us open a directory."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # Some file systems cannot fsync a directory; the rename still happened.
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a kill at any moment leaves old or new."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(temp, flags, 0o644)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_directory(path.parent)


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name != "posix":
        # os.kill would terminate the process on Windows; rely on the age check.
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # It exists but belongs to someone else.
    return True


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


_RESET_KEY = "stats_reset"
"""The key of the line in ``games.jsonl`` that marks a stats reset."""


def _reset_line(moment: datetime) -> str:
    """The ``games.jsonl`` line that marks a stats reset at ``moment``."""
    data = {"version": FORMAT_VERSION, _RESET_KEY: moment.isoformat()}
    return json.dumps(data, separators=(",", ":"))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


@dataclass(slots=True)
class _GamesFile:
    """What `Store._read_games` found: the good lines, as text and as records."""

    lines: list[str]
    """Every good line, reset markers included, in file order."""
    records: list[GameRecord]
    """The games, in file order."""
    since_reset: int = 0
    """How many of `records` came before the last stats reset (all later ones count)."""
    reset_at: datetime | None = None
    """When the stats were last reset, if ever."""


class Store:
    """Settings, stats and game records in one directory, with nothing ever lost.

    ``directory`` defaults to `default_data_dir`. With ``enabled=False``
    (``--no-save``) the store reads and writes nothing and keeps everything in
    memory. Messages for the user collect until `take_notices`.
    """

    def __init__(self, directory: Path | None = None, *, enabled: bool = True) -> None:
        self.directory: Path | None = None
        """The data directory, or None when saving is disabled."""
        self.saving = False
        """Whether changes reach the disk; False when disabled or after a failure."""
        self._notices: list[str] = []
        self._frozen: set[str] = set()
        self._settings = Settings()
        self._stats = Stats()
        self._games: list[GameRecord] = []
        if not enabled:
            return
        self.directory = default_data_dir() if directory is None else directory
        self.saving = True
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._fail("create", self.directory, exc)
            return
        self._remove_stale_temp_files()

    # Public API -----------------------------------------------------------

    def take_notices(self) -> list[str]:
        """The user-facing notices since the last call, oldest first; clears them."""
        notices, self._notices = self._notices, []
        return notices

    def load_settings(self, themes: Collection[str] | None = None) -> Settings:
        """The saved settings, or defaults if there are none or they cannot be used.

        A file that is not a JSON object is set aside whole. In a good object
        each bad field falls back to its default and the others are kept: the
        file is set aside, the good settings written in its place, and the
        notice names every bad field. With ``themes`` (the app's theme names)
        a theme not among them is a bad field too.
        """
        data = self._read_json(SETTINGS_FILE)
        if data is not None:
            settings, problems = Settings.read(data, themes)
            self._settings = settings
            if problems:
                self._repair_settings(problems)
        return self._settings

    def save_settings(self, settings: Settings) -> None:
        """Keep ``settings`` for this session and, if saving, on disk."""
        self._settings = settings
        self._write_json(SETTINGS_FILE, settings.to_json())

    def load_stats(self) -> Stats:
        """The all-time stats.

        A damaged file is set aside and the counts are rebuilt from the games
        in ``games.jsonl`` since the last reset, and saved; if that file cannot
        be read either, this session's counts are used.
        """
        data = self._read_json(STATS_FILE, damaged=self._rebuild_stats)
        if data is not None:
            try:
                self._stats = Stats.from_json(data)
            except ValueError as exc:
                self._rebuild_stats(str(exc))
        return self._stats

    def record_game(
        self, record: GameRecord, stats_key: str | None = None, outcome: str | None = None
    ) -> None:
        """Append ``record`` to the games and, unless it was abandoned, count it in the stats.

        The stats key and outcome default to `stats_entry` of the record; pass
        them only to count the game elsewhere. Raises `ValueError` only for a
        malformed key or outcome.
        """
        entry = stats_entry(record)
        stats = None
        if entry is not None:
            # Re-read so that games finished in another ttt-tui since are kept.
            stats = self.load_stats().record(stats_key or entry[0], outcome or entry[1])
        self._append_game(record)
        if stats is not None:
            self._stats = stats
            self._write_json(STATS_FILE, stats.to_json())

    def reset_stats(self) -> None:
        """Set every count to zero. Game records are kept.

        If games were recorded since the last reset, a ``stats_reset`` line is
        added to ``games.jsonl``: counts rebuilt from that file (after damage to
        ``stats.json``, which would take a mark kept there with it) start after
        the line, so reset counts never come back.
        """
        self._stats = Stats()
        self._write_json(STATS_FILE, self._stats.to_json())
        found = self._read_games()
        if found is not None and found.records[found.since_reset :]:
            self._write_games([*found.lines, _reset_line(_utcnow())])

    def load_games(self) -> list[GameRecord]:
        """Every recorded game, oldest first (this session's only if the file is unusable)."""
        found = self._read_games()
        if found is not None:
            self._games = found.records
        return list(self._games)

    # Reading --------------------------------------------------------------

    def _path(self, name: str) -> Path | None:
        """The file's path if it may be read and written now, else None."""
        if not self.saving or self.directory is None or name in self._frozen:
            return None
        return self.directory / name

    def _read_bytes(self, name: str) -> bytes | None:
        """The file's content; None if it is absent or not to be read now."""
        path = self._path(name)
        if path is None:
            return None
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            # Never write over what we could not read.
            self._fail("read", path, exc)
            return None

    def _read_json(
        self, name: str, damaged: Callable[[str], None] | None = None
    ) -> dict[str, Any] | None:
        """The file's object, or None if there is none to use.

        A damaged file is handed to ``damaged`` with the reason; by default it
        is set aside and the defaults used.
        """
        raw = self._read_bytes(name)
        if raw is None:
            return None
        try:
            return parse_object(decode(raw))
        except NewerFormat as newer:
            self._freeze(name, newer.version)
        except InvalidData as exc:
            if damaged is None:
                self._set_aside(name, str(exc))
            else:
                damaged(str(exc))
        return None

    def _read_games(self) -> _GamesFile | None:
        """The good lines of ``games.jsonl``, setting a damaged file aside first."""
        raw = self._read_bytes(GAMES_FILE)
        if raw is None:
            return None if self._path(GAMES_FILE) is None else _GamesFile([], [])
        found = _GamesFile([], [])
        bad: list[str] = []
        for number, raw_line in enumerate(raw.split(b"\n"), start=1):
            if not raw_line.strip():
                continue
            try:
                line = decode(raw_line).strip()
                data = parse_object(line)
                if _RESET_KEY in data:
                    found.reset_at = time_field(data[_RESET_KEY], _RESET_KEY)
                    found.since_reset = len(found.records)
                else:
                    found.records.append(GameRecord._from_object(data))
                found.lines.append(line)
            except NewerFormat as newer:
                self._freeze(GAMES_FILE, newer.version)
                return None
            except ValueError as exc:
                bad.append(f"line {number}: {exc}")
        if bad:
            aside = self._move_aside(GAMES_FILE)
            if aside is None:
                return None
            kept = len(found.records)
            self._notices.append(
                f"{GAMES_FILE} had {len(bad)} unreadable line{'s' if len(bad) > 1 else ''}"
                f" ({bad[0]}); moved it to {aside} and kept the {kept} readable"
                f" game{'' if kept == 1 else 's'}."
            )
            if not self._write_games(found.lines):
                return None
        return found

    # Writing --------------------------------------------------------------

    def _write_json(self, name: str, data: Mapping[str, Any]) -> bool:
        path = self._path(name)
        if path is None:
            return False
        try:
            _write_atomic(path, json_bytes(data))
        except OSError as exc:
            self._fail("write", path, exc)
            return False
        return True

    def _write_games(self, lines: Iterable[str]) -> bool:
        path = self._path(GAMES_FILE)
        if path is None:
            return False
        try:
            _write_atomic(path, "".join(line + "\n" for line in lines).encode("utf-8"))
        except OSError as exc:
            self._fail("write", path, exc)
            return False
        return True

    def _append_game(self, record: GameRecord) -> None:
        found = self._read_games()
        if found is None:
            self._games.append(record)
            return
        self._games = [*found.records, record]
        self._write_games([*found.lines, record.to_json()])

    # Trouble --------------------------------------------------------------

    def _fail(self, action: str, path: Path, exc: OSError) -> None:
        """Turn saving off, telling the user the first time only."""
        if not self.saving:
            return
        self.saving = False
        self._notices.append(
            f"Could not {action} {path} ({_reason(exc)}). Saving is off for this session;"
            " settings, stats and games are kept in memory until you quit."
        )

    def _freeze(self, name: str, version: int) -> None:
        self._frozen.add(name)
        self._notices.append(
            f"{name} was written by a newer ttt-tui (format version {version}); left it"
            " untouched and will not save to it this session, using defaults instead."
        )

    def _move_aside(self, name: str) -> str | None:
        """Rename a damaged file to a fresh ``NAME.corrupt-<timestamp>``; its new name."""
        assert self.directory is not None
        stamp = _utcnow().strftime("%Y%m%dT%H%M%SZ")
        aside = f"{name}.corrupt-{stamp}"
        serial = 1
        while (self.directory / aside).exists():
            serial += 1
            aside = f"{name}.corrupt-{stamp}-{serial}"
        try:
            os.replace(self.directory / name, self.directory / aside)
        except OSError as exc:
            self._fail("move aside", self.directory / name, exc)
            return None
        _fsync_directory(self.directory)
        return aside

    def _set_aside(self, name: str, reason: str) -> None:
        aside = self._move_aside(name)
        if aside is not None:
            self._notices.append(
                f"{name} was unreadable ({reason}); moved it to {aside} and started with defaults."
            )

    def _repair_settings(self, problems: list[str]) -> None:
        """Keep the good fields of a settings file with bad ones, and say which were bad."""
        fields = [problem.partition(":")[0] for problem in problems]
        named = ", ".join(fields[:-1]) + " and " + fields[-1] if len(fields) > 1 else fields[0]
        aside = self._move_aside(SETTINGS_FILE)
        moved = "" if aside is None else f"moved it to {aside}, "
        self._notices.append(
            f"{SETTINGS_FILE} had {_plural(len(problems), 'bad value')}"
            f" ({'; '.join(problems)}); {moved}kept the other settings and used the"
            f" default{'' if len(fields) == 1 else 's'} for {named}."
        )
        if aside is not None:
            self._write_json(SETTINGS_FILE, self._settings.to_json())

    def _rebuild_stats(self, reason: str) -> None:
        """Set a damaged stats file aside and count the games again, saying so."""
        aside = self._move_aside(STATS_FILE)
        if aside is None:
            return
        found = self._read_games()
        if found is None or (found.reset_at is None and not found.records):
            self._notices.append(
                f"{STATS_FILE} was unreadable ({reason}); moved it to {aside} and started"
                " with defaults."
            )
            return
        self._games = found.records
        self._stats = Stats.from_records(found.records[found.since_reset :])
        counted = sum(row.total for row in self._stats.rows())
        since = "" if found.reset_at is None else " since the stats were last reset"
        self._notices.append(
            f"{STATS_FILE} was unreadable ({reason}); moved it to {aside} and rebuilt the"
            f" counts from the {_plural(counted, 'game')} in {GAMES_FILE}{since}."
        )
        self._write_json(STATS_FILE, self._stats.to_json())

    def _remove_stale_temp_files(self) -> None:
        """Delete temp files left by a writer that was killed mid-write."""
        assert self.directory is not None
        try:
            entries = list(os.scandir(self.directory))
        except OSError:
            return  # Reading and writing will report the problem if it matters.
        now = time.time()
        for entry in entries:
            match = _TEMP_NAME.match(entry.name)
            if match is None:
                continue
            try:
                stale = now - entry.stat(follow_symlinks=False).st_mtime > _STALE_TEMP_SECONDS
                if stale or not _pid_alive(int(match["pid"])):
                    os.unlink(entry.path)
            except OSError:
                continue
