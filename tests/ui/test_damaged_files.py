"""The data directory and its files as a person may leave them: missing, a file,
unwritable, damaged, with a bad field or markup in its path. The game goes on and
says what it did."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from textual.widgets import DataTable

from tests.support import (
    SIZE,
    Notes,
    Notice,
    Toast,
    make_app,
    play_a_game,
    records,
    score_total,
    settle,
    start,
    until,
)
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import DATABASE_FILE, GameRecord, NoticeKind, Store, settings_json

SAVING_OFF = (
    "Saving is off for this session; settings, stats and games are kept in memory until you quit."
)

CORRUPT_NAME = r"\.corrupt-\d{8}T\d{6}Z(-\d+)?"


STORAGE_TITLES = {kind.value for kind in NoticeKind}
"""The titles of the notices about the data: "Data damaged", "Your data", "Saving"."""


def saving_notices(seen: list[Notice], title: str = "Saving") -> list[str]:
    """The notifications about the data under ``title``."""
    return [notice.message for notice in seen if notice.title == title]


def storage_notices(seen: list[Notice]) -> list[Notice]:
    """Every notification about the data, whatever its title (several grouped: their
    titles joined, ``Your data · Data damaged``)."""
    return [notice for notice in seen if set(notice.title.split(" · ")) <= STORAGE_TITLES]


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file in ``directory`` by name, with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


T0 = datetime(2026, 11, 22, 6, 15, tzinfo=UTC)

SEEDED_SETTINGS = Settings(difficulty=Difficulty.EASY)
"""Settings saved before each data-file test, so falling back to defaults shows."""


def seed_files(directory: Path) -> dict[str, bytes]:
    """Good settings, stats and two game records, as an earlier ttt-tui would leave them."""
    store = Store(directory)
    store.save_settings(SEEDED_SETTINGS)
    for result in (Result.X_WON, Result.DRAW):
        store.record_game(
            GameRecord(
                started=T0,
                ended=T0 + timedelta(seconds=30),
                mode=Mode.HUMAN_VS_AI,
                x_difficulty=None,
                o_difficulty=Difficulty.EASY,
                human_mark=Player.X,
                moves=(4, 0, 8, 2, 6),
                result=result,
            )
        )
    assert store.take_notices() == []
    store.close()
    return snapshot(directory)


def stats_counted(directory: Path) -> int:
    """Games counted in the stats kept in ``directory``."""
    store = Store(directory)
    try:
        return sum(row.total for row in store.load_stats().rows())
    finally:
        store.close()


@dataclass(frozen=True)
class Damage:
    """What a damaged or foreign data file holds, what the person is told and what becomes
    of the file."""

    name: str
    """The data file."""
    content: bytes
    """What it holds."""
    notice: str | None
    """A regular expression the one notification about the data must match; None for no
    notice."""
    fate: str = "moved aside"
    """Where the file ends: "moved aside" (NAME.corrupt-*), "left alone" (newer) or "migrated"
    (an older ttt-tui's file, carried into the database and kept as NAME.migrated-*)."""
    kept_games: int = 2
    """The games recorded before that the stats still count."""
    title: str = "Data damaged"
    """The notification's title: what happened (not "Saving", for a file damaged when read)."""


SETTINGS_BYTES = (json.dumps(settings_json(SEEDED_SETTINGS), indent=2) + "\n").encode()

GAME_LINE = (
    '{"version":1,"started":"2026-11-22T06:15:00+00:00","ended":"2026-11-22T06:15:40+00:00",'
    '"mode":"human_vs_ai","x_difficulty":null,"o_difficulty":"easy","human_mark":"X",'
    '"moves":[4,0,8,2,6],"result":"x_won","undo_used":false,"hints_used":0}'
)
"""A game of an older ttt-tui's ``games.jsonl``, not among the seeded ones."""


def unreadable(name: str, reason: str, then: str = "started with defaults.") -> str:
    return (
        re.escape(f"{name} was unreadable ({reason}")
        + r".*"
        + re.escape("); moved it to ")
        + re.escape(name)
        + CORRUPT_NAME
        + re.escape(f" and {then}")
    )


def newer(name: str) -> str:
    return re.escape(
        f"{name} was written by a newer ttt-tui (format version 3); left it untouched"
        " and will not save to it this session, using defaults instead."
    )


def migrated(games: int, then: str = "") -> str:
    moved = f": moved the {games} recorded game{'' if games == 1 else 's'} of games.jsonl into it"
    return (
        re.escape(f"Games and stats now live in {DATABASE_FILE}{moved}; kept the old file as ")
        + r"games\.jsonl\.migrated-\d{8}T\d{6}Z\."
        + re.escape(then)
    )


def damaged_database(reason: str) -> str:
    return (
        re.escape(f"{DATABASE_FILE} was damaged ({reason}); moved it to {DATABASE_FILE}")
        + CORRUPT_NAME
        + re.escape(" and started a new one; SQLite could read no game in it.")
    )


DAMAGE = {
    "settings-corrupt": Damage(
        "settings.json",
        b'{"version": 1, "difficulty": "easy",,}',
        unreadable("settings.json", "not valid JSON (Expecting property name"),
    ),
    "settings-truncated": Damage(
        "settings.json",
        SETTINGS_BYTES[: len(SETTINGS_BYTES) // 2],
        unreadable("settings.json", "not valid JSON ("),
    ),
    "settings-empty": Damage(
        "settings.json", b"", unreadable("settings.json", "not valid JSON (Expecting value")
    ),
    "settings-future": Damage(
        "settings.json",
        b'{"version": 3, "difficulty": "easy", "board": "9x9"}\n',
        newer("settings.json"),
        "left alone",
        title="Your data",
    ),
    "database-not-sqlite": Damage(
        DATABASE_FILE,
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 64,
        damaged_database("file is not a database"),
        kept_games=0,
    ),
    "database-empty-header": Damage(
        DATABASE_FILE,
        b"SQLite format 3\x00" + b"\x00" * 4080,
        damaged_database("file is not a database"),
        kept_games=0,
    ),
    "old-games": Damage(
        "games.jsonl",
        (GAME_LINE + "\n").encode(),
        migrated(1),
        "migrated",
        kept_games=3,
        title="Your data",
    ),
    "old-games-truncated": Damage(
        "games.jsonl",
        (GAME_LINE + "\n" + GAME_LINE[:70]).encode(),
        migrated(
            1, " 1 line of games.jsonl could not be read (line 2: not valid JSON ("
        ).removesuffix(re.escape("("))
        + r".*\) and stay only in the kept file\.",
        "migrated",
        kept_games=3,
    ),
    "old-games-future": Damage(
        "games.jsonl",
        (GAME_LINE.replace('"version":1', '"version":3') + "\n").encode(),
        re.escape(
            f"Games and stats now live in {DATABASE_FILE}; kept the old file as"
            " games.jsonl.migrated-"
        )
        + r"\d{8}T\d{6}Z\. "
        + re.escape(
            "1 line of games.jsonl could not be read (line 1: from a newer ttt-tui (format 3))"
            " and stay only in the kept file."
        ),
        "migrated",
    ),
}

BAD_SETTINGS = {
    "settings-wrong-type": (
        b'{"version": 1, "difficulty": "easy", "coach": "yes"}',
        "coach: expected true or false, got 'yes'",
    ),
    "settings-empty-theme": (
        b'{"version": 1, "difficulty": "easy", "theme": ""}',
        "theme: expected a theme name, got ''",
    ),
    "settings-unknown-theme": (
        b'{"version": 1, "difficulty": "easy", "theme": "no-such-theme"}',
        "theme: no theme is named 'no-such-theme'",
    ),
}
"""A settings file with one bad field among good ones, and how the notice names it."""


async def test_data_dir_missing(tmp_path: Path) -> None:
    """Created, parents and all, without a word; the game is saved into it."""
    data = tmp_path / "not" / "there" / "yet"
    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        await play_a_game(pilot, screen)
        assert score_total(screen) == 1
    assert seen == []
    assert sorted(p.name for p in data.iterdir()) == [DATABASE_FILE]
    assert stats_counted(data) == 1
    assert len(records(data)) == 1


async def test_data_dir_is_a_file(tmp_path: Path) -> None:
    """One notification at start that saving is off; games play and count; the file is kept."""
    occupied = tmp_path / "data"
    occupied.write_bytes(b"my notes, not a directory\n")
    app = make_app(store=Store(occupied), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        assert saving_notices(seen) == [f"Could not create {occupied} (File exists). {SAVING_OFF}"]
        for games in (1, 2):
            await play_a_game(pilot, screen)
            assert score_total(screen) == games
            await pilot.press("n")
            await settle(pilot)
    assert len(saving_notices(seen)) == 1
    assert [n for n in seen if n.severity == "error"] == []
    assert occupied.read_bytes() == b"my notes, not a directory\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


async def test_a_database_that_cannot_be_opened_turns_saving_off_once(tmp_path: Path) -> None:
    """A directory where the database should be: one notice that saving is off, the
    saved settings still read, two games play and count (in memory), nothing changed."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_bytes(SETTINGS_BYTES)
    (data / DATABASE_FILE).mkdir()
    before = snapshot(data)
    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.session.settings == SEEDED_SETTINGS
        await play_a_game(pilot, screen)
        await pilot.press("n")
        await settle(pilot)
        await play_a_game(pilot, screen)
        assert score_total(screen) == 2
        await pilot.press("s")
        await settle(pilot)
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        table = stats.query_one(DataTable)
        total = sum(int(table.get_row(key)[2]) for key in table.rows)
        assert total == 2
    assert saving_notices(seen) == [
        f"Could not open {data / DATABASE_FILE} (unable to open database file). {SAVING_OFF}"
    ]
    assert snapshot(data) == before
    assert [p.name for p in (data / DATABASE_FILE).iterdir()] == []


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
async def test_damaged_data_file(tmp_path: Path, damage: Damage) -> None:
    """The app starts with defaults for that file, says what happened once, keeps playing
    and saving; a damaged file is kept byte for byte as NAME.corrupt-*, a newer one is left
    exactly as it was, an older ttt-tui's games are carried into the database, and the
    other files lose nothing."""
    data = tmp_path / "data"
    before = seed_files(data)
    (data / damage.name).write_bytes(damage.content)

    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        expected_settings = Settings() if damage.name == "settings.json" else SEEDED_SETTINGS
        assert screen.session.settings == expected_settings
        if damage.name == "settings.json":
            # Settings are read at start, so the person hears of it at once, and only
            # settings.json has been touched.
            assert len(storage_notices(seen)) == 1
            assert snapshot(data)[DATABASE_FILE] == before[DATABASE_FILE]
        await play_a_game(pilot, screen)
        assert screen.session.game.is_over
        assert score_total(screen) == 1
        told = storage_notices(seen)
    assert [notice.title for notice in told] == ([] if damage.notice is None else [damage.title])
    notices = [notice.message for notice in told]
    # The problem is named once, and nothing failed hard.
    if damage.notice is None:
        assert notices == []
    else:
        assert len(notices) == 1, notices
        assert re.fullmatch(damage.notice, notices[0]), notices[0]
    assert [n for n in seen if n.severity == "error"] == []
    assert app.store.saving is True

    after = snapshot(data)
    kind = {"moved aside": CORRUPT_NAME, "migrated": r"\.migrated-\d{8}T\d{6}Z"}
    aside = [
        name
        for name in after
        if re.fullmatch(re.escape(damage.name) + kind.get(damage.fate, "-none-"), name)
    ]
    if damage.fate == "left alone":
        assert aside == []
        assert after[damage.name] == damage.content
    else:
        assert len(aside) == 1
        assert after[aside[0]] == damage.content
        assert aside[0] in notices[0]
    assert not [name for name in after if name.endswith(".tmp")]
    if damage.name != "settings.json":
        assert after["settings.json"] == before["settings.json"]
    # Every game kept, the new one recorded after them, and the stats count them all.
    assert stats_counted(data) == damage.kept_games + 1
    assert len(records(data)) == damage.kept_games + 1


@pytest.mark.parametrize(("content", "problem"), BAD_SETTINGS.values(), ids=BAD_SETTINGS.keys())
async def test_settings_with_a_bad_field(tmp_path: Path, content: bytes, problem: str) -> None:
    """The good fields are kept (Easy here), only the bad one falls back, the notice names
    it, and the file is kept byte for byte as settings.json.corrupt-*."""
    data = tmp_path / "data"
    seed_files(data)
    (data / "settings.json").write_bytes(content)
    field = problem.partition(":")[0]

    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.session.settings == SEEDED_SETTINGS
        assert app.theme == Settings().theme
        [notice] = saving_notices(seen, "Data damaged")
        assert re.fullmatch(
            re.escape(f"settings.json had 1 bad value ({problem}); moved it to settings.json")
            + CORRUPT_NAME
            + re.escape(f", kept the other settings and used the default for {field}."),
            notice,
        ), notice
        await play_a_game(pilot, screen)
        assert score_total(screen) == 1
    assert [n for n in seen if n.severity == "error"] == []

    after = snapshot(data)
    [aside] = [name for name in after if re.fullmatch(r"settings\.json" + CORRUPT_NAME, name)]
    assert after[aside] == content
    assert aside in notice
    assert json.loads(after["settings.json"]) == settings_json(SEEDED_SETTINGS)
    assert stats_counted(data) == 2 + 1


async def test_markup_in_data_dir_path(tmp_path: Path) -> None:
    """A folder named like "[old]" is an ordinary name: the notification shows it as it is."""
    data = tmp_path / "[old]" / "data"
    data.parent.mkdir()
    data.write_bytes(b"")  # a file where the directory should be: saving is off
    app = make_app(store=Store(data), seed=1)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        toasts = [str(toast.render()) for toast in screen.query("Toast")]
        assert any(f"Could not create {data} (File exists)." in t for t in toasts), toasts
        await play_a_game(pilot, screen)
        assert score_total(screen) == 1


async def test_several_notices_at_launch_are_one_notification(tmp_path: Path) -> None:
    """A damaged settings file and an older ttt-tui's games: one notification, titled
    for what happened, saying each (each was a toast of its own, covering the sidebar
    for seconds, and titled "Saving" though it was about reading)."""
    data = tmp_path / "data"
    seed_files(data)
    (data / "settings.json").write_bytes(b'{"version": 1,,}')
    (data / "games.jsonl").write_bytes((GAME_LINE + "\n").encode())
    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        # Read after every job the saver had before it, the launch's check included.
        await asyncio.wrap_future(app.saver.load_stats())
        await until(pilot, lambda: bool(screen.query(Toast)), "the notice shown")
        [notice] = storage_notices(seen)
        assert notice.title == "Your data · Data damaged"
        assert notice.severity == "warning"
        moved, damaged = notice.message.splitlines()
        assert re.fullmatch(migrated(1), moved), moved
        assert re.fullmatch(unreadable("settings.json", "not valid JSON ("), damaged), damaged
        [toast] = screen.query(Toast)
        assert "settings.json was unreadable" in str(toast.render())
