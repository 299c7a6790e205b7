"""The `Store`: settings, stats and game records in one directory, with nothing lost.

It knows where the files are (`default_data_dir`), reads them through the
model (`ttt_tui.storage.model`, `ttt_tui.play.settings`) and writes them through
`ttt_tui.storage.files`; what goes wrong becomes a notice for the user, never
an exception. It sets damaged files aside, repairs what can be repaired, and
rebuilds the stats from the game records.

Several ttt-tui processes may share the directory (`ttt-tui serve` runs one
per browser tab). Every change is a read-modify-write made under the
directory's lock (`directory_lock`), so none is lost: a game is added to the
games and counts as they are on disk at that moment, and saved settings change
only the fields this process changed. Reads need no lock, since every file is
replaced whole by a rename; a reader that finds a damaged file looks again
under the lock before it repairs anything, as another process may be repairing
it already.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from ttt_tui.play.settings import Settings
from ttt_tui.storage.files import (
    LockBusy,
    directory_lock,
    fsync_directory,
    remove_stale_temp_files,
    write_atomic,
)
from ttt_tui.storage.jsonfields import InvalidData, NewerFormat, decode, json_bytes, parse_object
from ttt_tui.storage.model import (
    GameRecord,
    Stats,
    parse_games_line,
    read_settings,
    reset_line,
    settings_json,
    stats_entry,
)

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


def app_directory(env: str, platform_dir: Callable[..., str]) -> Path:
    """One of ttt-tui's directories: the environment variable ``env``'s value if it is
    set and not empty, else the platform's place that ``platform_dir`` (a platformdirs
    function) names."""
    override = os.environ.get(env)
    if override:
        return Path(override).expanduser()
    return Path(platform_dir(APP_NAME, appauthor=False))


def default_data_dir() -> Path:
    """Where ttt-tui keeps its files: `DATA_DIR_ENV` if set, else the platform's place."""
    return app_directory(DATA_DIR_ENV, user_data_dir)


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


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

    def copy(self) -> _GamesFile:
        """A copy whose lists can be added to without changing this one's."""
        return _GamesFile(list(self.lines), list(self.records), self.since_reset, self.reset_at)


class GamesUnreadable(Exception):
    """``games.jsonl`` is missing or cannot be read as it is; the message says why."""


def read_games(directory: Path) -> list[GameRecord]:
    """Every game in ``directory``'s ``games.jsonl``, oldest first, read without
    changing anything (`Store` repairs a damaged file; a reader only reports it).

    Raises `GamesUnreadable` for a missing file, an unreadable one, or a damaged or
    newer line, naming the line.
    """
    path = directory / GAMES_FILE
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise GamesUnreadable(f"no games recorded yet: {path} does not exist") from None
    except OSError as exc:
        raise GamesUnreadable(f"cannot read {path}: {_reason(exc)}") from None
    games: list[GameRecord] = []
    for number, raw_line in enumerate(raw.split(b"\n"), start=1):
        if not raw_line.strip():
            continue
        try:
            entry = parse_games_line(decode(raw_line).strip())
        except NewerFormat as newer:
            raise GamesUnreadable(
                f"{path} line {number} is from a newer ttt-tui (format {newer.version})"
            ) from None
        except ValueError as exc:
            raise GamesUnreadable(f"{path} line {number} is damaged: {exc}") from None
        if isinstance(entry, GameRecord):
            games.append(entry)
    return games


class Store:
    """Settings, stats and game records in one directory, with nothing ever lost.

    ``directory`` defaults to `default_data_dir`. With ``enabled=False``
    (``--no-save``) the store reads and writes nothing and keeps everything in
    memory. Messages for the user collect until `take_notices`.
    """

    def __init__(
        self,
        directory: Path | None = None,
        *,
        enabled: bool = True,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.directory: Path | None = None
        """The data directory, or None when saving is disabled."""
        self.now = now
        """The clock that stamps resets and the names of files set aside."""
        self.saving = False
        """Whether changes reach the disk; False when disabled or after a failure."""
        self.lock_timeout: float | None = None
        """Seconds a change waits for another ttt-tui to let go of the directory's lock
        before it raises `LockBusy`, changing nothing; None waits for ever."""
        self._notices: list[str] = []
        self._frozen: set[str] = set()
        self._settings = Settings()
        self._stats = Stats()
        self._games: list[GameRecord] = []
        self._lock_depth = 0
        self._games_seen: tuple[bytes, _GamesFile] | None = None
        """The bytes of ``games.jsonl`` as last read or written, and what they held."""
        if not enabled:
            return
        self.directory = default_data_dir() if directory is None else directory
        self.saving = True
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._fail("create", self.directory, exc)
            return
        remove_stale_temp_files(self.directory, _DATA_FILES)

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
            settings, problems = read_settings(data, themes)
            if problems and not self._lock_depth:
                # Look again under the lock before repairing, as in `_read_json`.
                with contextlib.suppress(LockBusy), self._locked():
                    return self.load_settings(themes)
            self._settings = settings
            if problems and self._lock_depth:
                self._repair_settings(problems)
        return self._settings

    def save_settings(self, settings: Settings) -> None:
        """Keep ``settings`` for this session and, if saving, on disk.

        What is written is the file as it is now with the fields changed since
        this store last loaded or saved settings taken from ``settings``, so a
        change that another ttt-tui saved meanwhile to another field is kept.
        """
        with self._locked():
            merged = self._merge_settings(settings)
            self._settings = settings
            self._write_json(SETTINGS_FILE, merged)

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
                if not self._lock_depth:
                    # Look again under the lock before repairing, as in `_read_json`.
                    with contextlib.suppress(LockBusy), self._locked():
                        return self.load_stats()
                    return self._stats
                self._rebuild_stats(str(exc))
        return self._stats

    def record_game(self, record: GameRecord) -> None:
        """Append ``record`` to the games and, unless it was abandoned, count it in the stats."""
        entry = stats_entry(record)
        with self._locked():
            stats = None
            if entry is not None:
                # Read under the lock, so that games finished in another ttt-tui count.
                stats = self.load_stats().record(*entry)
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
        with self._locked():
            self._stats = Stats()
            self._write_json(STATS_FILE, self._stats.to_json())
            found = self._read_games()
            if found is not None and found.records[found.since_reset :]:
                moment = self.now()
                self._write_games(
                    _GamesFile(
                        [*found.lines, reset_line(moment)],
                        found.records,
                        since_reset=len(found.records),
                        reset_at=moment,
                    )
                )

    def load_games(self) -> list[GameRecord]:
        """Every recorded game, oldest first (this session's only if the file is unusable)."""
        found = self._read_games()
        if found is not None:
            self._games = found.records
        return list(self._games)

    # Sharing the directory ------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the directory's lock for the block, once however deeply nested.

        Every read-modify-write of a file happens inside one, so that another
        ttt-tui cannot change the file between the read and the write. Raises
        `LockBusy` as it begins, having changed nothing, when another ttt-tui holds
        the lock for longer than `lock_timeout`.
        """
        directory = self.directory
        if self._lock_depth or not self.saving or directory is None:
            lock: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
        else:
            lock = directory_lock(directory, self.lock_timeout)
        with lock:
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1

    def _merge_settings(self, settings: Settings) -> dict[str, Any]:
        """The settings file to write: as on disk, with the fields changed here from ``settings``.

        A field missing or bad on disk takes its value from ``settings`` too, and
        so does every field when the file is absent or unreadable.
        """
        mine, before = settings_json(settings), settings_json(self._settings)
        data = self._read_json(
            SETTINGS_FILE,
            damaged=lambda reason: self._set_aside(
                SETTINGS_FILE, reason, then="saved this session's settings in its place"
            ),
        )
        if data is None:
            return mine
        on_disk, problems = read_settings(data)
        bad = {problem.partition(":")[0] for problem in problems}
        theirs = settings_json(on_disk)
        return {
            key: value if before.get(key) != value or key in bad or key not in data else theirs[key]
            for key, value in mine.items()
        }

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
        is set aside and the defaults used. Damage found outside the lock is
        looked at again under it first: another ttt-tui may have repaired the
        file in between, and only one may move it aside. If another ttt-tui
        holds the lock for longer than `lock_timeout`, the file is left as it is
        and the defaults used: the next change, made under the lock, repairs it.
        """
        raw = self._read_bytes(name)
        if raw is None:
            return None
        try:
            return parse_object(decode(raw))
        except NewerFormat as newer:
            self._freeze(name, newer.version)
        except InvalidData as exc:
            if not self._lock_depth:
                # Another ttt-tui holding the lock (`LockBusy`) leaves the repair to the
                # next change, which reads the file again under the lock.
                with contextlib.suppress(LockBusy), self._locked():
                    return self._read_json(name, damaged)
                return None
            if damaged is None:
                self._set_aside(name, str(exc))
            else:
                damaged(str(exc))
        return None

    def _read_games(self) -> _GamesFile | None:
        """The good lines of ``games.jsonl``, setting a damaged file aside first.

        Only the lines added since this store last read or wrote the file are
        parsed, when the file still begins with what it held then.
        """
        raw = self._read_bytes(GAMES_FILE)
        if raw is None:
            return None if self._path(GAMES_FILE) is None else _GamesFile([], [])
        seen = self._games_seen
        if seen is not None and raw.startswith(seen[0]):
            start, found = len(seen[0]), seen[1].copy()
        else:
            start, found = 0, _GamesFile([], [])
        first_line = raw.count(b"\n", 0, start) + 1
        bad: list[str] = []
        for number, raw_line in enumerate(raw[start:].split(b"\n"), start=first_line):
            if not raw_line.strip():
                continue
            try:
                line = decode(raw_line).strip()
                entry = parse_games_line(line)
                if isinstance(entry, GameRecord):
                    found.records.append(entry)
                else:
                    found.reset_at = entry
                    found.since_reset = len(found.records)
                found.lines.append(line)
            except NewerFormat as newer:
                self._games_seen = None
                self._freeze(GAMES_FILE, newer.version)
                return None
            except ValueError as exc:
                bad.append(f"line {number}: {exc}")
        if not bad:
            if raw.endswith(b"\n"):
                self._games_seen = (raw, found.copy())
            return found
        self._games_seen = None
        if not self._lock_depth:
            # Look again under the lock before repairing, as in `_read_json`.
            with contextlib.suppress(LockBusy), self._locked():
                return self._read_games()
            return found
        aside = self._move_aside(GAMES_FILE)
        if aside is None:
            return None
        kept = len(found.records)
        self._notices.append(
            f"{GAMES_FILE} had {len(bad)} unreadable line{'s' if len(bad) > 1 else ''}"
            f" ({bad[0]}); moved it to {aside} and kept the {kept} readable"
            f" game{'' if kept == 1 else 's'}."
        )
        if not self._write_games(found):
            return None
        return found

    # Writing --------------------------------------------------------------

    def _write_json(self, name: str, data: Mapping[str, Any]) -> bool:
        path = self._path(name)
        if path is None:
            return False
        try:
            write_atomic(path, json_bytes(data))
        except OSError as exc:
            self._fail("write", path, exc)
            return False
        return True

    def _write_games(self, found: _GamesFile) -> bool:
        path = self._path(GAMES_FILE)
        if path is None:
            return False
        data = "".join(line + "\n" for line in found.lines).encode("utf-8")
        try:
            write_atomic(path, data)
        except OSError as exc:
            self._games_seen = None
            self._fail("write", path, exc)
            return False
        self._games_seen = (data, found.copy())
        return True

    def _append_game(self, record: GameRecord) -> None:
        found = self._read_games()
        if found is None:
            self._games.append(record)
            return
        self._games = [*found.records, record]
        self._write_games(
            _GamesFile(
                [*found.lines, record.to_json()],
                self._games,
                since_reset=found.since_reset,
                reset_at=found.reset_at,
            )
        )

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
        stamp = self.now().strftime("%Y%m%dT%H%M%SZ")
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
        fsync_directory(self.directory)
        return aside

    def _set_aside(self, name: str, reason: str, then: str = "started with defaults") -> None:
        aside = self._move_aside(name)
        if aside is not None:
            self._notices.append(
                f"{name} was unreadable ({reason}); moved it to {aside} and {then}."
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
            self._write_json(SETTINGS_FILE, settings_json(self._settings))

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
