"""The data directory and its files as a person may leave them: missing, a file,
unwritable, damaged, with a bad field or markup in its path. The game goes on and
says what it did."""

from __future__ import annotations

import errno
import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from tests.support import (
    SIZE,
    Notes,
    Notice,
    make_app,
    play_a_game,
    score_total,
    settle,
    start,
)
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import GameRecord, Store, settings_json

SAVING_OFF = (
    "Saving is off for this session; settings, stats and games are kept in memory until you quit."
)

CORRUPT_NAME = r"\.corrupt-\d{8}T\d{6}Z(-\d+)?"


def saving_notices(seen: list[Notice]) -> list[str]:
    """The notifications about storage, which the app titles "Saving"."""
    return [notice.message for notice in seen if notice.title == "Saving"]


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
    return snapshot(directory)


def stats_counted(directory: Path) -> int:
    """Games counted in ``stats.json``."""
    data = json.loads((directory / "stats.json").read_text(encoding="utf-8"))
    return sum(sum(row.values()) for row in data["counts"].values())


def refuse_writes_in(directory: Path, monkeypatch: pytest.MonkeyPatch, error: int) -> None:
    """Make creating files in ``directory`` fail (EACCES), or writing to them fail (ENOSPC).

    Tests run as root, for whom chmod blocks nothing, so the system calls are
    made to fail as they would for a user in a read-only or full directory.
    """
    real_open, real_write = os.open, os.write
    doomed: set[int] = set()

    def fake_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        inside = Path(os.fsdecode(path)).parent == directory
        if inside and flags & os.O_CREAT and error == errno.EACCES:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))
        fd = real_open(path, flags, *args, **kwargs)
        if inside and flags & os.O_CREAT:
            doomed.add(fd)
        return fd

    def fake_write(fd: int, data: Any) -> int:
        if fd in doomed:
            doomed.discard(fd)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "write", fake_write)


@dataclass(frozen=True)
class Damage:
    """What a damaged data file holds, what the person is told and what becomes of the file."""

    name: str
    """The data file."""
    content: bytes
    """What it holds."""
    notice: str | None
    """A regular expression the one "Saving" notification must match; None for no notice."""
    fate: str = "moved aside"
    """Where the file ends: "moved aside" (NAME.corrupt-*), "left alone" (newer) or "kept"."""


SETTINGS_BYTES = (json.dumps(settings_json(SEEDED_SETTINGS), indent=2) + "\n").encode()

STATS_BYTES = b'{\n  "version": 1,\n  "counts": {\n    "human_vs_ai/easy": {"win": 1, "draw": 1}\n'

GAME_LINE = (
    '{"version":1,"started":"2026-11-22T06:15:00+00:00","ended":"2026-11-22T06:15:30+00:00",'
    '"mode":"human_vs_ai","x_difficulty":null,"o_difficulty":"easy","human_mark":"X",'
    '"moves":[4,0,8,2,6],"result":"x_won","undo_used":false,"hints_used":0}'
)


def unreadable(name: str, reason: str, then: str = "started with defaults.") -> str:
    return (
        re.escape(f"{name} was unreadable ({reason}")
        + r".*"
        + re.escape("); moved it to ")
        + re.escape(name)
        + CORRUPT_NAME
        + re.escape(f" and {then}")
    )


REBUILT = "rebuilt the counts from the 2 games in games.jsonl."
"""How a stats notice ends when the two seeded games are counted again."""


def newer(name: str) -> str:
    return re.escape(
        f"{name} was written by a newer ttt-tui (format version 3); left it untouched"
        " and will not save to it this session, using defaults instead."
    )


def bad_lines(count: int, first: str, kept: int) -> str:
    games = "game" if kept == 1 else "games"
    return (
        re.escape(f"games.jsonl had {count} unreadable line{'s' if count > 1 else ''} ({first}")
        + r".*"
        + re.escape("); moved it to games.jsonl")
        + CORRUPT_NAME
        + re.escape(f" and kept the {kept} readable {games}.")
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
    ),
    "stats-corrupt": Damage(
        "stats.json",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        unreadable("stats.json", "not UTF-8", REBUILT),
    ),
    "stats-truncated": Damage(
        "stats.json", STATS_BYTES, unreadable("stats.json", "not valid JSON (Expecting", REBUILT)
    ),
    "stats-empty": Damage(
        "stats.json", b"", unreadable("stats.json", "not valid JSON (Expecting value", REBUILT)
    ),
    "stats-wrong-type": Damage(
        "stats.json",
        b'{"version": 1, "counts": {"human_vs_ai/easy": {"win": "three"}}}',
        unreadable(
            "stats.json",
            "human_vs_ai/easy/win: expected a whole number >= 0, got 'three'",
            REBUILT,
        ),
    ),
    "stats-future": Damage(
        "stats.json",
        b'{"version": 3, "counts": {}, "elo": 1500}\n',
        newer("stats.json"),
        "left alone",
    ),
    "games-corrupt": Damage(
        "games.jsonl",
        b"\xff\xfe\x00g\x00a\x00m\x00e\x00s\x00\n",
        bad_lines(1, "line 1: not UTF-8 text", 0),
    ),
    "games-truncated": Damage(
        "games.jsonl",
        (GAME_LINE + "\n" + GAME_LINE[:70]).encode(),
        bad_lines(1, "line 2: not valid JSON (", 1),
    ),
    # An empty games file is simply no games yet: nothing to report, nothing moved.
    "games-empty": Damage("games.jsonl", b"", None, "kept"),
    "games-wrong-type": Damage(
        "games.jsonl",
        (GAME_LINE + "\n[4, 0, 8]\n").encode(),
        bad_lines(1, "line 2: top level: expected a JSON object, got list", 1),
    ),
    "games-future": Damage(
        "games.jsonl",
        (GAME_LINE + "\n" + GAME_LINE.replace('"version":1', '"version":3') + "\n").encode(),
        newer("games.jsonl"),
        "left alone",
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
    assert sorted(p.name for p in data.iterdir()) == ["games.jsonl", "stats.json"]
    assert stats_counted(data) == 1
    assert len((data / "games.jsonl").read_text().splitlines()) == 1


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


@pytest.mark.parametrize(
    ("error", "reason"),
    [(errno.EACCES, "Permission denied"), (errno.ENOSPC, "No space left on device")],
    ids=["data-dir-unwritable", "disk-full"],
)
async def test_data_dir_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: int, reason: str
) -> None:
    """One notification that saving is off; two games play and count; old files intact."""
    data = tmp_path / "data"
    before = seed_files(data)
    refuse_writes_in(data, monkeypatch, error)
    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.session.settings == SEEDED_SETTINGS  # reading still works
        assert seen == []  # nothing has failed yet: nothing was written
        await play_a_game(pilot, screen)
        assert score_total(screen) == 1
        # A setting change tries to save too; then a second game, refused again.
        await pilot.press("d", "n")
        await settle(pilot)
        await play_a_game(pilot, screen)
        assert score_total(screen) == 2
        assert len(app.store.load_games()) == 2 + 2  # kept in memory
    assert saving_notices(seen) == [
        f"Could not write {data / 'games.jsonl'} ({reason}). {SAVING_OFF}"
    ]
    assert [n.severity for n in seen if n.title == "Saving"] == ["warning"]
    monkeypatch.undo()
    assert snapshot(data) == before  # byte for byte, and no temp files left behind


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
async def test_damaged_data_file(tmp_path: Path, damage: Damage) -> None:
    """The app starts with defaults for that file, says what happened once, keeps playing
    and saving; a damaged file is kept byte for byte as NAME.corrupt-*, a newer one is left
    exactly as it was, and the other files lose nothing."""
    data = tmp_path / "data"
    before = seed_files(data)
    (data / damage.name).write_bytes(damage.content)
    future = damage.fate == "left alone"

    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        expected_settings = Settings() if damage.name == "settings.json" else SEEDED_SETTINGS
        assert screen.session.settings == expected_settings
        if damage.name == "settings.json":
            # Settings are read at start, so the person hears of it at once, and only
            # settings.json has been touched.
            assert len(saving_notices(seen)) == 1
            after = snapshot(data)
            assert after["stats.json"] == before["stats.json"]
            assert after["games.jsonl"] == before["games.jsonl"]
        await play_a_game(pilot, screen)
        assert screen.session.game.is_over
        assert score_total(screen) == 1
        notices = saving_notices(seen)
    # The problem is named once, and nothing failed hard.
    if damage.notice is None:
        assert notices == []
    else:
        assert len(notices) == 1, notices
        assert re.fullmatch(damage.notice, notices[0]), notices[0]
    assert [n for n in seen if n.severity == "error"] == []
    assert app.store.saving is True

    after = snapshot(data)
    aside = [name for name in after if re.fullmatch(re.escape(damage.name) + CORRUPT_NAME, name)]
    if damage.fate != "moved aside":
        assert aside == []
    else:
        assert len(aside) == 1
        assert after[aside[0]] == damage.content
        assert aside[0] in notices[0]
    if future:
        assert after[damage.name] == damage.content
    assert not [name for name in after if name.endswith(".tmp")]

    # The other files lose nothing: settings as they were, every old game and count kept.
    if damage.name != "settings.json":
        assert after["settings.json"] == before["settings.json"]
    old_lines = before["games.jsonl"].decode().splitlines()
    new_lines = after["games.jsonl"].decode().splitlines()
    if damage.name == "games.jsonl":
        readable = [
            line
            for line in damage.content.decode(errors="replace").splitlines()
            if line == GAME_LINE
        ]
        if future:
            assert new_lines == damage.content.decode().splitlines()
        else:
            assert new_lines[:-1] == readable
    else:
        assert new_lines[:-1] == old_lines
    if damage.name != "stats.json" or not future:
        # Damaged stats are counted again from games.jsonl: the two old games and the new one.
        assert stats_counted(data) == 2 + 1


@pytest.mark.parametrize(("content", "problem"), BAD_SETTINGS.values(), ids=BAD_SETTINGS.keys())
async def test_settings_with_a_bad_field(tmp_path: Path, content: bytes, problem: str) -> None:
    """The good fields are kept (Easy here), only the bad one falls back, the notice names
    it, and the file is kept byte for byte as settings.json.corrupt-*."""
    data = tmp_path / "data"
    before = seed_files(data)
    (data / "settings.json").write_bytes(content)
    field = problem.partition(":")[0]

    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.session.settings == SEEDED_SETTINGS
        assert app.theme == Settings().theme
        [notice] = saving_notices(seen)
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
    assert after["games.jsonl"].startswith(before["games.jsonl"])
    assert stats_counted(data) == 2 + 1


async def test_stats_damaged_seen_first_on_the_stats_screen(tmp_path: Path) -> None:
    """Opening the stats screen is where a person first meets damaged stats: say so there."""
    data = tmp_path / "data"
    seed_files(data)
    (data / "stats.json").write_bytes(b"")
    app = make_app(store=Store(data), seed=1)
    seen = Notes(app).notices
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await start(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert any(p.name.startswith("stats.json.corrupt-") for p in data.iterdir())
        [notice] = saving_notices(seen)
        assert notice.startswith("stats.json was unreadable")
        assert notice.endswith(REBUILT)
        table = app.screen.query_one(DataTable)
        assert table.get_row("human_vs_ai/easy")[:6] == ["You vs AI", "Easy", "2", "1", "1", "0"]


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
