"""``python -m tools.bench --ui``: the game against a bare Textual app in pseudo-terminals
and in browser tabs, and the explorer counting against one that is not, each figure
printed beside its baseline from the same run, the ratio and its goal (`GOALS`).
docs/performance.md says how each is taken. Linux only: CPU times come from /proc."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import os
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
from pathlib import Path

import aiohttp
import pyte

from tools.bare_app import INITIAL_TEXT, TITLE, text_for
from tools.report import (
    ROOT,
    Seconds,
    child_env,
    format_ratio,
    format_time,
    machine,
    markdown_table,
    p95,
    plural,
    within,
)
from ttt_tui.engine import Board

Lines = Sequence[str]
"""What the terminal shows, one string a row."""

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

GOALS = {"start": 1.5, "arrow": 1.5, "tab": 1.5, "explorer": 1.5}
"""The most ttt-tui may take, as a multiple of its baseline: docs/performance.md says why."""

CURSOR_CYCLE = ((b"\x1b[C", 1), (b"\x1b[D", -1), (b"\x1b[B", 3), (b"\x1b[A", -3))
"""Arrow keys and the square each moves the cursor by, from the centre back to it."""
PLAY_ORDER = (5, 1, 9, 3, 7, 2, 8, 4, 6)
"""The squares the benchmark plays, the first empty one each time."""
CURSOR_MARK = re.compile(r"▶ ?([1-9]) ?◀")
"""The game's cursor on an empty square: its number between pointers."""
LONE_DIGIT = re.compile(r"(?<!\S)([1-9])(?!\S)")
"""A square's number on the board, standing alone."""


class BenchError(Exception):
    """An app did not start, did not answer a key, or exited."""


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


def session_cpu(session: int) -> Seconds:
    """CPU time of every process in ``session`` and of its reaped children: an app
    started as a session leader, its threads and whatever it started."""
    ticks = sum(
        sum(int(f) for f in fields[11:15]) for _, fields in processes() if int(fields[3]) == session
    )
    return ticks / CLOCK_TICKS


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

    def wait_for(self, test: Callable[[Lines], bool], what: str, timeout: Seconds) -> Seconds:
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

    def timed(
        self, key: bytes, test: Callable[[Lines], bool], what: str, timeout: Seconds = KEY_TIMEOUT
    ) -> Seconds:
        """Seconds from writing ``key`` to the frame passing ``test``."""
        pressed = self.press(key)
        return self.wait_for(test, what, timeout) - pressed

    def cpu(self) -> Seconds:
        """CPU time used so far by the app and anything it started."""
        return session_cpu(self.proc.pid)

    def close(self) -> None:
        """Kill the app's process group."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)
        os.close(self.master)


@contextlib.contextmanager
def launched(
    name: str, args: Sequence[str], settings: dict[str, object] | None = None
) -> Iterator[Terminal]:
    """``python ARGS`` in a terminal, with a folder and a data directory of its own
    (holding ``settings``, if given), closed and removed after."""
    with tempfile.TemporaryDirectory(prefix="ttt-uibench-") as folder:
        home = Path(folder) / "data"
        home.mkdir()
        if settings is not None:
            (home / "settings.json").write_text(json.dumps(settings))
        terminal = Terminal(name, [sys.executable, *args], child_env(home), Path(folder))
        try:
            yield terminal
        finally:
            terminal.close()


@contextlib.contextmanager
def five_by_five(name: str, coach: bool, keys: Sequence[bytes], shown: str) -> Iterator[Terminal]:
    """The game on 5x5, two players, the coach on or off, once ``keys`` have played the
    position whose screen shows ``shown``."""
    settings: dict[str, object] = {"version": 2, "mode": "two_players", "board": 5, "coach": coach}
    with launched(name, ("-m", "ttt_tui", "--ai-delay", "0"), settings) as terminal:
        terminal.wait_for(shows("▶ 13 ◀"), "the empty 5x5 board", START_TIMEOUT)
        for key in keys:
            terminal.press(key)
        terminal.wait_for(shows(shown), shown, KEY_TIMEOUT)
        yield terminal


def shows(*texts: str) -> Callable[[Lines], bool]:
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

    def arrow(self) -> tuple[bytes, Callable[[Lines], bool]]:
        key, step = CURSOR_CYCLE[self.keys % len(CURSOR_CYCLE)]
        self.keys, self.cursor = self.keys + 1, self.cursor + step
        return key, shows(text_for(self.keys, f"cursor {self.cursor}"))

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

    def arrow(self) -> tuple[bytes, Callable[[Lines], bool]]:
        key, step = CURSOR_CYCLE[self.moves % len(CURSOR_CYCLE)]
        self.moves, self.cursor = self.moves + 1, self.cursor + step
        square = str(self.cursor)
        return key, lambda lines: CURSOR_MARK.findall("\n".join(lines)) == [square]

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


def measure(runs: int, keys: int, progress: Callable[[str], None]) -> dict[str, Figures]:
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
            for _ in range(keys):
                for subject, terminal in terminals:
                    key, moved = subject.arrow()
                    before = terminal.cpu()
                    figures[subject.name]["arrow"].append(terminal.timed(key, moved, "the cursor"))
                    terminal.settle()
                    figures[subject.name]["arrow_cpu"].append(terminal.cpu() - before)
            for _ in range(keys):
                for subject, terminal in terminals:
                    before = terminal.cpu()
                    figures[subject.name]["play"].append(subject.play(terminal))
                    terminal.settle()
                    figures[subject.name]["play_cpu"].append(terminal.cpu() - before)
    return figures


# Browser tabs --------------------------------------------------------------------


@dataclass
class Served:
    """A server on loopback in a session of its own, and its tabs' first frames."""

    name: str
    first_frame: Callable[[Lines], bool]
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


async def first_frames(tabs: int, progress: Callable[[str], None]) -> dict[str, list[Seconds]]:
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


def heading_is(start: str) -> Callable[[Lines], bool]:
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


def wait_until(
    terminal: Terminal, test: Callable[[Lines], bool], what: str, timeout: float
) -> None:
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


def explorer_keys(keys: int, progress: Callable[[str], None]) -> dict[str, list[Seconds]]:
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


def mean(values: Sequence[Seconds]) -> Seconds:
    return sum(values) / len(values)


def report(
    figures: dict[str, Figures],
    tabs: dict[str, list[Seconds]] | None,
    tree: dict[str, list[Seconds]] | None,
) -> str:
    """One table: each figure, its baseline measured in the same run, the ratio, the goal."""
    game, bare = figures[Game.name], figures[Bare.name]
    rows: list[tuple[str, Seconds, Seconds, str, str]] = [
        ("start to first full frame, wall, median", statistics.median(game["start_wall"]),
         statistics.median(bare["start_wall"]), Bare.name, ""),
        ("CPU from launch to the first full frame, median", statistics.median(game["start_cpu"]),
         statistics.median(bare["start_cpu"]), Bare.name, "start"),
        ("arrow key to screen, median", statistics.median(game["arrow"]),
         statistics.median(bare["arrow"]), Bare.name, "arrow"),
        ("arrow key to screen, p95", p95(game["arrow"]), p95(bare["arrow"]), Bare.name, ""),
        ("CPU per arrow key", mean(game["arrow_cpu"]), mean(bare["arrow_cpu"]), Bare.name, ""),
        ("digit to own mark on screen, median", statistics.median(game["play"]),
         statistics.median(bare["play"]), Bare.name, ""),
        ("CPU per play (ttt-tui: with the computer's reply)", mean(game["play_cpu"]),
         mean(bare["play_cpu"]), Bare.name, ""),
    ]  # fmt: skip
    if tabs is not None:
        served = f"{Bare.name} under textual-serve"
        for label, figure in (("median", statistics.median), ("p95", p95)):
            rows.append(
                (f"a browser tab's first frame, {label}", figure(tabs[Game.name]),
                 figure(tabs[Bare.name]), served, "tab")
            )  # fmt: skip
    if tree is not None:
        rows.append(
            ("explorer on 5x5, tree key to screen while counting, p95", p95(tree["counting"]),
             p95(tree["idle"]), "the explorer, nothing counting", "explorer")
        )  # fmt: skip
    body = []
    for label, value, base, baseline, goal in rows:
        ratio = value / base if base else None  # CPU under one clock tick: no ratio
        target = within(ratio, GOALS[goal]) if goal else ""
        body.append((label, format_time(value), f"{format_time(base)} ({baseline})",
                     format_ratio(ratio), target))  # fmt: skip
    header = ("measure", Game.name, "baseline, same run", "ratio", "goal")
    return markdown_table(header, body, right={1, 2, 3})


def build_parser() -> argparse.ArgumentParser:
    """The parser for ``python -m tools.bench --ui``."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench --ui",
        description="Time ttt-tui against a bare Textual app, in pseudo-terminals and in"
        " browser tabs, and the explorer counting against one that is not, in the same run.",
    )
    options = (
        ("--runs", "launches of each app", 4),
        ("--keys", "arrow keys, and plays, per launch", 20),
        ("--tabs", "browser tabs to each server; 0: none", 7),
        ("--tree-keys", "tree moves to each explorer; 0: none", 30),
    )
    for flag, what, default in options:
        parser.add_argument(flag, type=int, default=default, metavar="N",
                            help=f"{what} (default: %(default)s)")  # fmt: skip
    parser.add_argument(
        "--quick", action="store_true", help="1 launch, 3 keys, 1 tab, 3 tree moves: for tests"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.keys, args.tabs, args.tree_keys = 1, 3, 1, 3
    if min(args.runs, args.keys) < 1 or min(args.tabs, args.tree_keys) < 0:
        parser.error("expected at least 1 run and key, and no fewer than 0 tabs and tree keys")
    if not Path(f"/proc/{os.getpid()}/stat").exists():
        print("the UI benchmark reads CPU times from /proc: it runs on Linux only", file=sys.stderr)
        return 2

    def progress(message: str) -> None:
        print(f"  {message}", file=sys.stderr, flush=True)

    try:
        figures = measure(args.runs, args.keys, progress)
        tabs = asyncio.run(first_frames(args.tabs, progress)) if args.tabs else None
        tree = explorer_keys(args.tree_keys, progress) if args.tree_keys else None
    except BenchError as error:
        print(f"UI benchmark failed: {error}", file=sys.stderr)
        return 1
    game = figures[Game.name]
    print(
        f"ttt-tui UI benchmark: {machine()}; {SIZE[0]}x{SIZE[1]} pseudo-terminals. Each app:"
        f" {plural(args.runs, 'launch', 'launches')}, interleaved with the other's,"
        f" {len(game['arrow'])} arrow keys and {len(game['play'])} plays, one key at a time;"
        f" {plural(args.tabs, 'tab')} to each server; {plural(args.tree_keys, 'tree move')}"
        " to each explorer. CPU is the app's process group's."
    )
    print()
    print(report(figures, tabs, tree))
    return 0
