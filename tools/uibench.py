"""Benchmark the game's interface against a bare Textual app, in one run.

`tools.feltbench` (``python -m tools.bench --ui``) runs it first. It starts
the real game (``python -m ttt_tui``, a fresh data directory each time) and the
bare app (`tools.bare_app`: Header, Footer, one Static) in 80x24
pseudo-terminals, drives both with the bytes a terminal sends for keys, and
reads what they draw through a terminal emulator (pyte). The two apps take
turns: their launches alternate in order from run to run, and within a run
each key goes to one app and then the same kind of key to the other, so a
change in the machine's load touches both.

It measures, for each app:

- **start to first full frame**: from starting the process to the screen
  showing the whole first view (the game: the header, the nine squares with the
  cursor, the status and the footer; the bare app: its title, text and footer),
  in wall time and in CPU time of the app's process group (/proc, Linux);
- **key to screen**: from writing a key to reading the output that completes
  the frame showing its effect (the time the bytes were read, before the
  emulator parsed them), for cursor moves (arrows) and for plays (a digit on an
  empty square);
- **CPU per key**: the app's CPU time from just before each key to the end of
  the output it caused, summed over the keys and divided by their number.

Plays are made in the game's default mode, You vs AI, at Hard with
``--ai-delay 0`` (``--ai-delay`` sets another): "key to own mark" stops at the
frame showing the key's own mark, and the computer's reply is measured
separately, from the same key to the frame showing the reply, the delay
included. With no delay the two may share a frame. CPU per play includes the
reply, as a person pays for it; starting a new game after one ends is not
counted. The bare app has no computer, so the reply rows have no baseline.

``--renders`` adds one more launch of the game through
`tools.launch`, which counts every widget's ``render()`` call and
every square the board draws, and reports the renders caused by a cursor move,
by each play and by each reply (the computer waits `RENDERS_AI_DELAY` so that
the two are drawn, and counted, apart).

Timings are what this machine did in this run: only the ratios compare like
with like.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import platform
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tools.bare_app import INITIAL_TEXT, TITLE, text_for
from tools.launch import RENDERS_ENV
from tools.report import format_time, markdown_table, plural
from ttt_tui.engine import Board

if TYPE_CHECKING:
    import pyte

Seconds = float
"""A duration in seconds."""
Lines = Sequence[str]
"""What the terminal shows, one string a row."""

SIZE = (80, 24)
"""Columns and rows of both terminals: the common default window."""
START_TIMEOUT = 30.0
"""Seconds an app may take to draw its first full frame on a busy machine."""
KEY_TIMEOUT = 10.0
"""Seconds an app may take to show what a key did."""
QUIET = 0.05
"""Seconds without output after which an app counts as done with a key."""
SETTLE_LIMIT = 2.0
"""Most seconds to wait for an app to fall quiet."""
START_SETTLE = 0.2
"""Seconds without output after a start before the next step: start-up work
that draws nothing (loading files, say) should not overlap the next launch."""

DEFAULT_RUNS = 4
"""Launches of each app unless told otherwise."""
DEFAULT_KEYS = 20
"""Cursor moves and plays per launch unless told otherwise."""
QUICK_RUNS, QUICK_KEYS = 1, 3
"""``--quick``: enough to exercise every path, for tests."""

GOALS = (
    ("cursor move, key to screen, median", "cursor_median", 1.5),
    ("CPU per cursor move", "cursor_cpu", 2.0),
    ("start to first full frame, CPU, median", "start_cpu_median", 1.3),
)
"""Issue 9's goals: (what, figure, the most ttt-tui may take as a multiple of bare)."""

GAME_TITLE = "ttt-tui"
"""Text in the game's header."""
GAME_STATUS = "Your move"
"""The status line of a game waiting for the person's first move."""
FOOTER_QUIT = "Quit"
"""Both apps' footers show the quit key."""

UP, DOWN, RIGHT, LEFT = b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D"
CURSOR_CYCLE = (
    (RIGHT, 1),
    (LEFT, -1),
    (DOWN, 3),
    (UP, -3),
    (LEFT, -1),
    (RIGHT, 1),
    (UP, -3),
    (DOWN, 3),
)
"""Arrow keys and the square each moves the cursor by, from the centre back to it:
every key moves the cursor, none runs into an edge."""
PLAY_ORDER = (5, 1, 9, 3, 7, 2, 8, 4, 6)
"""The squares the benchmark plays, the first empty one each time."""
CURSOR_MARK = re.compile(r"▶ ?([1-9]) ?◀")
"""The game's cursor on an empty square: its number between pointers."""
LONE_DIGIT = re.compile(r"(?<!\S)([1-9])(?!\S)")
"""A square's number on the board, standing alone."""


class BenchError(Exception):
    """An app did not start, did not answer a key, or exited."""


# Child processes -------------------------------------------------------------


def package_root() -> str:
    """The top of this clone, holding ``ttt_tui`` and ``tools``, for the children's path."""
    return str(Path(__file__).resolve().parents[1])


DROPPED_ENV = (
    "NO_COLOR",
    "FORCE_COLOR",
    "COLORTERM",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "COLUMNS",
    "LINES",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
    "ESCDELAY",
    "PYTHONDONTWRITEBYTECODE",
)
"""Variables Rich or Textual read that would change colours, size or key timing
(as in the tests' conftest); every ``TEXTUAL_*`` one goes too. And one that
would make every start compile the game from source, which an installed game
never does: the first, uncounted launch of each app writes the bytecode."""


def child_env(data_dir: Path) -> dict[str, str]:
    """The children's environment: this checkout, a plain xterm, a fresh data directory.

    The caller's colour, size and key-timing settings go, so they cannot change a figure.
    """
    env = {
        k: v for k, v in os.environ.items() if k not in DROPPED_ENV and not k.startswith("TEXTUAL")
    }
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root(), env.get("PYTHONPATH")) if p)
    env["TERM"] = "xterm-256color"
    env["TTT_TUI_DATA_DIR"] = str(data_dir)
    return env


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
"""The unit of the CPU times in /proc/PID/stat."""


def stat_fields(pid: int | str) -> list[bytes]:
    """The fields of /proc/PID/stat after the command's name, which may hold spaces:
    ``[0]`` is the state (field 3), ``[1]`` the parent, ``[3]`` the session and
    ``[11:15]`` utime, stime, cutime and cstime. Raises `OSError` once it has gone."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        data = stat.read()
    return data[data.rindex(b")") + 2 :].split()


def processes() -> Iterator[tuple[int, list[bytes]]]:
    """Each running process's id and `stat_fields`, but for those gone as they are read."""
    with os.scandir("/proc") as entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                fields = stat_fields(entry.name)
            except OSError:  # the process has gone
                continue
            yield int(entry.name), fields


def session_cpu(session: int) -> Seconds:
    """User and system CPU time of every process in ``session``, and of its reaped children.

    The app is started as a session leader, so this covers any process it starts
    (a search worker, say) as well as its threads, live or ended.
    """
    ticks = sum(
        sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        for _pid, fields in processes()
        if int(fields[3]) == session
    )
    return ticks / CLOCK_TICKS


def cpu_time_available() -> bool:
    """Whether this system has /proc with CPU times (Linux)."""
    return Path(f"/proc/{os.getpid()}/stat").exists()


def set_window_size(fd: int, size: tuple[int, int]) -> None:
    columns, rows = size
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class Terminal:
    """A command in a pseudo-terminal, with an emulator keeping its screen.

    Nothing reads in the background: output is read, and timed, only while the
    benchmark waits for a frame, so the time a frame is seen is the time its last
    byte was read, not when a thread got round to it.
    """

    def __init__(self, name: str, command: Sequence[str], env: dict[str, str], cwd: Path) -> None:
        try:
            import pyte
        except ImportError:  # pragma: no cover - pyte comes with the test extras
            raise BenchError(
                "the UI benchmark reads the screen with pyte: pip install -e '.[test]'"
            ) from None
        self.name = name
        """The app's name in messages."""
        self.screen: pyte.Screen = pyte.Screen(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.master, slave = os.openpty()
        set_window_size(slave, SIZE)
        self.started = time.perf_counter()
        """When the process was started."""
        try:
            self.proc = subprocess.Popen(
                list(command),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                cwd=cwd,
                start_new_session=True,
            )
        finally:
            os.close(slave)
        os.set_blocking(self.master, False)

    def lines(self) -> list[str]:
        """What the terminal shows now."""
        return list(self.screen.display)

    def read(self, timeout: Seconds) -> Seconds | None:
        """Wait up to ``timeout`` for output and feed it to the screen; when it was read."""
        if not select.select([self.master], [], [], max(timeout, 0.0))[0]:
            return None
        try:
            data = os.read(self.master, 1 << 16)
        except BlockingIOError:
            return None
        except OSError:  # EIO: the app has closed the terminal
            data = b""
        if not data:
            raise BenchError(f"{self.name} exited (status {self.proc.poll()})")
        seen = time.perf_counter()
        self.stream.feed(data)
        return seen

    def drain(self) -> None:
        """Take in whatever output is waiting, without waiting for more."""
        while self.read(0.0) is not None:
            pass

    def wait_for(self, test: Callable[[Lines], bool], what: str, timeout: Seconds) -> Seconds:
        """The time output was read that made the screen pass ``test``."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise BenchError(
                    f"{self.name} did not show {what} within {timeout:.0f} s; the screen:\n"
                    + "\n".join(self.lines())
                )
            seen = self.read(min(left, 0.1))
            if seen is not None and test(self.screen.display):
                return seen

    def settle(self, quiet: Seconds = QUIET, limit: Seconds = SETTLE_LIMIT) -> None:
        """Read until the app has written nothing for ``quiet`` seconds, or for ``limit``
        seconds in all."""
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline and self.read(quiet) is not None:
            pass

    def press(self, key: bytes) -> Seconds:
        """Write ``key`` as a terminal would; when it was written."""
        self.drain()
        written = time.perf_counter()
        os.write(self.master, key)
        return written

    def cpu(self) -> Seconds:
        """CPU time used so far by the app and anything it started."""
        return session_cpu(self.proc.pid)

    def close(self) -> None:
        """Quit with ``q``; kill the process group if that does not end it."""
        with contextlib.suppress(OSError):
            os.write(self.master, b"q")
            deadline = time.perf_counter() + 5
            while self.proc.poll() is None and time.perf_counter() < deadline:
                with contextlib.suppress(BenchError):
                    self.read(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)
        os.close(self.master)


# The two apps ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """What one play key did and cost."""

    square: int
    """The square played, 1-9."""
    answer: int | None
    """The square the computer answered on; None without a reply."""
    own: Seconds
    """Key to the frame showing the key's own effect."""
    reply: Seconds | None
    """Key to the frame showing the computer's reply; None without one."""


class Subject:
    """An app under test: how to start it, what its screens look like, which keys to send."""

    name = ""
    """Its name in the table."""

    def __init__(self) -> None:
        self.cursor = 5
        """The square under the cursor."""
        self.moves = 0
        """Cursor moves sent in this launch."""

    def command(self, seed: int) -> list[str]:
        """How to start it."""
        raise NotImplementedError

    def first_frame(self, lines: Lines) -> bool:
        """Whether ``lines`` show the whole first view."""
        raise NotImplementedError

    def first_web_frame(self, lines: Lines) -> bool:
        """Whether ``lines``, drawn in a browser tab, show the whole first view."""
        return self.first_frame(lines)

    def started(self, terminal: Terminal) -> None:
        """Learn what it needs from the first frame, in a new launch."""
        self.cursor, self.moves = 5, 0

    def cursor_key(self) -> tuple[bytes, Callable[[Lines], bool]]:
        """The next arrow key, and the test for the frame showing the cursor moved."""
        raise NotImplementedError

    def play(self, terminal: Terminal) -> Play:
        """Play a square; how long until the screen showed it (and any reply)."""
        raise NotImplementedError

    def between_plays(self, terminal: Terminal) -> None:
        """Get ready for the next play (a new game, if this one is over); not timed."""

    def _next_arrow(self) -> tuple[bytes, int]:
        key, step = CURSOR_CYCLE[self.moves % len(CURSOR_CYCLE)]
        self.moves += 1
        self.cursor += step
        return key, self.cursor


class BareSubject(Subject):
    """The bare Textual app: every key rewrites its one Static, numbered."""

    name = "bare Textual"

    def __init__(self) -> None:
        super().__init__()
        self.keys = 0

    def command(self, seed: int) -> list[str]:
        return [sys.executable, "-m", "tools.bare_app"]

    def first_frame(self, lines: Lines) -> bool:
        return TITLE in lines[0] and FOOTER_QUIT in lines[-1] and _shows(lines, INITIAL_TEXT)

    def first_web_frame(self, lines: Lines) -> bool:
        # Under textual-serve, Textual's footer stays blank until the screen's bindings
        # first change (a key): the bare app's first frame there has none.
        return TITLE in lines[0] and _shows(lines, INITIAL_TEXT)

    def started(self, terminal: Terminal) -> None:
        super().started(terminal)
        self.keys = 0

    def cursor_key(self) -> tuple[bytes, Callable[[Lines], bool]]:
        key, square = self._next_arrow()
        self.keys += 1
        expected = text_for(self.keys, f"cursor {square}")
        return key, lambda lines: _shows(lines, expected)

    def play(self, terminal: Terminal) -> Play:
        square = PLAY_ORDER[self.keys % len(PLAY_ORDER)]
        self.keys += 1
        expected = text_for(self.keys, f"played {square}")
        pressed = terminal.press(str(square).encode())
        seen = terminal.wait_for(lambda lines: _shows(lines, expected), repr(expected), KEY_TIMEOUT)
        return Play(square, None, seen - pressed, None)


class GameSubject(Subject):
    """ttt-tui, You vs AI at Hard, the computer answering at once."""

    name = "ttt-tui"

    def __init__(self, launcher: Sequence[str] = ("-m", "ttt_tui"), ai_delay: float = 0) -> None:
        super().__init__()
        self.launcher = list(launcher)
        """What follows the interpreter in the command line."""
        self.ai_delay = ai_delay
        """The game's ``--ai-delay``: the least time the computer appears to think."""
        self.labels: dict[int, tuple[int, int]] = {}
        """Where each square's number is drawn: (row, column) on the screen."""
        self.board = Board.empty()
        """The game as the benchmark has seen it played."""

    def command(self, seed: int) -> list[str]:
        options = ["--difficulty", "hard", "--ai-delay", f"{self.ai_delay:g}", "--seed", str(seed)]
        return [sys.executable, *self.launcher, *options]

    def first_frame(self, lines: Lines) -> bool:
        return (
            GAME_TITLE in lines[0]
            and FOOTER_QUIT in lines[-1]
            and _shows(lines, GAME_STATUS)
            and len(board_labels(lines)) == 9
            and len(CURSOR_MARK.findall("\n".join(lines))) == 1
        )

    def started(self, terminal: Terminal) -> None:
        super().started(terminal)
        lines = terminal.lines()
        self.labels = board_labels(lines)
        self.cursor = int(CURSOR_MARK.findall("\n".join(lines))[0])
        self.board = Board.empty()

    def cursor_key(self) -> tuple[bytes, Callable[[Lines], bool]]:
        if self.moves == 0 and self.cursor != 5:
            raise BenchError(f"the cursor started on square {self.cursor}, not the centre")
        key, square = self._next_arrow()
        return key, lambda lines: CURSOR_MARK.findall("\n".join(lines)) == [str(square)]

    def play(self, terminal: Terminal) -> Play:
        pressed = time.perf_counter()
        square, own = self.press_play(terminal)
        if self.board.is_game_over():
            return Play(square, None, own - pressed, None)
        answer, reply = self.await_reply(terminal, own)
        return Play(square, answer, own - pressed, reply - pressed)

    def press_play(self, terminal: Terminal) -> tuple[int, Seconds]:
        """Play the next free square of `PLAY_ORDER`; the square, and when its mark showed."""
        square = next(s for s in PLAY_ORDER if self.board[s - 1] is None)
        self.board = self.board.play(square - 1)
        terminal.press(str(square).encode())
        own = terminal.wait_for(
            lambda lines: self.taken(lines, square), f"a mark on square {square}", KEY_TIMEOUT
        )
        return square, own

    def replied(self, terminal: Terminal) -> bool:
        """Whether the computer's reply to the last play is on screen already."""
        empty = [cell + 1 for cell in self.board.legal_moves()]
        return bool(self._replied(terminal.lines(), empty))

    def await_reply(self, terminal: Terminal, own: Seconds) -> tuple[int, Seconds]:
        """Wait for the computer's reply; the square, and when it showed (``own`` if it
        was already on screen with the person's mark)."""
        empty = [cell + 1 for cell in self.board.legal_moves()]
        if self._replied(terminal.lines(), empty):
            reply = own  # in the same frame as the person's mark
        else:
            reply = terminal.wait_for(
                lambda lines: bool(self._replied(lines, empty)), "the computer's reply", KEY_TIMEOUT
            )
        (answer,) = self._replied(terminal.lines(), empty)
        self.board = self.board.play(answer - 1)
        return answer, reply

    def between_plays(self, terminal: Terminal) -> None:
        if not self.board.is_game_over():
            return
        terminal.press(b"n")
        terminal.wait_for(
            lambda lines: len(board_labels(lines)) == 9, "a new game's empty board", KEY_TIMEOUT
        )
        terminal.settle()
        self.board = Board.empty()

    def taken(self, lines: Lines, square: int) -> bool:
        """Whether ``lines`` show something other than ``square``'s number where it was."""
        row, column = self.labels[square]
        return lines[row][column] != str(square)

    def _replied(self, lines: Lines, empty: Sequence[int]) -> list[int]:
        return [square for square in empty if self.taken(lines, square)]


def _shows(lines: Lines, text: str) -> bool:
    return any(text in line for line in lines)


def board_box(lines: Lines) -> tuple[int, int, int, int] | None:
    """The inside of the board's frame: first and last row, first and last column."""
    for top, line in enumerate(lines):
        left = line.find("╭")
        right = line.find("╮", left + 1)
        if left < 0 or right < 0:
            continue
        for bottom in range(top + 1, len(lines)):
            if lines[bottom][left : left + 1] == "╰":
                return top + 1, bottom - 1, left + 1, right - 1
        return None
    return None


def board_labels(lines: Lines) -> dict[int, tuple[int, int]]:
    """Where each empty square's number stands alone inside the board's frame."""
    box = board_box(lines)
    if box is None:
        return {}
    top, bottom, left, right = box
    found: dict[int, tuple[int, int]] = {}
    for row in range(top, bottom + 1):
        inside = lines[row][left : right + 1]
        for match in LONE_DIGIT.finditer(inside):
            found[int(match[1])] = (row, left + match.start(1))
    return found


# Measuring -------------------------------------------------------------------


@dataclass
class Figures:
    """Everything measured for one app."""

    start_wall: list[Seconds] = field(default_factory=list)
    start_cpu: list[Seconds] = field(default_factory=list)
    cursor: list[Seconds] = field(default_factory=list)
    play: list[Seconds] = field(default_factory=list)
    reply: list[Seconds] = field(default_factory=list)
    cursor_cpu: list[Seconds] = field(default_factory=list)
    """CPU time of each cursor move."""
    play_cpu: list[Seconds] = field(default_factory=list)
    """CPU time of each play, with the computer's reply if any."""


class Launch(contextlib.AbstractContextManager["Launch"]):
    """One launch of an app: its terminal and its data directory, cleaned up after."""

    def __init__(self, subject: Subject, seed: int, env: dict[str, str] | None = None) -> None:
        self.subject = subject
        self.directory = tempfile.TemporaryDirectory(prefix="ttt-uibench-")
        path = Path(self.directory.name)
        (path / "data").mkdir()
        base = child_env(path / "data")
        self.terminal = Terminal(
            subject.name, subject.command(seed), {**base, **(env or {})}, cwd=path
        )

    def start(self) -> tuple[Seconds, Seconds]:
        """Wait for the first full frame: (wall, CPU) seconds from the start."""
        terminal = self.terminal
        seen = terminal.wait_for(self.subject.first_frame, "its first full frame", START_TIMEOUT)
        cpu = terminal.cpu()
        self.subject.started(terminal)
        terminal.settle(START_SETTLE)
        return seen - terminal.started, cpu

    def __exit__(self, *exc: object) -> None:
        try:
            self.terminal.close()
        finally:
            self.directory.cleanup()


def cursor_move(subject: Subject, terminal: Terminal, figures: Figures) -> None:
    """Send one arrow key and time it; then let the app finish and charge its CPU."""
    key, moved = subject.cursor_key()
    terminal.drain()
    before = terminal.cpu()
    pressed = terminal.press(key)
    seen = terminal.wait_for(moved, "the cursor moved", KEY_TIMEOUT)
    terminal.settle()
    figures.cursor.append(seen - pressed)
    figures.cursor_cpu.append(terminal.cpu() - before)


def play(subject: Subject, terminal: Terminal, figures: Figures) -> None:
    """Play one square and time it, and any reply; then get ready for the next."""
    terminal.drain()
    before = terminal.cpu()
    result = subject.play(terminal)
    terminal.settle()
    figures.play_cpu.append(terminal.cpu() - before)
    figures.play.append(result.own)
    if result.reply is not None:
        figures.reply.append(result.reply)
    subject.between_plays(terminal)


def measure(
    subjects: Sequence[Subject], runs: int, keys: int, progress: Callable[[str], None]
) -> dict[str, Figures]:
    """Launch each app ``runs`` times, interleaved, with ``keys`` of each kind a launch."""
    figures = {s.name: Figures() for s in subjects}
    for subject in subjects:  # Not counted: lets .pyc files be written and read once.
        with Launch(subject, seed=0) as launch:
            launch.start()
    for run in range(runs):
        order = list(subjects) if run % 2 == 0 else list(reversed(subjects))
        progress(f"run {run + 1} of {runs}: {' then '.join(s.name for s in order)}")
        with contextlib.ExitStack() as stack:
            launches = []
            for subject in order:
                launch = stack.enter_context(Launch(subject, seed=run + 1))
                wall, cpu = launch.start()
                figures[subject.name].start_wall.append(wall)
                figures[subject.name].start_cpu.append(cpu)
                launches.append(launch)
            for _ in range(keys):
                for launch in launches:
                    cursor_move(launch.subject, launch.terminal, figures[launch.subject.name])
            for _ in range(keys):
                for launch in launches:
                    play(launch.subject, launch.terminal, figures[launch.subject.name])
    return figures


# Render counts ---------------------------------------------------------------


class RenderProbe:
    """Asks a launch through `tools.launch` for its render counts."""

    def __init__(self, terminal: Terminal, path: Path) -> None:
        self.terminal = terminal
        self.path = path
        self.snapshots = 0

    def counts(self) -> Counter[str]:
        """render() calls so far, by widget, once the app has written them."""
        self.snapshots += 1
        os.kill(self.terminal.proc.pid, signal.SIGUSR1)
        deadline = time.perf_counter() + KEY_TIMEOUT
        while time.perf_counter() < deadline:
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if data["snapshot"] == self.snapshots:
                    return Counter({str(k): int(v) for k, v in data["renders"].items()})
            self.terminal.read(0.01)
        raise BenchError("the app did not write its render counts")


@dataclass(frozen=True, slots=True)
class Renders:
    """render() calls per widget caused by one action."""

    action: str
    """What was done, e.g. ``play 5, reply 1``."""
    counts: dict[str, int]
    """Widget name to render() calls, for every widget that rendered."""

    @property
    def repeated(self) -> dict[str, int]:
        """The widgets rendered more than once."""
        return {name: n for name, n in self.counts.items() if n > 1}


RENDERS_AI_DELAY = 0.06
"""The game's ``--ai-delay`` while renders are counted: long enough for the person's
mark to be drawn, and counted, before the reply; shorter than the status line's first
spinner frame (0.08 s), whose animation would otherwise count as renders."""


def count_renders(plays: int) -> list[Renders]:
    """Render counts of the game for one cursor move, then for ``plays`` plays: the
    person's move and the computer's reply counted apart, as the two changes they are."""
    subject = GameSubject(("-m", "tools.launch", "ttt-tui"), RENDERS_AI_DELAY)
    with tempfile.TemporaryDirectory(prefix="ttt-uibench-renders-") as counts_dir:
        path = Path(counts_dir) / "renders.json"
        with Launch(subject, seed=0, env={RENDERS_ENV: str(path)}) as launch:
            terminal = launch.terminal
            launch.start()
            probe = RenderProbe(terminal, path)
            results = []
            before = probe.counts()
            key, moved = subject.cursor_key()
            terminal.press(key)
            terminal.wait_for(moved, "the cursor moved", KEY_TIMEOUT)
            terminal.settle()
            after = probe.counts()
            results.append(Renders(f"cursor move to {subject.cursor}", dict(after - before)))
            for _ in range(plays):
                before = after
                played, own = subject.press_play(terminal)
                together = not subject.board.is_game_over() and subject.replied(terminal)
                middle = probe.counts()
                if subject.board.is_game_over():
                    terminal.settle()
                    results.append(Renders(f"play {played}", dict(probe.counts() - before)))
                    break
                answer, _ = subject.await_reply(terminal, own)
                terminal.settle()
                after = probe.counts()
                if together:
                    action = f"play {played} and reply {answer}, in one frame"
                    results.append(Renders(action, dict(after - before)))
                else:
                    results.append(Renders(f"play {played}", dict(middle - before)))
                    results.append(Renders(f"reply {answer}", dict(after - middle)))
                if subject.board.is_game_over():
                    break
    return results


def render_report(results: Sequence[Renders]) -> str:
    """One line per action: the widgets it rendered, the repeated ones first."""
    out = []
    for result in results:
        ordered = sorted(result.counts.items(), key=lambda item: (-item[1], item[0]))
        listing = ", ".join(f"{name} x{n}" for name, n in ordered) or "nothing"
        total = sum(result.counts.values())
        out.append(f"- {result.action}: {total} renders of {len(result.counts)} widgets: {listing}")
    return "\n".join(out)


# Output ----------------------------------------------------------------------


def p95(values: Sequence[Seconds]) -> Seconds:
    """The 95th percentile (inclusive method; the value itself for one sample)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def mean(values: Sequence[Seconds]) -> Seconds:
    return sum(values) / len(values)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table."""

    measure: str
    game: Seconds
    bare: Seconds | None
    """None where the bare app has nothing to compare (the computer's reply)."""
    key: str = ""
    """The name a goal refers to this row by."""

    @property
    def ratio(self) -> float | None:
        """ttt-tui's figure over bare's; None without one, or if bare's is 0 (under a
        clock tick of CPU in a short run)."""
        return None if not self.bare else self.game / self.bare


def rows(game: Figures, bare: Figures) -> list[Row]:
    """The table's rows, game against bare."""

    def pair(measure: str, values: Callable[[Figures], list[Seconds]], key: str = "") -> list[Row]:
        g, b = values(game), values(bare)
        return [
            Row(f"{measure}, median", statistics.median(g), statistics.median(b), f"{key}_median"),
            Row(f"{measure}, p95", p95(g), p95(b), f"{key}_p95"),
        ]

    table = [
        *pair("start to first full frame, wall", lambda f: f.start_wall, "start_wall"),
        *pair("start to first full frame, CPU", lambda f: f.start_cpu, "start_cpu"),
        *pair("cursor move (arrow), key to screen", lambda f: f.cursor, "cursor"),
        *pair("play (digit), key to own mark on screen", lambda f: f.play, "play"),
    ]
    if game.reply:
        table += [
            Row(
                "play, key to the computer's reply on screen, median",
                statistics.median(game.reply),
                None,
            ),
            Row("play, key to the computer's reply on screen, p95", p95(game.reply), None),
        ]
    table += [
        Row("CPU per cursor move", mean(game.cursor_cpu), mean(bare.cursor_cpu), "cursor_cpu"),
        Row(
            "CPU per play (ttt-tui: with the computer's reply)",
            mean(game.play_cpu),
            mean(bare.play_cpu),
            "play_cpu",
        ),
    ]
    return table


def format_ratio(ratio: float | None) -> str:
    return "—" if ratio is None else f"{ratio:.2f}x"


def render_table(table: Sequence[Row]) -> str:
    """A Markdown table: measure | ttt-tui | bare Textual | ratio."""
    header = ("measure", GameSubject.name, BareSubject.name, "ratio")
    body = [
        (
            row.measure,
            format_time(row.game),
            "—" if row.bare is None else format_time(row.bare),
            format_ratio(row.ratio),
        )
        for row in table
    ]
    return markdown_table(header, body, right={1, 2, 3})


def goal_lines(table: Sequence[Row], renders: Sequence[Renders] | None) -> list[str]:
    """Each of issue 9's goals with the measured ratio and whether it is met."""
    by_key = {row.key: row for row in table if row.key}
    out = []
    for what, key, limit in GOALS:
        ratio = by_key[key].ratio
        if ratio is None:
            out.append(f"- {what} within {limit}x bare: not measured (bare took no time)")
            continue
        verdict = "met" if ratio <= limit else "not met"
        out.append(f"- {what} within {limit}x bare: {format_ratio(ratio)}, {verdict}")
    what = "each change (a cursor move, a play, the reply) renders each widget it affects once"
    if renders is None:
        out.append(f"- {what}: not checked (add --renders)")
    else:
        repeated: Counter[str] = Counter()
        for r in renders:
            repeated |= Counter(r.repeated)
        if not renders:
            out.append(f"- {what}: not checked (nothing was counted)")
        elif repeated:
            worst = ", ".join(f"{name} x{n}" for name, n in repeated.most_common(3))
            out.append(
                f"- {what}: not met ({len(repeated)} widgets rendered more than once"
                f" in one change, most: {worst}; see Renders below)"
            )
        else:
            out.append(f"- {what}: met")
    return out


def build_parser() -> argparse.ArgumentParser:
    """The parser for ``python -m tools.bench --ui``."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench --ui",
        description=(
            "Time ttt-tui against a bare Textual app in pseudo-terminals, interleaved in"
            " the same run, and print medians, 95th percentiles and ratios."
        ),
    )
    parser.add_argument(
        "--runs",
        type=int,
        metavar="N",
        help=f"launches of each app (default: {DEFAULT_RUNS}, or {QUICK_RUNS} with --quick)",
    )
    parser.add_argument(
        "--keys",
        type=int,
        metavar="N",
        help=f"cursor moves, and plays, per launch (default: {DEFAULT_KEYS},"
        f" or {QUICK_KEYS} with --quick)",
    )
    parser.add_argument("--quick", action="store_true", help="one short run, for tests")
    parser.add_argument(
        "--ai-delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="the game's --ai-delay (default: 0, the reply as soon as it is found)",
    )
    parser.add_argument(
        "--renders",
        action="store_true",
        help="also count each widget's renders for a cursor move and for plays with replies",
    )
    return parser


def report(
    figures: dict[str, Figures], runs: int, ai_delay: float, renders: Sequence[Renders] | None
) -> str:
    """The benchmark's report: what ran, the table, issue 9's goals, the renders."""
    g, b = figures[GameSubject.name], figures[BareSubject.name]
    table = rows(g, b)
    out = [
        f"ttt-tui UI benchmark: {platform.python_implementation()} {platform.python_version()}"
        f" on {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs;"
        f" {SIZE[0]}x{SIZE[1]} pseudo-terminals.",
        f"Each app: {plural(runs, 'launch', 'launches')}, interleaved with the other's;"
        f" {len(g.cursor)} cursor moves and {len(g.play)} plays ({len(g.reply)} with a"
        " computer reply), one key at a time.",
        f"ttt-tui plays You vs AI at Hard with --ai-delay {ai_delay:g}; its reply is timed"
        " from the same key.\nCPU figures are the app's process group, per key: a mean over"
        " the keys.",
        "",
        render_table(table),
        "",
        "Goals (issue 9), ttt-tui against bare Textual in this run:",
        "\n".join(goal_lines(table, renders)),
    ]
    if renders is not None:
        out += [
            "",
            "Renders (render() calls per widget, squares drawn by the board)"
            " caused by each change, in one more launch:",
            render_report(renders),
        ]
    return "\n".join(out)
