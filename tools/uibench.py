"""The benchmarks that drive the game in a pseudo-terminal: ``python -m tools.bench
--ui`` (`main`), ``--search`` (`search_main`) and ``--data`` (`data_main`), each figure
printed beside its baseline from the same run, and its goal. Linux only: CPU times and
memory come from /proc. docs/performance.md and docs/data.md say how each figure is
taken, and why its goal."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import random
import re
import select
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import pyte

from tools.bare_app import INITIAL_TEXT, TITLE, text_for
from tools.report import (
    ROOT,
    BenchError,
    Count,
    Options,
    Seconds,
    child_env,
    compared,
    format_mib,
    format_time,
    machine,
    markdown_table,
    p95,
    plural,
    progress,
    run_child,
    spread,
    verdict,
)
from ttt_tui.engine import SIZES, Board, Difficulty, Player, Progress, choose_move, mover_of
from ttt_tui.play.results import Result
from ttt_tui.play.settings import LEVELS, PLAYABLE_MODES, Mode
from ttt_tui.storage import DATABASE_FILE, GameRecord, Store

Lines = Sequence[str]
"""What the terminal shows, one string a row."""
Test = Callable[[Lines], bool]
"""Whether what the terminal shows is what is waited for."""

SIZE = (80, 24)
"""Columns and rows of every terminal: the common default window."""
START_TIMEOUT = 30.0
"""Seconds an app may take to draw its first full frame on a busy machine."""
KEY_TIMEOUT = 10.0
"""Seconds an app may take to show what a key did."""
ANALYSIS_TIMEOUT = 300.0
"""Seconds the explorer may take, on a busy machine, to analyse what it shows."""
QUIET = 0.05
"""Seconds without output after which an app counts as done with a key."""
SETTLE = 0.1
"""Most seconds to read after a frame before the next key, where an app that counts
redraws every 0.05 s or so and never falls quiet."""

GOAL = 1.5
"""The most ttt-tui may take on a row with a goal, as a multiple of its baseline (with
the coach searching, of the game with the coach off): docs/performance.md says why."""

CURSOR_CYCLE = ((b"\x1b[C", 1), (b"\x1b[D", -1), (b"\x1b[B", 3), (b"\x1b[A", -3))
"""Arrow keys and the square each moves the cursor by, from the centre back to it."""
PLAY_ORDER = (5, 1, 9, 3, 7, 2, 8, 4, 6)
"""The squares the benchmark plays, the first empty one each time."""
CURSOR_MARK = re.compile(r"▶ ?([1-9]) ?◀")
"""The game's cursor on an empty square: its number between pointers."""
LONE_DIGIT = re.compile(r"(?<!\S)([1-9])(?!\S)")
"""A square's number on the board, standing alone."""


# /proc ---------------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
"""The unit of the CPU times in /proc/PID/stat."""


def stat_fields(pid: int | str) -> list[bytes]:
    """The fields of /proc/PID/stat after the command's name: ``[1]`` is the parent,
    ``[3]`` the session, ``[11:15]`` utime, stime, cutime and cstime, ``[21]`` the RSS
    in pages. Raises `OSError` once the process has gone."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        data = stat.read()
    return data[data.rindex(b")") + 2 :].split()


def processes() -> Iterator[tuple[int, list[bytes]]]:
    """Each running process's id and `stat_fields`, but for those gone as they are read."""
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                yield int(entry.name), stat_fields(entry.name)


# The terminal --------------------------------------------------------------------


class Terminal:
    """A command in a pseudo-terminal of its own session, with an emulator keeping its
    screen. Output is read, and timed, only while the benchmark waits for a frame, so a
    frame is seen when its last byte was read."""

    def __init__(self, name: str, command: Sequence[str], env: dict[str, str], cwd: Path) -> None:
        self.name = name
        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
        self.started = time.perf_counter()
        """When the process was started."""
        try:
            self.proc = subprocess.Popen(
                list(command), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                start_new_session=True,
            )  # fmt: skip
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

    def wait_for(self, test: Test, what: str, timeout: Seconds) -> Seconds:
        """The time output was read that made the screen pass ``test``."""
        deadline = time.perf_counter() + timeout
        while (left := deadline - time.perf_counter()) > 0:
            seen = self.read(min(left, 0.1))
            if seen is not None and test(self.screen.display):
                return seen
        shown = "\n".join(self.lines())
        raise BenchError(f"{self.name} did not show {what} within {timeout:.0f} s:\n{shown}")

    def settle(self, limit: Seconds = 2.0) -> None:
        """Read until the app has written nothing for `QUIET`, or for ``limit`` in all."""
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline and self.read(QUIET) is not None:
            pass

    def press(self, key: bytes) -> Seconds:
        """Take in any waiting output, then write ``key``; when it was written."""
        while self.read(0.0) is not None:
            pass
        written = time.perf_counter()
        os.write(self.master, key)
        return written

    def timed(self, key: bytes, test: Test, what: str, timeout: Seconds = KEY_TIMEOUT) -> Seconds:
        """Seconds from writing ``key`` to the frame passing ``test``."""
        pressed = self.press(key)
        return self.wait_for(test, what, timeout) - pressed

    def cpu(self) -> Seconds:
        """CPU time used so far by the app, its threads and whatever it started: every
        process of the session it leads, with their reaped children."""
        session = [fields for _, fields in processes() if int(fields[3]) == self.proc.pid]
        return sum(int(ticks) for fields in session for ticks in fields[11:15]) / CLOCK_TICKS

    def close(self) -> None:
        """Kill the app's process group."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)
        os.close(self.master)


@contextlib.contextmanager
def launched(
    name: str, args: Sequence[str], data: Path | None = None, **settings: object
) -> Iterator[Terminal]:
    """``python ARGS`` in a terminal, in a folder of its own, with ``data`` as its data
    directory, or else one of its own holding ``settings`` if any; closed and removed
    after."""
    with tempfile.TemporaryDirectory(prefix="ttt-uibench-") as folder:
        if data is None:
            data = Path(folder) / "data"
            data.mkdir()
            if settings:
                (data / "settings.json").write_text(json.dumps(settings))
        terminal = Terminal(name, [sys.executable, *args], child_env(data), Path(folder))
        try:
            yield terminal
        finally:
            terminal.close()


@contextlib.contextmanager
def five_by_five(name: str, coach: bool, keys: Sequence[bytes], shown: str) -> Iterator[Terminal]:
    """The game on 5x5, two players, the coach on or off, once ``keys`` have played the
    position whose screen shows ``shown``."""
    args = ("-m", "ttt_tui", "--ai-delay", "0")
    with launched(name, args, version=2, mode="two_players", board=5, coach=coach) as terminal:
        terminal.wait_for(shows("▶ 13 ◀"), "the empty 5x5 board", START_TIMEOUT)
        for key in keys:
            terminal.press(key)
        terminal.wait_for(shows(shown), shown, KEY_TIMEOUT)
        yield terminal


def shows(*texts: str) -> Test:
    """A test for a screen showing every one of ``texts``."""
    return lambda lines: all(any(text in line for line in lines) for text in texts)


# The game and its baseline -------------------------------------------------------


class Bare:
    """The bare app: every key rewrites its one Static, numbered."""

    name = "bare Textual"
    command = ("-m", "tools.bare_app")

    def __init__(self) -> None:
        self.keys = self.cursor = 0

    def first_frame(self, lines: Lines) -> bool:
        return self.first_web_frame(lines) and "Quit" in lines[-1]

    def first_web_frame(self, lines: Lines) -> bool:
        # Textual's footer stays blank under textual-serve until a key.
        return TITLE in lines[0] and shows(INITIAL_TEXT)(lines)

    def started(self, terminal: Terminal) -> None:
        self.keys, self.cursor = 0, 5

    def arrow(self, terminal: Terminal) -> Seconds:
        key, step = CURSOR_CYCLE[self.keys % len(CURSOR_CYCLE)]
        self.keys, self.cursor = self.keys + 1, self.cursor + step
        moved = shows(text_for(self.keys, f"cursor {self.cursor}"))
        return terminal.timed(key, moved, "the cursor")

    def play(self, terminal: Terminal) -> Seconds:
        square = PLAY_ORDER[self.keys % len(PLAY_ORDER)]
        self.keys += 1
        expected = text_for(self.keys, f"played {square}")
        return terminal.timed(str(square).encode(), shows(expected), expected)


class Game:
    """ttt-tui, You vs AI at Hard, the computer answering at once."""

    name = "ttt-tui"
    command = ("-m", "ttt_tui", "--difficulty", "hard", "--ai-delay", "0")

    def __init__(self) -> None:
        self.labels: dict[int, tuple[int, int]] = {}
        """Where each square's number is drawn: (row, column) on the screen."""
        self.board = Board.empty()
        self.moves = self.cursor = 0

    def first_frame(self, lines: Lines) -> bool:
        """The header, the status, nine empty squares with the cursor on one, the footer."""
        cursors = CURSOR_MARK.findall("\n".join(lines))
        return (
            shows(self.name, "Your move")(lines)
            and "Quit" in lines[-1]
            and len(board_labels(lines)) == 9
            and len(cursors) == 1
        )

    first_web_frame = first_frame

    def started(self, terminal: Terminal) -> None:
        lines = terminal.lines()
        self.labels, self.board, self.moves = board_labels(lines), Board.empty(), 0
        self.cursor = int(CURSOR_MARK.findall("\n".join(lines))[0])

    def arrow(self, terminal: Terminal) -> Seconds:
        key, step = CURSOR_CYCLE[self.moves % len(CURSOR_CYCLE)]
        self.moves, self.cursor = self.moves + 1, self.cursor + step
        square = str(self.cursor)
        return terminal.timed(
            key, lambda lines: CURSOR_MARK.findall("\n".join(lines)) == [square], "the cursor"
        )

    def taken(self, lines: Lines, square: int) -> bool:
        """Whether ``lines`` show something other than ``square``'s number where it was."""
        row, column = self.labels[square]
        return lines[row][column] != str(square)

    def play(self, terminal: Terminal) -> Seconds:
        """Play the next free square; the time to its mark. Then wait for the computer's
        reply, and start a new game once one ends."""
        square = next(s for s in PLAY_ORDER if self.board[s - 1] is None)
        self.board = self.board.play(square - 1)
        own = terminal.timed(
            str(square).encode(), lambda lines: self.taken(lines, square), f"a mark on {square}"
        )
        if not self.board.is_game_over():
            empty = [cell + 1 for cell in self.board.legal_moves()]

            def replied(lines: Lines) -> bool:
                return any(self.taken(lines, s) for s in empty)

            if not replied(terminal.lines()):  # else in the frame of the person's mark
                terminal.wait_for(replied, "the computer's reply", KEY_TIMEOUT)
            answer = next(s for s in empty if self.taken(terminal.lines(), s))
            self.board = self.board.play(answer - 1)
        terminal.settle()
        if self.board.is_game_over():
            terminal.press(b"n")
            terminal.wait_for(
                lambda lines: len(board_labels(lines)) == 9, "a new game", KEY_TIMEOUT
            )
            self.board = Board.empty()
        return own


def board_labels(lines: Lines) -> dict[int, tuple[int, int]]:
    """Where each empty square's number stands alone inside the board's frame."""
    top = next((row for row, line in enumerate(lines) if "╭" in line and "╮" in line), None)
    if top is None:
        return {}
    left, right = lines[top].find("╭"), lines[top].find("╮")
    found: dict[int, tuple[int, int]] = {}
    for row in range(top + 1, len(lines)):
        if lines[row][left : left + 1] == "╰":
            break
        for match in LONE_DIGIT.finditer(lines[row][left + 1 : right]):
            found[int(match[1])] = (row, left + 1 + match.start(1))
    return found


Figures = dict[str, list[Seconds]]
"""An app's figures by name: start_wall, start_cpu, arrow, arrow_cpu, play and play_cpu
(a play's CPU with the computer's reply)."""


def measure(runs: int, keys: int) -> dict[str, Figures]:
    """Launch each app ``runs`` times, interleaved, with ``keys`` arrows and plays each."""
    subjects: list[Bare | Game] = [Game(), Bare()]
    figures: dict[str, Figures] = {s.name: defaultdict(list) for s in subjects}
    for subject in subjects:  # Not counted: lets .pyc files be written and read once.
        with launched(subject.name, subject.command) as terminal:
            terminal.wait_for(subject.first_frame, "its first full frame", START_TIMEOUT)
    for run in range(runs):
        order = subjects if run % 2 == 0 else subjects[::-1]
        progress(f"run {run + 1} of {runs}: {' then '.join(s.name for s in order)}")
        with contextlib.ExitStack() as stack:
            terminals = []
            for subject in order:
                terminal = stack.enter_context(launched(subject.name, subject.command))
                seen = terminal.wait_for(subject.first_frame, "its first frame", START_TIMEOUT)
                figures[subject.name]["start_cpu"].append(terminal.cpu())
                figures[subject.name]["start_wall"].append(seen - terminal.started)
                subject.started(terminal)
                terminal.settle(0.2)
                terminals.append((subject, terminal))
            for figure in ("arrow", "play"):
                for _ in range(keys):
                    for subject, terminal in terminals:
                        before = terminal.cpu()
                        press = subject.arrow if figure == "arrow" else subject.play
                        figures[subject.name][figure].append(press(terminal))
                        terminal.settle()
                        figures[subject.name][f"{figure}_cpu"].append(terminal.cpu() - before)
    return figures


# Browser tabs --------------------------------------------------------------------


@dataclass
class Served:
    """A server on loopback in a session of its own, and its tabs' first frames."""

    name: str
    first_frame: Test
    port: int = 0
    pid: int = 0
    times: list[Seconds] = field(default_factory=list)

    @contextlib.contextmanager
    def running(self, args: Sequence[str]) -> Iterator[None]:
        """The server, with a data directory of its own, ended with all it started after."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        with tempfile.TemporaryDirectory() as data:
            process = subprocess.Popen(
                [sys.executable, *args, str(self.port)], env=child_env(Path(data)), cwd=ROOT,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
            self.pid = process.pid
            try:
                yield
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def apps(self) -> bool:
        """Whether the server runs an app (any other process of its session)."""
        return any(int(f[3]) == self.pid != pid for pid, f in processes())


async def first_frames(tabs: int) -> dict[str, list[Seconds]]:
    """``tabs`` tabs, one at a time, in turn to ``ttt-tui serve`` and to the bare app
    under textual-serve: each from asking for the page to the first full frame, as
    textual-serve's page script opens a tab. Each tab is closed, and its app has ended,
    before the next."""
    bare = f"{sys.executable} -m tools.bare_app"
    serve_bare = (
        f"import sys; from textual_serve.server import Server; Server({bare!r}, host='127.0.0.1',"
    )
    servers = [Served(Game.name, Game().first_web_frame), Served(Bare.name, Bare().first_web_frame)]
    commands = (
        ["-m", "ttt_tui", "serve", "--port"],
        ["-c", f"{serve_bare} port=int(sys.argv[1])).serve()"],
    )
    with contextlib.ExitStack() as stack:
        for server, command in zip(servers, commands, strict=True):
            stack.enter_context(server.running(command))
        async with aiohttp.ClientSession() as http:
            for server in servers:  # until it answers; then one tab, not counted
                for _ in range(int(START_TIMEOUT / 0.05)):
                    with contextlib.suppress(aiohttp.ClientError):
                        async with http.get(f"http://127.0.0.1:{server.port}/") as response:
                            if response.status == 200:
                                break
                    await asyncio.sleep(0.05)
                await open_tab(http, server)
            for tab in range(tabs):
                progress(f"tab {tab + 1} of {tabs}")
                for server in servers if tab % 2 == 0 else servers[::-1]:
                    server.times.append(await open_tab(http, server))
    return {server.name: server.times for server in servers}


async def open_tab(http: aiohttp.ClientSession, server: Served) -> Seconds:
    """Open one tab and time its first frame; close it, and wait for its app to end."""
    screen = pyte.Screen(*SIZE)
    stream = pyte.ByteStream(screen)
    asked = time.perf_counter()
    async with http.get(f"http://127.0.0.1:{server.port}/") as response:
        found = re.search(r'data-session-websocket-url="([^"]+)"', await response.text())
    if found is None:
        raise BenchError(f"{server.name}'s page names no websocket")
    width, height = SIZE
    async with http.ws_connect(f"{found[1]}?width={width}&height={height}") as websocket:
        await websocket.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        async with asyncio.timeout(START_TIMEOUT):
            async for message in websocket:
                if message.type == aiohttp.WSMsgType.BINARY:
                    read = time.perf_counter()
                    stream.feed(message.data)
                    if server.first_frame(screen.display):
                        break
            else:
                raise BenchError(f"{server.name}'s tab closed before its first frame")
    deadline = time.monotonic() + KEY_TIMEOUT
    while server.apps():
        if time.monotonic() > deadline:
            raise BenchError(f"{server.name}: a closed tab's app did not end")
        await asyncio.sleep(0.02)
    return read - asked


# The explorer --------------------------------------------------------------------

EXPLORED = Board.parse("...O..XO......X.......X..")
"""O to move on 5x5, where the explorer is opened: its analyses take a second or two,
its counts as long again, stopped at a million positions."""
EXPLORED_KEYS = (b"1", b"5", b"8", b"2", b"3", b"4", b"7")
"""The keys that play `EXPLORED` on an empty 5x5 board: squares 15, 8, 23, 4 and 7."""
ROOT_HEADING, CHILD_HEADING = "Now: O to move", "O a1: X to move"
"""The explorer's heading with its root selected, and with the root's first move, a1."""
TREE_CYCLE = ((b"\x1b[B", CHILD_HEADING), (b"\x1b[A", ROOT_HEADING))
"""Keys that take the tree's cursor from the root to a1 and back, and the heading each brings."""


def heading_is(start: str) -> Test:
    """Whether the explorer's heading, right of the tree (whose root label reads like the
    root's heading), begins with ``start``."""

    def test(lines: Lines) -> bool:
        edge = lines[1].find("╮") + 1
        return edge > 0 and any(line[edge:].strip().startswith(start) for line in lines[2:])

    return test


def analysed(lines: Lines) -> bool:
    return not any("proving…" in line.lower() for line in lines)


def counting(lines: Lines) -> bool:
    return any("counting…" in line for line in lines)


def wait_until(terminal: Terminal, test: Test, what: str, timeout: float) -> None:
    """Return once the screen passes ``test`` after a settle: a frame read only in part,
    or one drawn over at once, does not count."""
    deadline = time.perf_counter() + timeout
    while True:
        terminal.settle(SETTLE)
        if test(terminal.lines()):
            return
        terminal.wait_for(test, what, deadline - time.perf_counter())


def explore(terminal: Terminal, tab: bytes, child: bool) -> None:
    """From the game, open the explorer, let it analyse its root, show ``tab`` and, with
    ``child``, select a1 and let it analyse what the tab wants of it."""
    terminal.press(b"e")
    wait_until(terminal, heading_is(ROOT_HEADING), "the explorer", KEY_TIMEOUT)
    wait_until(terminal, analysed, "the root analysed", ANALYSIS_TIMEOUT)
    terminal.press(tab)
    if child:
        terminal.press(b"\x1b[B")
        wait_until(terminal, heading_is(CHILD_HEADING), "a1 selected", KEY_TIMEOUT)
        wait_until(terminal, analysed, "a1 analysed", ANALYSIS_TIMEOUT)


def explorer_keys(keys: int) -> dict[str, list[Seconds]]:
    """Tree moves, in turn, to an explorer on its Why tab with everything it shows
    analysed (nothing counting) and to one whose Search tab counts: key to the frame
    whose heading shows the position selected. A count that finishes leaves nothing to
    count: that explorer is closed and opened again, untimed, before its next key."""
    progress("the explorer, counting and not")
    times: dict[str, list[Seconds]] = {"idle": [], "counting": []}
    with contextlib.ExitStack() as stack:
        terminals = {}
        for name, tab in (("idle", b"w"), ("counting", b"s")):
            terminal = stack.enter_context(five_by_five(name, False, EXPLORED_KEYS, "5. X b2"))
            explore(terminal, tab, child=True)
            terminal.press(b"\x1b[A")
            wait_until(terminal, heading_is(ROOT_HEADING), "the root", KEY_TIMEOUT)
            terminals[name] = terminal
        for index in range(keys):
            key, heading = TREE_CYCLE[index % len(TREE_CYCLE)]
            for name, terminal in terminals.items():
                if name == "counting" and not (counting(terminal.lines()) or _recount(terminal)):
                    terminal.press(b"e")  # back to the game; the next explorer counts afresh
                    wait_until(terminal, lambda lines: "Undo" in lines[-1], "the game", KEY_TIMEOUT)
                    explore(terminal, b"g", child=index % 2 == 1)  # analysed, counting nothing
                    terminal.press(b"s")
                    wait_until(terminal, counting, "the Search tab counting", KEY_TIMEOUT)
                times[name].append(terminal.timed(key, heading_is(heading), repr(heading)))
                terminal.settle(SETTLE)
    return times


def _recount(terminal: Terminal) -> bool:
    """Whether a count shows after a settle: between two counts none may show for a frame."""
    terminal.settle(SETTLE)
    return counting(terminal.lines())


# The report ----------------------------------------------------------------------


def report(
    figures: dict[str, Figures],
    tabs: dict[str, list[Seconds]] | None,
    tree: dict[str, list[Seconds]] | None,
) -> str:
    """One table: each figure, its baseline measured in the same run, the ratio, the goal."""
    game, bare = figures[Game.name], figures[Bare.name]

    def against_bare(
        label: str, key: str, figure: Callable[[list[Seconds]], Seconds], goal: float | None = None
    ) -> list[str]:
        return compared(label, figure(game[key]), figure(bare[key]), goal, Bare.name)

    median, mean = statistics.median, statistics.fmean
    body = [
        against_bare("start to first full frame, wall, median", "start_wall", median),
        against_bare("CPU from launch to the first full frame, median", "start_cpu", median, GOAL),
        against_bare("arrow key to screen, median", "arrow", median, GOAL),
        against_bare("arrow key to screen, p95", "arrow", p95),
        against_bare("CPU per arrow key", "arrow_cpu", mean),
        against_bare("digit to own mark on screen, median", "play", median),
        against_bare("CPU per play (ttt-tui: with the computer's reply)", "play_cpu", mean),
    ]
    if tabs is not None:
        served = f"{Bare.name} under textual-serve"
        for label, figure in (("median", median), ("p95", p95)):
            mine, base = figure(tabs[Game.name]), figure(tabs[Bare.name])
            body.append(compared(f"a browser tab's first frame, {label}", mine, base, GOAL, served))
    if tree is not None:
        label = "explorer on 5x5, tree key to screen while counting, p95"
        idle = "the explorer, nothing counting"
        body.append(compared(label, p95(tree["counting"]), p95(tree["idle"]), GOAL, idle))
    header = ("measure", Game.name, "baseline, same run", "ratio", "goal")
    return markdown_table(header, body, right={1, 2, 3})


UI_COUNTS = (
    Count("--runs", "launches of each app", 4, quick=1),
    Count("--keys", "arrow keys, and plays, per launch", 20, quick=3),
    Count("--tabs", "browser tabs to each server; 0: none", 7, quick=1, least=0),
    Count("--tree-keys", "tree moves to each explorer; 0: none", 30, quick=3, least=0),
)
"""The UI benchmark's options."""


def main(argv: Sequence[str] | None = None) -> int:
    """Time ttt-tui against a bare Textual app, in pseudo-terminals and in browser tabs,
    and the explorer counting against one that is not, in the same run."""
    args = Options("python -m tools.bench --ui", main.__doc__, *UI_COUNTS).parse(argv)
    if not Path(f"/proc/{os.getpid()}/stat").exists():
        print("the UI benchmark reads CPU times from /proc: it runs on Linux only", file=sys.stderr)
        return 2
    figures = measure(args.runs, args.keys)
    tabs = asyncio.run(first_frames(args.tabs)) if args.tabs else None
    tree = explorer_keys(args.tree_keys) if args.tree_keys else None
    game = figures[Game.name]
    print(
        f"ttt-tui UI benchmark: {machine()}; {SIZE[0]}x{SIZE[1]} pseudo-terminals. Each app:"
        f" {plural(args.runs, 'launch', 'launches')}, interleaved with the other's,"
        f" {len(game['arrow'])} arrow keys and {len(game['play'])} plays, one key at a time;"
        f" {plural(args.tabs, 'tab')} to each server; {plural(args.tree_keys, 'tree move')}"
        " to each explorer. CPU is the app's process group's.\n"
    )
    print(report(figures, tabs, tree))
    return 0


# Keys while the coach searches (python -m tools.bench --search) ------------------

LONG = Board.parse(".......O......X.......X..")
"""X c3 and c5, O c2, O to move: the engine takes seconds to value every move."""
SETUP = (b"1", b"5", b"8", b"2", b"3")
"""The keys that play `LONG` on an empty 5x5 board: squares 15, 8 and 23."""
CYCLE = ((b"\x1b[D", 17), (b"\x1b[C", 18), (b"\x1b[A", 13), (b"\x1b[B", 18))
"""Arrow keys round empty squares of `LONG`, and the square each leaves the cursor on."""
TINY = Board.parse("XO.......")
"""What is asked for right behind a cancelled search."""
CANCEL_GOAL: Seconds = 0.1
"""A search given up on stops within this many seconds."""
MIN_ROUNDS = 3
"""The fewest arrow keys a variant that make a figure, while the search runs."""


def searching(terminal: Terminal) -> bool:
    """Whether the coach is still working on some square (``proving…``, or ``…``)."""
    return any("…" in line for line in terminal.lines()[1:-1])


def key_times(keys: int) -> dict[str, list[Seconds]]:
    """Arrow keys to the idle game and to the searching one in turn, up to ``keys`` each,
    while the search runs: a round the search did not outlast is dropped."""
    times: dict[str, list[Seconds]] = {"idle (coach off)": [], "searching": []}
    with contextlib.ExitStack() as stack:
        terminals = []
        for name in times:
            terminal = stack.enter_context(five_by_five(name, True, SETUP, "O to move"))
            if name.startswith("idle"):
                terminal.press(b"c")
            terminal.timed(b"\x1b[A", shows("▶ 18 ◀"), "the cursor on 18")
            terminal.settle()
            terminals.append((name, terminal))
        rounds = 0
        while rounds < keys and searching(terminals[1][1]):
            key, square = CYCLE[rounds % len(CYCLE)]
            for name, terminal in terminals:
                moved = shows(f"▶ {square} ◀")
                times[name].append(terminal.timed(key, moved, f"the cursor on {square}"))
                terminal.settle()
            rounds += 1
        if not searching(terminals[1][1]):
            for values in times.values():
                del values[rounds - 1 :]
    if len(times["searching"]) < min(keys, MIN_ROUNDS):
        raise BenchError(f"the search ended after {len(times['searching'])} of {keys} keys")
    return times


async def cancel_times(trials: int) -> tuple[list[Seconds], list[Seconds]]:
    """(a tiny analysis behind a cancelled one, the tiny one alone), ``trials`` times."""
    from ttt_tui.search.client import SearchProcess

    searcher = SearchProcess()
    searcher.start()
    behind, alone = [], []
    try:
        await searcher.analyze(TINY, None)  # the process up and the engine imported
        for _ in range(trials):
            began = time.perf_counter()
            await searcher.analyze(TINY, None)
            alone.append(time.perf_counter() - began)
            reports: list[Progress] = []
            task = asyncio.create_task(searcher.analyze(LONG, reports.append))
            while not reports:
                await asyncio.sleep(0.005)
            await asyncio.sleep(0.05)  # well into the search
            task.cancel()
            began = time.perf_counter()
            await searcher.analyze(TINY, None)
            behind.append(time.perf_counter() - began)
            with contextlib.suppress(asyncio.CancelledError):
                await task
    finally:
        await searcher.close()
    return behind, alone


SEARCH_COUNTS = (
    Count("--keys", "arrow keys a game", 30, quick=3),
    Count("--cancels", "searches cancelled", 15, quick=2),
)
"""The search benchmark's options."""


def search_main(argv: Sequence[str] | None = None) -> int:
    """Time keys while the computer searches a 5x5 position, and cancelling."""
    parser = Options("python -m tools.bench --search", search_main.__doc__, *SEARCH_COUNTS)
    args = parser.parse(argv)
    idle, busy = key_times(args.keys).values()
    behind, alone = asyncio.run(cancel_times(args.cancels))
    print(f"ttt-tui search benchmark: {machine()}.")
    print(
        f"Key to screen for {len(busy)} arrow keys a game (of {args.keys}: as many as the search"
        f" lasted), in turn, on 5x5 ({LONG}) with the coach valuing every move:\n"
    )
    body = [
        compared("arrow key to screen, median", statistics.median(busy), statistics.median(idle)),
        compared("arrow key to screen, p95", p95(busy), p95(idle), GOAL),
    ]
    header = ["measure", "searching", "idle (coach off)", "ratio", "goal"]
    print(markdown_table(header, body, {1, 2, 3}))
    print(f"\nA search given up on, {args.cancels} times: a tiny analysis right behind it.\n")
    extra = [b - a for b, a in zip(behind, alone, strict=True)]
    worst = f"worst under {format_time(CANCEL_GOAL)}: {verdict(max(extra) < CANCEL_GOAL)}"
    body = [
        [label, *spread(values), goal]
        for label, values, goal in (
            ("tiny analysis, behind a cancel", behind, ""),
            ("tiny analysis, the process idle (baseline)", alone, ""),
            ("the cancelled search went on", extra, worst),
        )
    ]
    print(markdown_table(["measure", "median", "p95", "goal"], body, {1, 2}))
    return 0


# The data layer at scale (python -m tools.bench --data) ---------------------------

BATCH = 10_000
"""Games a transaction while filling."""
RECORDS = 50
"""Games recorded, each timed, in each directory."""
DATA_TIMEOUT = 60.0
"""Seconds a screen may take to show on a loaded machine with a million games."""
SEEDED_FROM = datetime(2024, 1, 1, tzinfo=UTC)
"""When the first seeded game began; the next ones a minute apart."""

_RECORD_SCRIPT = """\
import json, sys, time
from datetime import UTC, datetime
from pathlib import Path
from tools.uibench import seeded_records
from ttt_tui.storage import Store
store = Store(Path(sys.argv[1]))
store.load_stats()  # the database opened, as the app's saver does at its start
seconds = []
for record in seeded_records(int(sys.argv[2]), seed=1, start=datetime.now(UTC)):
    began = time.perf_counter()
    store.record_game(record)
    seconds.append(time.perf_counter() - began)
print(json.dumps({"seconds": seconds}))
"""


def played(n: int, rng: random.Random) -> tuple[int, tuple[int, ...], Result]:
    """A random game on the n x n board; one in ten left unfinished (abandoned)."""
    board, cells = Board.empty(n), []
    while not board.is_game_over():
        cells.append(rng.choice(board.legal_moves()))
        board = board.play(cells[-1])
    if rng.random() < 0.1:
        return n, tuple(cells[: rng.randrange(len(cells))]), Result.ABANDONED
    return n, tuple(cells), Result(board.status.value)


def seeded_records(count: int, seed: int, start: datetime) -> list[GameRecord]:
    """``count`` games a minute apart from ``start``: 3x3 three times in five, any mode
    played on one computer, the computer's sides at any level."""
    rng = random.Random(seed)
    pool = [played(n, rng) for n in (3, 3, 3, 4, 5) for _ in range(200)]
    records = []
    for i in range(count):
        n, moves, result = rng.choice(pool)
        mode = rng.choice(PLAYABLE_MODES)
        human = rng.choice(tuple(Player)) if mode is Mode.HUMAN_VS_AI else None
        side = {p: None if mode is Mode.TWO_PLAYERS or p is human else rng.choice(LEVELS)
                for p in Player}  # fmt: skip
        began = start + timedelta(minutes=i)
        records.append(GameRecord(
            began, began + timedelta(seconds=3 * len(moves)), mode, side[Player.X],
            side[Player.O], human, moves, result, rng.random() < 0.1, rng.choice((0, 0, 1, 2)),
            tuple(side[mover_of(ply)] for ply in range(len(moves))), n, SIZES[n],
        ))  # fmt: skip
    return records


def last_game(ended: datetime) -> GameRecord:
    """Every directory's newest game: Hard against Hard on 3x3, a nine-move draw."""
    board, cells, rng = Board.empty(), [], random.Random(0)
    while not board.is_game_over():
        cells.append(choose_move(board, Difficulty.HARD, rng))
        board = board.play(cells[-1])
    hard, result = Difficulty.HARD, Result(board.status.value)
    levels = (hard,) * len(cells)
    return GameRecord(
        ended, ended, Mode.AI_VS_AI, hard, hard, None, tuple(cells), result, levels=levels
    )


def fill(directory: Path, count: int) -> None:
    """``count`` games, the last `last_game`, recorded through `Store.import_games`."""
    store = Store(directory)
    for first in range(0, count - 1, BATCH):
        began = SEEDED_FROM + timedelta(minutes=first)
        store.import_games(seeded_records(min(BATCH, count - 1 - first), first, began))
    if count:
        store.import_games([last_game(SEEDED_FROM + timedelta(minutes=count))])
    store.close()


def rss(pid: int) -> int:
    """Bytes of memory the process holds (field 24 of /proc/PID/stat, in pages)."""
    return int(stat_fields(pid)[21]) * os.sysconf("SC_PAGE_SIZE")


def launch(data: Path, newest: int, figures: dict[str, list[float]]) -> None:
    """Start the game on ``data``, open the Stats screen and the games list, and time each."""
    game = Game()
    listed = shows("Newest first", f"{newest:>6}  ") if newest else shows("No games recorded")
    with launched(game.name, game.command, data) as terminal:
        seen = terminal.wait_for(game.first_frame, "its first full frame", DATA_TIMEOUT)
        figures["start"].append(seen - terminal.started)
        figures["rss_start"].append(rss(terminal.proc.pid))
        terminal.settle(0.2)
        figures["stats"].append(terminal.timed(b"s", shows("Kept in"), "the counts", DATA_TIMEOUT))
        terminal.settle()
        figures["games"].append(terminal.timed(b"g", listed, "the newest games", DATA_TIMEOUT))
        terminal.settle()
        figures["rss_open"].append(rss(terminal.proc.pid))


def review(data: Path, moves: str | None) -> float:
    """Seconds ``ttt-tui review last`` takes, as a process (with ``moves``: ``review --moves``)."""
    game = ["last"] if moves is None else ["--moves", moves]
    command = [sys.executable, "-m", "ttt_tui", "review", *game]
    began = time.perf_counter()
    done = subprocess.run(command, env=child_env(data), capture_output=True)
    took = time.perf_counter() - began
    if done.returncode:
        raise BenchError(f"{' '.join(command[1:])} failed: {done.stderr[-300:]!r}")
    return took


def database_size(data: Path) -> int:
    """Bytes of the database file and its write-ahead log."""
    files = (data / DATABASE_FILE, data / f"{DATABASE_FILE}-wal")
    return sum(f.stat().st_size for f in files if f.exists())


def data_figures(sizes: Sequence[int], runs: int, root: Path) -> dict[int, dict[str, list[float]]]:
    """Every figure for the empty directory (0) and each size, in directories under ``root``."""
    figures: dict[int, dict[str, list[float]]] = {}
    data = {count: root / str(count) for count in (0, *sizes)}
    moves = " ".join(str(cell + 1) for cell in last_game(SEEDED_FROM).moves)
    for count, directory in data.items():
        directory.mkdir()
        began = time.perf_counter()
        fill(directory, count)
        figures[count] = defaultdict(list, fill=[time.perf_counter() - began])
        progress(f"filled {count:,} games")
    launch(data[0], 0, defaultdict(list))  # not counted: writes the .pyc files
    review(data[0], moves)
    for run in range(runs):
        progress(f"run {run + 1} of {runs}")
        for count in list(figures) if run % 2 == 0 else reversed(figures):
            launch(data[count], count, figures[count])
            figures[count]["review"].append(review(data[count], None if count else moves))
    for count in figures:
        figures[count]["size"] = [database_size(data[count])]
    records = str(-(-RECORDS // runs))
    for run in range(runs):  # last, as they add games; a fresh process each time
        for count in list(figures) if run % 2 == 0 else reversed(figures):
            seconds = run_child(_RECORD_SCRIPT, str(data[count]), records)["seconds"]
            figures[count]["record"] += seconds
    return figures


DATA_ROWS = (
    ("record a game (`Store.record_game`), median", "record", statistics.median, None),
    ("record a game, p95", "record", p95, 0.020),
    ("start to first full frame, median", "start", statistics.median, None),
    ("Stats screen open (`s` to the counts), median", "stats", statistics.median, 0.5),
    ("games list open (`g` to the newest games), median", "games", statistics.median, 0.5),
    ("`ttt-tui review last` (empty: `--moves`), median", "review", statistics.median, 0.5),
    ("app RSS at its first frame, median", "rss_start", statistics.median, 1.2),
    ("app RSS with the games list open, median", "rss_open", statistics.median, 1.2),
    ("database size (`.sqlite3` and `-wal`)", "size", statistics.median, None),
)
"""The data benchmark's rows: label, figure, statistic, and the target at 1,000,000 games
(docs/data.md says why): seconds, or for memory a multiple of the empty directory's."""


def data_table(figures: dict[int, dict[str, list[float]]]) -> str:
    """Each size's figure with its ratio to the empty directory's, and the target
    checked at the largest size."""
    largest = max(figures)
    header = ["measure", "empty directory", *(f"{c:,} games" for c in figures if c)]
    header.append(f"target at {largest:,}")
    body = []
    for label, key, statistic, target in DATA_ROWS:
        value = {count: statistic(f[key]) for count, f in figures.items()}
        memory = key in ("rss_start", "rss_open", "size")
        show = format_mib if memory else format_time
        cells = [show(value[c]) + (f" ({value[c] / value[0]:.2f}x)" if c and key != "size" else "")
                 for c in figures]  # fmt: skip
        goal = ""
        if target is not None and memory:
            limit = target * value[0]
            goal = f"≤ {format_mib(limit)}: {verdict(value[largest] <= limit)}"
        elif target is not None:
            goal = f"< {format_time(target)}: {verdict(value[largest] < target)}"
        body.append([label, *cells, goal])
    return markdown_table(header, body, right=set(range(1, len(header) - 1)))


def data_main(argv: Sequence[str] | None = None) -> int:
    """Time the data layer's screens and commands with up to a million recorded games
    against an empty data directory, in the same run."""
    runs = Count("--runs", "launches and reviews in each directory", 5)
    parser = Options("python -m tools.bench --data", data_main.__doc__, runs)
    described = "games in each data directory (default: %(default)s)"
    parser.add_argument("--sizes", default="1000,100000,1000000", metavar="N,N,...", help=described)
    args = parser.parse(argv)
    sizes = sorted({int(size) for size in args.sizes.split(",")} - {0})
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ttt-databench-") as root:
        figures = data_figures(sizes, args.runs, Path(root))
    fills = ", ".join(f"{c:,} in {format_time(f['fill'][0])}" for c, f in figures.items() if c)
    print(f"ttt-tui data benchmark: {machine()}; load average {load:.2f} at the start and"
          f" {os.getloadavg()[0]:.2f} at the end. Filled (games): {fills}. Each directory:"
          f" {args.runs} launches and reviews, taking turns; {RECORDS} records, one a"
          " transaction. Ratios are to the empty directory's figure.")  # fmt: skip
    print(data_table(figures))
    return 0
