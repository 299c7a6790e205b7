"""`ttt-tui review`: a recorded game, or one given move by move, graded move by move
(`ttt_tui.teach.review`), as text or JSON.

A recorded game is read from the data directory's database by its number, as
`ttt-tui games list` shows it: 1 the first game ever recorded, -1 the newest. Bad input
(a taken square, a move after the game ended, an unknown square, no such game, no
games at all, a record that cannot be read, a data directory that cannot be used) is
one line on stderr and exit status 2; what the store says as it opens (older files
carried into the database, a damaged one set aside) goes to stderr too, and the
review goes on. A read creates no data directory.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ttt_tui.commands import BOARD_METAVAR, Subcommands, board_size
from ttt_tui.commands.games import LOCK_SECONDS, BadInput, open_store

if TYPE_CHECKING:
    from ttt_tui.teach.review import Review


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``review`` to the command line's ``commands``."""
    review = commands.add_parser(
        "review",
        help="grade every move of a recorded game, or of one given move by move",
        description=(
            "Grade every move of a game from proven values, for the player who made it:"
            " best, inaccuracy (a slower win or a quicker loss), mistake (a win thrown to"
            " a draw, a draw to a loss), blunder (a win thrown to a loss), or good where"
            " a 5x5 length cannot be proven; then name the turning points."
        ),
        epilog=(
            "GAME is 'last' (the default) or a game's number, as `ttt-tui games list`"
            " shows it: 1 the first game ever recorded, -1 the last, -2 the one before."
            " With --json, cells are 0-based as in analyze --json."
        ),
    )
    review.add_argument(
        "game", nargs="?", metavar="GAME", help="a recorded game: last, or its number"
    )
    review.add_argument(
        "--board",
        type=board_size,
        metavar=BOARD_METAVAR,
        help="the board of the --moves game (default: 3)",
    )
    review.add_argument(
        "--moves",
        metavar="MOVES",
        help='a game to review instead, X first: squares by name or number, e.g. "b2 a1 c3"',
    )
    review.add_argument("--json", action="store_true", help="print one JSON object")
    review.set_defaults(main=main)
    return review


def game_number(text: str) -> int:
    """``last`` or a game's number (1 the first, -1 the last); 0 is no game."""
    if text.strip().lower() == "last":
        return -1
    try:
        number = int(text)
    except ValueError:
        raise BadInput(f"expected 'last' or a game's number, got {text!r}") from None
    if number == 0:
        raise BadInput("there is no game 0: 1 is the first game, -1 the last")
    return number


def recorded_review(directory: Path, number: int) -> Review:
    """The review of game ``number`` recorded in ``directory`` (counted back from the
    newest when negative)."""
    from ttt_tui.engine import analyze
    from ttt_tui.storage import Unreadable
    from ttt_tui.teach.review import ReviewError, review_moves

    store = open_store(directory, create=False)
    if store is None:
        raise BadInput(f"no games recorded yet in {directory}")
    try:
        found = store.game(number)
        newest = store.newest_number()
    finally:
        store.close()
    if found is None:
        if newest == 0:
            raise BadInput(f"no games recorded yet in {directory}")
        if number > 0:
            raise BadInput(f"no game {number}: the games in {directory} are numbered 1 to {newest}")
        raise BadInput(f"no game {number}: {directory} holds fewer than {-number} games")
    shown, record = found
    if isinstance(record, Unreadable):
        raise BadInput(f"{_named(number, newest)} cannot be read: {record.reason}")
    try:
        return review_moves(record.n, record.moves, analyze, record.result.value)
    except ReviewError as exc:
        raise BadInput(f"game {shown}: {exc}") from None


def _named(number: int, newest: int) -> str:
    """A game as the person asked for it: ``game 7``, ``game 12 (the last)``."""
    if number > 0:
        return f"game {number}"
    if number == -1:
        return f"game {newest} (the last)"
    return f"game {number} (counted back from the last)"


def given_review(n: int, moves: str) -> Review:
    """The review of a game given as squares."""
    from ttt_tui.engine import analyze
    from ttt_tui.teach.review import ReviewError, parse_moves, review_moves

    try:
        return review_moves(n, parse_moves(moves, n), analyze)
    except ReviewError as exc:
        raise BadInput(str(exc)) from None


def run_review(args: argparse.Namespace, out: TextIO) -> None:
    """Review the game ``args`` name and write it to ``out``; raises `BadInput`."""
    from ttt_tui.engine import SIZES
    from ttt_tui.storage import default_data_dir
    from ttt_tui.teach.review import RESULT_WORDS

    if args.moves is not None:
        if args.game is not None:
            raise BadInput("give a recorded GAME or --moves, not both")
        n = 3 if args.board is None else args.board.n
        found = given_review(n, args.moves)
    else:
        if args.board is not None:
            raise BadInput("--board goes with --moves (a recorded game knows its board)")
        number = game_number("last" if args.game is None else args.game)
        found = recorded_review(default_data_dir(), number)
    if args.json:
        out.write(json.dumps(found.to_json()) + "\n")
        return
    n = found.n
    out.write(f"{n}x{n}, {SIZES[n]} in a row: {RESULT_WORDS[found.result]}\n")
    out.write("\n".join(found.lines()) + "\n")


def main(args: argparse.Namespace) -> int:
    """Run `ttt-tui review`: 0, or 2 with one line on stderr for bad input."""
    from ttt_tui.storage import LockBusy, default_data_dir

    try:
        run_review(args, sys.stdout)
        sys.stdout.flush()  # here, where a reader gone away is seen, not at exit
    except BadInput as exc:
        if str(exc):  # else the store has said why
            print(f"ttt-tui review: {exc}", file=sys.stderr)
        return 2
    except LockBusy:
        print(
            f"ttt-tui review: another ttt-tui has held {default_data_dir()} for more than"
            f" {LOCK_SECONDS:g} s: try again when it has finished",
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
