"""The commands `ttt-tui` runs: the game itself (`play`), `analyze`, `review`, `games`,
`check`, `serve` (its options in `serve_options`), and `host` and `join` (what runs them
in `online`).

Each command's module adds its own options (``add_parser``) and names the function
that runs it (``main``); `ttt_tui.__main__` builds every command's parser at every
launch and runs the one asked for. So a command module's top imports only the
standard library and this package (`serve`, the server, is imported when it runs):
what a command runs with, it imports when it runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TextIO, TypeVar

if TYPE_CHECKING:
    from ttt_tui.engine import Player
    from ttt_tui.play.settings import BoardSize

Number = TypeVar("Number", int, float)

QUOTED = 60
"""The most characters of a person's input an error message quotes."""

SHOWN_PROBLEMS = 10
"""Bad inputs named one a line; those after them are counted."""

BOARD_METAVAR = "{3,4,5}"
"""How ``--help`` shows the value of a `board_size` option."""


class Subcommands(Protocol):
    """Where a command adds its own parser: what ``add_subparsers`` returns (argparse
    names its class only privately)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """Add the parser of the command ``name``."""
        ...


def bounded(
    kind: Callable[[str], Number],
    low: float,
    high: float | None,
    name: str,
    *,
    low_excluded: bool = False,
) -> Callable[[str], Number]:
    """An argparse type reading ``kind`` (`int` or `float`) from ``low`` to ``high`` (no
    end if None; above ``low`` if ``low_excluded``). Anything else is an error naming
    ``name`` (``a number of seconds``) and the range."""
    if high is None:
        span = f"more than {low}" if low_excluded else f"{low} or more"
    else:
        span = f"more than {low}, at most {high}" if low_excluded else f"{low} to {high}"
    expected = f"expected {name} ({span})"

    def read(text: str) -> Number:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{expected}, got {text!r}") from None
        above = value > low if low_excluded else value >= low
        if not (above and (high is None or value <= high)):  # nan is in no range
            raise argparse.ArgumentTypeError(f"{expected}, got {text}")
        return value

    return read


def board_size(text: str) -> BoardSize:
    """An argparse type: a board by its side (``4``, or ``4x4``)."""
    from ttt_tui.play.settings import BoardSize

    try:
        return BoardSize(int(text.lower().partition("x")[0]))
    except ValueError:
        choices = ", ".join(str(size.n) for size in BoardSize)
        raise argparse.ArgumentTypeError(f"expected one of {choices}, got {text!r}") from None


def mark(text: str) -> Player:
    """An argparse type: X or O, in any case."""
    from ttt_tui.engine import Player

    try:
        return Player(text.strip().upper())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X or O, got {text!r}") from None


def room_limits(parser: argparse.ArgumentParser, *, max_rooms: bool) -> None:
    """Add the room server's limits to a command that runs one: connections at once from
    one address, and (with ``max_rooms``, for a server of many rooms) rooms at once."""
    from ttt_tui.online.limits import DEFAULT_MAX_ROOMS, DEFAULT_PER_ADDRESS

    if max_rooms:
        parser.add_argument(
            "--max-rooms",
            type=bounded(int, 1, 100_000, "a number of rooms"),
            default=DEFAULT_MAX_ROOMS,
            metavar="N",
            help="rooms of friends playing at once; more are refused"
            f" (default: {DEFAULT_MAX_ROOMS})",
        )
    parser.add_argument(
        "--per-address",
        type=bounded(int, 1, 100_000, "a number of connections"),
        default=DEFAULT_PER_ADDRESS,
        metavar="N",
        help="connections to the rooms at once from one network address; more are refused"
        f" (default: {DEFAULT_PER_ADDRESS})",
    )


def clipped(text: str) -> str:
    """Input as an error gives it back: at most `QUOTED` characters (a huge or binary
    line is not echoed back whole)."""
    text = text.strip()
    return text if len(text) <= QUOTED else text[: QUOTED - 1] + "…"


def quoted(text: str) -> str:
    """Input as an error message quotes it: escaped, in quotes, and at most `QUOTED`
    characters as shown (escapes counted), cut with an ellipsis."""
    text = text.strip()
    whole = repr(text)
    if len(whole) <= QUOTED:
        return whole
    shown, size = [], 2  # the quotes
    for char in text:
        escaped = "\\'" if char == "'" else repr(char)[1:-1]
        if size + len(escaped) > QUOTED - 1:
            break
        shown.append(escaped)
        size += len(escaped)
    return "'" + "".join(shown) + "…'"


class Complaints:
    """Bad input said on ``err``, one line each for the first `SHOWN_PROBLEMS`, then
    counted: ``PREFIX: and 12 more NOUNs`` at the end (`close`)."""

    def __init__(self, prefix: str, noun: str, err: TextIO) -> None:
        self.prefix = prefix
        """What each line starts with (``ttt-tui analyze``)."""
        self.noun = noun
        """What is counted at the end (``bad position``)."""
        self.err = err
        self.count = 0
        """Complaints so far."""

    def add(self, problem: str) -> None:
        """One more bad input: said if it is among the first, counted if not."""
        if self.count < SHOWN_PROBLEMS:
            self.err.write(f"{self.prefix}: {problem}\n")
        self.count += 1

    def close(self) -> None:
        """Count the complaints not said."""
        rest = self.count - SHOWN_PROBLEMS
        if rest > 0:
            self.err.write(
                f"{self.prefix}: and {rest:,} more {self.noun}{'' if rest == 1 else 's'}\n"
            )
