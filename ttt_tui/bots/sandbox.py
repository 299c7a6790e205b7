"""How a learner's bot is jailed: the argv, environment and directory each of its
processes starts with (`Sandbox.jail`).

Every bot process gets a directory of its own (made as it starts, removed as it
stops), an environment built from nothing (`environment`), and resource limits
set in it before the bot runs (`ttt_tui.bots.limits`: CPU time, memory, file
size, no core files). On Linux, where bubblewrap (``bwrap``) can make a sandbox,
it also runs in namespaces of its own (user, pid, network, IPC, host name): no
network, the file system read-only except its directory, ``/tmp``, ``/var/tmp``
and ``/run`` (where other programs' sockets are) empty but for what it reads, at
most `PROCESSES` processes, and all of them ended with it. `here` says which of
these hold on this machine; docs/check.md ("The sandbox") says what they promise
and what they do not.

No UI imports.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

CPU_SECONDS = 600
"""CPU time a bot's process may use in its life: generous, since a slow bot is not a
wrong one; the time limit of each answer is the check's, not this."""

MEMORY_BYTES = 2**30
"""Memory a bot's process may write to (``RLIMIT_DATA``: what it uses, not the
address space it reserves, which Java and Node reserve far more of)."""

FILE_BYTES = 64 * 2**20
"""The largest file a bot's process may write."""

PROCESSES = 64
"""Processes and threads a bot may have at once, in its own user namespace."""

HIDDEN = ("/tmp", "/var/tmp", "/run")
"""Directories a jailed bot sees empty (but for the paths it reads): other programs'
sockets live there (tmux, ssh-agent, X11, D-Bus, Docker), and a socket can be
connected to on a read-only file system."""

PASSED = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT")
"""The caller's variables a bot gets, those that are set: where programs are, the
language, and what Windows needs to start a program."""

LIMITS = Path(__file__).with_name("limits.py")
"""The launcher that sets the limits, run by path (`ttt_tui.bots.limits`)."""

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""The directory holding the ``ttt_tui`` package, which a Python bot's host imports."""


@dataclass(frozen=True, slots=True)
class Program:
    """A bot's program, and what it needs of the caller's file system."""

    argv: tuple[str, ...]
    workdir: str | None = None
    """Where it starts: None for its own directory."""
    reads: tuple[str, ...] = ()
    """Paths it reads, kept visible (read-only) in the jail wherever they are."""
    pythonpath: tuple[str, ...] = ()


def python_file(path: Path) -> Program:
    """A Python bot file under `ttt_tui.bots.host`, in its own directory, importing what
    lies beside it."""
    beside = str(path.resolve().parent)
    host = (sys.executable, "-m", "ttt_tui.bots.host", str(path.resolve()))
    return Program(host, reads=(beside,), pythonpath=(beside, str(PACKAGE_ROOT)))


def command(argv: list[str], text: str) -> Program:
    """A command, run as ``argv`` (the shell with ``text``), started where ttt-tui was
    so that its relative paths work; the absolute paths it names stay visible."""
    here = os.getcwd()
    try:
        words = shlex.split(text)
    except ValueError:  # unbalanced quotes: the shell will say so
        words = text.split()
    named = [
        word if os.path.isdir(word) else os.path.dirname(word)
        for word in words
        if os.path.isabs(word) and os.path.exists(word)
    ]
    return Program(tuple(argv), workdir=here, reads=(here, *named))


def environment(home: str, pythonpath: tuple[str, ...] = ()) -> dict[str, str]:
    """A bot's whole environment: `PASSED`, its directory as its home and temporary
    directory, no bytecode written beside its files, and ``pythonpath``."""
    env = {name: os.environ[name] for name in PASSED if name in os.environ}
    env.setdefault("PATH", os.defpath)
    homes = ("TEMP", "TMP", "USERPROFILE") if os.name == "nt" else ("HOME", "TMPDIR")
    env.update(dict.fromkeys(homes, home))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(pythonpath)
    return env


@dataclass(frozen=True, slots=True)
class Jail:
    """How one bot process starts (``argv``, ``env``, ``cwd``, for a `Child`), and
    its directory, removed by `close`."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    directory: tempfile.TemporaryDirectory[str]

    def close(self) -> None:
        """Remove the process's directory and everything in it."""
        self.directory.cleanup()


class Sandbox:
    """How bots are jailed on this machine: with bubblewrap at ``bwrap``, or without it
    (``why_not`` says why)."""

    def __init__(self, bwrap: str | None, why_not: str = "") -> None:
        self.bwrap = bwrap
        self.why_not = why_not
        self.limited = os.name == "posix"
        """Whether resource limits are set (Python's ``resource`` is POSIX's)."""
        self.counted = bwrap is not None and os.geteuid() != 0
        """Whether the number of processes is limited: in a user namespace of the bot's
        own, and never for root, whom Linux exempts even there."""

    def jail(self, program: Program) -> Jail:
        """The start of one process of ``program``, in a new directory of its own."""
        directory = tempfile.TemporaryDirectory(prefix="ttt-tui-bot-", ignore_cleanup_errors=True)
        own = os.path.realpath(directory.name)
        cwd = program.workdir or own
        argv = list(program.argv)
        if self.limited:
            # Without a user namespace of its own, the count would be all the user's.
            processes = PROCESSES if self.bwrap else 0
            sizes = (CPU_SECONDS, MEMORY_BYTES, FILE_BYTES, processes)
            argv = [sys.executable, "-I", "-S", str(LIMITS), *map(str, sizes), "--", *argv]
        if self.bwrap:
            argv = [*self._walls(program, own, cwd), *argv]
        return Jail(argv, environment(own, program.pythonpath), cwd, directory)

    def _walls(self, program: Program, own: str, cwd: str) -> list[str]:
        """Bubblewrap's command line for a process of ``program`` in ``own``."""
        assert self.bwrap is not None
        hidden = [d for d in HIDDEN if os.path.isdir(d) and not os.path.islink(d)]
        python = (sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable)))
        reads = {os.path.realpath(p) for p in (*program.reads, cwd, *python, str(PACKAGE_ROOT))}
        walls = [self.bwrap, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc"]
        walls += ["--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
        walls += ["--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        for directory in hidden:
            walls += ["--tmpfs", directory]
        for path in sorted(reads):  # a directory before what is in it
            if os.path.exists(path) and any(_within(path, d) for d in hidden):
                walls += ["--ro-bind", path, path]
        walls += ["--bind", own, own]
        for directory in hidden:
            walls += ["--remount-ro", directory]
        return [*walls, "--chdir", cwd, "--"]

    def protections_off(self) -> str:
        """What of the sandbox does not hold here, in a sentence; '' when it all does."""
        if self.bwrap is None:
            kept = "its own directory and environment"
            if self.limited:
                kept += ", and its limits on CPU time, memory and file size"
            return (
                f"{self.why_not}, so a bot runs with the network, can write wherever you"
                f" can, and may start any number of processes; it keeps {kept}"
            )
        if not self.counted:
            return (
                "as root, a bot's processes are not counted (Linux exempts root from"
                " the limit), though all of them end with the bot"
            )
        return ""

    def limit_hit(self, detail: str, status: int | None) -> str:
        """Which limit ended a bot's answer, in a sentence, told from its exit status or
        the last line of what it said; '' when none did, or none can be told."""
        if not self.limited:
            return ""
        last = (detail.strip().splitlines() or [""])[-1].lower()
        if _killed_by(status, signal.SIGXCPU):
            return f"it ran out of CPU time: a bot's process may use {CPU_SECONDS:,} s"
        if _killed_by(status, signal.SIGXFSZ) or "file too large" in last:
            return f"it wrote too large a file: a bot's files are {FILE_BYTES // 2**20} MB at most"
        if any(sign in last for sign in ("memoryerror", "out of memory", "cannot allocate")):
            return f"it ran out of memory: a bot's process has {MEMORY_BYTES // 2**20:,} MB"
        if self.counted and any(
            sign in last for sign in ("resource temporarily unavailable", "can't start new thread")
        ):
            return f"it could not start another process: a bot has {PROCESSES} at most"
        return ""


def _within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _killed_by(status: int | None, sig: int) -> bool:
    """Whether ``status`` is a death by ``sig``: as the process's own (negative) or as
    bubblewrap passes it on (128 + the signal)."""
    return status is not None and status in (-sig, 128 + sig)


@functools.cache
def here() -> Sandbox:
    """How bots are jailed on this machine: with bubblewrap if a jailed ``true`` runs
    (tried once), else without, saying why."""
    if not sys.platform.startswith("linux"):
        return Sandbox(None, "bubblewrap is Linux's alone")
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Sandbox(None, "bubblewrap (bwrap) is not installed")
    jailed = Sandbox(bwrap)
    trial = jailed.jail(Program(("true",)))
    try:
        result = subprocess.run(
            trial.argv, env=trial.env, cwd=trial.cwd, capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Sandbox(None, f"bubblewrap cannot run here ({exc})")
    finally:
        trial.close()
    if result.returncode != 0:
        said = (result.stderr.strip().splitlines() or [f"status {result.returncode}"])[-1]
        return Sandbox(None, f"bubblewrap cannot make a sandbox here ({said})")
    return jailed
