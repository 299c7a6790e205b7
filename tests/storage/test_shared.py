"""Several ttt-tui processes sharing one data directory: no update is lost.

`ttt-tui serve` runs a game process per browser tab, all writing settings,
stats and game records into one directory. These tests run real writer
processes at once and check that every record, every count and every settings
change is there afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.support.terminal import ROOT
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.storage import GameRecord, Stats, Store, stats_entry
from ttt_tui.storage import model as storage_model

WRITERS = 4
"""Writer processes at once: more than the machine's 2 cores, so they interleave."""
GAMES = 30
"""Games each writer records."""

# Each writer owns one settings field and steps it through values, ending on the
# last; all of them save their settings after every game.
OWNED: list[tuple[str, list[object]]] = [
    ("difficulty", [Difficulty.EASY, Difficulty.HARD]),
    ("mark", [Player.O, Player.X, Player.O]),
    ("coach", [True, False, True]),
    ("theme", ["theme-a", "theme-b", "theme-c"]),
]

WRITER = textwrap.dedent(
    """
    import sys
    from dataclasses import replace
    from datetime import UTC, datetime
    from pathlib import Path
    from ttt_tui.engine import Difficulty, Player
    from ttt_tui.play.results import Result
    from ttt_tui.play.settings import Mode
    from ttt_tui.storage import GameRecord, Store
    from tests.storage.test_shared import OWNED

    data, writer, games = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    field, values = OWNED[writer]
    store = Store(data)
    settings = store.load_settings()
    results = [Result.X_WON, Result.O_WON, Result.DRAW, Result.ABANDONED]
    print("ready", flush=True)
    sys.stdin.readline()  # everyone starts together
    for i in range(games):
        now = datetime.now(UTC)
        store.record_game(GameRecord(
            now, now, Mode.HUMAN_VS_AI, None, list(Difficulty)[i % 3], Player.X,
            (writer, 8), results[(writer + i) % 4], hints_used=writer * 1000 + i,
        ))
        settings = replace(settings, **{field: values[min(i, len(values) - 1)]})
        store.save_settings(settings)
        print(i, flush=True)
    assert store.take_notices() == [], store.take_notices()
    """
)


def run_writers(data: Path, writers: int, games: int) -> list[list[str]]:
    """Start the writers, let them go at once, and return what each acknowledged."""
    root = ROOT
    env = {**os.environ, "PYTHONPATH": str(root)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(data), str(n), str(games)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=root,
            text=True,
        )
        for n in range(writers)
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    acknowledged = []
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        acknowledged.append(out.split())
    return acknowledged


def test_writers_at_once_lose_no_record_no_count_and_no_setting(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Store(data).save_settings(Settings(ai_x_difficulty=Difficulty.HARD))  # nobody's field

    acknowledged = run_writers(data, WRITERS, GAMES)
    assert [len(a) for a in acknowledged] == [GAMES] * WRITERS

    store = Store(data)
    games = store.load_games()
    # Every game of every writer, each once.
    assert sorted(g.hints_used for g in games) == sorted(
        w * 1000 + i for w in range(WRITERS) for i in range(GAMES)
    )
    # Each writer's games in the order it recorded them.
    for w in range(WRITERS):
        own = [g.hints_used - w * 1000 for g in games if g.hints_used // 1000 == w]
        assert own == list(range(GAMES))
    # Every count: the stats file agrees with the records, game for game.
    stats = store.load_stats()
    assert stats == Stats.from_records(games)
    counted = Counter(entry for g in games if (entry := stats_entry(g)) is not None)
    assert sum(row.total for row in stats.rows()) == sum(counted.values()) == 90
    # Every setting: each writer's field has its last value, and the field nobody
    # touched kept the value saved before they started.
    settings = store.load_settings()
    for field, values in OWNED[:WRITERS]:
        assert getattr(settings, field) == values[-1], field
    assert settings.ai_x_difficulty is Difficulty.HARD
    assert store.take_notices() == []
    assert sorted(p.name for p in data.iterdir()) == ["games.jsonl", "settings.json", "stats.json"]


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

    [notice] = store.take_notices()
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


def record(n: int) -> GameRecord:
    now = datetime(2026, 11, 23, tzinfo=UTC)
    return GameRecord(now, now, Mode.TWO_PLAYERS, None, None, None, (0, 4), Result.DRAW, False, n)


def test_a_save_parses_only_the_lines_added_since_this_store_last_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each save used to parse every game ever recorded; now only what others added."""
    mine, other = Store(tmp_path), Store(tmp_path)
    for n in range(20):
        mine.record_game(record(n))
    parsed: list[str] = []
    real = storage_model.parse_games_line

    def counting(line: str) -> GameRecord | datetime:
        parsed.append(line)
        return real(line)

    monkeypatch.setattr("ttt_tui.storage.store.parse_games_line", counting)
    mine.record_game(record(20))
    assert parsed == []  # the file is as this store wrote it
    other.record_game(record(21))
    assert len(parsed) == 21  # a store new to the file reads it all, once
    parsed.clear()
    mine.record_game(record(22))
    assert [json.loads(line)["hints_used"] for line in parsed] == [21]
    # A file changed otherwise than by adding lines is read whole again.
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    (tmp_path / "games.jsonl").write_text("\n".join(lines[1:]) + "\n")
    parsed.clear()
    mine.record_game(record(23))
    assert len(parsed) == 22
    assert [g.hints_used for g in Store(tmp_path).load_games()] == [*range(1, 21), 21, 22, 23]
