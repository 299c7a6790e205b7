"""Helpers shared by the storage tests: what a data directory holds, Python processes
that use a store, and small file systems mounted for one test.

Game records told apart by a number are in `tests.storage.numbered`, light to import
for the processes the tests start.

What only one test file needs stays in that file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.terminal import ROOT, game_env
from ttt_tui.storage import DATABASE_FILE, GameRecord, Store


def notice_texts(store: Store) -> list[str]:
    """The words of the notices ``store`` has for the person (`Store.take_notices`)."""
    return [notice.text for notice in store.take_notices()]


def games_of(store: Store) -> list[GameRecord]:
    """Every game ``store`` has recorded, oldest first; fails on one it cannot read."""
    games = [record for _, record in store.iter_games()]
    unreadable = [record for record in games if not isinstance(record, GameRecord)]
    assert unreadable == [], unreadable
    return [record for record in games if isinstance(record, GameRecord)]


def files(directory: Path) -> dict[str, bytes]:
    """Every file in ``directory`` by name, with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def integrity(directory: Path) -> list[str]:
    """What SQLite's ``PRAGMA integrity_check`` says of ``directory``'s database, opened
    as the next ttt-tui would open it (a kill's leftover journal recovered first)."""
    db = sqlite3.connect(directory / DATABASE_FILE)
    try:
        return [row[0] for row in db.execute("PRAGMA integrity_check")]
    finally:
        db.close()


def schema_made(directory: Path) -> bool:
    """Whether ``directory`` has a database with its tables made (a kill can come first)."""
    if not (directory / DATABASE_FILE).exists():
        return False
    db = sqlite3.connect(directory / DATABASE_FILE)
    try:
        return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone() is not None
    finally:
        db.close()


def last_reset(directory: Path) -> int:
    """The number of the last game before the last stats reset in ``directory``'s
    database (0: none, or a reset before any game)."""
    db = sqlite3.connect(f"{(directory / DATABASE_FILE).as_uri()}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT after_game FROM stats_resets ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        db.close()
    return 0 if row is None or row[0] is None else int(row[0])


def python(script: str, *args: str) -> subprocess.Popen[str]:
    """``python -c SCRIPT ARGS`` from this clone, its stdin and stdout pipes of text."""
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=game_env(),
    )


def said(process: subprocess.Popen[str]) -> str:
    """The next line ``process`` printed, without its newline ('' once it has ended)."""
    assert process.stdout is not None
    return process.stdout.readline().rstrip("\n")


# Small file systems ------------------------------------------------------------------


@contextlib.contextmanager
def tmpfs(directory: Path, size: str) -> Iterator[Path]:
    """A fresh tmpfs of ``size`` (``256k``) mounted at ``directory`` for the block and
    unmounted after it, whatever happens in it. Skips the test where this machine does
    not let it mount one (not root, not Linux, a container without the permission)."""
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root on Linux")
    directory.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(directory)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"this machine does not let the tests mount a tmpfs: {mounted.stderr.strip()}")
    try:
        yield directory
    finally:
        if subprocess.run(["umount", str(directory)], capture_output=True).returncode != 0:
            # Something still has a file open there: detach it now, freed when closed.
            subprocess.run(["umount", "--lazy", str(directory)], check=True)


def remount_read_only(directory: Path) -> None:
    """Make the tmpfs at ``directory`` read-only: no write passes, not even root's."""
    subprocess.run(["mount", "-o", "remount,ro", str(directory)], check=True)
