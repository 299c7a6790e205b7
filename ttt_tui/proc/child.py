"""A child process spoken to in messages, from asyncio: the one way ttt-tui runs one.

`Child` starts a program with the event loop's ``subprocess_exec`` and a protocol
of its own (python-chess's engine protocol is the model): messages are written
to its standard input and read back from its standard output, cut into frames
by a codec (`ttt_tui.proc.frames`); what it writes on standard error is kept,
its last `STDERR_KEPT` characters, to say why it failed. It runs in a process
group of its own (a new session on POSIX, a new process group on Windows), so
the terminal's interrupt is the app's alone and `kill` ends the child and
everything it started.

`Blocking` runs these coroutines for code that has no event loop (the
command-line tools), on a loop in a thread of its own.

What asyncio's `asyncio.subprocess.Process` lacks here: a framing other than
lines, reading with a deadline that never loses half a frame, a kill of the
whole process group, and the end of the output told apart from a time-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ttt_tui.proc.frames import Codec

STDERR_KEPT = 4000
"""How many of the last characters a child wrote on standard error are kept."""

_T = TypeVar("_T")

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder holding this copy of the ttt_tui package."""


def python_module(module: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run ``module`` of this copy of ttt-tui,
    installed or not, in a fresh Python: its folder first on the module path
    (``PYTHONPATH``), and never the current folder (``-P``), where ``python -m`` would
    otherwise find a ``ttt_tui`` folder of another copy first (a clone, say)."""
    path = os.pathsep.join(filter(None, [PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))
    return [sys.executable, "-P", "-m", module], {**os.environ, "PYTHONPATH": path}


class ChildEnded(Exception):
    """The child's output has ended (it exited, or was killed); nothing more will come."""


class _Protocol(asyncio.SubprocessProtocol):
    """Cuts the child's output into messages for `Child.receive`; keeps its stderr."""

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.messages: asyncio.Queue[Any] = asyncio.Queue()
        self.ended = False
        self.exited: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._out = bytearray()
        self._err = bytearray()
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        # The child has exited and its pipes have ended: closing reaps nothing twice.
        if self._transport is not None:
            self._transport.close()

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 2:
            self._err += data
            del self._err[: -STDERR_KEPT * 4]
            return
        self._out += data
        try:
            for message in self.codec.decode(self._out):
                self.messages.put_nowait(message)
        except Exception:  # a frame that cannot be read: the output is no use after it
            self._out.clear()
            self.end()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self.end()

    def process_exited(self) -> None:
        if not self.exited.done():
            self.exited.set_result(None)

    def end(self) -> None:
        """No more messages: the output has ended, or the child was killed."""
        if not self.ended:
            self.ended = True
            self.messages.put_nowait(_END)

    @property
    def stderr(self) -> str:
        return self._err.decode("utf-8", errors="replace")[-STDERR_KEPT:]


_END = object()
"""Put on the queue of messages once the child's output has ended."""


class Child:
    """One child process: `start` it, `send` and `receive` messages, `stop` or `kill` it.

    Use it from one event loop; `kill` may also be called when that loop has
    stopped.
    """

    def __init__(
        self,
        argv: Sequence[str],
        codec: Codec,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.argv = list(argv)
        self.codec = codec
        self.env = None if env is None else dict(env)
        self.cwd = cwd
        self._transport: asyncio.SubprocessTransport | None = None
        self._protocol: _Protocol | None = None

    async def start(self) -> None:
        """Start the program; `OSError` if it cannot be (no such program, say)."""
        loop = asyncio.get_running_loop()
        apart: dict[str, Any] = (
            {"start_new_session": True}
            if os.name == "posix"
            else {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
        )
        transport, protocol = await loop.subprocess_exec(
            lambda: _Protocol(self.codec),
            *self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            **apart,
        )
        self._transport, self._protocol = transport, protocol

    @property
    def pid(self) -> int | None:
        """The child's process id, once started."""
        return None if self._transport is None else self._transport.get_pid()

    @property
    def running(self) -> bool:
        """Whether the child was started and its output has not ended."""
        return self._protocol is not None and not self._protocol.ended

    @property
    def stderr(self) -> str:
        """The last `STDERR_KEPT` characters the child wrote on standard error."""
        return "" if self._protocol is None else self._protocol.stderr

    @property
    def returncode(self) -> int | None:
        """The child's exit status, once it has exited (negative: killed by that signal)."""
        return None if self._transport is None else self._transport.get_returncode()

    def send(self, message: Any) -> None:
        """Write ``message`` to the child's standard input; `ChildEnded` if it has gone."""
        pipe = None if self._transport is None else self._transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing() or self._transport is None or not self.running:
            raise ChildEnded
        assert isinstance(pipe, asyncio.WriteTransport)
        pipe.write(self.codec.encode(message))

    async def receive(self, timeout: float | None = None) -> Any:
        """The child's next message; `TimeoutError` when none came within ``timeout``
        seconds (nothing is lost: a message still arriving is the next one read),
        `ChildEnded` once its output has ended."""
        protocol = self._protocol
        if protocol is None:
            raise ChildEnded
        if protocol.messages.empty():
            message = await asyncio.wait_for(protocol.messages.get(), timeout)
        else:
            message = protocol.messages.get_nowait()
        if message is _END:
            protocol.messages.put_nowait(_END)
            raise ChildEnded
        return message

    def received(self) -> list[Any]:
        """The messages that have arrived and not yet been received, taken now; none
        is waited for."""
        protocol = self._protocol
        found: list[Any] = []
        while protocol is not None and not protocol.messages.empty():
            message = protocol.messages.get_nowait()
            if message is _END:  # it stays the last thing `receive` finds
                protocol.messages.put_nowait(_END)
                break
            found.append(message)
        return found

    def close_input(self) -> None:
        """Close the child's standard input: a child reading it sees its end."""
        pipe = None if self._transport is None else self._transport.get_pipe_transport(0)
        if pipe is not None:
            pipe.close()

    async def wait(self, timeout: float | None = None) -> int | None:
        """The exit status once the child has exited; None if it has not within ``timeout``."""
        if self._protocol is None:
            return None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._protocol.exited), timeout)
        return self.returncode

    async def stop(self, grace: float = 0.0) -> int | None:
        """End the child: its input closed, ``grace`` seconds to exit by itself, then
        `kill`; its exit status."""
        if self._transport is None:
            return None
        self.close_input()
        if grace > 0:
            await self.wait(grace)
        self.kill()
        status = await self.wait(5.0)
        if status is not None:
            self._transport.close()  # its status is known: closing reaps nothing twice
        return status

    def kill(self) -> None:
        """Kill the child and every process in its group, at once. Only a signal: the
        child is reaped, and its pipes let go, by the event loop (`asyncio` alone
        may wait for it, or its watcher warns of an unknown child)."""
        transport = self._transport
        if transport is None:
            return
        pid = transport.get_pid()
        if os.name == "posix":
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            if transport.get_returncode() is None:  # a leader that left its group
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        else:
            with contextlib.suppress(OSError, RuntimeError):  # RuntimeError: the loop closed
                transport.kill()
        if self._protocol is not None:
            self._protocol.end()


class Blocking:
    """An event loop in a thread of its own, running coroutines for code without one.

    ``with Blocking() as loop: loop.run(child.start())``. An interrupt
    (`KeyboardInterrupt`) while waiting cancels the coroutine it waited for.
    """

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="ttt-tui processes", daemon=True
        )
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        """Run ``coroutine`` on the loop and wait for its result."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def close(self) -> None:
        """Cancel what still runs on the loop, wait for it to end, and stop the loop."""
        if self._loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(_cancel_the_rest(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> Blocking:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def _cancel_the_rest() -> None:
    """Cancel every other task on this loop and wait for them to end."""
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)
