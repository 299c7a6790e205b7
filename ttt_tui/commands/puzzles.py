"""`ttt-tui puzzles export`: proven puzzles, one a line, as text or JSON.

The puzzles come from the shipped set (`ttt_tui.teach.puzzles.shipped`), every one
proven by the engine when the set was made; ``--seed`` alone decides which, so the
same seed prints the same puzzles.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, NoReturn

from ttt_tui.commands import BOARD_METAVAR, Subcommands, board_size, bounded

if TYPE_CHECKING:
    from ttt_tui.teach.puzzles import Puzzle

THEMES = ("win-in-one", "block", "fork", "block-the-fork", "win-in-n", "forcing")
"""The themes ``--theme`` takes: `ttt_tui.teach.puzzles.Theme`'s values (a test holds
them together; the enum is not imported at launch)."""

DEFAULT_COUNT = 10
"""Puzzles printed when ``--count`` is not given."""


class OneLineParser(argparse.ArgumentParser):
    """A parser whose bad arguments get one line on stderr (no usage) and status 2."""

    def error(self, message: str) -> NoReturn:
        """Say what is wrong in one line and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``puzzles`` to the command line's ``commands``."""
    puzzles = commands.add_parser(
        "puzzles",
        help="start the game on its puzzles, or print them (export)",
        description=(
            "Puzzles proven by the engine: the side to move has exactly one move that"
            " wins (goal win) or keeps the draw (goal hold). Without an action, the game"
            " starts on its Puzzles screen; 'export' prints them one a"
            " line: the position in analyze's notation, the side to move, the goal, the"
            " first move by name and number, the solution line, the themes and the"
            " difficulty."
        ),
    )
    puzzles.set_defaults(main=start)
    actions = puzzles.add_subparsers(dest="action", metavar="ACTION", parser_class=OneLineParser)
    export = actions.add_parser(
        "export",
        help="print puzzles one a line",
        description="Print puzzles one a line; the same --seed prints the same puzzles.",
        epilog=(
            "Squares are named as in the game (a1 top-left) with their number, 1 to 9,"
            ' 16 or 25, in brackets; in --json "first" and "line" are 0-based cells.'
        ),
    )
    export.add_argument(
        "--board",
        type=board_size,
        metavar=BOARD_METAVAR,
        help="only puzzles on this board (default: every board)",
    )
    export.add_argument(
        "--theme",
        choices=THEMES,
        metavar="THEME",
        help=f"only puzzles with this theme: {', '.join(THEMES)}",
    )
    export.add_argument(
        "--count",
        type=bounded(int, 1, 10_000, "a number of puzzles"),
        default=DEFAULT_COUNT,
        help=f"puzzles a board (default {DEFAULT_COUNT}; fewer if fewer match)",
    )
    export.add_argument(
        "--seed",
        type=bounded(int, 0, 2**63 - 1, "a seed"),
        default=0,
        help="which puzzles (default 0): the same seed prints the same puzzles",
    )
    export.add_argument("--json", action="store_true", help="print one JSON object a puzzle")
    export.set_defaults(main=main)
    return puzzles


def start(args: argparse.Namespace) -> int:
    """``ttt-tui puzzles`` alone: the game, opened on its puzzles."""
    from ttt_tui.commands import play

    args.start_in_puzzles = True
    return play.main(args)


def report(puzzle: Puzzle) -> dict[str, Any]:
    """The JSON object of one puzzle."""
    from ttt_tui.engine import coordinate
    from ttt_tui.teach.puzzles import position_text

    n = puzzle.board.n
    return {
        "position": position_text(puzzle.board),
        "n": n,
        "to_move": puzzle.solver.value,
        "goal": puzzle.goal.value,
        "plies": puzzle.plies,
        "sentence": puzzle.goal_words(),
        "first": puzzle.first,
        "first_name": coordinate(puzzle.first, n),
        "line": list(puzzle.line),
        "line_names": [coordinate(cell, n) for cell in puzzle.line],
        "themes": [theme.value for theme in puzzle.themes],
        "difficulty": puzzle.difficulty,
    }


def text_line(puzzle: Puzzle) -> str:
    """One puzzle as a line of text, its fields between tabs."""
    from ttt_tui.engine import coordinate
    from ttt_tui.teach.puzzles import move_name, position_text

    n = puzzle.board.n
    themes = ",".join(theme.value for theme in puzzle.themes) or "-"
    return "\t".join(
        (
            position_text(puzzle.board),
            puzzle.solver.value,
            puzzle.goal_words(),
            move_name(puzzle.board, puzzle.first),
            " ".join(coordinate(cell, n) for cell in puzzle.line),
            themes,
            f"difficulty {puzzle.difficulty}",
        )
    )


def main(args: argparse.Namespace) -> int:
    """Print the puzzles asked for; returns the exit status."""
    from ttt_tui.teach.puzzles import Theme, choose

    theme = None if args.theme is None else Theme(args.theme)
    sizes = (3, 4, 5) if args.board is None else (args.board.n,)
    out = sys.stdout
    for n in sizes:
        for puzzle in choose(n, args.count, args.seed, theme):
            out.write((json.dumps(report(puzzle)) if args.json else text_line(puzzle)) + "\n")
    return 0
