"""The game database: SQLite (the standard library's ``sqlite3``), its schema and its
migrations, and what its errors mean.

SQLite gives what the store needs and would otherwise write by hand: a commit is
atomic and survives a kill at any moment (WAL mode, ``synchronous=FULL``), many
processes read and write one file at once (a writer waits up to a busy timeout for
another), and an index answers the screens' questions at any number of games.

The schema's version is SQLite's ``PRAGMA user_version``: `MIGRATIONS` holds one
script a version, applied in order, each in the transaction that also sets the
version, so a kill leaves the database at one version or the next. A database of a
higher version was written by a newer ttt-tui and is never changed (`NewerSchema`).

No UI imports and nothing of the store's policy: this module opens, migrates and
classifies; `ttt_tui.storage.store` decides what a failure means for the person.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

DATABASE_FILE = "ttt-tui.sqlite3"
"""The database's file name in the data directory (with SQLite's ``-wal`` and ``-shm``
beside it while it is open)."""

SIDE_FILES = ("-wal", "-shm", "-journal")
"""What SQLite keeps beside a database file, by suffix: moved with it when it is set aside."""

MIGRATIONS: tuple[str, ...] = (
    # Version 1: games, stats counted by the database itself, resets, games in play.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        record TEXT NOT NULL,
        digest BLOB NOT NULL UNIQUE,
        n INTEGER NOT NULL,
        mode TEXT NOT NULL,
        ended TEXT NOT NULL,
        stats_key TEXT,
        outcome TEXT,
        CHECK ((stats_key IS NULL) = (outcome IS NULL))
    );
    CREATE INDEX games_by_board ON games (n, id);
    CREATE INDEX games_by_mode ON games (mode, id);
    CREATE TABLE stats_resets (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL UNIQUE,
        after_game INTEGER REFERENCES games (id)
    );
    CREATE TABLE stats (
        key TEXT NOT NULL,
        outcome TEXT NOT NULL,
        count INTEGER NOT NULL CHECK (count >= 0),
        PRIMARY KEY (key, outcome)
    ) WITHOUT ROWID;
    CREATE TRIGGER games_counted AFTER INSERT ON games WHEN NEW.stats_key IS NOT NULL
    BEGIN
        INSERT INTO stats (key, outcome, count) VALUES (NEW.stats_key, NEW.outcome, 1)
        ON CONFLICT (key, outcome) DO UPDATE SET count = count + 1;
    END;
    CREATE TRIGGER stats_reset AFTER INSERT ON stats_resets
    BEGIN
        DELETE FROM stats;
    END;
    CREATE TABLE games_in_play (
        id INTEGER PRIMARY KEY,
        saved TEXT NOT NULL,
        state TEXT NOT NULL,
        owner TEXT
    );
    CREATE INDEX games_in_play_by_time ON games_in_play (saved);
    """,
    # Version 2: puzzle attempts, each with the player's rating after it; the player's
    # own puzzles, from the review.
    """
    CREATE TABLE puzzle_attempts (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        n INTEGER NOT NULL,
        difficulty INTEGER NOT NULL CHECK (difficulty >= 1),
        solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
        streak INTEGER CHECK (streak >= 0),
        rating REAL NOT NULL,
        deviation REAL NOT NULL CHECK (deviation > 0),
        volatility REAL NOT NULL CHECK (volatility > 0)
    );
    CREATE TABLE own_puzzles (
        id INTEGER PRIMARY KEY,
        added TEXT NOT NULL,
        puzzle TEXT NOT NULL UNIQUE
    );
    """,
)
"""The schema, one script a version: version N is ``MIGRATIONS[N - 1]``.

``games`` holds each game as the JSON object ``games export`` writes (``record``) with
the columns the screens ask by; its ``digest`` keeps an exact duplicate out. ``stats``
is kept by the triggers in the transaction that records a game or a reset, so the
counts never disagree with the records: they count the games after the last row of
``stats_resets``. ``games_in_play`` holds each game in progress to resume, with the
process that plays it (``owner``; NULL once it was left). ``puzzle_attempts`` holds
each attempt at a puzzle (its record, `ttt_tui.teach.puzzles.record`), whether it was
solved, the streak's length after it in streak mode (NULL outside it) and the player's
Glicko-2 rating after it: the newest row's is the player's rating. ``own_puzzles``
holds the puzzles the review made of the player's own mistakes, each once."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema this ttt-tui writes."""


class LockBusy(Exception):
    """Another process held the database for longer than the caller would wait."""


class NewerSchema(Exception):
    """The database was written by a newer ttt-tui: it is left untouched."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema version {version} is newer than {SCHEMA_VERSION}")
        self.version = version
        """The schema version the database has."""


# SQLite's primary result codes (https://sqlite.org/rescode.html).
_BUSY, _LOCKED, _CORRUPT, _NOTADB = 5, 6, 11, 26


def is_busy(error: sqlite3.Error) -> bool:
    """Whether another connection held the database for longer than the busy timeout."""
    return _code(error) in (_BUSY, _LOCKED)


def is_damaged(error: sqlite3.Error) -> bool:
    """Whether the file is not a database, or a damaged one."""
    return _code(error) in (_CORRUPT, _NOTADB)


def _code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def connect(path: Path | None, busy_seconds: float | None) -> sqlite3.Connection:
    """A connection to the database at ``path`` (None: a new one in memory), set up and
    migrated to `SCHEMA_VERSION`.

    The connection is in autocommit mode: changes are made in `write` blocks. A writer
    waits ``busy_seconds`` for another to finish (None: as long as it takes). Raises
    `NewerSchema` for a database of a newer ttt-tui, leaving it as it is, and
    `sqlite3.Error` as SQLite does.
    """
    target = ":memory:" if path is None else str(path)
    db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
    try:
        timeout_ms = 2**31 - 1 if busy_seconds is None else int(busy_seconds * 1000)
        db.execute(f"PRAGMA busy_timeout = {timeout_ms}")
        db.execute("PRAGMA foreign_keys = ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NewerSchema(version)
        if path is not None:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def migrate(db: sqlite3.Connection) -> None:
    """Bring the schema up to `SCHEMA_VERSION`, one version a transaction (none, and no
    lock taken, when it is there already)."""
    if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    while True:
        with write(db):
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise NewerSchema(version)
            if version == SCHEMA_VERSION:
                return
            for statement in _statements(MIGRATIONS[version]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {version + 1}")


def _statements(script: str) -> Iterator[str]:
    """The statements of a migration script, each complete (a trigger's body included)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            yield statement.strip()
            statement = ""


@contextlib.contextmanager
def write(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction: begun at once (``BEGIN IMMEDIATE``, so a writer never fails
    halfway for want of the lock), committed at the end of the block, rolled back if it
    raises. Nested blocks join the outer one."""
    if db.in_transaction:
        yield db
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        _roll_back(db)
        raise
    try:
        if db.in_transaction:
            db.execute("COMMIT")
    except sqlite3.ProgrammingError:
        pass  # closed in the block: the store gave this database up, and closing rolled back
    except BaseException:
        _roll_back(db)
        raise


def _roll_back(db: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        if db.in_transaction:
            db.execute("ROLLBACK")


def digest(record_json: str) -> bytes:
    """What tells one game's record from another's: the first 16 bytes of its SHA-256."""
    return hashlib.sha256(record_json.encode("utf-8")).digest()[:16]
