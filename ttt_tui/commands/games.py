"""`ttt-tui games`: the recorded games on the command line. ``export`` writes them as
JSON lines (a script's way to read them, and the backup a person keeps), ``import``
adds the games of such a file or of an old ``games.jsonl``, ``list`` shows the newest
with the number `ttt-tui review` takes.

Bad input (an argument, a file that cannot be read or written, a damaged line, a data
directory that cannot be used) is one line on stderr (one a damaged line, for
``import``) and exit status 2, never a traceback; ``import`` writes nothing unless
every line of its file is good. SIGINT ends with status 130, SIGTERM with 143, both
leaving the database and the file written as they were; a reader that goes away
(``| head``) ends it quietly.

The module's top imports only the standard library: `build_parser` reads
`add_parser` at every launch, the game's included, and a command loads what it uses.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, BinaryIO, TextIO, cast

from ttt_tui.commands import BOARD_METAVAR, Complaints, Subcommands, board_size, bounded, quoted

if TYPE_CHECKING:
    from ttt_tui.storage import GameRecord, NumberedGame, Store

DEFAULT_LIMIT = 20
"""Games `list` shows unless told otherwise."""

LOCK_SECONDS = 10.0
"""Seconds a command waits for another ttt-tui to finish with the database."""


class BadInput(Exception):
    """One line saying what is wrong: the command ends with status 2."""


class Terminated(BaseException):
    """SIGTERM arrived: the command stops as a Ctrl+C stops it (a transaction under way
    is rolled back), and ends with status 143."""


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``games`` and its actions to the command line's ``commands``."""
    games = commands.add_parser(
        "games",
        help="export, import or list the recorded games",
        description=(
            "The recorded games: export them as JSON lines (one game an object, the"
            " fields of games.jsonl), import such a file or an old games.jsonl, or list"
            " the newest with the numbers review takes."
        ),
        epilog=(
            "Exit status: 0 done; 2 bad arguments, a file that cannot be read or written,"
            " damaged lines (then nothing is imported) or a data directory that cannot be"
            " used; 130 interrupted; 143 ended by SIGTERM."
        ),
    )
    actions = games.add_subparsers(dest="games_action", metavar="ACTION", required=True)
    export = actions.add_parser(
        "export",
        help="write every recorded game as JSON lines, oldest first",
        description=(
            "Write every recorded game, oldest first, one JSON object a line, as"
            " games.jsonl held them: a backup to keep, or a script's way to read them."
        ),
        epilog=(
            "A FILE is written whole or not at all: an export that is interrupted or"
            " fails leaves what was there before. A record that cannot be read is"
            " named on stderr and left out (exit status 2)."
        ),
    )
    export.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="where to write ('-': stdout, the default)",
    )
    export.add_argument(
        "--board", type=board_size, metavar=BOARD_METAVAR, help="only this board's games"
    )
    imported = actions.add_parser(
        "import",
        help="add the games of an export or an old games.jsonl",
        description=(
            "Add the games of a file written by export, or of an old games.jsonl, after"
            " the games recorded; a game recorded already is left out. Every line is"
            " checked first: if any is damaged, each is named and nothing is imported."
        ),
    )
    imported.add_argument("file", metavar="FILE", help="the file to read ('-': stdin)")
    listing = actions.add_parser(
        "list",
        help="print the newest games, with the numbers review takes",
        description=(
            "Print the newest recorded games, newest first, one a line: its number"
            " (as ttt-tui review takes it: 1 the first game ever recorded), when it"
            " ended, the board, who played and how it ended."
        ),
    )
    listing.add_argument(
        "--limit",
        type=bounded(int, 1, None, "a number of games"),
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"how many games (default: {DEFAULT_LIMIT})",
    )
    games.set_defaults(main=main)
    return games


# The data directory ------------------------------------------------------------


def open_store(directory: Path, *, create: bool) -> Store | None:
    """The store of ``directory``, open (what it migrated said on stderr); None when
    there is nothing to read and ``create`` is false, so that a read creates nothing.

    Raises `BadInput` for a directory or database that cannot be used.
    """
    from ttt_tui.storage import Store, has_data

    if directory.exists() and not directory.is_dir():
        raise BadInput(f"the data directory {directory} is not a directory")
    if not create and not has_data(directory):
        return None
    store = Store(directory)
    store.lock_timeout = LOCK_SECONDS
    if store.saving:
        store.newest_number()  # opens the database, carrying older files into it
    check_store(store)
    return store


def check_store(store: Store, failed: str = "") -> None:
    """Say on stderr what the store has to say. If what it did was not done in the
    directory's database (it could not be used, or is a newer ttt-tui's, and the store
    went on in memory, as the game does), raise `BadInput` with ``failed``, what that
    means for the command (the store's notice has said why)."""
    for notice in store.take_notices():
        print(f"ttt-tui: {notice.text}", file=sys.stderr)
    if not store.keeps_games:
        raise BadInput(failed)


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _tell_problems(problems: list[str], noun: str) -> None:
    """Name the first problems on stderr, one a line, and count the rest."""
    complaints = Complaints("ttt-tui games", noun, sys.stderr)
    for problem in problems:
        complaints.add(problem)
    complaints.close()


# export ------------------------------------------------------------------------


def each_game(store: Store, board: int | None, damaged: list[str]) -> Iterator[GameRecord]:
    """Every game, oldest first, of one board or all. A record that cannot be read is
    left out and named in ``damaged``."""
    from ttt_tui.storage import Unreadable

    for number, record in store.iter_games(board):
        if isinstance(record, Unreadable):
            damaged.append(f"game {number} cannot be read ({record.reason}); left out")
        else:
            yield record


def _is_stdout(name: str) -> bool:
    """Whether ``name`` is standard output (``-``, or ``/dev/stdout``, say), where a
    summary would land among the games."""
    if name == "-":
        return True
    try:
        here, there = os.fstat(sys.stdout.fileno()), os.stat(name)
    except (OSError, ValueError):
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _written_whole(name: str) -> bool:
    """Whether an export to ``name`` is written whole or not at all (see `_written`): a
    regular file, or a new one; not a link (``/dev/stdout`` is one), whose place a
    rename would take."""
    path = Path(name)
    return name != "-" and not path.is_symlink() and (path.is_file() or not path.exists())


@contextlib.contextmanager
def _written(name: str) -> Iterator[TextIO]:
    """A text stream to ``name`` ('-': stdout). A regular file is written beside its
    place and renamed into it at the end, so that it is written whole or not at all."""
    if name == "-":
        yield sys.stdout
        return
    path = Path(name)
    if path.is_dir():
        raise BadInput(f"{name} is a directory: give a file name to export to")
    if not _written_whole(name):  # a pipe, a device, a link: as it is
        with _opened(path, name) as stream:
            yield stream
        return
    from ttt_tui.storage.files import atomic_writer

    try:
        with atomic_writer(path) as raw:
            stream = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
            yield stream
            stream.flush()
            stream.detach()  # the writer closes the file, having synced it
    except OSError as exc:
        raise BadInput(f"cannot write {name}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _opened(path: Path, name: str) -> Iterator[TextIO]:
    """``path`` open to write as text; `BadInput` naming the file as ``name``."""
    try:
        stream = cast(TextIO, path.open("w", encoding="utf-8", newline="\n"))
    except OSError as exc:
        raise BadInput(f"cannot write {name}: {exc.strerror or exc}") from None
    with stream:
        yield stream


def run_export(args: argparse.Namespace, directory: Path) -> int:
    """Write the games (to FILE or stdout); 2 if a record could not be read."""
    store = open_store(directory, create=False)
    board = None if args.board is None else args.board.n
    damaged: list[str] = []
    count = 0
    try:
        with _written(args.file) as out:
            if store is not None:
                for record in each_game(store, board, damaged):
                    out.write(record.to_json() + "\n")
                    count += 1
                check_store(store, "the games could not be read")
    except BrokenPipeError:
        raise
    except OSError as exc:  # a full disk, say: an export to a file leaves none
        shown = "stdout" if args.file == "-" else args.file
        raise BadInput(f"cannot write {shown}: {exc.strerror or exc}") from None
    finally:
        if store is not None:
            store.close()
    _tell_problems(damaged, "unreadable game")
    if not _is_stdout(args.file):
        noun = "game" if board is None else f"{board}x{board} game"
        print(f"Exported {_plural(count, noun)} to {args.file}.")
    return 2 if damaged else 0


# import ------------------------------------------------------------------------


def read_games_file(name: str, stream: BinaryIO) -> tuple[list[GameRecord], list[str]]:
    """The games of an export or an old ``games.jsonl``, and what is wrong with each
    damaged line. Blank lines and an old file's stats resets are not games, and are
    passed over. Raises `BadInput` for a file that is not text."""
    from datetime import datetime

    from ttt_tui.storage.jsonfields import NewerFormat, decode
    from ttt_tui.storage.model import parse_games_line

    records: list[GameRecord] = []
    problems: list[str] = []
    for number, raw in enumerate(stream, start=1):
        if b"\0" in raw:
            raise BadInput(f"{name} is not a file of games: line {number} holds binary data")
        if not raw.strip():
            continue
        try:
            entry = parse_games_line(decode(raw).strip())
        except NewerFormat as newer:
            reason = f"written by a newer ttt-tui (format version {newer.version})"
        except ValueError as exc:
            reason = str(exc)
        else:
            if not isinstance(entry, datetime):
                records.append(entry)
            continue
        text = raw.decode("utf-8", errors="replace")
        problems.append(f"{name} line {number}: {reason}: {quoted(text)}")
    return records, problems


def _read_input(name: str) -> tuple[list[GameRecord], list[str]]:
    """`read_games_file` of the file named (``-``: stdin); `BadInput` if it cannot be read."""
    try:
        if name == "-":
            if sys.stdin is None:
                raise BadInput("there is no stdin to read")
            return read_games_file("stdin", sys.stdin.buffer)
        with open(name, "rb") as stream:
            return read_games_file(name, stream)
    except FileNotFoundError:
        raise BadInput(f"{name}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{name} is a directory, not a file of games") from None
    except OSError as exc:
        raise BadInput(f"cannot read {name}: {exc.strerror or exc}") from None


def run_import(args: argparse.Namespace, directory: Path) -> int:
    """Add the games of FILE (or stdin) in one transaction; 2, adding none, if a line
    is damaged."""
    shown = "stdin" if args.file == "-" else args.file
    try:
        records, problems = _read_input(args.file)
        if problems:
            _tell_problems(problems, "damaged line")
            print(
                f"ttt-tui games: nothing imported: {shown} has"
                f" {_plural(len(problems), 'damaged line')}",
                file=sys.stderr,
            )
            return 2
        if not records:
            raise BadInput(f"no games in {shown}")
        store = open_store(directory, create=True)
        assert store is not None
        try:
            imported = store.import_games(records)
            check_store(store, "nothing was imported")
        finally:
            store.close()
    except (KeyboardInterrupt, Terminated):
        print("ttt-tui games: interrupted: nothing was imported", file=sys.stderr)
        raise
    print(f"Added {_plural(imported.added, 'game')} ({imported.duplicates:,} already recorded).")
    return 0


# list --------------------------------------------------------------------------


def run_list(args: argparse.Namespace, directory: Path) -> int:
    """Print the newest games, one a line, each with its number."""
    from ttt_tui.storage import Unreadable
    from ttt_tui.teach.records import game_line

    store = open_store(directory, create=False)
    games: list[NumberedGame] = []
    if store is not None:
        try:
            games = store.games_page(limit=args.limit)
            check_store(store)
        finally:
            store.close()
    if not games:
        print(f"No games recorded yet in {directory}.")
        return 0
    width = max(4, len(str(games[0][0])))
    for number, game in games:
        shown = (
            f"cannot be read ({game.reason})" if isinstance(game, Unreadable) else game_line(game)
        )
        print(f"{number:>{width}}  {shown}")
    return 0


# The command -------------------------------------------------------------------

RUN: dict[str, Callable[[argparse.Namespace, Path], int]] = {
    "export": run_export,
    "import": run_import,
    "list": run_list,
}


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def _quiet_stdout() -> None:
    """Send what stdout still holds nowhere: its reader is gone, or the command was
    stopped, and a final flush must neither block nor complain."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(args: argparse.Namespace) -> int:
    """Run `ttt-tui games ACTION`: 0 done, 2 bad input (said on stderr), 130 SIGINT,
    143 SIGTERM."""
    from ttt_tui.storage import LockBusy, default_data_dir

    directory = default_data_dir()
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        status = RUN[args.games_action](args, directory)
        sys.stdout.flush()  # here, where a reader gone away is seen, not at exit
        return status
    except BadInput as exc:
        if str(exc):
            print(f"ttt-tui games: {exc}", file=sys.stderr)
        return 2
    except LockBusy:
        print(
            f"ttt-tui games: another ttt-tui has held {directory} for more than"
            f" {LOCK_SECONDS:g} s; nothing was done: try again when it has finished",
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except (KeyboardInterrupt, Terminated) as stop:
        if args.games_action == "list" or getattr(args, "file", None) == "-":
            _quiet_stdout()
        if args.games_action == "export" and _written_whole(args.file):
            print(f"ttt-tui games: interrupted: {args.file} was not written", file=sys.stderr)
        return 143 if isinstance(stop, Terminated) else 130
    finally:
        signal.signal(signal.SIGTERM, previous)
