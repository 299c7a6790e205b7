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
from collections.abc import Iterator
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
