"""The environment every test runs in, and every program a test starts: the caller's
terminal settings cannot change a result."""

from __future__ import annotations

import os
from collections.abc import Callable

CLEARED = (
    "NO_COLOR",
    "FORCE_COLOR",
    "COLORTERM",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "COLUMNS",
    "LINES",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
    "ESCDELAY",
    "TEXTUAL",
)
"""Variables that Rich or Textual read, changing colours, size or features; every
``TEXTUAL_*`` one goes too."""

KEPT = ("TEXTUAL_SNAPSHOT_TEMPDIR",)
"""pytest-textual-snapshot's own, which it sets for its run."""

TERM = "xterm-256color"
"""An ordinary terminal, whatever the caller's (``dumb`` would stop the app)."""


def plain_environment(
    set_variable: Callable[[str, str], None], clear: Callable[[str], None]
) -> None:
    """Clear the variables above and set TERM, through the given setters."""
    for name in list(os.environ):
        if name in CLEARED or (name.startswith("TEXTUAL_") and name not in KEPT):
            clear(name)
    set_variable("TERM", TERM)


LONG = os.environ.get("TTT_LONG") == "1"
"""Whether the tests marked ``long`` run: the exhaustive and slow checks, which
`.ci/run` runs (``TTT_LONG=1 pytest -m long``) wherever they live."""
