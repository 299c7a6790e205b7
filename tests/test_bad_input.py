"""Every kind of bad input in the README's table, tried end to end as a user would meet it.

Each test or parametrised case has an id that names its row of the table
("Bad input | What the user gets | Exit status | Test"). The command line is run
as a real process; the data directory and terminal rows drive the real app with
Pilot and play a whole game, because "keeps playing" means a game can still be
finished and counted. The storage unit tests (`test_storage.py`) cover `Store`
itself; here the point is what reaches the person.
"""

from __future__ import annotations

import errno
import json
import os
import re
import select
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from tests.support import (
    SIZE,
    Notes,
    Notice,
    make_app,
    play_a_game,
    resize,
    score_total,
    settle,
    shown_marks,
    start,
)
from tests.support.terminal import DEADLINE, ROOT, game_env, ttt
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH, GameScreen
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import GameRecord, Store, settings_json
from ttt_tui.widgets.board import BoardView

NO_TERMINAL = (
    "ttt-tui: the game needs an interactive terminal, but standard input or output"
    " is not one; for scripts, use `ttt-tui analyze`"
)
DUMB_TERMINAL = (
    "ttt-tui: TERM=dumb cannot show a full-screen game; run it in a terminal"
    " emulator (e.g. TERM=xterm-256color)"
)
SAVING_OFF = (
    "Saving is off for this session; settings, stats and games are kept in memory until you quit."
)
CORRUPT_NAME = r"\.corrupt-\d{8}T\d{6}Z(-\d+)?"


# Command line helpers ----------------------------------------------------------------------


def drain(fd: int) -> bytes:
    """Whatever is waiting on a pty master, without blocking."""
    data = b""
    while select.select([fd], [], [], 0)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every slave end is closed.
            break
        if not chunk:
            break
        data += chunk
    return data


# Unknown options and bad option values -----------------------------------------------------

USAGE_ERRORS = {
    "unknown-option": (["--bogus"], "unrecognized arguments: --bogus"),
    "difficulty-word": (
        ["--difficulty", "insane"],
        "argument --difficulty: expected one of easy, medium, hard, got 'insane'",
    ),
    "mark-word": (["--mark", "Z"], "argument --mark: expected X or O, got 'Z'"),
    "ai-delay-negative": (
        ["--ai-delay", "-1"],
        "argument --ai-delay: expected 0 to 10 seconds, got -1",
    ),
    "ai-delay-nan": (
        ["--ai-delay", "nan"],
        "argument --ai-delay: expected 0 to 10 seconds, got nan",
    ),
    "ai-delay-word": (
        ["--ai-delay", "soon"],
        "argument --ai-delay: expected a number of seconds, got 'soon'",
    ),
    "seed-word": (["--seed", "abc"], "argument --seed: invalid int value: 'abc'"),
}


@pytest.mark.parametrize(("args", "error"), USAGE_ERRORS.values(), ids=USAGE_ERRORS.keys())
def test_bad_option_is_a_usage_error(tmp_path: Path, args: list[str], error: str) -> None:
    """A usage line and one ``ttt-tui: error:`` line; status 2; nothing starts, nothing is saved."""
    result = ttt(*args, data=tmp_path / "data")
    stderr = result.stderr
    assert result.returncode == 2
    assert result.stdout == ""
    assert stderr.startswith("usage: ttt-tui ")
    assert stderr.splitlines()[-1] == f"ttt-tui: error: {error}"
    assert "Traceback" not in stderr
    assert not (tmp_path / "data").exists()


# Malformed and impossible positions for analyze --------------------------------------------

BAD_POSITIONS = {
    "analyze-wrong-length": ("X.......", "expected 9, 16 or 25 cells, got 8"),
    "analyze-unknown-char": (
        "X.Z......",
        "unknown character 'Z' at cell 3; expected X, O, '.', '-' or '_'",
    ),
    "analyze-o-ahead": ("OO.......", "O has more marks than X (2 against 0); X moves first"),
    "analyze-x-two-ahead": (
        "XX.......",
        "X has 2 more marks than O (2 against 0); the sides take turns",
    ),
    "analyze-both-lines": ("XXX/OOO/...", "both X and O have a line"),
    "analyze-winner-count": (
        "XXXOO.O..",
        "X has a line but O moved last; the game ended when X won",
    ),
    "analyze-4x4-o-ahead": ("O" + "." * 15, "O has more marks than X (1 against 0); X moves first"),
}


@pytest.mark.parametrize(("position", "error"), BAD_POSITIONS.values(), ids=BAD_POSITIONS.keys())
def test_bad_position_is_named_and_the_others_still_analysed(
    tmp_path: Path, position: str, error: str
) -> None:
    """One stderr line names the position and the problem; good ones around it still print."""
    result = ttt("analyze", "X........", position, "XX.OO....", data=tmp_path / "data")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"ttt-tui analyze: {position!r}: {error}"]
    out = result.stdout
    assert "position X........\n" in out
    assert "position XX.OO....\n" in out
    assert "X to move: win in 1 with best play" in out


def test_bad_positions_in_json_are_error_objects(tmp_path: Path) -> None:
    """With --json each problem is an object on stdout in its place; the status is still 2."""
    positions = [position for position, _ in BAD_POSITIONS.values()]
    result = ttt("analyze", "--json", *positions, "X........", data=tmp_path / "data")
    assert result.returncode == 2
    assert result.stderr == ""
    *bad, good = (json.loads(line) for line in result.stdout.splitlines())
    assert bad == [{"position": p, "error": e} for p, e in BAD_POSITIONS.values()]
    assert good["position"] == "X........"
    assert good["best"] == [4]


def test_stdin_undecodable(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 become one named bad position; the lines around it are analysed."""
    result = ttt(
        "analyze",
        "-",
        data=tmp_path / "data",
        stdin=b"X........\n\xff\xfe.......\n\x80\n..X......\n",
    )
    assert result.returncode == 2
    stderr = result.stderr
    assert "Traceback" not in stderr
    assert "UnicodeDecodeError" not in stderr
    assert stderr.splitlines() == [
        "ttt-tui analyze: '\ufffd\ufffd.......': unknown character '\ufffd' at cell 1;"
        " expected X, O, '.', '-' or '_'",
        "ttt-tui analyze: '\ufffd': expected 9, 16 or 25 cells, got 1",
    ]
    out = result.stdout
    assert "position X........\n" in out
    assert "position ..X......\n" in out


def test_broken_pipe(tmp_path: Path) -> None:
    """``ttt-tui analyze - | head -1``: the reader leaves early; no traceback and status 0."""
    positions = tmp_path / "positions.txt"
    # About 1.5 MB of output, far more than a pipe holds, so the writer must meet EPIPE.
    positions.write_text("X........\n" * 5000)
    with positions.open("rb") as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ttt_tui", "analyze", "-"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=game_env(tmp_path / "data"),
        )
        assert proc.stdout is not None and proc.stderr is not None
        try:
            first = proc.stdout.readline()
            proc.stdout.close()
            stderr = proc.stderr.read().decode()
            status = proc.wait(timeout=DEADLINE)
        finally:
            proc.kill()
            proc.wait()
    assert first == b"position X........\n"
    assert "Traceback" not in stderr
    assert "BrokenPipeError" not in stderr
    assert stderr == ""
    assert status == 0


# No terminal at all, and TERM=dumb ---------------------------------------------------------

TERMINAL_PROBLEMS = {
    # `ttt-tui < /dev/null`: output is a terminal, input is not.
    "no-terminal-stdin": (False, True, "xterm-256color", NO_TERMINAL),
    # `ttt-tui | cat`: input is a terminal, output is a pipe.
    "no-terminal-stdout": (True, False, "xterm-256color", NO_TERMINAL),
    # Both are a terminal, but one that cannot draw a full-screen app.
    "term-dumb": (True, True, "dumb", DUMB_TERMINAL),
}


@pytest.mark.parametrize(
    ("stdin_tty", "stdout_tty", "term", "message"),
    TERMINAL_PROBLEMS.values(),
    ids=TERMINAL_PROBLEMS.keys(),
)
def test_no_usable_terminal(
    tmp_path: Path, stdin_tty: bool, stdout_tty: bool, term: str, message: str
) -> None:
    """One line on stderr, status 2, no escape codes sprayed on the terminal, nothing saved."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ttt_tui"],
            stdin=slave if stdin_tty else subprocess.DEVNULL,
            stdout=slave if stdout_tty else subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=game_env(tmp_path / "data", TERM=term),
        )
        try:
            stdout, stderr = proc.communicate(timeout=DEADLINE)
        finally:
            proc.kill()
            proc.wait()
        os.close(slave)
        on_terminal = drain(master)
    finally:
        os.close(master)
    assert proc.returncode == 2
    assert stderr.decode().splitlines() == [message]
    assert (stdout or b"") == b""
    assert b"\x1b[" not in on_terminal
    assert not (tmp_path / "data").exists()


# App helpers -------------------------------------------------------------------------------


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


# A data directory that is missing, a file, unwritable or on a full disk --------------------


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


# Corrupt, truncated, empty, wrongly typed and future-version data files --------------------


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


# NO_COLOR ----------------------------------------------------------------------------------


def hues(svg: str) -> set[str]:
    """Colours in a screenshot that are not a grey, leaving out the window's title-bar dots."""
    svg = re.sub(r"<circle[^>]*/>", "", svg)
    found = set()
    for colour in re.findall(r"#([0-9a-fA-F]{6})\b", svg):
        r, g, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
        # Rich's SVG draws default-coloured text in #c5c8c6: grey to any eye.
        if max(r, g, b) - min(r, g, b) > 4:
            found.add(f"#{colour.lower()}")
    return found


async def screenshot(play: bool) -> tuple[str, dict[Player, str]]:
    """The screen, after a whole game if ``play``, and how an X cell and an O cell are drawn."""
    app = make_app(store=Store(enabled=False), seed=1)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        if play:
            await play_a_game(pilot, screen)
            assert score_total(screen) == 1
        drawn: dict[Player, str] = {}
        board = screen.query_one(BoardView)
        for cell, look in enumerate(board.looks):
            if look.mark is not None:
                drawn.setdefault(look.mark, board.square_text(cell))
        return app.export_screenshot(), drawn


async def test_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR=1: a whole game in greys only, with X and O told apart by their shapes."""
    coloured, _ = await screenshot(play=False)
    assert hues(coloured), "the check must see colour when there is some"

    monkeypatch.setenv("NO_COLOR", "1")
    plain, drawn = await screenshot(play=True)
    assert hues(plain) == set()
    assert set(drawn) == {Player.X, Player.O}
    x, o = drawn[Player.X], drawn[Player.O]
    assert x.strip() and o.strip()
    assert x != o


# A terminal smaller than the minimum -------------------------------------------------------


async def test_terminal_too_small(tmp_path: Path) -> None:
    """The minimum is named instead of a broken layout; keys do no harm; enlarging resumes."""
    app = make_app(store=Store(tmp_path / "data"), seed=1)
    width, height = MIN_WIDTH - 16, MIN_HEIGHT - 6
    async with app.run_test(size=(width, height), notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.has_class("-too-small")
        assert not screen.query_one("#main").display
        message = str(screen.query_one("#too-small", Static).render())
        assert message == (
            f"Terminal too small: {width}x{height}.\n"
            f"The 3x3 board needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
            "Enlarge the window to play; q quits."
        )
        for key in ["5", "up", "left", "enter", "space", "tab", "question_mark", "escape"]:
            await pilot.press(key)
            await settle(pilot)
        assert app.is_running
        assert isinstance(app.screen, GameScreen)
        assert screen.session.game.moves == []  # the game keys did nothing

        await resize(pilot, *SIZE)
        assert not screen.has_class("-too-small")
        assert screen.query_one("#main").display
        # What is drawn is what is played.
        assert shown_marks(pilot) == str(screen.session.game.board)
        await play_a_game(pilot, screen)
        assert score_total(screen) == 1
    assert app.return_code in (None, 0)


def test_every_test_the_readme_table_names_exists() -> None:
    """Each id in the table's Test column is a test function, a parametrised case's id or
    a test file, so `pytest -k ID` runs something and a renamed test cannot leave the
    table pointing nowhere."""
    readme = (ROOT / "README.md").read_text("utf-8")
    table = readme.split("**Bad input, and what it gets.**", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    names = [name for row in rows[1:] for name in re.findall(r"`([^`]+)`", row.split(" | ")[-1])]
    sources = "\n".join(path.read_text("utf-8") for path in (ROOT / "tests").glob("test_*.py"))
    missing = [
        name
        for name in names
        if not (ROOT / "tests" / name).is_file()
        and not re.search(rf"def {re.escape(name)}\(|[\"']{re.escape(name)}[\"']", sources)
    ]
    assert len(names) > 40
    assert missing == []
