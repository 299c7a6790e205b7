"""Several ttt-tui processes sharing one data directory, and writers killed at random:
no update is lost, and the database is always sound.

`ttt-tui serve` runs a game process per browser tab, all writing settings, stats and
game records into one directory. These tests run real writer processes at once, and
kill them with SIGKILL, and check that every record, every count and every settings
change that was made is there afterwards.
"""

from __future__ import annotations

import enum
import json
import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.support import records
from tests.support.stores import games_of, integrity, last_reset, python, said, schema_made
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.storage import DATABASE_FILE, GameRecord, NoticeKind, Stats, Store

OWNED: list[tuple[str, list[object]]] = [
    ("difficulty", [Difficulty.EASY, Difficulty.HARD]),
    ("ai_o_difficulty", [Difficulty.HARD, Difficulty.EASY]),
    ("mark", [Player.O, Player.X, Player.O]),
    ("mode", [Mode.AI_VS_AI, Mode.TWO_PLAYERS]),
    ("board", [BoardSize.FIVE, BoardSize.FOUR]),
    ("alternate_start", [False, True]),
    ("coach", [True, False, True]),
    ("theme", ["theme-a", "theme-b", "theme-c"]),
    ("screen_reader", [False, True]),
]
"""The settings field each of the first writers owns, and the values it steps through,
ending on the last; ``ai_x_difficulty`` is nobody's."""

WRITER = """
import json, sys
from dataclasses import replace
from pathlib import Path
from ttt_tui.storage import Store, settings_from_json
from tests.storage.numbered import numbered

data, writer, games = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
field, values = sys.argv[4], json.loads(sys.argv[5])
store = Store(data)
settings = store.load_settings()
print("ready", flush=True)
sys.stdin.readline()  # everyone starts together
for i in range(games):
    store.record_game(numbered(writer * 1000 + i))
    if field:
        value = values[min(i * len(values) // games, len(values) - 1)]
        chosen = getattr(settings_from_json({"version": 1, field: value}), field)
        settings = replace(settings, **{field: chosen})
        store.save_settings(settings)
    print(i, flush=True)
notices = store.take_notices()
assert notices == [], notices
"""
"""Records ``games`` games (numbered from 1000 times its number), and after each one
saves its settings with the field it owns (``field``, if any) stepped through ``values``
(as JSON) over the run: every save rewrites the file, so a save made without the lock
would bring back another writer's old value."""


def owned(writer: int) -> tuple[str, str]:
    """The field ``writer`` owns ('' for none) and its values as the settings file has them."""
    if writer >= len(OWNED):
        return "", "[]"
    field, values = OWNED[writer]
    return field, json.dumps([v.value if isinstance(v, enum.Enum) else v for v in values])


def run_writers(data: Path, writers: int, games: int) -> list[list[str]]:
    """Start the writers, let them go at once, and return what each acknowledged."""
    processes = [python(WRITER, str(data), str(n), str(games), *owned(n)) for n in range(writers)]
    for process in processes:
        assert said(process) == "ready"
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    acknowledged = []
    for process in processes:
        out, _ = process.communicate(timeout=300)
        assert process.returncode == 0
        acknowledged.append(out.split())
    return acknowledged


def writers_lose_nothing(data: Path, writers: int, games: int) -> None:
    first = Store(data)
    first.save_settings(Settings(ai_x_difficulty=Difficulty.HARD))  # nobody's field
    first.close()  # else its connection lives until a collection, and the WAL with it

    acknowledged = run_writers(data, writers, games)
    assert [len(a) for a in acknowledged] == [games] * writers

    store = Store(data)
    recorded = games_of(store)
    # Every game of every writer, each once, and each writer's in the order it recorded them.
    numbers = [game.hints_used for game in recorded]
    assert sorted(numbers) == [w * 1000 + i for w in range(writers) for i in range(games)]
    for w in range(writers):
        assert [n - w * 1000 for n in numbers if n // 1000 == w] == list(range(games))
    # Every count: the stats are the records, game for game.
    stats = store.load_stats()
    assert stats == Stats.from_records(recorded)
    counted = [game for game in recorded if game.result is not Result.ABANDONED]
    assert sum(row.total for row in stats.rows()) == len(counted) > 0
    # Every setting: each owner's field has its last value, and the field nobody
    # touched kept the value saved before they started.
    settings = store.load_settings()
    for field, values in OWNED[:writers]:
        assert getattr(settings, field) == values[-1], field
    assert settings.ai_x_difficulty is Difficulty.HARD
    assert store.take_notices() == []
    store.close()
    assert sorted(p.name for p in data.iterdir()) == sorted([DATABASE_FILE, "settings.json"])
    assert integrity(data) == ["ok"]


def test_sixteen_writers_at_once_lose_no_record_no_count_and_no_setting(tmp_path: Path) -> None:
    writers_lose_nothing(tmp_path / "data", 16, 50)


def test_two_stores_save_different_settings_and_both_are_kept(tmp_path: Path) -> None:
    first, second = Store(tmp_path), Store(tmp_path)
    first.load_settings()
    second.load_settings()

    first.save_settings(Settings(difficulty=Difficulty.HARD))
    second.save_settings(Settings(coach=True))
    first.save_settings(Settings(difficulty=Difficulty.HARD, mark=Player.O))

    assert Store(tmp_path).load_settings() == Settings(
        difficulty=Difficulty.HARD, coach=True, mark=Player.O
    )


def test_a_settings_file_damaged_before_a_save_is_set_aside_not_overwritten(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path)
    store.save_settings(Settings(coach=True))
    (tmp_path / "settings.json").write_bytes(b'{"version": 1, "coa')

    store.save_settings(Settings(coach=True, mark=Player.O))

    [told] = store.take_notices()
    assert told.kind is NoticeKind.DAMAGED
    notice = told.text
    assert notice.startswith("settings.json was unreadable (")
    assert notice.endswith("and saved this session's settings in its place.")
    [aside] = tmp_path.glob("settings.json.corrupt-*")
    assert aside.read_bytes() == b'{"version": 1, "coa'
    assert Store(tmp_path).load_settings() == Settings(coach=True, mark=Player.O)


def test_a_bad_field_on_disk_takes_this_sessions_value_when_saving(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.load_settings()
    (tmp_path / "settings.json").write_text('{"version": 1, "coach": "yes", "mark": "O"}')

    store.save_settings(Settings(difficulty=Difficulty.EASY))

    written = json.loads((tmp_path / "settings.json").read_text())
    assert (written["coach"], written["mark"], written["difficulty"]) == (False, "O", "easy")


# Killed mid-write -------------------------------------------------------------------------

KILLED = """
import sys
from pathlib import Path
from ttt_tui.play.game import SavedGame
from ttt_tui.play.settings import Settings
from ttt_tui.storage import Store
from tests.storage.numbered import T0, numbered

store, first = Store(Path(sys.argv[1])), int(sys.argv[2])
print("ready", flush=True)
for number in range(first, first + 10_000):
    store.keep_in_play(SavedGame(Settings(), T0, (number % 9,), (None,)))
    store.record_game(numbered(number))
    print(number, flush=True)  # the game is saved
    if number % 7 == 6:
        store.reset_stats()
    if number % 5 == 4:
        store.save_settings(Settings(coach=number % 2 == 0))
"""
"""Plays on until killed: keeps a game in play, records it, says its number once that
has returned; a reset every seventh game, a settings change every fifth."""


def kill_writers(data: Path, kills: int) -> None:
    """SIGKILL a busy writer ``kills`` times, each at a random moment: each time, the
    database is sound, holds every game whose save had returned, and counts what its
    records say.

    Each life is killed at a random moment after a random number (0 to 2) of games it
    has said are saved, so that the kills land anywhere in the loop, the first save
    included, however slow a loaded machine makes them.
    """
    rng = random.Random(20261127)
    saved: list[int] = []
    for life in range(kills):
        writer = python(KILLED, str(data), str(life * 10_000))
        assert said(writer) == "ready"
        acknowledged = [int(said(writer)) for _ in range(rng.randint(0, 2))]
        time.sleep(rng.uniform(0.0, 0.05))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        assert writer.stdout is not None
        saved += acknowledged + [int(line) for line in writer.stdout.read().split()]
        writer.stdout.close()
        if writer.stdin is not None:
            writer.stdin.close()

        if not schema_made(data):
            assert saved == []  # killed before it made the database
            continue
        assert integrity(data) == ["ok"]
        on_disk = [GameRecord.from_json(json.dumps(record)) for record in records(data)]
        numbers = [game.hints_used for game in on_disk]
        assert set(saved) <= set(numbers)
        assert len(numbers) == len(set(numbers))
        store = Store(data)
        after = last_reset(data)
        assert store.load_stats() == Stats.from_records(on_disk[after:])
        store.load_settings()
        assert store.take_notices() == []
        store.close()
    assert saved, "no save ever returned before a kill"
    print(f"\n{kills} kills; {len(saved)} saves had returned, each one kept")


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_a_writer_killed_at_random_moments_loses_no_saved_game(tmp_path: Path) -> None:
    kill_writers(tmp_path / "data", 3)


@pytest.mark.long
@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_a_writer_killed_forty_times_loses_no_saved_game(tmp_path: Path) -> None:
    kill_writers(tmp_path / "data", int(os.environ.get("TTT_STORAGE_KILLS") or 40))
