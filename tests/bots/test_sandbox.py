"""`ttt_tui.bots.sandbox`: each promise of docs/check.md's "The sandbox" proven by a
probe bot in a real jail, a Python file and a command alike: its own directory,
gone after; the caller's environment unseen; writes elsewhere and sockets refused
under bubblewrap; memory, CPU time and file size limited; a fork bomb contained.
And where bubblewrap is missing or cannot run, `check` says once what is off."""

from __future__ import annotations

import json
import os
import socket
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.terminal import ROOT, run_main, wait_until
from ttt_tui.bots import sandbox
from ttt_tui.bots.bot import Bot, Failure, Reply, load_bot
from ttt_tui.bots.sandbox import Sandbox
from ttt_tui.engine import Board

EMPTY = Board.parse(".........")

PROBE = """
import json, os, socket, sys


def probe():
    found = {"cwd": os.getcwd(), "tmp": os.environ["TMPDIR"], "environment": sorted(os.environ)}
    own = os.path.join(os.environ["TMPDIR"], "mine.txt")  # a command starts elsewhere
    for name, path in (("own", own), ("outside", OUTSIDE), ("home", HOME)):
        try:
            with open(path, "w") as file:
                file.write("written")
            found[name] = "written"
        except OSError as exc:
            found[name] = exc.strerror
    try:
        socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
        found["socket"] = "connected"
    except OSError as exc:
        found["socket"] = exc.strerror or str(exc)
    return found


def choose_move(position):
    raise RuntimeError(json.dumps(probe()))


if __name__ == "__main__":
    for line in sys.stdin:
        print(json.dumps(probe()), flush=True)
"""
"""Reports what it could do: as a Python file by raising it, as a command by answering it."""

SECRET = "TTT_PROBE_SECRET"


def jailed_or_skip() -> Sandbox:
    """This machine's sandbox with bubblewrap; the test is skipped without, but fails
    under CI, which installs it."""
    here = sandbox.here()
    if here.bwrap is None:
        message = f"no sandbox to prove: {here.why_not}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI must run this test; .ci/run installs bubblewrap)")
        pytest.skip(message)
    return here


@pytest.fixture(params=["bubblewrap", "no bubblewrap"])
def kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each probe with bubblewrap, and with the sandbox bubblewrap-less as where it is missing."""
    if request.param == "bubblewrap":
        jailed_or_skip()
    else:
        bare = Sandbox(None, "bubblewrap is hidden by the test")
        monkeypatch.setattr(sandbox, "here", lambda: bare)
    yield request.param


def bot_for(tmp_path: Path, source: str, *, command: bool = False, timeout: float = 30) -> Bot:
    path = tmp_path / "probe.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    if command:
        return load_bot(None, f"{sys.executable} {path}", timeout, option="--cmd")
    return load_bot(str(path), None, timeout, option="--cmd")


async def asked(bot: Bot, board: Board = EMPTY) -> Reply:
    """The bot's reply to ``board``, the bot stopped after."""
    try:
        return await bot.ask(board)
    finally:
        await bot.stop()


@pytest.fixture
def listening() -> Iterator[socket.socket]:
    """A socket listening on 127.0.0.1, as a local service's would."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.setblocking(False)
        yield server


def connected(server: socket.socket) -> bool:
    """Whether anything connected to ``server``."""
    try:
        server.accept()[0].close()
    except BlockingIOError:
        return False
    return True


@pytest.mark.parametrize("command", [False, True], ids=["python file", "command"])
async def test_a_probe_sees_its_own_directory_and_nothing_of_the_caller_s(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    listening: socket.socket,
    kind: str,
    command: bool,
) -> None:
    monkeypatch.setenv(SECRET, "hunter2")
    outside = tmp_path / "outside.txt"
    home = Path.home() / f"ttt-tui-probe-{os.getpid()}.txt"
    port = listening.getsockname()[1]
    source = f"OUTSIDE = {str(outside)!r}\nHOME = {str(home)!r}\nPORT = {port}\n{PROBE}"
    try:
        reply = await asked(bot_for(tmp_path, source, command=command))
        said = reply.said if command else reply.detail.strip().splitlines()[-1].split(": ", 1)[1]
        found = json.loads(said)
        assert SECRET not in found["environment"]
        assert set(found["environment"]) <= {*sandbox.PASSED, "HOME", "TMPDIR"} | {
            "PYTHONDONTWRITEBYTECODE",
            "PYTHONPATH",
            "PWD",  # the shell's own
            "SHLVL",
            "_",
        }
        assert found["own"] == "written"
        workdir = Path(found["cwd"])
        if kind == "bubblewrap":
            assert found["outside"] in ("Read-only file system", "No such file or directory")
            assert found["home"] == "Read-only file system"
            assert found["socket"] in ("Connection refused", "Network is unreachable")
            assert not connected(listening)
            assert not outside.exists() and not home.exists()
        else:  # what check says is off without bubblewrap
            assert (found["outside"], found["socket"]) == ("written", "connected")
        own = Path(found["tmp"])
        assert own.name.startswith("ttt-tui-bot-")
        assert not own.exists()  # removed once the bot stopped
        # A command starts where ttt-tui was started, so that its relative paths work.
        assert workdir == (Path.cwd() if command else own)
    finally:
        home.unlink(missing_ok=True)


async def test_a_python_bot_imports_what_lies_beside_it(tmp_path: Path, kind: str) -> None:
    (tmp_path / "helper.py").write_text("SQUARE = 5\n", encoding="utf-8")
    bot = bot_for(
        tmp_path, "from helper import SQUARE\n\ndef choose_move(position):\n    return SQUARE\n"
    )
    assert (await asked(bot)).said == 5


@pytest.mark.parametrize("command", [False, True], ids=["python file", "command"])
async def test_a_huge_allocation_ends_the_answer_as_an_error(
    tmp_path: Path, kind: str, command: bool
) -> None:
    source = """
        import sys

        def choose_move(position):
            return len(bytearray(10 * 2**30))

        if __name__ == "__main__":
            for line in sys.stdin:
                print(choose_move(line), flush=True)
    """
    reply = await asked(bot_for(tmp_path, source, command=command))
    assert reply.failure is Failure.ERROR
    assert "MemoryError" in reply.detail
    assert reply.detail.endswith("it ran out of memory: a bot's process has 1,024 MB")


async def test_a_bot_out_of_cpu_time_says_so(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox, "CPU_SECONDS", 1)
    source = "def choose_move(position):\n    while True:\n        pass\n"
    reply = await asked(bot_for(tmp_path, source))
    assert reply.failure is Failure.ERROR
    assert reply.detail.endswith("it ran out of CPU time: a bot's process may use 1 s")


async def test_a_bot_writing_too_large_a_file_says_so(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox, "FILE_BYTES", 2**20)
    source = "def choose_move(position):\n    open('big', 'wb').write(bytes(2 * 2**20))\n"
    reply = await asked(bot_for(tmp_path, source))
    assert "File too large" in reply.detail
    assert reply.detail.endswith("it wrote too large a file: a bot's files are 1 MB at most")


BOMB = """
import os, time


def choose_move(position):
    for _ in range(CHILDREN):
        if os.fork() == 0:
            os.setsid()  # out of the bot's process group
            time.sleep(600)
            os._exit(0)
    return CHILDREN
"""
"""Starts ``CHILDREN`` processes that sleep, each in a session of its own."""


def processes_running(path: Path) -> int:
    """How many processes run ``path`` (the bot's host and its forks)."""
    count = 0
    for entry in Path("/proc").iterdir():
        try:
            if str(path).encode() in (entry / "cmdline").read_bytes():
                count += 1
        except OSError:
            continue
    return count


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="as root only")
async def test_as_root_a_fork_bomb_ends_with_the_bot(tmp_path: Path) -> None:
    """Linux does not count root's processes, even in a user namespace: 200 start, and
    the pid namespace ends them all with the bot (bounded: a real bomb would take
    the machine's every process id first)."""
    jailed_or_skip()
    bot = bot_for(tmp_path, f"CHILDREN = 200\n{BOMB}")
    reply = await bot.ask(EMPTY)
    assert reply.said == 200
    assert processes_running(tmp_path / "probe.py") >= 200
    await bot.stop()
    wait_until(lambda: processes_running(tmp_path / "probe.py") == 0, "the bomb to end")


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() == 0,
    reason="Linux does not count root's processes, even in a user namespace (docs/check.md)",
)
async def test_a_fork_bomb_is_contained(tmp_path: Path) -> None:
    jailed_or_skip()
    reply = await asked(bot_for(tmp_path, f"CHILDREN = 10_000\n{BOMB}"))
    assert reply.failure is Failure.ERROR
    assert reply.detail.endswith(f"a bot has {sandbox.PROCESSES} at most")
    wait_until(lambda: processes_running(tmp_path / "probe.py") == 0, "the bomb to end")


def test_where_bubblewrap_cannot_run_it_is_said_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    here = sandbox.here.__wrapped__()
    assert here.bwrap is None
    assert here.why_not == (
        "bubblewrap cannot make a sandbox here (bwrap: No permissions to create new namespace)"
    )


def test_check_says_once_what_is_off_without_bubblewrap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        sandbox, "here", lambda: Sandbox(None, "bubblewrap (bwrap) is not installed")
    )
    path = tmp_path / "first.py"
    path.write_text("def choose_move(position):\n    return position.index('.') + 1\n")
    result = run_main("check", "--side", "O", str(path))
    assert result.stderr == (
        "ttt-tui check: bubblewrap (bwrap) is not installed, so a bot runs with the"
        " network, can write wherever you can, and may start any number of processes;"
        " it keeps its own directory and environment, and its limits on CPU time,"
        " memory and file size\n"
    )
    assert result.returncode == 1  # it does play badly


def test_the_example_bots_run_jailed() -> None:
    """The examples answer from the jail (the check's own tests grade them)."""
    jailed_or_skip()
    result = run_main("check", "--json", "--side", "O", str(ROOT / "examples/bots/choose_move.py"))
    assert json.loads(result.stdout)["verdict"] == "perfect"
