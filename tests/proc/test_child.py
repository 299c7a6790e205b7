"""`ttt_tui.proc`: a child process spoken to in frames, read with a deadline that loses
nothing, its end told apart from a time-out, its stderr kept, killed with everything it
started; and the loop in a thread that runs it for the command-line tools."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from tests.support.terminal import running
from ttt_tui.proc.child import STDERR_KEPT, Blocking, Child, ChildEnded
from ttt_tui.proc.frames import LINES, LONGEST_LINE, PICKLES


def python(source: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(source)]


ECHO = python(
    """
    import sys
    for line in sys.stdin:
        print(line.strip().upper(), flush=True)
    """
)


def test_lines_are_cut_where_they_end_and_the_rest_waits() -> None:
    buffer = bytearray(b"one\r\ntw\xffo\nthr")
    assert LINES.decode(buffer) == ["one", "tw\ufffdo"]
    assert buffer == b"thr"
    buffer += b"ee\n"
    assert LINES.decode(buffer) == ["three"]
    endless = bytearray(b"x" * (LONGEST_LINE + 10))
    assert [len(line) for line in LINES.decode(endless)] == [LONGEST_LINE]


def test_pickled_frames_come_whole_whatever_the_pieces() -> None:
    data = PICKLES.encode(("job", [1, 2])) + PICKLES.encode(None)
    buffer = bytearray()
    found = []
    for byte in data:
        buffer.append(byte)
        found += PICKLES.decode(buffer)
    assert found == [("job", [1, 2]), None]
    assert buffer == b""


async def test_messages_go_and_come_back_in_order() -> None:
    child = Child(ECHO, LINES)
    await child.start()
    try:
        for word in ("a1", "b2", "c3"):
            child.send(word)
        assert [await child.receive(10) for _ in range(3)] == ["A1", "B2", "C3"]
    finally:
        await child.stop()


async def test_a_time_out_loses_nothing_and_the_end_is_not_a_time_out() -> None:
    child = Child(
        python(
            """
            import sys, time
            sys.stdin.readline()
            time.sleep(0.5)
            print("late", flush=True)
            print("a word on stderr", file=sys.stderr, flush=True)
            sys.exit(3)
            """
        ),
        LINES,
    )
    await child.start()
    child.send("go")
    with pytest.raises(TimeoutError):
        await child.receive(0.05)
    assert await child.receive(10) == "late"
    with pytest.raises(ChildEnded):
        await child.receive(10)
    with pytest.raises(ChildEnded):  # and it stays ended
        await child.receive(0)
    assert await child.wait(10) == 3
    assert "a word on stderr" in child.stderr
    with pytest.raises(ChildEnded):
        child.send("anyone?")


async def test_only_the_end_of_a_long_stderr_is_kept() -> None:
    child = Child(python("import sys; sys.stderr.write('x' * 100000 + 'the end')"), LINES)
    await child.start()
    await child.wait(10)
    with pytest.raises(ChildEnded):
        await child.receive(10)
    assert len(child.stderr) == STDERR_KEPT
    assert child.stderr.endswith("the end")


async def test_kill_ends_the_child_and_what_it_started_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At once, and quietly: asyncio alone reaps the child, so its watcher never warns
    of a child it did not know (a line that would land on the game's screen)."""
    child = Child(
        python(
            """
            import subprocess, sys, time
            grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            print(grandchild.pid, flush=True)
            time.sleep(60)
            """
        ),
        LINES,
    )
    await child.start()
    grandchild = int(await child.receive(10))
    pid = child.pid
    assert pid is not None and running(grandchild)
    started = time.monotonic()
    assert await child.stop() is not None
    assert time.monotonic() - started < 2
    for _ in range(100):
        if not running(grandchild):
            break
        await asyncio.sleep(0.02)
    assert not running(grandchild) and not running(pid)
    with pytest.raises(ChildEnded):
        await child.receive(0)
    for _ in range(20):  # the warning came from a race, so give it many chances
        child = Child(ECHO, LINES)
        await child.start()
        child.send("ready?")
        assert await child.receive(10) == "READY?"
        await child.stop()
    await asyncio.sleep(0.1)
    assert [record.getMessage() for record in caplog.records if record.name == "asyncio"] == []


async def test_killing_a_child_leaves_reaping_it_to_asyncio(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Popen.poll()` can reap a child that has just exited before asyncio's child
    watcher does, which then writes "Unknown child process pid N" on standard error
    (seen in check's output, about one run in three): stopping a child never polls it."""
    child = Child(python("import time; time.sleep(60)"), LINES)
    await child.start()
    polled: list[int] = []
    poll = subprocess.Popen.poll

    def watched(self: subprocess.Popen[bytes]) -> int | None:
        polled.append(self.pid)
        return poll(self)

    monkeypatch.setattr(subprocess.Popen, "poll", watched)
    assert await child.stop() == -signal.SIGKILL
    assert polled == []


async def test_a_program_that_is_not_there_cannot_start() -> None:
    with pytest.raises(OSError):
        await Child(["/nonexistent/program"], LINES).start()


def test_blocking_runs_a_child_for_code_without_a_loop() -> None:
    async def echo(word: str) -> str:
        child = Child(ECHO, LINES)
        await child.start()
        try:
            child.send(word)
            answer: str = await child.receive(10)
            return answer
        finally:
            await child.stop()

    with Blocking() as loop:
        assert loop.run(echo("b2")) == "B2"
        assert loop.run(echo("c3")) == "C3"


def test_blocking_cancels_what_it_waited_for_when_interrupted() -> None:
    """^C while `check` waits for a bot: the wait ends, and so does what it waited for."""
    cancelled = threading.Event()

    async def wait_for_ever() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    main = threading.get_ident()
    timer = threading.Timer(0.2, signal.pthread_kill, (main, signal.SIGINT))
    with Blocking() as loop:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            loop.run(wait_for_ever())
    assert cancelled.is_set()
