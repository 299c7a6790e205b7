"""The commands `ttt-tui` runs: the game itself (`play`), `analyze`, `review`, `games`,
`check` and `serve`.

`ttt_tui.__main__` reads the command line and hands it to one of them, importing
only the one it runs.
"""

from __future__ import annotations

import argparse
from typing import Any, Protocol


class Subcommands(Protocol):
    """Where a command adds its own parser: what ``add_subparsers`` returns (argparse
    names its class only privately)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """Add the parser of the command ``name``."""
        ...
