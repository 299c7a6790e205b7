"""Plain file I/O for the store: atomic writes, durable renames, leftover temp files.

Nothing here knows what the files hold: it moves bytes, and raises `OSError`
as the system does. The store decides what a failure means for the user.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import BinaryIO

STALE_TEMP_SECONDS = 3600.0
"""Age after which a temp file is removed even if its writer's pid looks alive."""


def fsync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable where the platform lets us open a directory."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # Some file systems cannot fsync a directory; the rename still happened.
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[BinaryIO]:
    """A stream whose content replaces ``path`` when the block ends, so that a kill at any
    moment leaves the old file or the new one.

    It writes to a temporary file beside ``path`` (``.NAME.<pid>.<token>.tmp``), which
    is flushed, fsynced and renamed over ``path``; then the directory is fsynced. If
    the block raises, ``path`` is left as it was. Raises `OSError` as the system does,
    removing the temporary file where it can.
    """
    temp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(temp, flags, 0o644)
    try:
        with os.fdopen(fd, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    fsync_directory(path.parent)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` through `atomic_writer`."""
    with atomic_writer(path) as stream:
        stream.write(data)


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` may still run (True where the platform cannot tell)."""
    if pid == os.getpid():
        return True
    if os.name != "posix":
        # os.kill would terminate the process on Windows; rely on the age check.
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # It exists but belongs to someone else.
    return True


def remove_stale_temp_files(directory: Path, names: Collection[str]) -> None:
    """Delete temp files of ``names`` that `write_atomic` left when its writer was killed.

    A temp file goes once the process that wrote it is gone, or once it is older
    than `STALE_TEMP_SECONDS`. Nothing else is touched, and nothing is raised.
    """
    pattern = re.compile(
        r"^\.(?P<name>" + "|".join(re.escape(name) for name in names) + r")"
        r"\.(?P<pid>\d+)\.[0-9a-f]+\.tmp$"
    )
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return  # Reading and writing will report the problem if it matters.
    now = time.time()
    for entry in entries:
        match = pattern.match(entry.name)
        if match is None:
            continue
        try:
            stale = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS
            if stale or not pid_alive(int(match["pid"])):
                os.unlink(entry.path)
        except OSError:
            continue
