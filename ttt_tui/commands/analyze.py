"""`ttt-tui analyze`: proven values for positions on every board size, as text or JSON.

``--tree DEPTH`` adds the game tree to that depth (every level's values from
`analyze`), ``--stats`` the positions plain minimax, alpha-beta and the engine
visit to value the position (`ttt_tui.engine.minimax`).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from ttt_tui.commands import Complaints, Subcommands, bounded, clipped, quoted

if TYPE_CHECKING:
    from ttt_tui.engine import Board
    from ttt_tui.engine.minimax import Count, Search


def add_parser(commands: Subcommands) -> argparse.ArgumentParser:
    """Add ``analyze`` to the command line's ``commands``."""
    analyze = commands.add_parser(
        "analyze",
        help="print the minimax value of every move in positions",
        description=(
            "Print each position's board and the exact value of every empty cell"
            " for the side to move. A position is 9, 16 or 25 cells in reading order"
            " (3x3 three in a row, 4x4 or 5x5 four in a row): X, O, and '.', '-' or"
            " '_' for empty, with optional '/' between rows."
        ),
        epilog=(
            "Cells are numbered from 1 in text (as the game's keys are) and from 0"
            ' in --json ("cell" and "best" are 0-based, in reading order).'
        ),
    )
    analyze.add_argument(
        "positions",
        nargs="+",
        metavar="POSITION",
        help="a position such as X...O.... ; '-' reads positions from stdin, one a line",
    )
    analyze.add_argument("--json", action="store_true", help="print one JSON object per position")
    analyze.add_argument(
        "--tree",
        type=bounded(int, 1, None, "a number of plies"),
        metavar="DEPTH",
        help=(
            "also print the game tree to DEPTH plies, indented, best moves marked with *"
            ' (with --json: "tree", nested objects with move, cell, player, value, plies,'
            " best and children)"
        ),
    )
    analyze.add_argument(
        "--stats",
        action="store_true",
        help=(
            "also count the positions plain minimax, alpha-beta and the engine visit to value"
            " each position (plain minimax and alpha-beta stop after 1,000,000; an estimate"
            " of the whole tree is given where plain minimax cannot finish)"
        ),
    )
    analyze.set_defaults(main=main)
    return analyze


def stats_order() -> tuple[Search, ...]:
    """The searches `--stats` counts, in the order it prints them."""
    from ttt_tui.engine.minimax import Search

    return (Search.MINIMAX, Search.ALPHA_BETA, Search.ENGINE)


def position_report(board: Board) -> dict[str, Any]:
    """The JSON object for one valid position."""
    from ttt_tui.engine import Status, analyze

    status = board.status
    report: dict[str, Any] = {
        "position": str(board),
        "n": board.n,
        "k": board.k,
        "to_move": board.to_move.value if status is Status.IN_PROGRESS else None,
        "status": status.value,
    }
    if status is Status.IN_PROGRESS:
        analysis = analyze(board)
        report["value"] = analysis.value.outcome.value
        report["plies"] = analysis.value.plies
        report["moves"] = [
            {"cell": cell, "value": verdict.outcome.value, "plies": verdict.plies}
            for cell, verdict in sorted(analysis.moves.items())
        ]
        report["best"] = sorted(analysis.best)
    return report


def count_report(count: Count) -> dict[str, Any]:
    """The JSON object for one search's count."""
    from ttt_tui.engine.minimax import Search

    return {
        "nodes": count.nodes,
        "finished": count.finished,
        "value": None if count.verdict is None else count.verdict.outcome.value,
        "plies": None if count.verdict is None else count.verdict.plies,
        "cuts": count.cuts if count.search is Search.ALPHA_BETA else None,
        "moves": count.root_moves,
        "moves_done": count.root_done,
        "seconds": round(count.seconds, 3),
        "estimate": None if count.estimate is None else round(count.estimate.nodes),
    }


def stats_text(board: Board) -> list[str]:
    """The three searches' counts, a line each."""
    from ttt_tui.engine.minimax import run_count
    from ttt_tui.teach.explain import count_words

    lines = ["positions each search visits to value it:"]
    width = max(len(search.label) for search in stats_order())
    for search in stats_order():
        lines.append(f"  {search.label:<{width}}  {count_words(run_count(board, search))}")
    return lines


def render_text(board: Board) -> str:
    """A readable board with each empty cell's value and the best moves marked.

    Cells show their number (1 to n*n) until marked; each valued move is
    named by number and by square (column letter, row number, a1 top-left).
    """
    from ttt_tui.engine import Status, analyze, coordinate

    n = board.n
    width = len(str(n * n))
    lines = [f"position {board}"]
    symbols = [
        (mark.value if (mark := board[cell]) else str(cell + 1)).rjust(width)
        for cell in range(n * n)
    ]
    grid = [" " + " | ".join(symbols[row * n : row * n + n]) for row in range(n)]
    lines.append(("\n" + "+".join(["-" * (width + 2)] * n) + "\n").join(grid))
    status = board.status
    if status is not Status.IN_PROGRESS:
        winner = status.winner
        lines.append(f"game over: {winner.value} won" if winner else "game over: draw")
        return "\n".join(lines)
    analysis = analyze(board)
    lines.append(f"{board.to_move.value} to move: {analysis.value} with best play")
    for cell, verdict in sorted(analysis.moves.items()):
        marker = "  <- best" if cell in analysis.best else ""
        number = str(cell + 1).rjust(width)
        lines.append(f"  {number} ({coordinate(cell, n)})  {verdict}{marker}")
    return "\n".join(lines)


def render_tree(board: Board, depth: int) -> str:
    """The position's board and value, then its game tree to ``depth`` plies."""
    from ttt_tui.engine import Status, analyze
    from ttt_tui.teach.explain import tree_lines

    text = render_text(board)
    if board.status is not Status.IN_PROGRESS:
        return text
    head = text.split("\n  ", 1)[0]  # the board and the value, without the moves
    plies = "ply" if depth == 1 else "plies"
    lines = [head, f"game tree, {depth} {plies} deep (* marks the best moves):"]
    lines += tree_lines(board, depth, analyze)
    return "\n".join(lines)


def run_analyze(
    positions: Iterable[str],
    as_json: bool,
    out: TextIO,
    err: TextIO,
    tree: int | None = None,
    stats: bool = False,
) -> int:
    """Analyse each position in order; 2 if any was bad, or if there were none, else 0.

    ``tree`` adds the game tree to that depth; ``stats`` the three searches' counts. A bad
    position is quoted in at most `QUOTED` characters, and only the first ten are named
    on ``err``, the others counted (with ``as_json`` each is an error object in its place).
    """
    from ttt_tui.engine import Board, InvalidPositionError, Status, analyze
    from ttt_tui.engine.minimax import run_count
    from ttt_tui.teach.explain import tree_json

    status = 0
    first = True
    given = 0
    complaints = Complaints("ttt-tui analyze", "bad position", err)
    for raw in positions:
        given += 1
        try:
            board = Board.parse(raw)
        except InvalidPositionError as exc:
            status = 2
            if as_json:
                out.write(json.dumps({"position": clipped(raw), "error": str(exc)}) + "\n")
            else:
                complaints.add(f"{quoted(raw)}: {exc}")
            continue
        playing = board.status is Status.IN_PROGRESS
        if as_json:
            report = position_report(board)
            if tree is not None and playing:
                report["tree"] = tree_json(board, tree, analyze)
            if stats and playing:
                report["stats"] = {
                    search.value: count_report(run_count(board, search)) for search in stats_order()
                }
            out.write(json.dumps(report) + "\n")
        else:
            text = render_text(board) if tree is None else render_tree(board, tree)
            if stats and playing:
                text += "\n" + "\n".join(stats_text(board))
            out.write(("" if first else "\n") + text + "\n")
            first = False
        out.flush()
    complaints.close()
    if not given:
        err.write("ttt-tui analyze: no positions given (standard input held none)\n")
        return 2
    return status


def read_positions(args: list[str], stdin: TextIO) -> Iterable[str]:
    """The positions named on the command line, with ``-`` reading stdin."""
    for arg in args:
        if arg == "-":
            for line in stdin:
                if line.strip():
                    yield line.rstrip("\r\n")
        else:
            yield arg


def main(args: argparse.Namespace) -> int:
    """Run `ttt-tui analyze`, tolerating undecodable input and a reader that goes away."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    try:
        return run_analyze(
            read_positions(args.positions, sys.stdin),
            args.json,
            sys.stdout,
            sys.stderr,
            tree=args.tree,
            stats=args.stats,
        )
    except BrokenPipeError:
        # The reader (say `| head -1`) has what it wanted; stop quietly, and keep
        # Python from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
