"""`ttt-tui games export/import/list`: the records out as JSON lines and back in, the
numbers `review` takes, one clear line and exit status 2 for every bad input, and
signals and a reader gone away met quietly."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.support.terminal import DEADLINE, ROOT, game_command, game_env, run_main, ttt
from tests.test_layers import UI_PACKAGES, modules_loaded
from ttt_tui.commands import games as games_command
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Mode
from ttt_tui.storage import DATABASE_FILE, GAMES_FILE, MIXED, GameRecord, Store

START = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def record(
    minute: int,
    moves: tuple[int, ...] = (4, 0, 8),
    result: Result = Result.ABANDONED,
    n: int = 3,
) -> GameRecord:
    """A two-player game ended at ``minute`` past START (distinct minutes, distinct games)."""
    return GameRecord(
        started=START + timedelta(minutes=minute),
        ended=START + timedelta(minutes=minute, seconds=30),
        mode=Mode.TWO_PLAYERS,
        x_difficulty=None,
        o_difficulty=None,
        human_mark=None,
        moves=moves,
        result=result,
        n=n,
        k=3 if n == 3 else 4,
    )


VS_HARD = GameRecord(
    started=START,
    ended=START + timedelta(minutes=2),
    mode=Mode.HUMAN_VS_AI,
    x_difficulty=None,
    o_difficulty=Difficulty.HARD,
    human_mark=Player.X,
    moves=(4, 0, 8, 2, 5, 1),
    result=Result.O_WON,
    hints_used=1,
    levels=(None, Difficulty.HARD, None, Difficulty.HARD, None, Difficulty.HARD),
)

MIXED_AI = GameRecord(
    started=START + timedelta(hours=1),
    ended=START + timedelta(hours=1, minutes=1),
    mode=Mode.AI_VS_AI,
    x_difficulty=MIXED,
    o_difficulty=Difficulty.EASY,
    human_mark=None,
    moves=(0, 5, 10),
    result=Result.ABANDONED,
    undo_used=True,
    levels=(Difficulty.EASY, Difficulty.EASY, Difficulty.HARD),
    n=4,
    k=4,
)

GAMES = [VS_HARD, record(5, n=5), MIXED_AI, record(7, (0, 3, 1, 4, 2), Result.X_WON), record(8)]
"""Every mode and board, levels and none, oldest first."""


def recorded(data: Path, records: list[GameRecord]) -> None:
    store = Store(data)
    assert store.import_games(records).added == len(records)
    store.close()


def lines(*records: GameRecord) -> str:
    return "".join(r.to_json() + "\n" for r in records)


def test_an_export_imported_elsewhere_exports_the_same(tmp_path: Path) -> None:
    """The backup round trip: every field of every game survives, in order; importing
    it again adds nothing."""
    first, second, backup = tmp_path / "first", tmp_path / "second", tmp_path / "backup.jsonl"
    recorded(first, GAMES)
    exported = run_main("games", "export", str(backup), data=first)
    assert (exported.returncode, exported.stderr) == (0, "")
    assert exported.stdout == f"Exported 5 games to {backup}.\n"
    assert backup.read_text(encoding="utf-8") == lines(*GAMES)
    assert [GameRecord.from_json(line) for line in backup.read_text().splitlines()] == GAMES

    imported = run_main("games", "import", str(backup), data=second)
    assert (imported.returncode, imported.stderr) == (0, "")
    assert imported.stdout == "Added 5 games (0 already recorded).\n"
    assert run_main("games", "export", data=second).stdout == lines(*GAMES)

    again = run_main("games", "import", str(backup), data=second)
    assert (again.returncode, again.stdout) == (0, "Added 0 games (5 already recorded).\n")
    one_new = tmp_path / "one-new.jsonl"
    one_new.write_text(lines(GAMES[0], record(99)), encoding="utf-8")
    mixed = run_main("games", "import", str(one_new), data=second)
    assert mixed.stdout == "Added 1 game (1 already recorded).\n"
    assert run_main("games", "export", "-", data=second).stdout == lines(*GAMES, record(99))


def test_export_by_board(tmp_path: Path) -> None:
    data = tmp_path / "data"
    recorded(data, GAMES)
    by_board = {n: run_main("games", "export", "--board", str(n), data=data) for n in (3, 4, 5)}
    assert by_board[3].stdout == lines(VS_HARD, GAMES[3], GAMES[4])
    assert by_board[4].stdout == lines(MIXED_AI)
    assert by_board[5].stdout == lines(GAMES[1])
    to_file = tmp_path / "four.jsonl"
    told = run_main("games", "export", "--board", "4x4", str(to_file), data=data)
    assert told.stdout == f"Exported 1 4x4 game to {to_file}.\n"
    assert to_file.read_text(encoding="utf-8") == lines(MIXED_AI)


def test_an_old_games_file_is_imported_without_its_resets(tmp_path: Path) -> None:
    """A games.jsonl of before the database: a version-1 line (no board, no levels), a
    stats reset and blank lines; the reset is not a game and is passed over."""
    old = {
        "version": 1,
        "started": START.isoformat(),
        "ended": START.isoformat(),
        "mode": "human_vs_ai",
        "x_difficulty": None,
        "o_difficulty": "hard",
        "human_mark": "X",
        "moves": [4, 0, 8, 2, 5, 1],
        "result": "o_won",
        "undo_used": False,
        "hints_used": 0,
    }
    reset = {"version": 2, "stats_reset": (START + timedelta(minutes=1)).isoformat()}
    source = tmp_path / GAMES_FILE
    source.write_text(
        f"{json.dumps(old)}\n\n{json.dumps(reset)}\r\n{GAMES[3].to_json()}\n", encoding="utf-8"
    )
    data = tmp_path / "data"
    result = run_main("games", "import", str(source), data=data)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "Added 2 games (0 already recorded).\n"
    exported = run_main("games", "export", data=data).stdout.splitlines()
    assert [GameRecord.from_json(line) for line in exported] == [
        GameRecord.from_json(json.dumps(old)),
        GAMES[3],
    ]
    assert json.loads(exported[0])["n"] == 3


def test_a_damaged_file_is_refused_whole(tmp_path: Path) -> None:
    """Each damaged line named, with at most 60 characters of it; nothing imported,
    not even the good lines, and a new data directory not even made."""
    source = tmp_path / "games.jsonl"
    long_line = '{"version": 2, "started": "yesterday", ' + "x" * 80
    source.write_bytes(
        (lines(GAMES[0]) + '{"version": 1, "moves": [\n' + long_line + "\n").encode()
        + b'{"version": 7}\n'
        + b"\xff\xfe not text\n"
        + lines(GAMES[1]).encode()
    )
    data = tmp_path / "data"
    result = run_main("games", "import", str(source), data=data)
    assert (result.returncode, result.stdout) == (2, "")
    refused = result.stderr.splitlines()
    assert refused[0].startswith(f"ttt-tui games: {source} line 2: not valid JSON (")
    assert refused[0].endswith(""": '{"version": 1, "moves": ['""")
    quoted = refused[1].partition("): ")[2]
    assert refused[1].startswith(f"ttt-tui games: {source} line 3: not valid JSON (")
    # At most 60 characters as shown, the quotes and the ellipsis among them.
    assert quoted == repr(long_line[:57] + "…") and len(quoted) == 60
    assert refused[2:] == [
        f"ttt-tui games: {source} line 4: written by a newer ttt-tui (format version 7):"
        """ '{"version": 7}'""",
        f"ttt-tui games: {source} line 5: not UTF-8 text: '\ufffd\ufffd not text'",
        f"ttt-tui games: nothing imported: {source} has 4 damaged lines",
    ]
    assert not data.exists()

    recorded(data, [GAMES[2]])
    again = run_main("games", "import", str(source), data=data)
    assert again.returncode == 2
    assert run_main("games", "export", data=data).stdout == lines(GAMES[2])


def test_after_ten_damaged_lines_the_rest_are_counted(tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("".join(f"note {i}\n" for i in range(1, 15)), encoding="utf-8")
    result = run_main("games", "import", str(source), data=tmp_path / "data")
    assert result.returncode == 2
    told = result.stderr.splitlines()
    assert len(told) == 12
    assert told[9].startswith(f"ttt-tui games: {source} line 10: not valid JSON")
    assert told[9].endswith(": 'note 10'")
    assert told[10:] == [
        "ttt-tui games: and 4 more damaged lines",
        f"ttt-tui games: nothing imported: {source} has 14 damaged lines",
    ]


def test_list_shows_the_newest_with_the_numbers_review_takes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    recorded(data, GAMES)
    listed = run_main("games", "list", data=data)
    assert (listed.returncode, listed.stderr) == (0, "")
    shown = listed.stdout.splitlines()
    assert [int(line.split()[0]) for line in shown] == [5, 4, 3, 2, 1]
    when = VS_HARD.ended.astimezone().strftime("%Y-%m-%d %H:%M")
    assert shown[-1] == f"   1  {when}  3x3  You (X) vs Hard   O won, 6 moves"
    assert "  4x4  Mixed vs Easy " in shown[2] and shown[2].endswith("abandoned, 3 moves")
    assert "  5x5  2 players " in shown[3]

    limited = run_main("games", "list", "--limit", "2", data=data).stdout.splitlines()
    assert limited == shown[:2]
    for line in shown:
        number = line.split()[0]
        review = json.loads(run_main("review", "--json", number, data=data).stdout)
        assert [move["cell"] for move in review["moves"]] == list(GAMES[int(number) - 1].moves)


def test_reads_of_no_data_create_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    listed = run_main("games", "list", data=data)
    assert (listed.returncode, listed.stdout) == (0, f"No games recorded yet in {data}.\n")
    exported = run_main("games", "export", data=data)
    assert (exported.returncode, exported.stdout, exported.stderr) == (0, "", "")
    assert not data.exists()


def test_a_games_file_in_the_data_directory_is_carried_over_first(tmp_path: Path) -> None:
    """The store's migration, said on stderr, and the list goes on with the games."""
    data = tmp_path / "data"
    data.mkdir()
    (data / GAMES_FILE).write_text(lines(GAMES[0], GAMES[1]), encoding="utf-8")
    listed = run_main("games", "list", data=data)
    assert listed.returncode == 0
    assert [line.split()[0] for line in listed.stdout.splitlines()] == ["2", "1"]
    notice = listed.stderr.splitlines()
    assert len(notice) == 1 and notice[0].startswith("ttt-tui: ") and GAMES_FILE in notice[0]
    assert not (data / GAMES_FILE).exists()


def damage(data: Path, number: int) -> None:
    """Make game ``number``'s record one this ttt-tui cannot read (a newer format's)."""
    with contextlib.closing(sqlite3.connect(data / DATABASE_FILE)) as db:
        db.execute("UPDATE games SET record = ? WHERE id = ?", ('{"version": 3}', number))
        db.commit()


def test_a_record_that_cannot_be_read_is_named_and_the_others_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    recorded(data, GAMES[:3])
    damage(data, 2)
    exported = run_main("games", "export", data=data)
    assert exported.returncode == 2
    assert exported.stdout == lines(GAMES[0], GAMES[2])
    assert exported.stderr == (
        "ttt-tui games: game 2 cannot be read (version 3 is newer than 2); left out\n"
    )
    listed = run_main("games", "list", data=data)
    assert listed.returncode == 0
    assert listed.stdout.splitlines()[1] == "   2  cannot be read (version 3 is newer than 2)"
    assert len(listed.stdout.splitlines()) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("import", "{dir}/missing.jsonl"), "{dir}/missing.jsonl: no such file"),
        (("import", "{dir}"), "{dir} is a directory, not a file of games"),
        (("import", "{dir}/empty.jsonl"), "no games in {dir}/empty.jsonl"),
        (("import", "{dir}/resets.jsonl"), "no games in {dir}/resets.jsonl"),
        (
            ("import", "{dir}/picture.png"),
            "{dir}/picture.png is not a file of games: line 3 holds binary data",
        ),
        (("export", "{dir}"), "{dir} is a directory: give a file name to export to"),
        (
            ("export", "{dir}/no/such/folder.jsonl"),
            "cannot write {dir}/no/such/folder.jsonl: No such file or directory",
        ),
    ],
    ids=["missing", "directory", "empty", "only-resets", "binary", "export-dir", "export-nowhere"],
)
def test_a_bad_file_is_one_line_and_status_2(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    (tmp_path / "empty.jsonl").write_bytes(b"\n \n")
    reset = {"version": 2, "stats_reset": START.isoformat()}
    (tmp_path / "resets.jsonl").write_text(json.dumps(reset) + "\n", encoding="utf-8")
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    data = tmp_path / "data"
    recorded(data, [GAMES[0]])
    result = run_main("games", *(arg.format(dir=tmp_path) for arg in args), data=data)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"ttt-tui games: {message.format(dir=tmp_path)}\n"
    assert run_main("games", "export", data=data).stdout == lines(GAMES[0])
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ("list", "--limit", "0"),
            "argument --limit: expected a number of games (1 or more), got 0",
        ),
        (
            ("list", "--limit", "all"),
            "argument --limit: expected a number of games (1 or more), got 'all'",
        ),
        (("export", "--board", "7"), "argument --board: expected one of 3, 4, 5, got '7'"),
        (("import",), "the following arguments are required: FILE"),
        ((), "the following arguments are required: ACTION"),
    ],
)
def test_a_bad_argument_is_a_usage_error(tmp_path: Path, args: tuple[str, ...], error: str) -> None:
    result = run_main("games", *args, data=tmp_path / "data")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("usage: ttt-tui games")
    assert result.stderr.splitlines()[-1].endswith(f" error: {error}")
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("action", ["list", "export", "import"])
def test_a_data_directory_that_is_a_file(tmp_path: Path, action: str) -> None:
    backup = tmp_path / "backup.jsonl"
    backup.write_text(lines(GAMES[0]), encoding="utf-8")
    data = tmp_path / "data"
    data.write_text("not a directory\n", encoding="utf-8")
    args = ("import", str(backup)) if action == "import" else (action,)
    result = run_main("games", *args, data=data)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"ttt-tui games: the data directory {data} is not a directory\n"


def test_a_database_of_a_newer_ttt_tui_is_left_untouched(tmp_path: Path) -> None:
    data = tmp_path / "data"
    recorded(data, [GAMES[0]])
    with contextlib.closing(sqlite3.connect(data / DATABASE_FILE)) as db:
        db.execute("PRAGMA user_version = 99")
    before = (data / DATABASE_FILE).read_bytes()
    backup = tmp_path / "backup.jsonl"
    backup.write_text(lines(GAMES[1]), encoding="utf-8")
    for args in (("games", "import", str(backup)), ("games", "list"), ("review",)):
        result = run_main(*args, data=data)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr.splitlines() == [
            f"ttt-tui: {DATABASE_FILE} was written by a newer ttt-tui (schema version 99);"
            " left it untouched. Games and stats are not saved this session."
        ]
    assert (data / DATABASE_FILE).read_bytes() == before


def test_a_damaged_database_is_set_aside_and_the_command_goes_on(tmp_path: Path) -> None:
    """Not a database at all: the store sets it aside and says so, on stderr; the list
    goes on with what could be read (nothing), and an import then works."""
    data = tmp_path / "data"
    data.mkdir()
    (data / DATABASE_FILE).write_bytes(b"these bytes are not SQLite's " * 200)
    listed = run_main("games", "list", data=data)
    assert (listed.returncode, listed.stdout) == (0, f"No games recorded yet in {data}.\n")
    notice = listed.stderr.splitlines()
    assert len(notice) == 1 and notice[0].startswith(f"ttt-tui: {DATABASE_FILE} was damaged")
    aside = [path.name for path in data.iterdir() if ".corrupt-" in path.name]
    assert len(aside) == 1 and aside[0] in notice[0]
    backup = tmp_path / "backup.jsonl"
    backup.write_text(lines(GAMES[0]), encoding="utf-8")
    assert run_main("games", "import", str(backup), data=data).returncode == 0
    assert run_main("games", "export", data=data).stdout == lines(GAMES[0])


def test_a_database_held_by_another_ttt_tui(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the database's write lock for longer than a command waits:
    one line, status 2, nothing imported; once it lets go, the same import works."""
    monkeypatch.setattr(games_command, "LOCK_SECONDS", 0.1)
    data, backup = tmp_path / "data", tmp_path / "backup.jsonl"
    recorded(data, [GAMES[0]])
    backup.write_text(lines(GAMES[1]), encoding="utf-8")
    with contextlib.closing(sqlite3.connect(data / DATABASE_FILE, isolation_level=None)) as db:
        db.execute("BEGIN IMMEDIATE")
        held = run_main("games", "import", str(backup), data=data)
        db.execute("ROLLBACK")
    assert (held.returncode, held.stdout) == (2, "")
    assert held.stderr == (
        f"ttt-tui games: another ttt-tui has held {data} for more than 0.1 s; nothing was"
        " done: try again when it has finished\n"
    )
    free = run_main("games", "import", str(backup), data=data)
    assert free.stdout == "Added 1 game (0 already recorded).\n"


def test_an_interrupted_export_to_a_file_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C in the middle: the file is as it was (absent, or the last backup), no
    temporary file is left beside it, and the status is 130."""
    data = tmp_path / "data"
    recorded(data, GAMES)

    def two_then_interrupted(*args: object) -> Iterator[GameRecord]:
        yield from GAMES[:2]
        raise KeyboardInterrupt

    monkeypatch.setattr(games_command, "each_game", two_then_interrupted)
    target = tmp_path / "backup.jsonl"
    for before in (None, lines(GAMES[0])):
        if before is not None:
            target.write_text(before, encoding="utf-8")
        result = run_main("games", "export", str(target), data=data)
        assert (result.returncode, result.stdout) == (130, "")
        assert result.stderr == f"ttt-tui games: interrupted: {target} was not written\n"
        assert sorted(path.name for path in tmp_path.iterdir()) == (
            ["data"] if before is None else ["backup.jsonl", "data"]
        )
        assert before is None or target.read_text(encoding="utf-8") == before


# Real processes: no UI loaded, stdin, signals, a reader gone away ----------------


def test_games_and_review_load_no_ui(tmp_path: Path) -> None:
    """Light commands stay light: neither Textual nor Rich is imported to list, export,
    import or review recorded games."""
    data, backup = tmp_path / "data", tmp_path / "backup.jsonl"
    backup.write_text(lines(GAMES[0]), encoding="utf-8")
    body = (
        "import contextlib, io, os\n"
        f"os.environ['TTT_TUI_DATA_DIR'] = {str(data)!r}\n"
        "from ttt_tui.__main__ import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    assert main(['games', 'import', {str(backup)!r}]) == 0\n"
        "    assert main(['games', 'list']) == 0\n"
        "    assert main(['games', 'export']) == 0\n"
        "    assert main(['review', '1']) == 0\n"
        "assert 'You (X) vs Hard' in out.getvalue() and 'O won' in out.getvalue()\n"
    )
    assert modules_loaded(body, UI_PACKAGES) == []


def test_import_from_stdin(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = ttt("games", "import", "-", data=data, stdin=lines(*GAMES[:2]))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "Added 2 games (0 already recorded).\n"
    assert run_main("games", "export", data=data).stdout == lines(*GAMES[:2])


def many_games(data: Path, count: int = 600) -> None:
    """More games than a pipe holds as JSON lines (about 240 bytes each)."""
    recorded(data, [record(minute) for minute in range(count)])


def test_sigint_while_an_import_reads_writes_nothing(tmp_path: Path) -> None:
    """The file is a pipe the test holds open: once the command has it open (its
    signal handling in place), Ctrl+C ends it with 130 and one line, nothing written."""
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    data = tmp_path / "data"
    process = subprocess.Popen(
        game_command("games", "import", str(fifo)),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=game_env(data),
    )
    try:
        writer = None
        deadline = time.monotonic() + DEADLINE
        while writer is None:
            try:  # refused until the command opens its end
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.01)
        os.write(writer, lines(*GAMES[:2]).encode())
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=DEADLINE)
        os.close(writer)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130
    assert (out, err) == (b"", b"ttt-tui games: interrupted: nothing was imported\n")
    assert not data.exists()


@pytest.mark.parametrize(
    ("signum", "status"),
    # SIGINT's way out is the import's too, tested above; here in the long run only.
    [(signal.SIGTERM, 143), pytest.param(signal.SIGINT, 130, marks=pytest.mark.long)],
    ids=["SIGTERM", "SIGINT"],
)
def test_a_signal_while_an_export_writes(tmp_path: Path, signum: int, status: int) -> None:
    """The export waits on a full pipe; a signal ends it at once, quietly."""
    data = tmp_path / "data"
    many_games(data)
    process = subprocess.Popen(
        game_command("games", "export"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=game_env(data),
    )
    try:
        assert process.stdout is not None
        first = os.read(process.stdout.fileno(), 4096)
        assert first.startswith(lines(record(0)).encode())
        process.send_signal(signum)
        out, err = process.communicate(timeout=DEADLINE)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == status
    assert err == b""
    assert (first + out).count(b"\n") < 600  # stopped before the end


def test_a_reader_that_goes_away(tmp_path: Path) -> None:
    """``ttt-tui games export | head -1``: no traceback, status 0."""
    data = tmp_path / "data"
    many_games(data)
    process = subprocess.Popen(
        game_command("games", "export"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=game_env(data),
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()
        err = process.stderr.read()
        status = process.wait(timeout=DEADLINE)
    finally:
        process.kill()
        process.wait()
    assert first == lines(record(0)).encode()
    assert (status, err) == (0, b"")
