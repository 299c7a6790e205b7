"""An unexpected exception, forced: is the terminal restored, does the person see one short
message naming a crash report, and does that report hold the traceback and the game's moves?

The real check runs `ttt-tui` in a pseudo-terminal, exactly as a person would, with a move
chooser that raises; the in-process Pilot checks cover where the report goes when the data
directory is no use, and what is said when no report can be written at all.
"""

from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support import SIZE, make_app
from tests.support.terminal import Terminal, game_env, visible
from ttt_tui.__main__ import build_parser
from ttt_tui.app import TicTacToeApp
from ttt_tui.commands.play import main as play
from ttt_tui.engine import Board, CancelCheck, Cell, Difficulty
from ttt_tui.storage import Store, crash

DEADLINE = 20.0
"""Seconds a session may take before the test fails instead of hanging."""
FAILURE = "forced failure"
MESSAGE = (
    "ttt-tui hit an unexpected error and closed. A crash report with the details"
    " and your game's moves is in {path} (please attach it to a bug report)."
)
"""What the person reads after a crash, with the report's path."""
REPORT_NAME = re.compile(r"ttt-tui-crash-\d{8}T\d{12}Z\.txt")

CHILD = f"""
import sys

import ttt_tui.app as app_module
from ttt_tui.__main__ import main
from ttt_tui.search.client import ThreadSearcher


def fail(board, difficulty, rng, cancelled=None):
    raise RuntimeError({FAILURE!r})


real_app = app_module.TicTacToeApp
app_module.TicTacToeApp = lambda **options: real_app(**options, searcher=ThreadSearcher(fail))
sys.exit(main(sys.argv[1:]))
"""
"""`ttt-tui ARGS`, through the real `main()`, with a computer whose first move raises."""


MODES = {
    "alternate screen": (b"\x1b[?1049h", b"\x1b[?1049l"),
    "mouse clicks": (b"\x1b[?1000h", b"\x1b[?1000l"),
    "mouse motion": (b"\x1b[?1003h", b"\x1b[?1003l"),
    "urxvt mouse": (b"\x1b[?1015h", b"\x1b[?1015l"),
    "SGR mouse": (b"\x1b[?1006h", b"\x1b[?1006l"),
    "hidden cursor": (b"\x1b[?25l", b"\x1b[?25h"),
    "bracketed paste": (b"\x1b[?2004h", b"\x1b[?2004l"),
    "focus events": (b"\x1b[?1004h", b"\x1b[?1004l"),
    "kitty keyboard": (b"\x1b[>", b"\x1b[<u"),
}
"""Each terminal mode Textual turns on (`LinuxDriver.start_application_mode`) and what
turns it off again (`stop_application_mode`, `_disable_mouse_support`)."""


def fail(board: Board, difficulty: Difficulty, rng: Any, cancelled: CancelCheck | None) -> Cell:
    """A move chooser with a bug in it."""
    raise RuntimeError(FAILURE)


# In a real terminal ------------------------------------------------------------------------


@dataclass
class Session:
    """A run of `ttt-tui` in a pseudo-terminal."""

    status: int
    """The exit status."""
    output: bytes
    """Everything written to the terminal, escape sequences and all."""
    modes_before: list[Any]
    """The terminal's termios settings before the run."""
    modes_after: list[Any]
    """The terminal's termios settings after the run."""


def play_until_crash(
    env: dict[str, str], *args: str, columns: int, told: str = "Your move"
) -> Session:
    """Start the game in a pty, press 5 once it asks for a move and shows ``told``, and
    wait until it exits."""
    command = [sys.executable, "-c", CHILD, *args]
    with Terminal(command, env, (columns, 30), keep=None) as terminal:
        asked = terminal.wait_for(
            lambda lines: all(words in "\n".join(lines) for words in ("Your move", told)),
            DEADLINE,
        )
        assert asked, f"the game never asked for a move and said {told!r}: {terminal.text()!r}"
        terminal.write(b"5")
        status = terminal.wait_exit(DEADLINE)
        if status is None:
            pytest.fail(f"still running after {DEADLINE}s: {terminal.text()!r}")
        terminal.reader.join(2)
        return Session(status, terminal.output(), terminal.modes_before, terminal.modes())


def only_report(directory: Path) -> Path:
    """The one crash report in ``directory``."""
    reports = [p for p in directory.iterdir() if REPORT_NAME.fullmatch(p.name)]
    assert len(reports) == 1, sorted(p.name for p in directory.iterdir())
    return reports[0]


def assert_report_replays_the_game(report: Path) -> None:
    """The report holds the traceback, the seed and the moves, enough to replay the game."""
    text = report.read_text(encoding="utf-8")
    assert text.startswith("ttt-tui ")
    assert "Traceback (most recent call last):" in text
    assert f"RuntimeError: {FAILURE}" in text
    lines = text.splitlines()
    for line in [
        "seed: 7",
        "mode: human_vs_ai",
        "human: X",
        "moves: 4",
        "moves read as: X b2",
        "levels: person",
    ]:
        assert line in lines, line
    assert "board: ....X...." in lines


PLACES = {
    # The data directory works: the report goes there.
    "data-dir": ([], False, "data"),
    # A regular file where the data directory should be: the temp directory instead.
    "data-dir-is-a-file": ([], True, "tmp"),
    # --no-save: there is no data directory, so the temp directory.
    "no-save": (["--no-save"], False, "tmp"),
}


@pytest.mark.parametrize(("args", "occupied", "place"), PLACES.values(), ids=PLACES.keys())
def test_crash_in_a_real_terminal(
    tmp_path: Path, args: list[str], occupied: bool, place: str
) -> None:
    """Status 1; the terminal as it was; then one message naming a report that replays."""
    data, temp = tmp_path / "data", tmp_path / "tmp"
    temp.mkdir()
    if occupied:
        data.write_bytes(b"not a directory")
    env = game_env(data, TMPDIR=str(temp))
    # Where the data directory is a file, the game says so once it has tried it, after
    # its first frame. The crash waits for that: had the game gone first, that notice
    # would be said as it ended, after the crash's message.
    told = "Could not create" if occupied else "Your move"
    session = play_until_crash(env, "--seed", "7", "--ai-delay", "0", *args, columns=200, told=told)

    assert session.status == 1

    # 1. The terminal is restored: its line settings, and every mode Textual turned on.
    assert session.modes_after == session.modes_before
    out = session.output
    for mode, (on, off) in MODES.items():
        assert out.rfind(off) > out.rfind(on) >= 0, mode

    # 2. After leaving the full-screen app, one short message naming the report, no traceback.
    report = only_report(tmp_path / place)
    after = visible(out.rsplit(MODES["alternate screen"][1], 1)[1])
    assert " ".join(after.split()) == MESSAGE.format(path=report)
    assert len(after.strip().splitlines()) <= 3
    assert "Traceback" not in visible(out)

    # 3. The report holds the traceback and the game's moves.
    assert_report_replays_the_game(report)
    if occupied:
        assert data.read_bytes() == b"not a directory"
    if place == "tmp":
        assert not data.is_dir() or not any(data.iterdir())


def test_crash_message_keeps_the_report_path_in_one_piece(tmp_path: Path) -> None:
    """In a narrow terminal the path is still written unbroken; the terminal may wrap it."""
    data, temp = tmp_path / "data", tmp_path / "tmp"
    temp.mkdir()
    env = game_env(data, TMPDIR=str(temp))
    session = play_until_crash(env, "--seed", "7", "--ai-delay", "0", columns=60)
    assert session.status == 1
    report = only_report(data)
    assert len(str(report)) > 60
    assert str(report) in visible(session.output.rsplit(b"\x1b[?1049l", 1)[1])


# In process, with Pilot --------------------------------------------------------------------


async def crash_with_pilot(app: TicTacToeApp) -> None:
    """Run the app, press 5 and let the computer's failure end it; Pilot re-raises it."""
    with pytest.raises(RuntimeError, match=FAILURE):
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.is_running
            await pilot.press("5")
            for _ in range(50):
                if not app.is_running:
                    break
                await pilot.pause(0.02)
    assert not app.is_running
    assert app.return_code == 1


def squash(text: str) -> str:
    """``text`` without whitespace: the headless console wraps at 80 columns, paths and all."""
    return "".join(text.split())


def shown(app: TicTacToeApp, capfd: pytest.CaptureFixture[str]) -> str:
    """What is printed once the app has stopped: nothing by the app itself (no
    traceback), then its crash message, which the command prints
    (`test_the_command_prints_the_crash_message`)."""
    captured = capfd.readouterr()
    assert captured.out + captured.err == ""
    return app.crash_message


async def test_crash_with_pilot(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """The same failure in process: report in the store's directory, status 1, one message."""
    data = tmp_path / "data"
    app = make_app(fail, store=Store(data))
    await crash_with_pilot(app)

    assert app.crash_report is not None
    assert app.crash_report.parent == data
    assert only_report(data) == app.crash_report
    assert_report_replays_the_game(app.crash_report)
    printed = shown(app, capfd)
    assert squash(printed) == squash(MESSAGE.format(path=app.crash_report))
    assert "Traceback" not in printed


async def test_crash_with_the_data_dir_unwritable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """A data directory that refuses new files: the report goes to the temp directory."""
    data, temp = tmp_path / "data", tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    real_open = open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> Any:
        # Tests run as root, for whom chmod blocks nothing: refuse as a read-only disk would.
        if Path(path).parent == data:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(crash, "open", refuse, raising=False)
    app = make_app(fail, store=Store(data))
    await crash_with_pilot(app)

    assert app.crash_report is not None
    assert app.crash_report.parent == temp
    assert only_report(temp) == app.crash_report
    assert not list(data.glob("ttt-tui-crash-*"))
    assert_report_replays_the_game(app.crash_report)
    printed = shown(app, capfd)
    assert squash(printed) == squash(MESSAGE.format(path=app.crash_report))


async def test_crash_with_nowhere_to_write_a_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Saving off and no usable temp directory: the message still says what went wrong."""
    blocked = tmp_path / "tmp"
    blocked.write_bytes(b"a file, so nothing can be created under it")
    app = make_app(fail, store=Store(enabled=False))
    # Undone before teardown: pytest's own capture needs a temp directory then.
    with monkeypatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(blocked))
        await crash_with_pilot(app)

    assert app.crash_report is None
    printed = shown(app, capfd)
    assert squash(printed) == (
        squash(
            f"ttt-tui hit an unexpected error and closed (RuntimeError: {FAILURE})."
            " No crash report could be written."
        )
    )
    assert "Traceback" not in printed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tmp"]


def test_the_command_prints_the_crash_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Once the app has gone and the terminal is back, the message, as it is, alone."""
    message = "ttt-tui hit an unexpected error and closed. A crash report [...] is in /x/y."

    def crash_run(self: TicTacToeApp, *args: Any, **kwargs: Any) -> None:
        self.crash_message = message

    monkeypatch.setattr(TicTacToeApp, "run", crash_run)
    monkeypatch.setattr("ttt_tui.commands.play.terminal_problem", lambda: None)
    play(build_parser().parse_args([]))
    assert capsys.readouterr().err == message + "\n"


async def test_a_quit_queued_behind_a_crash_keeps_exit_status_1(tmp_path: Path) -> None:
    """A crash, then a quit that was already on its way (``5`` and ``q`` in one read):
    the quit's exit set the status back to 0, so a crashed run reported success."""
    app = make_app(fail, store=Store(tmp_path / "data"))
    with pytest.raises(RuntimeError, match=FAILURE):
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("5")
            for _ in range(50):
                if app.crash_report is not None:
                    break
                await pilot.pause(0.02)
            app.exit()
    assert app.crash_report is not None
    assert app.return_code == 1
