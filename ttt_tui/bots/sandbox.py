"""A learner's bot in a process of its own (`Bot`), for `ttt-tui check` and the game.

A Python file runs under `ttt_tui.bots.host`; any other program speaks the line
protocol (a position a line in, a square a line out). Every answer has a time
limit; a bot that hangs, crashes or exits is killed if need be and started again
for the next position, so nothing it does can stop ttt-tui. The calls block:
`ttt-tui check` makes them in turn, the game in a thread (`ttt_tui.bots.player`).

No UI imports.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from ttt_tui.engine import Board
from ttt_tui.teach.check import Answer, Problem, read_answer

DEFAULT_TIMEOUT = 2.0
"""Seconds a bot has for each answer unless told otherwise."""

START_SECONDS = 10.0
"""Seconds a Python bot has to load (import its file) before it counts as broken."""


MINIMAX_IS_3X3 = "minimax(board) is CS50's 3x3 convention"
"""Why a ``minimax(board)`` bot plays no bigger board."""


class BotUnusable(Exception):
    """The bot cannot be loaded at all; the message says why."""


GONE = (OSError, subprocess.SubprocessError, ValueError)
"""What stopping a process that has already gone can raise."""


class Bot:
    """A bot in a process of its own, started again whenever it dies or hangs."""

    def __init__(self, command: list[str], timeout: float, *, hosted: bool) -> None:
        self.command = command
        self.timeout = timeout
        self.hosted = hosted
        """Whether it is a Python file under `ttt_tui.bots.host`, which answers
        in JSON; else a command answering squares."""
        self.kind = "command"
        """``minimax`` or ``choose_move`` for a Python file (as it says once loaded),
        ``command`` for a command."""
        self.process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._ended = False
        """Whether the last read found the bot's output ended."""
        self._answered = 0
        """Positions the running process has answered."""

    def can_play(self, n: int) -> bool:
        """Whether the bot's convention has a board of ``n`` squares a side: CS50's
        ``minimax(board)`` is 3x3's alone (`MINIMAX_IS_3X3`)."""
        return self.kind != "minimax" or n == 3

    # The process.

    def start(self) -> None:
        """Start the bot; a Python one must say it loaded, or `BotUnusable`."""
        self.stop()
        # Kept open as long as the bot runs: its stderr, read when it fails.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115
        self._answered = 0
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            start_new_session=True,
        )
        self._buffer = b""
        if self.hosted:
            line = self._read_line(max(START_SECONDS, self.timeout))
            message = _json(line) if line is not None else None
            if message is None or "ready" not in message:
                reason = (message or {}).get("fatal") or self.stderr_text() or "it did not start"
                self.stop()
                raise BotUnusable(str(reason).strip().splitlines()[-1])
            self.kind = str(message["ready"])

    def stop(self) -> None:
        """Kill the bot and everything it started, and let go of its pipes."""
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(*GONE):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(*GONE):
                process.wait(timeout=5)
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(*GONE):
                    if stream is not None:
                        stream.close()

    def kill(self) -> None:
        """Kill the bot and everything it started, and only that: safe from another
        thread while one asks (its read then ends, and it tidies up)."""
        process = self.process
        if process is not None:
            with contextlib.suppress(*GONE):
                os.killpg(process.pid, signal.SIGKILL)

    def stderr_text(self) -> str:
        """What the bot wrote on standard error so far (its last 4,000 characters)."""
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", errors="replace")[-4000:]

    # One position.

    def ask(self, board: Board) -> Answer:
        """The bot's answer for ``board``, whatever it does. A process that answered
        before and then ended without answering this one (a program that answers
        once and exits) is started again and asked afresh."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        answered_before = self._answered > 0
        answer = self._ask(board)
        if answered_before and self._ended and answer.problem is Problem.ERROR:
            self.start()
            answer = self._ask(board)
        return answer

    def _ask(self, board: Board) -> Answer:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(f"{board}\n".encode())
            self.process.stdin.flush()
        except OSError:
            self._ended = True
            return self._died(board)
        line = self._read_line(self.timeout)
        if line is None:
            if not self._ended:
                self.stop()
                return Answer(
                    board, problem=Problem.TIMEOUT, detail=f"no answer in {self.timeout:g} s"
                )
            return self._died(board)
        self._answered += 1
        if self.hosted:
            message = _json(line)
            if message is None:
                return Answer(board, problem=Problem.ERROR, detail=f"unreadable reply {line!r}")
            if "error" in message:
                return Answer(board, problem=Problem.ERROR, detail=str(message["error"]))
            answer, changed = message.get("answer"), bool(message.get("changed"))
        else:
            answer, changed = line.strip(), False
        cell, why = read_answer(board, self.kind, answer)
        if cell is None:
            return Answer(board, problem=Problem.ILLEGAL, detail=why, changed_board=changed)
        return Answer(board, cell=cell, changed_board=changed)

    def _died(self, board: Board) -> Answer:
        """The bot ended without answering: its exit status and what it wrote on
        standard error."""
        status = None
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = self.process.wait(timeout=1)
        ended = "it ended" if status is None else f"it exited with status {status}"
        detail = "\n".join(filter(None, [self.stderr_text().strip(), f"{ended} without answering"]))
        self.stop()
        return Answer(board, problem=Problem.ERROR, detail=detail)

    def _read_line(self, seconds: float) -> str | None:
        """One line from the bot within ``seconds``; None if none came, and then
        `_ended` says whether its output ended (it exited) or time ran out."""
        assert self.process is not None and self.process.stdout is not None
        stream = self.process.stdout
        deadline = time.monotonic() + seconds
        self._ended = False
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(stream.fileno(), 65536)
                if not chunk:
                    self._ended = True
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")


def _json(line: str | None) -> dict[str, Any] | None:
    if line is None:
        return None
    try:
        found = json.loads(line)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def load_bot(
    file: str | None, command: str | None, timeout: float = DEFAULT_TIMEOUT, *, option: str
) -> Bot:
    """The bot in a Python ``file`` or run by a shell ``command`` (one of the two),
    not yet started; raises `BotUnusable` when neither or both are given, or there
    is no such file. ``option`` is the command line's name for the command."""
    if command is not None:
        if file is not None:
            raise BotUnusable(f"give a BOT file or {option}, not both")
        return Bot(["/bin/sh", "-c", command], timeout, hosted=False)
    if file is None:
        raise BotUnusable(
            f"give a BOT file (a Python file with minimax or choose_move) or {option}"
        )
    path = Path(file)
    if not path.is_file():
        raise BotUnusable(f"{file}: no such file")
    host = [sys.executable, "-m", "ttt_tui.bots.host", str(path.resolve())]
    return Bot(host, timeout, hosted=True)
