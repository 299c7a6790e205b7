"""`ttt-tui review`: a recorded game, or one given move by move, graded move by move
(`ttt_tui.teach.review`), as text or JSON.

Bad input (a taken square, a move after the game ended, an unknown square, a game
number out of range, a missing or damaged ``games.jsonl``) is one line on stderr and
exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from ttt_tui.engine import SIZES, analyze
from ttt_tui.storage import GamesUnreadable, default_data_dir, read_games
from ttt_tui.teach.review import RESULT_WORDS, Review, ReviewError, parse_moves, review_moves


class BadInput(Exception):
    """One line saying what is wrong."""


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
    """The review of the ``number``-th game recorded in ``directory``."""
    try:
        games = read_games(directory)
    except GamesUnreadable as exc:
        raise BadInput(str(exc)) from None
    if not games:
        raise BadInput(f"no games recorded yet in {directory}")
    if not -len(games) <= number <= len(games):
        count = f"{len(games)} game{'' if len(games) == 1 else 's'}"
        raise BadInput(f"no game {number}: {directory} holds {count} (1 to {len(games)})")
    record = games[number - 1 if number > 0 else number]
    try:
        return review_moves(record.n, record.moves, analyze, record.result.value)
    except ReviewError as exc:
        raise BadInput(f"game {number}: {exc}") from None


def given_review(n: int, moves: str) -> Review:
    """The review of a game given as squares."""
    try:
        return review_moves(n, parse_moves(moves, n), analyze)
    except ReviewError as exc:
        raise BadInput(str(exc)) from None


def run_review(args: argparse.Namespace, out: TextIO) -> None:
    """Review the game ``args`` name and write it to ``out``; raises `BadInput`."""
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
    try:
        run_review(args, sys.stdout)
    except BadInput as exc:
        print(f"ttt-tui review: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
