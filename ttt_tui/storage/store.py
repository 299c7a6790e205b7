"""The `Store`: settings, stats, game records and games in play in one directory, with
nothing lost.

The games, the stats and the games in play live in an SQLite database
(`ttt_tui.storage.database`); the settings in ``settings.json``, a small file a
person may edit and diff. What goes wrong becomes a notice for the person, never an
exception: a damaged file is set aside and what can be read of it carried over; a
directory that cannot be written turns saving off and the game goes on in memory.

Several ttt-tui processes may share the directory (`ttt-tui serve` runs one per
browser tab): SQLite lets them read and write at once, and a change to the settings
file is made under the database's write lock, so that two processes changing two
settings keep both.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import os
import secrets
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from platformdirs import user_data_dir

from ttt_tui.play.game import SavedGame
from ttt_tui.play.rating import Attempt, Rating, after_attempt
from ttt_tui.play.settings import Settings
from ttt_tui.storage.database import (
    DATABASE_FILE,
    SIDE_FILES,
    LockBusy,
    NewerSchema,
    connect,
    digest,
    is_busy,
    is_damaged,
    write,
)
from ttt_tui.storage.files import (
    fsync_directory,
    pid_alive,
    remove_stale_temp_files,
    write_atomic,
)
from ttt_tui.storage.jsonfields import InvalidData, NewerFormat, decode, json_bytes, parse_object
from ttt_tui.storage.model import (
    GameRecord,
    Stats,
    parse_games_line,
    read_settings,
    saved_game_from_json,
    saved_game_json,
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
"""File name of the all-time stats before they moved into the database."""
GAMES_FILE = "games.jsonl"
"""File name of the game records, one JSON object a line, before they moved into the
database (and the format ``games export`` writes)."""

_T = TypeVar("_T")


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


def has_data(directory: Path) -> bool:
    """Whether ``directory`` holds games to read: the database, or the files before it."""
    return any((directory / name).exists() for name in (DATABASE_FILE, GAMES_FILE))


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc) or type(exc).__name__
    return str(exc) or type(exc).__name__


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class LeftGame:
    """A game in play that its app left (a quit, a crash, a lost terminal), claimed by
    this store to be offered back (`Store.claim_left_game`)."""

    id: int
    """Its row; this store's alone until it is resumed, abandoned or released."""
    saved: datetime
    """When it was last saved."""
    game: SavedGame
    """The game, to resume."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A recorded game this ttt-tui cannot read: damaged, or written by a newer one."""

    reason: str
    """What is wrong with it."""


class NoticeKind(enum.Enum):
    """What a notice for the person is about; its value is the title it is shown under."""

    DAMAGED = "Data damaged"
    """A damaged file or record was set aside or repaired; what could be read was kept."""
    DATA = "Your data"
    """Files were carried over, or left untouched for a newer ttt-tui or because they
    could not be read."""
    SAVING = "Saving"
    """Saving is off, waits for another ttt-tui, or has caught up."""


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the person should know about their data, in plain text."""

    kind: NoticeKind
    """What it is about."""
    text: str
    """What happened, and what was done about it."""
    warning: bool = True
    """Whether something went wrong (else it only informs)."""

    @property
    def title(self) -> str:
        """The title it is shown under."""
        return self.kind.value


NumberedGame = tuple[int, "GameRecord | Unreadable"]
"""A recorded game with its number (1 the first ever recorded), or why it cannot be read."""


@dataclass(frozen=True, slots=True)
class Imported:
    """What `Store.import_games` did."""

    added: int
    """Games added."""
    duplicates: int
    """Games left out, each the exact copy of one already recorded."""


class Store:
    """Settings, stats, game records and games in play in one directory, nothing ever lost.

    ``directory`` defaults to `default_data_dir`. With ``enabled=False`` (``--no-save``)
    the store reads and writes no file and keeps everything in memory. Messages for the
    person collect until `take_notices`. One thread at a time may use a store (the
    app's saver's); the database is opened at its first use.
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
        self._lock_timeout: float | None = None
        self._notices: list[Notice] = []
        self._frozen: set[str] = set()
        self._settings = Settings()
        self._db: sqlite3.Connection | None = None
        self._on_disk = False
        """Whether `_db` is the directory's database (not one in memory)."""
        self._in_play: int | None = None
        """The row this store keeps its game in play in, once it has saved one."""
        self._owner = f"{os.getpid()} {secrets.token_hex(8)}"
        """Names this store as a game in play's owner: its process and a token."""
        self._settings_locked = False
        if not enabled:
            return
        self.directory = default_data_dir() if directory is None else directory
        self.saving = True
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._fail("create", self.directory, exc)
            return
        # The settings' leftovers, and those the files before the database may have left.
        remove_stale_temp_files(self.directory, (SETTINGS_FILE, GAMES_FILE, STATS_FILE))

    @property
    def keeps_games(self) -> bool:
        """Whether games and stats reach the directory's database: saving is on, and the
        database is not one of a newer ttt-tui's (left untouched)."""
        return self.saving and DATABASE_FILE not in self._frozen

    @property
    def lock_timeout(self) -> float | None:
        """Seconds a change waits for another ttt-tui to finish with the database before
        it raises `LockBusy`, having changed nothing; None waits for ever."""
        return self._lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, seconds: float | None) -> None:
        self._lock_timeout = seconds
        if self._db is not None and self._on_disk:
            timeout_ms = 2**31 - 1 if seconds is None else int(seconds * 1000)
            self._db.execute(f"PRAGMA busy_timeout = {timeout_ms}")

    def close(self) -> None:
        """Close the database on disk (a later call opens it again). A database in memory
        (saving off) stays open: closing it would forget what it holds."""
        if self._db is not None and self._on_disk:
            self._db.close()
            self._db = None

    def take_notices(self) -> list[Notice]:
        """The notices for the person since the last call, oldest first; clears them."""
        notices, self._notices = self._notices, []
        return notices

    # Settings -------------------------------------------------------------

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
            if problems and not self._settings_locked:
                # Look again under the lock before repairing, as in `_read_json`.
                with contextlib.suppress(LockBusy), self._settings_lock():
                    return self.load_settings(themes)
            self._settings = settings
            if problems and self._settings_locked:
                self._repair_settings(problems)
        return self._settings

    def save_settings(self, settings: Settings) -> None:
        """Keep ``settings`` for this session and, if saving, on disk.

        What is written is the file as it is now with the fields changed since
        this store last loaded or saved settings taken from ``settings``, so a
        change that another ttt-tui saved meanwhile to another field is kept.
        """
        with self._settings_lock():
            merged = self._merge_settings(settings)
            self._settings = settings
            self._write_json(SETTINGS_FILE, merged)

    @contextlib.contextmanager
    def _settings_lock(self) -> Iterator[None]:
        """Hold the database's write lock for the block, so that no other ttt-tui
        changes the settings file between this one's read and write. Raises `LockBusy`
        as it begins when another holds the database for longer than `lock_timeout`;
        where there is no database on disk to lock, locks nothing."""
        if self._settings_locked:
            yield
            return
        db = self._use(lambda db: db)
        lock = write(db) if self._on_disk else contextlib.nullcontext(db)
        try:
            with lock:
                self._settings_locked = True
                try:
                    yield
                finally:
                    self._settings_locked = False
        except sqlite3.Error as error:
            if is_busy(error):
                raise LockBusy from None
            raise

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

    def _repair_settings(self, problems: list[str]) -> None:
        """Keep the good fields of a settings file with bad ones, and say which were bad."""
        fields = [problem.partition(":")[0] for problem in problems]
        named = ", ".join(fields[:-1]) + " and " + fields[-1] if len(fields) > 1 else fields[0]
        aside = self._move_aside(SETTINGS_FILE)
        moved = "" if aside is None else f"moved it to {aside}, "
        self._tell(
            NoticeKind.DAMAGED,
            f"{SETTINGS_FILE} had {_plural(len(problems), 'bad value')}"
            f" ({'; '.join(problems)}); {moved}kept the other settings and used the"
            f" default{'' if len(fields) == 1 else 's'} for {named}.",
        )
        if aside is not None:
            self._write_json(SETTINGS_FILE, settings_json(self._settings))

    # Stats and games ------------------------------------------------------

    def load_stats(self) -> Stats:
        """The all-time stats: the games recorded since the last reset, counted."""
        rows = self._use(lambda db: db.execute("SELECT key, outcome, count FROM stats").fetchall())
        return Stats.from_counts(rows)

    def record_game(self, record: GameRecord) -> None:
        """Add ``record`` to the games and, unless it was abandoned, count it in the stats;
        the game this store kept in play, which ``record`` ends, goes in the same
        transaction."""

        def record_it(db: sqlite3.Connection) -> None:
            with write(db):
                _insert_game(db, record)
                if self._in_play is not None:
                    db.execute("DELETE FROM games_in_play WHERE id = ?", (self._in_play,))
            self._in_play = None

        self._use(record_it)

    def reset_stats(self) -> None:
        """Set every count to zero: a reset row after the last game. Game records are kept."""
        moment = self.now().isoformat()

        def reset(db: sqlite3.Connection) -> None:
            with write(db):
                # OR REPLACE: a clock that gives the same time twice makes the later reset
                # the last one (a new row, which the trigger counts), never a failure.
                db.execute(
                    "INSERT OR REPLACE INTO stats_resets (at, after_game)"
                    " SELECT ?, max(id) FROM games",
                    (moment,),
                )

        self._use(reset)

    # Puzzles --------------------------------------------------------------

    def puzzle_rating(self) -> Rating:
        """The player's puzzle rating: the one after the newest attempt, or a newcomer's."""
        row = self._use(
            lambda db: db.execute(
                "SELECT rating, deviation, volatility FROM puzzle_attempts ORDER BY id DESC LIMIT 1"
            ).fetchone()
        )
        return Rating() if row is None else Rating(*row)

    def record_attempt(self, attempt: Attempt) -> Rating:
        """Keep an attempt at a puzzle and the player's rating after it (Glicko-2, a
        rating period an attempt), in one transaction; returns the new rating."""
        moment = self.now().isoformat()

        def record_it(db: sqlite3.Connection) -> Rating:
            with write(db):
                row = db.execute(
                    "SELECT rating, deviation, volatility FROM puzzle_attempts"
                    " ORDER BY id DESC LIMIT 1"
                ).fetchone()
                before = Rating() if row is None else Rating(*row)
                after = after_attempt(before, attempt.difficulty, attempt.solved)
                db.execute(
                    "INSERT INTO puzzle_attempts (at, puzzle, n, difficulty, solved, streak,"
                    " rating, deviation, volatility) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        moment,
                        attempt.puzzle,
                        attempt.n,
                        attempt.difficulty,
                        int(attempt.solved),
                        attempt.streak,
                        after.rating,
                        after.deviation,
                        after.volatility,
                    ),
                )
                return after

        return self._use(record_it)

    def best_streak(self) -> int:
        """The longest streak of puzzles solved in a row in streak mode (0 with none)."""
        found = self._use(
            lambda db: db.execute("SELECT max(streak) FROM puzzle_attempts").fetchone()[0]
        )
        return int(found or 0)

    def add_own_puzzle(self, puzzle: str) -> None:
        """Keep a puzzle made of the player's own mistake (its record), once."""
        moment = self.now().isoformat()

        def add(db: sqlite3.Connection) -> None:
            with write(db):
                db.execute(
                    "INSERT OR IGNORE INTO own_puzzles (added, puzzle) VALUES (?, ?)",
                    (moment, puzzle),
                )

        self._use(add)

    def own_puzzles(self) -> list[str]:
        """The player's own puzzles (their records), oldest first."""
        rows = self._use(
            lambda db: db.execute("SELECT puzzle FROM own_puzzles ORDER BY id").fetchall()
        )
        return [str(puzzle) for (puzzle,) in rows]

    def attempts(self) -> tuple[int, int]:
        """How many puzzles were attempted and how many of them solved."""
        row = self._use(
            lambda db: db.execute(
                "SELECT count(*), coalesce(sum(solved), 0) FROM puzzle_attempts"
            ).fetchone()
        )
        return int(row[0]), int(row[1])

    def newest_number(self) -> int:
        """The number of the newest game (1 the first ever recorded); 0 with none."""
        return int(self._use(lambda db: db.execute("SELECT max(id) FROM games").fetchone()[0]) or 0)

    def game(self, number: int) -> NumberedGame | None:
        """A game and its number: game ``number`` (1 the first ever recorded), or counted
        back from the newest (-1 the newest); None if there is no such game."""
        if number > 0:
            query, value = "SELECT id, record FROM games WHERE id = ?", number
        else:
            query = "SELECT id, record FROM games ORDER BY id DESC LIMIT 1 OFFSET ?"
            value = -number - 1
        row = self._use(lambda db: db.execute(query, (value,)).fetchone())
        return None if row is None else _recorded(row)

    def games_page(
        self, before: int | None = None, limit: int = 100, board: int | None = None
    ) -> list[NumberedGame]:
        """Up to ``limit`` games with their numbers, newest first, older than game number
        ``before`` (None: from the newest), of one board (``board``, its n) or all."""
        clauses, values = [], []
        if before is not None:
            clauses.append("id < ?")
            values.append(before)
        if board is not None:
            clauses.append("n = ?")
            values.append(board)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        query = f"SELECT id, record FROM games {where} ORDER BY id DESC LIMIT ?"
        rows = self._use(lambda db: db.execute(query, (*values, limit)).fetchall())
        return [_recorded(row) for row in rows]

    def iter_games(self, board: int | None = None, batch: int = 1000) -> Iterator[NumberedGame]:
        """Every game with its number, oldest first, of one board (``board``, its n) or
        all, read ``batch`` at a time."""
        after = 0
        where = "" if board is None else "AND n = ?"
        while True:
            values = (after, *(() if board is None else (board,)), batch)
            query = f"SELECT id, record FROM games WHERE id > ? {where} ORDER BY id LIMIT ?"
            rows: list[tuple[int, str]] = self._use(
                functools.partial(_fetch_all, query=query, values=values)
            )
            yield from map(_recorded, rows)
            if len(rows) < batch:
                return
            after = rows[-1][0]

    def import_games(self, records: Iterable[GameRecord]) -> Imported:
        """Add ``records`` in order, in one transaction, leaving out exact copies of games
        already recorded (or earlier in ``records``)."""
        listed = list(records)

        def add(db: sqlite3.Connection) -> int:
            with write(db):
                return sum(_insert_game(db, record) for record in listed)

        added = self._use(add)
        return Imported(added, len(listed) - added)

    # Games in play ------------------------------------------------------------

    def keep_in_play(self, saved: SavedGame | None) -> None:
        """Keep the game in play, to be resumed if this app goes without ending it;
        None: there is none to keep (the row kept so far goes)."""
        self._use(lambda db: self._keep(db, saved, self._owner))

    def leave_in_play(self, saved: SavedGame | None) -> None:
        """Keep the game in play as the app leaves it, for the next launch to offer back."""
        self._use(lambda db: self._keep(db, saved, None))
        self._in_play = None

    def _keep(self, db: sqlite3.Connection, saved: SavedGame | None, owner: str | None) -> None:
        with write(db):
            if saved is None:
                if self._in_play is not None:
                    db.execute("DELETE FROM games_in_play WHERE id = ?", (self._in_play,))
                    self._in_play = None
                return
            state, moment = saved_game_json(saved), self.now().isoformat()
            if self._in_play is not None:
                updated = db.execute(
                    "UPDATE games_in_play SET saved = ?, state = ?, owner = ? WHERE id = ?",
                    (moment, state, owner, self._in_play),
                )
                if updated.rowcount:
                    return
            cursor = db.execute(
                "INSERT INTO games_in_play (saved, state, owner) VALUES (?, ?, ?)",
                (moment, state, owner),
            )
            self._in_play = cursor.lastrowid

    def claim_left_game(self) -> LeftGame | None:
        """The newest game in play that no running ttt-tui plays (it was left, or its app
        died), now this store's to offer; None if there is none. One that cannot be
        read is dropped, with a notice."""

        def claim(db: sqlite3.Connection) -> LeftGame | None:
            with write(db):
                rows = db.execute(
                    "SELECT id, saved, state, owner FROM games_in_play ORDER BY saved DESC, id DESC"
                ).fetchall()
                for row_id, saved, state, owner in rows:
                    if owner is not None and self._owner_alive(owner):
                        continue
                    try:
                        game = saved_game_from_json(state)
                        moment = datetime.fromisoformat(saved)
                    except ValueError as exc:
                        db.execute("DELETE FROM games_in_play WHERE id = ?", (row_id,))
                        self._tell(
                            NoticeKind.DAMAGED,
                            f"A game left unfinished could not be read ({exc}); it was dropped.",
                        )
                        continue
                    db.execute(
                        "UPDATE games_in_play SET owner = ? WHERE id = ?", (self._owner, row_id)
                    )
                    return LeftGame(row_id, moment, game)
            return None

        return self._use(claim)

    def _owner_alive(self, owner: str) -> bool:
        """Whether the ttt-tui that ``owner`` names may still be playing its game."""
        pid_text, _, token = owner.partition(" ")
        mine_pid, _, mine_token = self._owner.partition(" ")
        if pid_text == mine_pid:
            return token == mine_token
        return pid_text.isdigit() and pid_alive(int(pid_text))

    def resume_left(self, left: LeftGame) -> None:
        """``left`` is played on here: this store keeps the game in play in its row."""
        self._in_play = left.id

    def abandon_left(self, left: LeftGame, record: GameRecord) -> None:
        """``left`` will not be resumed: ``record`` (it, abandoned) is recorded in its place."""

        def abandon(db: sqlite3.Connection) -> None:
            with write(db):
                _insert_game(db, record)
                db.execute("DELETE FROM games_in_play WHERE id = ?", (left.id,))

        self._use(abandon)

    def release_left(self, left: LeftGame) -> None:
        """``left`` was neither resumed nor abandoned: the next launch offers it again."""

        def release(db: sqlite3.Connection) -> None:
            with write(db):
                db.execute(
                    "UPDATE games_in_play SET owner = NULL WHERE id = ? AND owner = ?",
                    (left.id, self._owner),
                )

        self._use(release)

    # The database -----------------------------------------------------------

    def _use(self, operation: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``operation`` on the database, opening it first if need be.

        Raises `LockBusy`, having changed nothing, when another ttt-tui held it for longer
        than `lock_timeout`. A damaged database is set aside, what can be read of it
        carried into a new one, and ``operation`` run again there; a database that
        cannot be used (a read-only directory, a full disk) turns saving off, and
        ``operation`` runs again in memory.
        """
        salvaged = False
        while True:
            try:
                # Inside the try: carrying the old files over, as the database opens, fails
                # as any change does (busy, damaged, full).
                return operation(self._database())
            except sqlite3.Error as error:
                if is_busy(error):
                    raise LockBusy from None
                if not self._on_disk:
                    raise
                assert self.directory is not None
                if is_damaged(error) and not salvaged:
                    salvaged = True
                    self._salvage(_reason(error))
                else:
                    self._fail("write", self.directory / DATABASE_FILE, error)

    def _database(self) -> sqlite3.Connection:
        """The open database: the directory's, or one in memory when saving is off."""
        if self._db is not None:
            return self._db
        directory = self.directory
        if not self.saving or directory is None or DATABASE_FILE in self._frozen:
            self._db, self._on_disk = connect(None, None), False
            return self._db
        path = directory / DATABASE_FILE
        try:
            self._db, self._on_disk = connect(path, self._lock_timeout), True
        except NewerSchema as newer:
            self._frozen.add(DATABASE_FILE)
            self._tell(
                NoticeKind.DATA,
                f"{DATABASE_FILE} was written by a newer ttt-tui (schema version"
                f" {newer.version}); left it untouched. Games and stats are not saved this"
                " session.",
            )
            return self._database()
        except sqlite3.Error as error:
            if is_busy(error):
                raise LockBusy from None
            if is_damaged(error):
                self._salvage(_reason(error))
            else:
                self._fail("open", path, error)
            return self._database()
        try:
            self._import_old_files(self._db)
        except sqlite3.Error:
            self.close()  # nothing was carried over: the next use opens it and tries again
            raise
        return self._db

    def _import_old_files(self, db: sqlite3.Connection) -> None:
        """Carry ``games.jsonl`` and ``stats.json`` (the files before the database) into
        it, in one transaction, and keep them under new names, saying so.

        A kill before the commit leaves the old files in use and the database as it was;
        a kill after it, before the files are renamed, leaves games that the next try
        finds recorded already (an exact copy is never added twice).
        """
        assert self.directory is not None
        directory = self.directory
        games_path, stats_path = directory / GAMES_FILE, directory / STATS_FILE
        if not games_path.exists() and not stats_path.exists():
            return
        with write(db):
            try:
                raw = games_path.read_bytes()
            except FileNotFoundError:
                raw = b""
            except OSError as exc:
                self._tell(
                    NoticeKind.DATA,
                    f"Could not read {games_path} ({_reason(exc)}); its games stay there.",
                )
                return
            added, found, bad = 0, 0, []
            for number, raw_line in enumerate(raw.split(b"\n"), start=1):
                if not raw_line.strip():
                    continue
                try:
                    entry = parse_games_line(decode(raw_line).strip())
                except NewerFormat as newer:
                    bad.append(f"line {number}: from a newer ttt-tui (format {newer.version})")
                    continue
                except ValueError as exc:
                    bad.append(f"line {number}: {exc}")
                    continue
                if isinstance(entry, GameRecord):
                    found += 1
                    added += _insert_game(db, entry)
                else:
                    db.execute(
                        "INSERT OR IGNORE INTO stats_resets (at, after_game)"
                        " SELECT ?, max(id) FROM games",
                        (entry.isoformat(),),
                    )
        differs = self._stats_file_differs(stats_path, db)
        kept = [aside for aside in map(self._keep_old, (games_path, stats_path)) if aside]
        if not kept:
            return
        moved = ""
        if found:
            there = "" if added == found else f" ({found - added:,} already there)"
            moved = f": moved the {_plural(found, 'recorded game')} of {GAMES_FILE} into it{there}"
        words = [
            f"Games and stats now live in {DATABASE_FILE}{moved}; kept the old"
            f" file{'s' if len(kept) > 1 else ''} as {' and '.join(kept)}."
        ]
        if bad:
            words.append(
                f"{_plural(len(bad), 'line')} of {GAMES_FILE} could not be read ({bad[0]})"
                " and stay only in the kept file."
            )
        if differs:
            words.append(
                f"The counts in {STATS_FILE} differed from the games recorded since the last"
                " reset; the stats now count the recorded games."
            )
        kind = NoticeKind.DAMAGED if bad else NoticeKind.DATA
        self._tell(kind, " ".join(words), warning=bool(bad or differs))

    def _stats_file_differs(self, path: Path, db: sqlite3.Connection) -> bool:
        """Whether ``stats.json`` counts other than what the records say (a damaged or
        absent file says nothing)."""
        try:
            data = parse_object(decode(path.read_bytes()))
            counted = Stats.from_json(data)
        except (OSError, ValueError):
            return False
        rows = db.execute("SELECT key, outcome, count FROM stats").fetchall()
        recorded = Stats.from_counts(rows)
        return recorded.rows() != counted.rows()

    def _keep_old(self, path: Path) -> str | None:
        """Rename a file the database replaced to ``NAME.migrated-<time>``; its new name."""
        if not path.exists():
            return None
        return self._move_aside(path.name, "migrated")

    def _salvage(self, reason: str) -> None:
        """Set a damaged database aside and carry what SQLite can still read of it (games
        from both ends of the damage, and the resets) into a new one, saying so."""
        if self._db is not None:
            self._db.close()
            self._db = None
        assert self.directory is not None
        aside = self._move_aside(DATABASE_FILE)
        if aside is None:
            return
        for suffix in SIDE_FILES:
            with contextlib.suppress(OSError):
                os.replace(
                    self.directory / f"{DATABASE_FILE}{suffix}", self.directory / f"{aside}{suffix}"
                )
        found = _readable(self.directory / aside)
        games = found.games
        try:
            db = connect(self.directory / DATABASE_FILE, self._lock_timeout)
            with write(db):
                for number, record in games:
                    db.execute(_INSERT_NUMBERED_GAME, (number, *_game_row(record)))
                # Games in play come back left, to be offered again (a damaged one is
                # dropped when it is claimed).
                db.executemany(
                    "INSERT INTO games_in_play (saved, state, owner) VALUES (?, ?, NULL)",
                    found.in_play,
                )
                for at, after in found.resets:
                    # After the last game kept at or before its own, which may be lost.
                    kept = [n for n, _ in games if after is not None and n <= after]
                    db.execute(
                        "INSERT OR IGNORE INTO stats_resets (at, after_game) VALUES (?, ?)",
                        (at, max(kept, default=None)),
                    )
                recount(db)
        except sqlite3.Error as error:
            self._fail("create", self.directory / DATABASE_FILE, error)
            return
        self._db, self._on_disk = db, True
        carried = (
            f"carried the {_plural(len(games), 'game')} SQLite could still read into a new one"
            if games
            else "started a new one; SQLite could read no game in it"
        )
        self._tell(
            NoticeKind.DAMAGED,
            f"{DATABASE_FILE} was damaged ({reason}); moved it to {aside} and {carried}.",
        )

    def _tell(self, kind: NoticeKind, text: str, *, warning: bool = True) -> None:
        """Keep a notice for the person, until `take_notices`."""
        self._notices.append(Notice(kind, text, warning))

    # Plain files ----------------------------------------------------------

    def _path(self, name: str) -> Path | None:
        """The file's path if it may be read and written now, else None."""
        if not self.saving or self.directory is None or name in self._frozen:
            return None
        return self.directory / name

    def _read_json(
        self, name: str, damaged: Callable[[str], None] | None = None
    ) -> dict[str, Any] | None:
        """The file's object, or None if there is none to use.

        A damaged file is handed to ``damaged`` with the reason; by default it is set
        aside and the defaults used. Damage found outside the settings lock is looked at
        again under it first: another ttt-tui may have repaired the file in between, and
        only one may move it aside. If another holds the lock for longer than
        `lock_timeout`, the file is left as it is and the defaults used: the next
        change, made under the lock, repairs it.
        """
        path = self._path(name)
        if path is None:
            return None
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            # Never write over what we could not read.
            self._fail("read", path, exc)
            return None
        try:
            return parse_object(decode(raw))
        except NewerFormat as newer:
            self._frozen.add(name)
            self._tell(
                NoticeKind.DATA,
                f"{name} was written by a newer ttt-tui (format version {newer.version}); left"
                " it untouched and will not save to it this session, using defaults instead.",
            )
        except InvalidData as exc:
            if not self._settings_locked:
                with contextlib.suppress(LockBusy), self._settings_lock():
                    return self._read_json(name, damaged)
                return None
            if damaged is None:
                self._set_aside(name, str(exc))
            else:
                damaged(str(exc))
        return None

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

    # Trouble --------------------------------------------------------------

    def _fail(self, action: str, path: Path, exc: BaseException) -> None:
        """Turn saving off, telling the person the first time only; the games and stats
        go on in a database in memory, which starts with the counts saved so far."""
        stats: list[tuple[str, str, int]] = []
        if self._db is not None and self._on_disk:
            with contextlib.suppress(sqlite3.Error):
                stats = self._db.execute("SELECT key, outcome, count FROM stats").fetchall()
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
        elif self._db is None and self.directory is not None and DATABASE_FILE not in self._frozen:
            stats = _saved_counts(self.directory / DATABASE_FILE)
        self._in_play = None
        if self.saving:
            self.saving = False
            self._tell(
                NoticeKind.SAVING,
                f"Could not {action} {path} ({_reason(exc)}). Saving is off for this session;"
                " settings, stats and games are kept in memory until you quit.",
            )
        memory = self._database()
        memory.executemany("INSERT INTO stats (key, outcome, count) VALUES (?, ?, ?)", stats)

    def _move_aside(self, name: str, why: str = "corrupt") -> str | None:
        """Rename a file to a fresh ``NAME.<why>-<timestamp>``; its new name."""
        assert self.directory is not None
        stamp = self.now().strftime("%Y%m%dT%H%M%SZ")
        aside = f"{name}.{why}-{stamp}"
        serial = 1
        while (self.directory / aside).exists():
            serial += 1
            aside = f"{name}.{why}-{stamp}-{serial}"
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
            self._tell(
                NoticeKind.DAMAGED,
                f"{name} was unreadable ({reason}); moved it to {aside} and {then}.",
            )


_INSERT_GAME = (
    "INSERT OR IGNORE INTO games (record, digest, n, mode, ended, stats_key, outcome)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_NUMBERED_GAME = (
    "INSERT OR IGNORE INTO games (id, record, digest, n, mode, ended, stats_key, outcome)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _game_row(record: GameRecord) -> tuple[object, ...]:
    """A game's values for `_INSERT_GAME`."""
    text = record.to_json()
    entry = stats_entry(record)
    key, outcome = entry if entry is not None else (None, None)
    return (
        text,
        digest(text),
        record.n,
        record.mode.value,
        record.ended.isoformat(),
        key,
        outcome,
    )


def _insert_game(db: sqlite3.Connection, record: GameRecord) -> int:
    """Add one game (counted by the database's trigger); 0 if an exact copy is there."""
    return db.execute(_INSERT_GAME, _game_row(record)).rowcount


def _recorded(row: tuple[int, str]) -> NumberedGame:
    """A row of ``games`` as a recorded game and its number."""
    number, text = row
    try:
        return number, GameRecord.from_json(text)
    except ValueError as exc:
        return number, Unreadable(str(exc))


def _fetch_all(db: sqlite3.Connection, query: str, values: tuple[object, ...]) -> list[Any]:
    return db.execute(query, values).fetchall()


COUNTED_FROM_RECORDS = (
    "SELECT stats_key, outcome, count(*) FROM games"
    " WHERE stats_key IS NOT NULL"
    " AND id > coalesce((SELECT after_game FROM stats_resets ORDER BY id DESC LIMIT 1), 0)"
    " GROUP BY stats_key, outcome"
)
"""The stats as the records say, counted afresh: (key, outcome, count) rows of the games
after the last reset. The ``stats`` table's triggers keep the same counts as games come."""


def recount(db: sqlite3.Connection) -> None:
    """Count the stats again from the records (`COUNTED_FROM_RECORDS`)."""
    db.execute("DELETE FROM stats")
    db.execute(f"INSERT INTO stats (key, outcome, count) {COUNTED_FROM_RECORDS}")


def _saved_counts(path: Path) -> list[tuple[str, str, int]]:
    """The stats in the database at ``path`` that could not be opened to write (a
    read-only directory): read as read-only media, where SQLite cannot make the files it
    keeps beside the database; none if they cannot be read."""
    if not path.exists():
        return []
    for options in ("mode=ro", "immutable=1"):
        with contextlib.suppress(sqlite3.Error):
            db = sqlite3.connect(f"{path.as_uri()}?{options}", uri=True)
            try:
                return db.execute("SELECT key, outcome, count FROM stats").fetchall()
            finally:
                db.close()
    return []


@dataclass(slots=True)
class _Readable:
    """What SQLite can still read of a damaged database."""

    games: list[tuple[int, GameRecord]]
    """Its games with their numbers, oldest first."""
    resets: list[tuple[str, int | None]]
    """Its stats resets: when, and after which game."""
    in_play: list[tuple[str, str]]
    """Its games in play: when each was saved, and its state."""


def _readable(path: Path) -> _Readable:
    """What SQLite can still read of a damaged database: its games (read from the first
    on, then from the last back, each way up to the damage), resets and games in play."""
    found = _Readable([], [], [])
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        # A file shorter than its header says (truncated) is refused whole unless SQLite
        # is told to read the pages there are.
        db.execute("PRAGMA writable_schema = ON")
    except sqlite3.Error:
        return found
    games: dict[int, GameRecord] = {}
    try:
        for order in ("ASC", "DESC"):
            with contextlib.suppress(sqlite3.Error):
                for number, text in db.execute(f"SELECT id, record FROM games ORDER BY id {order}"):
                    with contextlib.suppress(ValueError, TypeError):
                        games.setdefault(number, GameRecord.from_json(text))
        with contextlib.suppress(sqlite3.Error):
            found.resets = db.execute(
                "SELECT at, after_game FROM stats_resets ORDER BY id"
            ).fetchall()
        with contextlib.suppress(sqlite3.Error):
            found.in_play = db.execute(
                "SELECT saved, state FROM games_in_play ORDER BY id"
            ).fetchall()
    finally:
        db.close()
    found.games = sorted(games.items())
    return found
