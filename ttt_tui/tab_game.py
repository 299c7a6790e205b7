"""One tab's game under `ttt-tui serve`, started before the tab asks for it.

``python -m ttt_tui.tab_game [GAME OPTIONS]`` loads what the game needs
(Textual, its web driver, every module the first frame uses), then waits for one
line on its standard input that gives the tab's size (``80 24``), and runs the
game at that size with the options, exactly as ``python -m ttt_tui`` would
under textual-serve. `ttt-tui serve` keeps a few of these waiting
(`ttt_tui.commands.serve`), so that a tab opened while one waits does not wait
for a Python start-up and its imports, most of a game's start (measured in
docs/performance.md). Its input closing before the size comes (the server has
gone) ends it, having started nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

LONGEST_LINE = 32
"""The size line is two numbers; anything longer is not one."""


def read_size(fd: int = 0) -> tuple[int, int] | None:
    """The tab's size, from one line of ``fd`` read a byte at a time (whatever follows
    the line stays unread, for the game); None if the input closed or the line is not
    two positive numbers."""
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte or len(line) > LONGEST_LINE:
            return None
        line += byte
    try:
        width, height = (int(word) for word in line.split())
    except ValueError:
        return None
    return (width, height) if width > 0 and height > 0 else None


def main(argv: Sequence[str] | None = None) -> int:
    """Load the game, wait for the tab's size, play; the game's exit status, or 0 if
    the server went (or sent no size) before a game began."""
    # Loaded while no tab waits: what the game imports before its first frame.
    import textual.drivers.web_driver  # noqa: F401

    import ttt_tui.app  # noqa: F401
    import ttt_tui.commands.play  # noqa: F401
    from ttt_tui.__main__ import main as game

    size = read_size()
    if size is None:
        return 0
    # Where Textual's web driver reads the terminal's size.
    os.environ["COLUMNS"], os.environ["ROWS"] = (str(n) for n in size)
    return game(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
