"""`ttt-tui analyze`: proven values for positions on every board size, as text or JSON."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from ttt_tui.engine import Board, InvalidPositionError, Status, analyze, coordinate


def position_report(board: Board) -> dict[str, Any]:
    """The JSON object for one valid position."""
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


def render_text(board: Board) -> str:
    """A readable board with each empty cell's value and the best moves marked.

    Cells show their number (1 to n*n) until marked; each valued move is
    named by number and by square (column letter, row number, a1 top-left).
    """
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


def run_analyze(positions: Iterable[str], as_json: bool, out: TextIO, err: TextIO) -> int:
    """Analyse each position in order; 2 if any was bad, else 0."""
    status = 0
    first = True
    for raw in positions:
        try:
            board = Board.parse(raw)
        except InvalidPositionError as exc:
            status = 2
            if as_json:
                out.write(json.dumps({"position": raw, "error": str(exc)}) + "\n")
            else:
                err.write(f"ttt-tui analyze: {raw!r}: {exc}\n")
            continue
        if as_json:
            out.write(json.dumps(position_report(board)) + "\n")
        else:
            out.write(("" if first else "\n") + render_text(board) + "\n")
            first = False
        out.flush()
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
