"""Runs a learner's Python bot in a process of its own, for `ttt-tui check` and the game.

    python -m ttt_tui.bots.host BOT.py

It loads the file, says which function it found, then answers positions read from
standard input, one a line (``X.O......``, analyze's notation), with one JSON line
each on the protocol stream:

- ``{"ready": "minimax"}`` or ``{"ready": "choose_move"}`` once loaded, or
  ``{"fatal": "..."}`` when the file cannot be loaded (then it exits);
- ``{"answer": ..., "changed": false}`` for each position: the function's answer
  as it gave it (a ``[row, col]`` pair, a number or a name; ``repr`` of anything
  else), and whether it wrote on the board it was given;
- ``{"error": "Traceback ..."}`` when the function raised.

A line that is a JSON object instead asks a CS50 file's other functions
(`FUNCTIONS`) about many positions at once: ``{"call": "winner", "positions":
[...]}`` (``result`` also takes ``"actions"``, a ``[row, col]`` for each
position). The reply is ``{"missing": true}`` when the file has no such
function, else ``{"values": [...]}``, one for each position, in order:
``{"value": V}`` with V in plain JSON (a mark as ``"X"``, ``"O"`` or null, a
board as its position, a set of squares as a sorted list of pairs, True or
False, a number), ``{"other": "repr"}`` for what has no such form, or
``{"raised": "ValueError: ..."}`` with the traceback's last line; ``"changed":
true`` is added where the function wrote on the board it was given.

The protocol stream is the standard output the process was started with; the
bot's own prints go to standard error, so that nothing it writes can be taken
for an answer. Deliberately small: it imports nothing of ttt-tui's, so a bot
starts in the time Python does.
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import Any


def _load(path: str) -> tuple[Any, str]:
    """The bot's module and the convention it follows; raises `SystemExit` with a
    ``fatal`` line when it has none."""
    spec = importlib.util.spec_from_file_location("learner_bot", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("minimax", "choose_move"):
        if callable(getattr(module, name, None)):
            return module, name
    raise ValueError(f"{path} defines neither minimax(board) nor choose_move(position)")


@contextlib.contextmanager
def _no_input() -> Iterator[None]:
    """Standard input at its end while the file loads: an ``input()`` run as it is
    loaded raises `EOFError` instead of waiting for, or eating, a position."""
    kept, null = os.dup(0), os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield
    finally:
        os.dup2(kept, 0)
        os.close(kept)


def _cs50_board(module: Any, position: str) -> list[list[Any]]:
    """The position as CS50's board: 3 lists of 3, holding the file's own ``X``, ``O``
    and ``EMPTY`` if it defines them (else ``"X"``, ``"O"`` and ``None``)."""
    x, o = getattr(module, "X", "X"), getattr(module, "O", "O")
    empty = getattr(module, "EMPTY", None)
    marks = {"X": x, "O": o, ".": empty}
    cells = [marks[char] for char in position]
    return [cells[row * 3 : row * 3 + 3] for row in range(3)]


def _plain(value: Any) -> Any:
    """The answer as JSON can carry it: numbers, strings and pairs as they are."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int | str):
        return value
    if isinstance(value, tuple | list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return list(value)
    return repr(value)


FUNCTIONS = ("player", "actions", "result", "winner", "terminal", "utility")
"""The functions of CS50's tictactoe.py besides ``minimax`` that a call may name."""


class _Other(Exception):
    """A returned value with no plain form for its function: shown as ``repr``."""


def _mark(module: Any, value: Any) -> Any:
    """``"X"``, ``"O"`` or None for the file's own marks (None, CS50's "no one", too)."""
    for name, mark in (("X", getattr(module, "X", "X")), ("O", getattr(module, "O", "O"))):
        if type(value) is type(mark) and value == mark:
            return name
    empty = getattr(module, "EMPTY", None)
    if value is None or (type(value) is type(empty) and value == empty):
        return None
    raise _Other


def _position(module: Any, value: Any) -> str:
    """A board of the file's marks as a position in analyze's notation."""
    if not (isinstance(value, list | tuple) and len(value) == 3):
        raise _Other
    text = ""
    for row in value:
        if not (isinstance(row, list | tuple) and len(row) == 3):
            raise _Other
        text += "".join(_mark(module, cell) or "." for cell in row)
    return text


def _squares(module: Any, value: Any) -> list[list[int]]:
    """A collection of ``(i, j)`` pairs, sorted (a repeated pair kept)."""
    if not isinstance(value, set | frozenset | list | tuple):
        raise _Other
    pairs = [_plain(pair) for pair in value]
    if not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
        raise _Other
    return sorted(pairs)


def _exactly(kinds: tuple[type, ...]) -> Callable[[Any, Any], Any]:
    """A value of one of ``kinds`` as it is: True is no number here, nor 1 a bool."""

    def plain(module: Any, value: Any) -> Any:
        if isinstance(value, bool) != (bool in kinds) or not isinstance(value, kinds):
            raise _Other
        return value

    return plain


_PLAIN: dict[str, Callable[[Any, Any], Any]] = {
    "player": _mark,
    "winner": _mark,
    "result": _position,
    "actions": _squares,
    "terminal": _exactly((bool,)),
    "utility": _exactly((int, float)),
}
"""How each function's value is put in plain JSON."""


def _call(module: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The reply to a call of one function on many positions (see the module's doc)."""
    name = str(request.get("call"))
    function = getattr(module, name, None) if name in FUNCTIONS else None
    if not callable(function):
        return {"missing": True}
    positions = request.get("positions", [])
    actions = request.get("actions") or [None] * len(positions)
    values = []
    for position, action in zip(positions, actions, strict=True):
        board = _cs50_board(module, position)
        before = [row[:] for row in board]
        found: dict[str, Any] = {}
        try:
            value = function(board) if action is None else function(board, tuple(action))
        except Exception as exc:
            found["raised"] = traceback.format_exception_only(exc)[-1].strip()
        else:
            try:
                found["value"] = _PLAIN[name](module, value)
            except _Other:
                found["other"] = repr(value)[:200]
        if board != before:
            found["changed"] = True
        values.append(found)
    return {"values": values}


def main(argv: list[str]) -> int:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # the bot's prints, even from C, go to standard error
    sys.stdout = sys.stderr

    def say(message: dict[str, Any]) -> None:
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()

    try:
        with _no_input():
            module, kind = _load(argv[1])
    except EOFError:
        playing = 'code that plays belongs under if __name__ == "__main__":'
        say({"fatal": f"{argv[1]} reads input (input()) as it is loaded: {playing}"})
        return 2
    except SyntaxError as exc:
        say({"fatal": f"{argv[1]}: a syntax error at line {exc.lineno}: {exc.msg}"})
        return 2
    except FileNotFoundError:
        say({"fatal": f"{argv[1]}: no such file"})
        return 2
    except Exception as exc:
        say({"fatal": f"{argv[1]} could not be loaded: {type(exc).__name__}: {exc}"})
        return 2
    say({"ready": kind})
    for line in sys.stdin:
        position = line.strip()
        if not position:
            continue
        if position.startswith("{"):
            say(_call(module, json.loads(position)))
            continue
        try:
            if kind == "minimax":
                board = _cs50_board(module, position)
                before = copy.deepcopy(board)
                answer = module.minimax(board)
                changed = board != before
            else:
                answer = module.choose_move(position)
                changed = False
        except BaseException:
            if sys.exc_info()[0] is KeyboardInterrupt:
                raise
            say({"error": traceback.format_exc(limit=8)})
            continue
        say({"answer": _plain(answer), "changed": changed})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
