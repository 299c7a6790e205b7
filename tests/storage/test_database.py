"""The database itself: its schema and settings, a schema from a newer ttt-tui, a damaged
file, and directories and disks that refuse it."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.storage.numbered import numbered
from tests.support import records
from tests.support.stores import files, games_of, integrity, notice_texts, remount_read_only, tmpfs
from ttt_tui.play.settings import Settings
from ttt_tui.storage import DATABASE_FILE, GameRecord, NumberedGame, Stats, Store
from ttt_tui.storage.database import SCHEMA_VERSION, connect

GAMES = 300
"""Games in the database a test damages: enough for many pages of games."""

PAGE = 4096
"""SQLite's page size, which the store leaves at its default."""

SAVING_OFF = re.compile(
    r"Could not (?P<action>open|write) (?P<path>.+) \((?P<reason>.+)\)\. Saving is off for this"
    r" session; settings, stats and games are kept in memory until you quit\."
)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def recorded(store: Store, numbers: range) -> list[GameRecord]:
    """Record the numbered games, one by one; them, in order."""
    games = [numbered(n) for n in numbers]
    for game in games:
        store.record_game(game)
    return games


def readable(page: list[NumberedGame]) -> list[tuple[int, GameRecord]]:
    """The games of a page, each with its number; fails on one the store cannot read."""
    games = [(number, game) for number, game in page if isinstance(game, GameRecord)]
    assert len(games) == len(page), page
    return games


def imported(store: Store, numbers: range) -> list[GameRecord]:
    """Add the numbered games in one go (quicker than one commit a game); them, in order."""
    games = [numbered(n) for n in numbers]
    assert store.import_games(games).added == len(games)
    return games


# The schema ----------------------------------------------------------------------------


def test_a_new_database_has_the_schema_version_wal_foreign_keys_and_indexes(data: Path) -> None:
    Store(data).load_stats()

    plain = sqlite3.connect(data / DATABASE_FILE)
    assert plain.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert plain.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # kept in the file
    indexes = {
        name for (name,) in plain.execute("SELECT name FROM sqlite_master WHERE type='index'")
    }
    assert {"games_by_board", "games_by_mode", "games_in_play_by_time"} <= indexes
    # The games list's question, newest first on one board, is answered by its index.
    plan = plain.execute(
        "EXPLAIN QUERY PLAN SELECT id, record FROM games WHERE n = ? AND id < ?"
        " ORDER BY id DESC LIMIT 100",
        (4, 1000),
    ).fetchall()
    assert any("games_by_board" in str(step) for step in plan), plan
    plain.close()

    db = connect(data / DATABASE_FILE, 1.5)
    assert db.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert db.execute("PRAGMA busy_timeout").fetchone() == (1500,)
    assert db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL: a commit is on disk
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        db.execute("INSERT INTO stats_resets (at, after_game) VALUES ('x', 12345)")
    db.close()


def test_opening_again_keeps_the_schema_and_a_count_never_goes_below_zero(data: Path) -> None:
    store = Store(data)
    store.record_game(numbered(1))
    store.close()
    db = connect(data / DATABASE_FILE, None)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
    # The stats can never count a game that is not there, nor below zero.
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("UPDATE stats SET count = -1")
    db.close()


# A schema from a newer ttt-tui -----------------------------------------------------------


def newer_database(data: Path) -> dict[str, bytes]:
    """A database of the next schema version, with a game in it; every file there."""
    store = Store(data)
    store.record_game(numbered(1))
    store.close()
    db = sqlite3.connect(data / DATABASE_FILE)
    db.execute("CREATE TABLE from_the_future (x)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    return files(data)


def test_a_newer_schema_is_left_untouched_and_games_play_in_memory(data: Path) -> None:
    before = newer_database(data)

    store = Store(data)
    assert store.load_stats() == Stats()
    assert notice_texts(store) == [
        f"{DATABASE_FILE} was written by a newer ttt-tui (schema version {SCHEMA_VERSION + 1});"
        " left it untouched. Games and stats are not saved this session."
    ]
    played = [numbered(n) for n in (2, 3, 4, 5)]
    for game in played[:2]:
        store.record_game(game)
    store.reset_stats()
    for game in played[2:]:
        store.record_game(game)
    assert store.load_stats() == Stats.from_records(played[2:])
    assert games_of(store) == played
    assert notice_texts(store) == []
    store.close()

    assert files(data) == before  # byte for byte, and nothing beside it
    again = Store(data)
    assert again.load_stats() == Stats()
    assert len(notice_texts(again)) == 1  # said again in the next session


# A damaged database -------------------------------------------------------------------


def pages_of(path: Path, name: str) -> list[int]:
    """The pages (numbered from 1) of a table or index, as SQLite's dbstat lists them."""
    db = sqlite3.connect(path)
    try:
        query = "SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno"
        return [page for (page,) in db.execute(query, (name,))]
    finally:
        db.close()


def overwrite(path: Path, start: int, length: int, seed: int) -> None:
    """Write ``length`` random bytes (from ``seed``) over ``path`` at ``start``."""
    content = bytearray(path.read_bytes())
    content[start : start + length] = random.Random(seed).randbytes(length)
    path.write_bytes(bytes(content))


def not_sqlite(path: Path) -> None:
    path.write_text("these are my notes, not a database\n" * 40)


def header(path: Path) -> None:
    overwrite(path, 0, 100, seed=29)


def truncated(path: Path) -> None:
    content = path.read_bytes()
    path.write_bytes(content[: len(content) * 6 // 10])


def stats_page(path: Path) -> None:
    [page] = pages_of(path, "stats")
    overwrite(path, (page - 1) * PAGE, PAGE, seed=29)


def a_games_page(path: Path) -> None:
    pages = pages_of(path, "games")
    page = pages[len(pages) // 2]
    overwrite(path, (page - 1) * PAGE, PAGE, seed=29)


DAMAGE: dict[str, tuple[Callable[[Path], None], Callable[[int], bool]]] = {
    "not sqlite": (not_sqlite, lambda carried: carried == 0),
    "random bytes over the header": (header, lambda carried: carried == 0),
    "truncated": (truncated, lambda carried: 0 < carried < GAMES),
    "random bytes over the stats": (stats_page, lambda carried: carried == GAMES),
    "random bytes over a page of games": (
        a_games_page,
        lambda carried: GAMES - 30 < carried < GAMES,  # a page holds fewer than 30
    ),
}
"""Each way to damage the database, and the games SQLite can still read of it: none
with the header gone, every one when only the stats are hit, those before the damage
(and after it) otherwise."""


@pytest.mark.parametrize(("damage", "carried_as_expected"), DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_database_is_set_aside_and_what_can_be_read_carried_over(
    data: Path, damage: Callable[[Path], None], carried_as_expected: Callable[[int], bool]
) -> None:
    store = Store(data)
    first = imported(store, range(1, 101))
    store.reset_stats()
    originals = first + imported(store, range(101, GAMES + 1))
    store.close()
    path = data / DATABASE_FILE
    damage(path)
    damaged = path.read_bytes()

    store = Store(data)
    store.load_stats()
    list(store.iter_games())  # reads every game: damage anywhere among them is found
    new = [numbered(GAMES + 1), numbered(GAMES + 2)]
    store.record_game(new[0])

    [notice] = notice_texts(store)
    match = re.fullmatch(
        rf"{re.escape(DATABASE_FILE)} was damaged \((file is not a database|database disk image"
        r" is malformed)\); moved it to (?P<aside>\S+) and (carried the (?P<carried>\d+) games?"
        r" SQLite could still read into a new one|started a new one; SQLite could read no game"
        r" in it)\.",
        notice,
    )
    assert match is not None, notice
    aside = data / match["aside"]
    assert re.fullmatch(rf"{re.escape(DATABASE_FILE)}\.corrupt-\d{{8}}T\d{{6}}Z", aside.name)
    assert aside.read_bytes() == damaged  # the damaged file itself, kept as it was
    carried = int(match["carried"] or 0)
    assert carried != 0 or "carried the 0" not in notice  # no "0 games" that read as lost
    assert carried_as_expected(carried), carried

    # Each game carried over keeps its number; the store goes on saving in the new file,
    # and the stats count what the reset left to count.
    store.record_game(new[1])
    fresh = Store(data)
    kept = readable(fresh.games_page(limit=10 * GAMES))
    assert [game for _, game in kept[:2]] == new[::-1]
    assert len(kept) == carried + 2
    by_number = dict(enumerate(originals, start=1))
    assert all(by_number[n] == game for n, game in kept[2:])
    assert fresh.load_stats() == Stats.from_records(
        game for n, game in kept if n > 100 or game in new
    )
    assert notice_texts(fresh) == []
    assert store.saving is True
    assert integrity(data) == ["ok"]


def lost_games(data: Path) -> list[int]:
    """The numbers of the games a damaged database lost, once a store found the damage."""
    store = Store(data)
    list(store.iter_games())
    assert len(notice_texts(store)) == 1
    numbers = {n for n, _ in store.games_page(limit=10 * GAMES)}
    return sorted(set(range(1, GAMES + 1)) - numbers)


def test_damage_among_the_games_loses_that_page_only(data: Path) -> None:
    """SQLite reads from the first game up to the damage, and from the last back to it."""
    store = Store(data)
    imported(store, range(1, GAMES + 1))
    store.close()
    a_games_page(data / DATABASE_FILE)

    lost = lost_games(data)
    assert lost and lost == list(range(lost[0], lost[-1] + 1))  # one run of games
    assert lost[0] > 1 and lost[-1] < GAMES  # from both ends


def test_a_reset_whose_game_was_lost_still_counts_only_the_games_after_it(
    tmp_path: Path,
) -> None:
    """The reset came right after a game the damage took: the games before it must not
    count again."""
    probe = tmp_path / "probe"
    store = Store(probe)
    imported(store, range(1, GAMES + 1))
    store.close()
    a_games_page(probe / DATABASE_FILE)
    lost = lost_games(probe)
    reset_after = lost[len(lost) // 2]

    data = tmp_path / "data"
    store = Store(data)
    imported(store, range(1, reset_after + 1))
    store.reset_stats()
    imported(store, range(reset_after + 1, GAMES + 1))
    store.close()
    a_games_page(data / DATABASE_FILE)  # the same inserts: the same pages

    assert lost_games(data) == lost
    store = Store(data)
    kept = readable(store.games_page(limit=10 * GAMES))
    assert store.load_stats() == Stats.from_records(game for n, game in kept if n > reset_after)


# Directories and disks that refuse ------------------------------------------------------


def test_a_read_only_directory_turns_saving_off_and_keeps_the_saved_stats(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "1m") as data:
        store = Store(data)
        store.save_settings(Settings(coach=True))
        saved = recorded(store, range(1, 9))
        store.close()
        remount_read_only(data)
        before = files(data)

        store = Store(data)
        assert store.load_settings() == Settings(coach=True)
        assert store.load_stats() == Stats.from_records(saved)
        [notice] = notice_texts(store)
        match = SAVING_OFF.fullmatch(notice)
        assert match is not None, notice
        assert match["path"] == str(data / DATABASE_FILE)

        played = recorded(store, range(9, 13))
        store.save_settings(Settings(coach=False))
        assert store.load_stats() == Stats.from_records(saved + played)
        assert store.load_settings() == Settings(coach=False)
        assert store.saving is False
        assert notice_texts(store) == []
        store.close()
        assert files(data) == before


def fill(directory: Path) -> None:
    """Fill the file system of ``directory`` with a file until no byte more fits."""
    with (directory / "filler").open("wb", buffering=0) as filler:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    filler.write(b"\0" * size)
            except OSError:
                continue


def test_a_full_disk_turns_saving_off_once_and_keeps_the_games_in_memory(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "256k") as data:
        store = Store(data)
        saved = recorded(store, range(1, 5))
        fill(data)

        played: list[GameRecord] = []
        while store.saving and len(played) < 200:
            played += recorded(store, range(5 + len(played), 6 + len(played)))
        assert store.saving is False, "SQLite never reported the disk full"
        [notice] = notice_texts(store)
        match = SAVING_OFF.fullmatch(notice)
        assert match is not None, notice
        assert (match["path"], match["reason"]) == (
            str(data / DATABASE_FILE),
            "database or disk is full",
        )
        # Every game is counted: those on disk and those since, in memory.
        played += recorded(store, range(100, 103))
        assert store.load_stats() == Stats.from_records(saved + played)
        assert notice_texts(store) == []
        store.close()

        # On disk, every game saved before the disk filled, and a sound database.
        (data / "filler").unlink()
        on_disk = [GameRecord.from_json(json.dumps(record)) for record in records(data)]
        assert on_disk == saved + played[:-4]
        assert integrity(data) == ["ok"]
