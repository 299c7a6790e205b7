"""The one pseudo-terminal harness: the real program in a real terminal, read as a person would.

`Terminal` runs a command in a pseudo-terminal of a given size, feeds everything it
writes to a terminal emulator (pyte), and writes keys, mouse reports and resizes
to it as a terminal would. `game_env` is the environment every such program gets:
the caller's, without the settings that change colours, size or features, with an
ordinary terminal type and its own data directory. The processes helpers read
Linux's /proc.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pyte

from tests.support.environment import plain_environment

ROOT = Path(__file__).resolve().parents[2]
"""The top of the clone."""

DEADLINE = 60.0
"""Seconds any one wait may take before a test gives up on it (a hang, not a slowness)."""

WRITE_TIMEOUT = 10.0
"""Seconds the program may leave its input unread before a write gives up on it."""

QUIET = 0.05
"""Seconds without output after which the screen counts as drawn."""

BUSY = 0.5
"""Seconds of output without a pause after which the screen counts as drawn anyway (a
spinner never pauses)."""

ALT_SCREEN_OFF = b"\x1b[?1049l"
"""What a full-screen program writes as it gives the terminal back."""

ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
"""CSI, OSC and two-byte escape sequences: what a terminal acts on rather than shows."""


class TerminalFailed(AssertionError):
    """The program left its input unread, or its terminal closed under it."""


def game_env(data: Path | None = None, **extra: str) -> dict[str, str]:
    """The caller's environment as every test's is (`plain_environment`), with this
    clone's ttt-tui first on the path and, if given, ``data`` as its data directory."""
    env = dict(os.environ)
    plain_environment(env.__setitem__, env.__delitem__)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    if data is not None:
        env["TTT_TUI_DATA_DIR"] = str(data)
    env.update(extra)
    return env


def game_command(*args: str) -> list[str]:
    """``python -m ttt_tui ARGS`` from this clone."""
    return [sys.executable, "-m", "ttt_tui", *args]


def ttt(
    *args: str,
    data: Path | None = None,
    stdin: bytes | str | None = None,
    extra_env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m ttt_tui ARGS`` from this clone with no terminal (stdin /dev/null unless
    given, as bytes or text), with ``extra_env`` added to its environment; its output
    read as UTF-8, any undecodable byte replaced."""
    result = subprocess.run(
        game_command(*args),
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        cwd=ROOT,
        env=game_env(data, **(extra_env or {})),
        timeout=DEADLINE,
    )
    out, err = (
        stream.decode("utf-8", errors="replace") for stream in (result.stdout, result.stderr)
    )
    return subprocess.CompletedProcess(result.args, result.returncode, out, err)


def run_main(
    *args: str, data: Path | None = None, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`ttt` in this process: the command line's `main` with its output captured, as
    quick as a function call (a fresh interpreter costs a third of a second of CPU).
    For the commands that print and exit (``review``, ``check``); the environment is
    as `ttt`'s and put back after."""
    from ttt_tui.__main__ import main

    env = game_env(data, **(extra_env or {}))
    saved = dict(os.environ)
    out, err = io.StringIO(), io.StringIO()
    try:
        os.environ.clear()
        os.environ.update(env)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as exit_:
                status = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(["ttt-tui", *args], status, out.getvalue(), err.getvalue())


def installed_command() -> list[str]:
    """The installed `ttt-tui`, next to this interpreter."""
    script = Path(sys.executable).parent / "ttt-tui"
    assert script.exists(), f"{script} is missing: pip install -e '.[test]' installs it"
    return [str(script)]


def set_window_size(fd: int, size: tuple[int, int]) -> None:
    columns, rows = size
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def shown_lines(screen: pyte.Screen) -> list[str]:
    """The emulated screen's lines. pyte's own ``display`` fails (IndexError) on the
    second half of a wide character whose first half a resize cut off."""
    return [
        "".join(screen.buffer[y][x].data for x in range(screen.columns))
        for y in range(screen.lines)
    ]


def visible(output: bytes) -> str:
    """What a terminal shows of ``output``: the text without its escape sequences."""
    return ESCAPES.sub(b"", output).decode("utf-8", errors="replace")


def take_as_controlling_terminal() -> None:
    """In the child, a session leader by now: make its standard input, the terminal,
    its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A command in a pseudo-terminal, with an emulator keeping its screen.

    The command is in a session of its own. The terminal is not its controlling
    terminal unless ``controlling``: closing it (`hang_up`) then sends no signal;
    a controlling terminal that closes is hung up by the system, which sends the
    session SIGHUP and SIGCONT, as a terminal window or a tmux pane does when it
    goes. ``keep`` bytes of the output, escape sequences and all, are kept in `tail`
    (None: all of it).
    """

    def __init__(
        self,
        command: Sequence[str],
        env: dict[str, str],
        size: tuple[int, int],
        cwd: Path | None = ROOT,
        keep: int | None = 200_000,
        *,
        controlling: bool = False,
    ) -> None:
        self.size = size
        self.keep = keep
        self.master, slave = os.openpty()
        set_window_size(slave, size)
        self.modes_before: list[Any] = termios.tcgetattr(slave)
        """The terminal's settings before the command started."""
        try:
            self.proc = subprocess.Popen(
                list(command),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                cwd=cwd,
                start_new_session=True,
                preexec_fn=take_as_controlling_terminal if controlling else None,
            )
        finally:
            os.close(slave)
        os.set_blocking(self.master, False)
        self.lock = threading.Lock()
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.tail = bytearray()
        """The last of the output, escape sequences and all."""
        self.received = 0
        self.last_output = time.monotonic()
        self.closed = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        """Drain the terminal, or the program blocks writing to it."""
        while not self.closed.is_set():
            ready = select.select([self.master], [], [], 0.05)[0]
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                continue
            except OSError:  # EIO: every holder of the other end has closed it
                break
            if not data:
                break
            with self.lock:
                try:
                    self.stream.feed(data)
                except (TypeError, ValueError, IndexError):
                    # pyte's own parser fails on some sequences (a tab-stop clear with
                    # two parameters, in the echo of keys typed after an exit): drop
                    # the sequence it was in, not the whole terminal.
                    self.stream = pyte.ByteStream(self.screen)
                self.tail += data
                if self.keep is not None:
                    del self.tail[: -self.keep]
                self.received += len(data)
                self.last_output = time.monotonic()
        self.closed.set()

    def write(self, data: bytes) -> None:
        """Write all of ``data``, as a terminal does when keys come faster than they are read."""
        deadline = time.monotonic() + WRITE_TIMEOUT
        view = memoryview(data)
        while view:
            if time.monotonic() > deadline:
                raise TerminalFailed(f"the app left its input unread for {WRITE_TIMEOUT:.0f}s")
            if not select.select([], [self.master], [], 0.05)[1]:
                continue
            try:
                view = view[os.write(self.master, view) :]
            except BlockingIOError:
                continue
            except OSError as exc:  # EIO: nothing holds the other end any more
                raise TerminalFailed(f"the terminal closed under the app ({exc})") from None

    def resize(self, size: tuple[int, int]) -> None:
        """What a terminal does when its window changes size."""
        with self.lock:
            set_window_size(self.master, size)
            self.screen.resize(size[1], size[0])
            self.size = size
        os.kill(self.proc.pid, signal.SIGWINCH)

    def lines(self) -> list[str]:
        """What the screen shows now, line by line."""
        with self.lock:
            return shown_lines(self.screen)

    def text(self) -> str:
        """What the screen shows now."""
        return "\n".join(self.lines())

    def quiet_for(self) -> float:
        """Seconds since the program last wrote anything."""
        with self.lock:
            return time.monotonic() - self.last_output

    def modes(self) -> list[Any]:
        """The terminal's settings now."""
        return termios.tcgetattr(self.master)

    def output(self) -> bytes:
        """What the program has written, as far as it is kept (`keep`)."""
        with self.lock:
            return bytes(self.tail)

    def wait_for(
        self, shows: Callable[[list[str]], object], timeout: float = DEADLINE
    ) -> object | None:
        """Wait until ``shows`` finds what it looks for on the screen (its answer, not
        None or False) and the output pauses, or has gone on for `BUSY` seconds; the
        answer, or None if it never came or the program ended."""
        start = time.monotonic()
        deadline = start + timeout
        found: object | None = None
        seen = -1
        while time.monotonic() < deadline and self.proc.poll() is None:
            with self.lock:
                if seen != self.received:  # the screen changed: look again
                    found = shows(shown_lines(self.screen)) or None
                    seen = self.received
                now = time.monotonic()
                quiet = now - self.last_output
            if found is not None and (quiet >= QUIET or now - start >= BUSY):
                return found
            time.sleep(0.02)
        return found if self.proc.poll() is None else None

    def wait_exit(self, timeout: float) -> int | None:
        """The exit status, once the program has ended; None if it has not in time."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stray_processes(self) -> bool:
        """Whether anything the program started is still running in its process group."""
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                os.killpg(self.proc.pid, 0)
            except ProcessLookupError:
                return False
            time.sleep(0.05)
        return True

    def after_exit(self) -> str:
        """What was shown after the program left the alternate screen."""
        self.reader.join(2)
        tail = self.output()
        end = tail.rfind(ALT_SCREEN_OFF)
        return visible(tail[end + len(ALT_SCREEN_OFF) :] if end >= 0 else tail)

    def hang_up(self) -> None:
        """Close the terminal under the program, as a window closes, without a signal."""
        self.closed.set()
        self.reader.join(2)
        os.close(self.master)
        self.master = -1

    def close(self) -> None:
        """Kill the program's whole process group and stop reading."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)
        if self.master >= 0:
            self.hang_up()

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def wait_until(condition: Callable[[], object], what: str, deadline: float = DEADLINE) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` if it has not by the deadline."""
    end = time.monotonic() + deadline
    while not condition():
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.05)


def game_in_a_terminal(
    data: Path, *args: str, size: tuple[int, int] = (100, 30), ready: str = "Your move"
) -> Terminal:
    """`python -m ttt_tui` from this clone, with no thinking delay and seed 7, in a
    pseudo-terminal, once it shows ``ready`` (it asks for a move)."""
    command = game_command("--ai-delay", "0", "--seed", "7", *args)
    terminal = Terminal(command, game_env(data), size)
    assert terminal.wait_for(lambda lines: ready in "\n".join(lines)), terminal.text()
    return terminal


# Processes ----------------------------------------------------------------------


def child_pids(pid: int) -> set[int]:
    """The running processes whose parent is ``pid`` (Linux's /proc)."""
    pids = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        if fields[0] != "Z" and int(fields[1]) == pid:
            pids.add(int(stat.parent.name))
    return pids


def running(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, ended but not yet reaped, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"
