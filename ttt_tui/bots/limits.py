"""Sets a bot's resource limits, then becomes the bot (`ttt_tui.bots.sandbox` runs it):

    python -I -S limits.py CPU_SECONDS MEMORY_BYTES FILE_BYTES PROCESSES -- PROGRAM ARGS...

CPU time, writable memory (``RLIMIT_DATA``), the size of a file written, core files
(none) and, when PROCESSES is not 0, the number of processes and threads; then it
``exec``\\ s PROGRAM, which keeps them. Run by path with ``-I -S``, it imports no
more than the standard library's ``os``, ``resource`` and ``sys``.

What the real parts lack: asyncio can set limits in a child only through
``preexec_fn``, which is unsafe once the parent has threads; util-linux's
``prlimit`` does this on Linux alone, where this runs wherever Python's
``resource`` module does (macOS too).
"""

from __future__ import annotations

import os
import resource
import sys

CPU_GRACE = 5
"""Seconds of CPU time between SIGXCPU, which ends an ordinary program, and SIGKILL."""


def main(argv: list[str]) -> int:
    if len(argv) < 7 or argv[5] != "--":
        print("usage: limits.py CPU MEMORY FILE PROCESSES -- PROGRAM ARGS...", file=sys.stderr)
        return 2
    cpu, memory, file, processes = (int(value) for value in argv[1:5])
    limits = [
        (resource.RLIMIT_CPU, cpu, cpu + CPU_GRACE),
        (resource.RLIMIT_DATA, memory, memory),
        (resource.RLIMIT_FSIZE, file, file),
        (resource.RLIMIT_CORE, 0, 0),
    ]
    if processes:
        limits.append((resource.RLIMIT_NPROC, processes, processes))
    for which, soft, hard in limits:
        ceiling = resource.getrlimit(which)[1]  # never above what it already has
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        resource.setrlimit(which, (soft, hard))
    program = argv[6:]
    try:
        os.execvp(program[0], program)
    except OSError as exc:
        print(f"{program[0]}: {exc.strerror or exc}", file=sys.stderr)
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv))
