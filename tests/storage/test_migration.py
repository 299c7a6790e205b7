"""The files before the database, ``games.jsonl`` and ``stats.json``: carried into it in
one transaction, kept under new names, and never half carried, whenever a kill lands."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.storage.numbered import T0, numbered
from tests.support import LockHolder, records
from tests.support.stores import games_of, integrity, notice_texts, python, said, schema_made, tmpfs
from ttt_tui.storage import (
    DATABASE_FILE,
    GAMES_FILE,
    STATS_FILE,
    GameRecord,
    LockBusy,
    Stats,
    Store,
    database,
)
from ttt_tui.storage import store as store_module
from ttt_tui.storage.model import reset_line

NOW = T0 + timedelta(days=3)
STAMP = "20261125T061500Z"
"""`NOW` as the names of the kept files give it."""


@pytest.fixture
def data(tmp_path: Path) -> Path:
    directory = tmp_path / "data"
    directory.mkdir()
    return directory


def game_lines(games: Iterator[GameRecord] | list[GameRecord]) -> bytes:
    return b"".join(game.to_json().encode() + b"\n" for game in games)


def stats_file(stats: Stats) -> bytes:
    return json.dumps(stats.to_json()).encode()


def says(notice: str, *facts: str) -> None:
    """The notice says each of these, word for word."""
    missing = [fact for fact in facts if fact not in notice]
    assert not missing, f"{notice!r} does not say {missing}"


def test_old_files_are_carried_over_in_one_go_and_kept_under_new_names(data: Path) -> None:
    before, after = [numbered(n) for n in range(1, 5)], [numbered(n) for n in range(5, 9)]
    old_games = (
        game_lines(before)
        + reset_line(T0).encode()
        + b"\n"
        + game_lines(after[:2])
        + b'{"version": 1, "mode": "two_players"}\n'  # damaged: fields missing
        + b'{"version": 3, "board": "9x9"}\n'  # from a newer ttt-tui
        + b"\xff\xfe\n"
        + game_lines(after[2:])
        + b'{"version": 1, "started": "2026-11-2'  # torn last line
    )
    # The old counts disagree with the games: they never counted the last two.
    old_stats = stats_file(Stats.from_records(after[:2]))
    settings = b'{"version": 1, "coach": true}'
    (data / GAMES_FILE).write_bytes(old_games)
    (data / STATS_FILE).write_bytes(old_stats)
    (data / "settings.json").write_bytes(settings)

    store = Store(data, now=lambda: NOW)
    assert store.load_stats() == Stats.from_records(after)
    [notice] = notice_texts(store)
    says(
        notice,
        "8 recorded games",
        f"games.jsonl.migrated-{STAMP} and stats.json.migrated-{STAMP}",
        "4 lines of games.jsonl could not be read (line 8: missing started)",
        "The counts in stats.json differed",
    )
    assert games_of(store) == before + after
    assert (data / "settings.json").read_bytes() == settings
    assert (data / f"games.jsonl.migrated-{STAMP}").read_bytes() == old_games
    assert (data / f"stats.json.migrated-{STAMP}").read_bytes() == old_stats
    assert not (data / GAMES_FILE).exists() and not (data / STATS_FILE).exists()

    # The next store finds nothing more to carry over, and the same games.
    store.close()
    kept = sorted(p.name for p in data.iterdir())
    again = Store(data, now=lambda: NOW + timedelta(hours=1))
    assert again.load_stats() == Stats.from_records(after)
    assert notice_texts(again) == []
    assert len(records(data)) == 8
    assert sorted(p.name for p in data.iterdir() if "migrated" in p.name) == [
        name for name in kept if "migrated" in name
    ]


def test_the_lines_named_are_those_that_could_not_be_read(data: Path) -> None:
    (data / GAMES_FILE).write_bytes(
        game_lines([numbered(1)])
        + b'{"version": 3, "board": "9x9"}\n'
        + game_lines([numbered(2)])
        + b'{"version": 1, "stats_reset": "yesterday"}\n'
    )

    store = Store(data, now=lambda: NOW)
    assert store.load_stats() == Stats.from_records([numbered(1), numbered(2)])
    [notice] = notice_texts(store)
    says(
        notice,
        "2 recorded games",
        f"games.jsonl.migrated-{STAMP}.",
        "2 lines of games.jsonl could not be read (line 2: from a newer ttt-tui (format 3))",
    )
    assert "stats.json" not in notice


def test_old_stats_that_agree_and_an_empty_games_file_say_no_more_than_needed(
    data: Path,
) -> None:
    games = [numbered(n) for n in range(1, 4)]
    (data / GAMES_FILE).write_bytes(game_lines(games))
    (data / STATS_FILE).write_bytes(stats_file(Stats.from_records(games)))

    store = Store(data, now=lambda: NOW)
    assert store.load_stats() == Stats.from_records(games)
    [notice] = notice_texts(store)
    says(
        notice, "3 recorded games", f"games.jsonl.migrated-{STAMP} and stats.json.migrated-{STAMP}."
    )
    assert "could not be read" not in notice and "differed" not in notice

    empty = data.parent / "empty"
    empty.mkdir()
    (empty / GAMES_FILE).write_bytes(b"")
    store = Store(empty, now=lambda: NOW)
    assert store.load_stats() == Stats()
    [notice] = notice_texts(store)
    says(notice, DATABASE_FILE, f"games.jsonl.migrated-{STAMP}.")


# Killed while carrying them over ----------------------------------------------------

MIGRATE = """
import sys, time
from pathlib import Path
from ttt_tui.storage import Store, store as module
data, stop_at = Path(sys.argv[1]), sys.argv[2]

def stop(where):
    print(where, flush=True)
    time.sleep(60)  # until the test kills it

if stop_at == "halfway":
    parse, seen = module.parse_games_line, []
    def parse_and_stop(line):
        seen.append(line)
        if len(seen) == int(sys.argv[3]):
            stop("halfway")
        return parse(line)
    module.parse_games_line = parse_and_stop
elif stop_at == "committed":
    module.Store._keep_old = lambda self, path: stop("committed")
print("ready", flush=True)
Store(data).load_stats()
print("done", flush=True)
"""
"""Carries a directory's old files into its database; stops (for the test to kill it)
``halfway`` through the lines, once it has ``committed``, or nowhere (``none``)."""


def games_in(data: Path) -> int:
    """How many games ``data``'s database holds (none before its tables are made)."""
    return len(records(data)) if schema_made(data) else 0


def old_files(data: Path, count: int) -> tuple[list[GameRecord], bytes]:
    """``count`` games in an old games file, a reset after the first tenth, and the
    stats file that counted them; the games, and the games file's bytes."""
    games = [numbered(n) for n in range(1, count + 1)]
    tenth = count // 10
    reset = reset_line(T0).encode() + b"\n"
    content = game_lines(games[:tenth]) + reset + game_lines(games[tenth:])
    (data / GAMES_FILE).write_bytes(content)
    (data / STATS_FILE).write_bytes(stats_file(Stats.from_records(games[tenth:])))
    return games, content


def assert_carried_over_once(
    data: Path, games: list[GameRecord], content: bytes, reset: bool = True
) -> None:
    """A store finishes the move: every game once, counted once (since the reset after
    the first tenth, if there is one), the old file kept."""
    store = Store(data)
    assert store.load_stats() == Stats.from_records(games[len(games) // 10 if reset else 0 :])
    assert games_of(store) == games
    notices = notice_texts(store)
    assert len(notices) <= 1, notices
    store.close()
    [kept] = data.glob("games.jsonl.migrated-*")
    assert kept.read_bytes() == content
    assert not (data / GAMES_FILE).exists() and not (data / STATS_FILE).exists()
    assert integrity(data) == ["ok"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
@pytest.mark.parametrize("stop_at", ["halfway", "committed"])
def test_a_migration_killed_in_its_transaction_or_after_it_is_all_or_nothing(
    data: Path, stop_at: str
) -> None:
    games, content = old_files(data, 400)
    stats_before = (data / STATS_FILE).read_bytes()
    migrating = python(MIGRATE, str(data), stop_at, "200")
    assert said(migrating) == "ready"
    assert said(migrating) == stop_at
    migrating.send_signal(signal.SIGKILL)
    migrating.wait()

    # The old files are where they were, untouched, and the database holds no game of
    # them before the commit, every one after it.
    assert (data / GAMES_FILE).read_bytes() == content
    assert (data / STATS_FILE).read_bytes() == stats_before
    assert integrity(data) == ["ok"]
    assert games_in(data) == (0 if stop_at == "halfway" else len(games))
    assert list(data.glob("*.migrated-*")) == []

    assert_carried_over_once(data, games, content)


def migrate_and_kill(data: Path, games: int, rng: random.Random, spread: float) -> str:
    """Start carrying ``data``'s old files (``games`` games) over, and kill it after a
    random delay up to ``spread`` seconds; what it had done then: ``nothing``,
    ``committed`` (every game in the database, the old files still there) or ``kept``
    (the old files renamed too). Fails if the database holds some of the games only."""
    migrating = python(MIGRATE, str(data), "none")
    assert said(migrating) == "ready"
    time.sleep(rng.uniform(0, spread))
    migrating.send_signal(signal.SIGKILL)
    migrating.wait()
    if not (data / DATABASE_FILE).exists():
        return "nothing"
    assert integrity(data) == ["ok"]
    count = games_in(data)
    if (data / GAMES_FILE).exists():
        assert count in (0, games), count
        return "nothing" if count == 0 else "committed"
    assert count == games
    return "kept"


def kill_migrations(tmp_path: Path, count: int, kills: int) -> None:
    """Carry ``count`` old games over ``kills`` times, each killed at a random moment,
    each finished by a store after; never half, never a game twice."""
    rng = random.Random(20261127)
    source = tmp_path / "source"
    source.mkdir()
    games, content = old_files(source, count)
    # How long one whole move takes here spreads the kills over it (not an assertion).
    whole = tmp_path / "whole"
    whole.mkdir()
    for name in (GAMES_FILE, STATS_FILE):
        (whole / name).write_bytes((source / name).read_bytes())
    started = time.monotonic()
    finished = python(MIGRATE, str(whole), "none")
    assert said(finished) == "ready" and said(finished) == "done"
    finished.wait()
    spread = (time.monotonic() - started) * 1.2
    assert_carried_over_once(whole, games, content)

    seen = []
    for life in range(kills):
        data = tmp_path / f"life-{life}"
        data.mkdir()
        for name in (GAMES_FILE, STATS_FILE):
            (data / name).write_bytes((source / name).read_bytes())
        seen.append(migrate_and_kill(data, len(games), rng, spread))
        assert_carried_over_once(data, games, content)
    print(f"\n{kills} migrations of {count} games killed: {sorted(seen)}")


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_migrations_killed_at_random_moments_are_all_or_nothing(tmp_path: Path) -> None:
    kill_migrations(tmp_path, 2000, 2)


@pytest.mark.long
@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_big_migrations_killed_at_random_moments_are_all_or_nothing(tmp_path: Path) -> None:
    kill_migrations(tmp_path, 20_000, int(os.environ.get("TTT_MIGRATION_KILLS") or 8))


def test_names_kept_aside_never_collide(data: Path) -> None:
    (data / f"games.jsonl.migrated-{STAMP}").write_bytes(b"an earlier move")
    (data / GAMES_FILE).write_bytes(game_lines([numbered(1)]))

    store = Store(data, now=lambda: NOW)
    store.load_stats()
    [notice] = notice_texts(store)
    assert re.search(rf" as games\.jsonl\.migrated-{STAMP}-2\.$", notice), notice
    assert (data / f"games.jsonl.migrated-{STAMP}").read_bytes() == b"an earlier move"


# Trouble while carrying them over ----------------------------------------------------------


def test_old_files_met_with_the_database_busy_wait_and_are_carried_over_after(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another ttt-tui takes the database between this one's opening it and carrying the
    old files over: the store gives up having changed nothing, and tries again after."""
    games, content = old_files(data, 20)
    holders: list[LockHolder] = []
    real_connect = database.connect

    def connect_then_lose_the_lock(path: Path | None, busy_seconds: float | None) -> Any:
        db = real_connect(path, busy_seconds)
        if path is not None and not holders:
            holders.append(LockHolder(data))
        return db

    monkeypatch.setattr(store_module, "connect", connect_then_lose_the_lock)
    store = Store(data)
    store.lock_timeout = 0.1
    with pytest.raises(LockBusy):
        store.load_stats()
    assert (data / GAMES_FILE).read_bytes() == content
    assert games_in(data) == 0
    holders[0].release()

    assert store.load_stats() == Stats.from_records(games[2:])
    assert games_of(store) == games
    [notice] = notice_texts(store)
    says(notice, "20 recorded games")
    assert store.saving is True


def test_a_disk_that_fills_while_carrying_them_over_keeps_the_old_files(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "512k") as data:
        games = [numbered(n) for n in range(1, 901)]
        (data / GAMES_FILE).write_bytes(game_lines(games))  # more than the disk has room for
        content = (data / GAMES_FILE).read_bytes()

        store = Store(data)
        assert store.load_stats() == Stats()
        [notice] = notice_texts(store)
        says(notice, f"Could not write {data / DATABASE_FILE} (database or disk is full)")
        assert store.saving is False
        store.record_game(numbered(1000))
        assert store.load_stats() == Stats.from_records([numbered(1000)])  # kept in memory
        store.close()
        assert (data / GAMES_FILE).read_bytes() == content
        assert list(data.glob("*.migrated-*")) == []
        assert games_in(data) == 0

        subprocess.run(["mount", "-o", "remount,size=8m", str(data)], check=True)
        assert_carried_over_once(data, games, content, reset=False)
