"""A learner's bot in a process of its own (`Bot`), for `ttt-tui check` and the game.

A Python file runs under `ttt_tui.bots.host`; any other program speaks the line
protocol (a position a line in, a square a line out). Both run as a
`ttt_tui.proc.child.Child`. `Bot.ask` gives the bot's reply as the bot gave it
(`Reply`): what it means, and whether it is any good, is for its caller to say.
Every answer has a time limit; a bot that hangs, crashes or exits is killed if
need be and started again for the next position, so nothing it does can stop
ttt-tui. Each of its processes runs jailed (`ttt_tui.bots.sandbox`). A command's
line that names no square is taken for that position's answer and the bot is
started again, so that its real answer, coming later, cannot be taken for the
next position's.

No UI imports.
"""

from __future__ import annotations

import asyncio
import enum
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ttt_tui.bots import sandbox
from ttt_tui.bots.sandbox import Jail, Program
from ttt_tui.engine import Board
from ttt_tui.engine.board import UNKNOWN, read_square
from ttt_tui.proc.child import Child, ChildEnded
from ttt_tui.proc.frames import LINES

START_SECONDS = 10.0
"""Seconds a Python bot has to load (import its file) before it counts as broken."""

CANNOT_RUN = (126, 127)
"""The shell's exit statuses for a program it cannot run or cannot find."""

MINIMAX_IS_3X3 = "minimax(board) is CS50's 3x3 convention"
"""Why a ``minimax(board)`` bot plays no bigger board."""


UNFLUSHED = (
    ": a program must flush its output after each line (fflush(stdout) in C, flush=True in Python)"
)
"""Added to the time-out of a command that has not answered once: its answers may be
waiting in an output buffer, the usual cause."""


class BotUnusable(Exception):
    """The bot cannot be loaded at all; the message says why."""


class Failure(enum.Enum):
    """Why a bot gave no answer to a position."""

    TIMEOUT = "timeout"
    """It did not answer in time (and was stopped)."""
    ERROR = "error"
    """It raised, exited, or replied with what is no reply."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What a bot did with one position, as it did it."""

    board: Board
    said: Any = None
    """Its answer as it gave it: a ``[row, col]`` pair, a number or a name from a
    Python file, the line a command wrote; None when it failed."""
    failure: Failure | None = None
    detail: str = ""
    """For a failure: what happened (the traceback, its standard error, its exit)."""
    changed_board: bool = False
    """Whether it wrote on the board it was given (a Python file's ``minimax``)."""
    seconds: float = 0.0
    """How long it took, from the position sent to its reply (or to giving up)."""
    stray: tuple[str, ...] = ()
    """Lines a command wrote after its previous answer, before this position was sent:
    no answer to anything."""


CALL_BATCH = 500
"""Positions sent in one call of a CS50 function (`Bot.call`): few enough that a reply
stays well under the longest line read, and a slow function still answers in time."""


@dataclass(frozen=True, slots=True)
class _Lost:
    """No answer came: why (`Failure`, in words), and whether the bot exited with
    status 0."""

    failure: Failure
    detail: str
    cleanly: bool


@dataclass(frozen=True, slots=True)
class Called:
    """What one of a CS50 file's functions (``winner``, ...) gave for a list of positions."""

    values: list[dict[str, Any]]
    """One for each position answered, in order, as `ttt_tui.bots.host` sent it:
    ``value`` (plain JSON), ``other`` (a repr) or ``raised``, and ``changed``."""
    missing: bool = False
    """Whether the file has no such function."""
    failure: Failure | None = None
    detail: str = ""
    """For a failure (the positions after the last answered were not asked): why."""


class Bot:
    """A bot in a process of its own, started again whenever it dies or hangs.

    Its coroutines are called one at a time, from one event loop.
    """

    def __init__(self, program: Program, timeout: float, *, hosted: bool, name: str) -> None:
        self.program = program
        self.timeout = timeout
        self.hosted = hosted
        """Whether it is a Python file under `ttt_tui.bots.host`, which answers
        in JSON; else a command answering squares."""
        self.kind = "command"
        """``minimax`` or ``choose_move`` for a Python file (as it says once loaded),
        ``command`` for a command."""
        self.name = name
        """How the bot is named to the user: its file, or its command."""
        self._child: Child | None = None
        self._jail: Jail | None = None
        self._answered = 0
        """Positions the running process has answered."""
        self._ever_answered = False
        """Whether any of its processes has answered a position."""

    def can_play(self, n: int) -> bool:
        """Whether the bot's convention has a board of ``n`` squares a side: CS50's
        ``minimax(board)`` is 3x3's alone (`MINIMAX_IS_3X3`)."""
        return self.kind != "minimax" or n == 3

    @property
    def pid(self) -> int | None:
        """The bot's process id, while it runs."""
        return None if self._child is None else self._child.pid

    async def start(self) -> None:
        """Start the bot; `BotUnusable` if it cannot run, or a Python one does not
        say it loaded."""
        await self.stop()
        jail = sandbox.here().jail(self.program)
        child = Child(jail.argv, LINES, env=jail.env, cwd=jail.cwd)
        try:
            await child.start()
        except OSError as exc:
            jail.close()
            raise BotUnusable(f"{jail.argv[0]}: {exc.strerror or exc}") from None
        self._child, self._jail, self._answered = child, jail, 0
        if not self.hosted:
            return
        loading = max(START_SECONDS, self.timeout)
        try:
            message = _json(await child.receive(loading))
        except TimeoutError:
            await self.stop()
            raise BotUnusable(
                f"{self.name} did not finish loading in {loading:g} s: an endless loop, or a"
                " game played as the file is loaded? (put it under"
                ' if __name__ == "__main__":)'
            ) from None
        except ChildEnded:
            message = None
        if message is None or "ready" not in message:
            await child.wait(1.0)
            reason = (message or {}).get("fatal") or child.stderr.strip() or "it did not start"
            await self.stop()
            raise BotUnusable(str(reason).strip().splitlines()[-1])
        self.kind = str(message["ready"])

    async def stop(self) -> None:
        """Kill the bot and everything it started, and remove its directory."""
        child, self._child = self._child, None
        jail, self._jail = self._jail, None
        if child is not None:
            await child.stop()
        if jail is not None:
            await asyncio.to_thread(jail.close)

    def kill(self) -> None:
        """Kill the bot and everything it started, at once: an answer awaited ends
        as the bot's death."""
        if self._child is not None:
            self._child.kill()

    async def ask(self, board: Board, limit: float | None = None) -> Reply:
        """The bot's reply for ``board``, whatever it does, within ``limit`` seconds
        (its `timeout` unless less is given). A process that answered before and then
        exited cleanly (status 0) without answering this one, a program that answers
        once and exits, is started again and asked afresh; any other death is this
        position's error."""
        if self._child is None or not self._child.running:
            await self.start()
        answered_before = self._answered > 0
        seconds = self.timeout if limit is None else min(limit, self.timeout)
        reply, exited_cleanly = await self._ask(board, seconds)
        if answered_before and exited_cleanly:
            await self.start()
            reply, exited_cleanly = await self._ask(board, seconds)
        return reply

    async def _ask(self, board: Board, limit: float) -> tuple[Reply, bool]:
        """The reply, and whether the bot's output ended without one as the bot exited
        with status 0."""
        child = self._child
        assert child is not None
        stray = tuple(line.strip() for line in child.received())  # after its last answer
        started = time.monotonic()
        never = not self.hosted and not self._ever_answered
        line = await self._exchange(board, limit, UNFLUSHED if never else "")
        if isinstance(line, _Lost):
            if line.failure is Failure.TIMEOUT:
                return Reply(board, failure=line.failure, detail=line.detail, seconds=limit), False
            return Reply(board, failure=line.failure, detail=line.detail, stray=stray), line.cleanly
        seconds = time.monotonic() - started
        self._answered += 1
        self._ever_answered = True
        if not self.hosted:
            said = line.strip()
            if read_square(said.lower(), board.n) == UNKNOWN:
                await self.stop()  # its answer may yet come: never the next position's
            return Reply(board, said=said, seconds=seconds, stray=stray), False
        message = _json(line)
        if message is None:
            unreadable = f"unreadable reply {line!r}"
            return Reply(board, failure=Failure.ERROR, detail=unreadable, seconds=seconds), False
        if "error" in message:
            error = _explained(str(message["error"]), said=str(message["error"]), status=None)
            return Reply(board, failure=Failure.ERROR, detail=error, seconds=seconds), False
        changed = bool(message.get("changed"))
        answer = message.get("answer")
        return Reply(board, said=answer, changed_board=changed, seconds=seconds), False

    async def _exchange(self, request: object, limit: float, late: str) -> str | _Lost:
        """Send ``request`` to the running bot and read its answer within ``limit``
        seconds; if none comes, the bot is stopped and the loss says why (``late``
        is added to a time-out's words)."""
        child = self._child
        assert child is not None
        try:
            child.send(request)
            line: str = await child.receive(limit)  # a line: the bot speaks `LINES`
            return line
        except ChildEnded:
            status = await child.wait(1.0)
            said = child.stderr.strip()
            await self.stop()
            if not self.hosted and self._answered == 0 and status in CANNOT_RUN:
                last = said.splitlines()[-1] if said else "cannot be run"
                raise BotUnusable(f"{self.name}: {last}") from None
            ended = "it ended" if status is None else f"it exited with status {status}"
            detail = "\n".join(filter(None, [said, f"{ended} without answering"]))
            detail = _explained(detail, said=said, status=status)
            return _Lost(Failure.ERROR, detail, cleanly=status == 0)
        except TimeoutError:
            await self.stop()
            return _Lost(Failure.TIMEOUT, f"no answer in {limit:g} s{late}", cleanly=False)

    async def call(
        self, name: str, boards: list[Board], actions: list[tuple[int, int]] | None = None
    ) -> Called:
        """What a CS50 file's function ``name`` gives for each of ``boards`` (and for
        ``result``, each of ``actions``), asked `CALL_BATCH` at a time, each batch
        within the time limit. A Python file's bot only."""
        assert self.hosted
        values: list[dict[str, Any]] = []
        for start in range(0, len(boards), CALL_BATCH):
            request: dict[str, Any] = {
                "call": name,
                "positions": [str(board) for board in boards[start : start + CALL_BATCH]],
            }
            if actions is not None:
                request["actions"] = actions[start : start + CALL_BATCH]
            if self._child is None or not self._child.running:
                await self.start()
            count = len(request["positions"])
            line = await self._exchange(json.dumps(request), self.timeout, f" to {count} calls")
            if isinstance(line, _Lost):
                return Called(values, failure=line.failure, detail=line.detail)
            message = _json(line)
            if message is not None and message.get("missing"):
                return Called([], missing=True)
            batch = None if message is None else message.get("values")
            if not isinstance(batch, list):
                return Called(values, failure=Failure.ERROR, detail=f"unreadable reply {message!r}")
            values += batch
        return Called(values)


def _explained(detail: str, *, said: str, status: int | None) -> str:
    """``detail``, and under it the limit that ended the answer if one did, as told
    from what the bot ``said`` last and its exit ``status``."""
    limit = sandbox.here().limit_hit(said, status)
    return f"{detail.rstrip()}\n{limit}" if limit else detail


def _json(line: str | None) -> dict[str, Any] | None:
    if line is None:
        return None
    try:
        found = json.loads(line)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def shell(command: str) -> list[str]:
    """How the system's shell runs ``command``: ``sh -c``, or ``cmd /c`` on Windows."""
    if os.name == "nt":
        return [os.environ.get("COMSPEC", "cmd.exe"), "/c", command]
    return ["/bin/sh", "-c", command]


def load_bot(file: str | None, command: str | None, timeout: float, *, option: str) -> Bot:
    """The bot in a Python ``file`` or run by a shell ``command`` (one of the two),
    not yet started; raises `BotUnusable` when neither or both are given, the
    command is empty, or the file is not a Python file. ``option`` is the command
    line's name for the command."""
    if command is not None:
        if file is not None:
            raise BotUnusable(f"give a BOT file or {option}, not both")
        if not command.strip():
            raise BotUnusable(f"{option} is empty: give the command that runs your bot")
        program = sandbox.command(shell(command), command)
        return Bot(program, timeout, hosted=False, name=f"{option} {command!r}")
    if file is None:
        raise BotUnusable(
            f"give a BOT file (a Python file with minimax or choose_move) or {option}"
        )
    path = Path(file)
    if path.is_dir():
        raise BotUnusable(f"{file} is a directory: give the Python file in it")
    if not path.is_file():
        raise BotUnusable(f"{file}: no such file")
    if path.suffix != ".py":
        raise BotUnusable(
            f"{file} is not a Python file (.py): a program in another language runs"
            f' with {option} "COMMAND"'
        )
    return Bot(sandbox.python_file(path), timeout, hosted=True, name=file)
