"""Grading the other functions of a CS50 tictactoe.py (`FUNCTIONS`) against the engine.

Each function is asked about every reachable 3x3 position where CS50's spec
says what it must give (`cases`): ``player`` and ``actions`` on boards still in
play, ``result`` on every legal action there (a new board, the given one left
as it was) and on a taken square (it must raise), ``winner`` and ``terminal`` on
all 5,478, ``utility`` on the 958 finished ones. `graded` compares what it gave
(`ttt_tui.bots.host`'s plain values) with the engine's answer and keeps the
first board where it is wrong.

Pure: the calls themselves are made by `ttt_tui.commands.check`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ttt_tui.engine import Board, Status

FUNCTIONS = ("player", "actions", "result", "winner", "terminal", "utility")
"""The functions checked, in the order of CS50's spec."""

RAISES = "an exception"
"""The expected "value" of ``result`` on a taken square."""


@cache
def reachable_positions() -> tuple[Board, ...]:
    """Every 3x3 position a game can reach, finished ones included (5,478), fewest
    marks first, then in the order of their text."""
    found: dict[str, Board] = {}
    stack = [Board.empty(3)]
    while stack:
        board = stack.pop()
        key = str(board)
        if key in found:
            continue
        found[key] = board
        stack.extend(board.play(cell) for cell in board.legal_moves())
    return tuple(sorted(found.values(), key=lambda b: (b.move_count, str(b))))


@dataclass(frozen=True, slots=True)
class Case:
    """One call to check: the board, for ``result`` the action, and the right answer."""

    board: Board
    expected: Any
    """In the host's plain JSON (a mark ``"X"`` or None, a position, sorted pairs,
    a bool, a number), or `RAISES`."""
    action: tuple[int, int] | None = None


def _pair(cell: int) -> tuple[int, int]:
    return divmod(cell, 3)


def _utility(status: Status) -> int:
    return {Status.X_WON: 1, Status.O_WON: -1}.get(status, 0)


@cache
def cases(name: str) -> tuple[Case, ...]:
    """The calls of function ``name`` to check, each with the engine's answer."""
    found: list[Case] = []
    for board in reachable_positions():
        status = board.status
        over = status is not Status.IN_PROGRESS
        if name == "winner":
            winner = status.winner
            found.append(Case(board, None if winner is None else winner.value))
        elif name == "terminal":
            found.append(Case(board, over))
        elif name == "utility" and over:
            found.append(Case(board, _utility(status)))
        elif name == "player" and not over:
            found.append(Case(board, board.to_move.value))
        elif name == "actions" and not over:
            found.append(Case(board, [list(_pair(cell)) for cell in board.legal_moves()]))
        elif name == "result" and not over:
            text, mark = str(board), board.to_move.value
            for cell in board.legal_moves():
                after = text[:cell] + mark + text[cell + 1 :]  # `Board.play`'s, quicker
                found.append(Case(board, after, _pair(cell)))
            taken = board.x | board.o
            if taken:
                first = (taken & -taken).bit_length() - 1
                found.append(Case(board, RAISES, _pair(first)))
    return tuple(found)


def shown(name: str, value: Any) -> str:
    """A plain value of function ``name`` as the learner's Python would show it."""
    if name == "actions" and isinstance(value, list):
        return "{" + ", ".join(f"({i}, {j})" for i, j in value) + "}" if value else "set()"
    if name == "result" and isinstance(value, str):
        return f"the board {value}"
    if isinstance(value, str) and name in ("player", "winner"):
        return value
    return repr(value)


@dataclass(frozen=True, slots=True)
class Wrong:
    """A call whose answer is wrong: the case and what the function did."""

    case: Case
    got: dict[str, Any]
    """As the host sent it: ``value``, ``other`` or ``raised``, and ``changed``."""

    def did(self, name: str) -> str:
        """What function ``name`` did, in words: ``returned None``, ``raised KeyError: 3``,
        ``wrote on the board it was given``."""
        if self.got.get("changed"):
            return "wrote on the board it was given"
        if "raised" in self.got:
            return f"raised {self.got['raised']}"
        if "other" in self.got:
            return f"returned {self.got['other']}"
        return f"returned {shown(name, self.got.get('value'))}"

    def should(self, name: str) -> str:
        """What it should have done, in words."""
        if self.got.get("changed"):
            return "leave it as it was and return a new one"
        if self.case.expected == RAISES:
            return "raise an exception (the square is taken)"
        return f"return {shown(name, self.case.expected)}"


def _right(case: Case, got: dict[str, Any]) -> bool:
    if got.get("changed"):
        return False
    if case.expected == RAISES:
        return "raised" in got
    if "value" not in got:
        return False
    value = got["value"]
    # `True == 1` in Python: a bool is right only where a bool is expected.
    return isinstance(value, bool) == isinstance(case.expected, bool) and value == case.expected


@dataclass
class FunctionCheck:
    """One function's grade: how many calls were checked, and the wrong ones."""

    name: str
    checked: int = 0
    wrong: list[Wrong] = field(default_factory=list)
    missing: bool = False
    failure: str = ""
    """Why the calls stopped before the end (a timeout, the process ending)."""

    @property
    def passed(self) -> bool:
        """Whether every call was right (a missing function fails nothing)."""
        return not self.wrong and not self.failure

    @property
    def changed(self) -> list[Wrong]:
        """The calls that wrote on the board they were given."""
        return [item for item in self.wrong if item.got.get("changed")]

    def call_words(self, case: Case) -> str:
        """The call as code: ``winner(board)``, ``result(board, (1, 1))``."""
        action = "" if case.action is None else f", {case.action}"
        return f"{self.name}(board{action})"

    def lines(self) -> list[str]:
        """The grade as the report's text: a line, and the first wrong board drawn."""
        if self.missing:
            return [f"  {self.name}: missing (not defined in the file)"]
        head = f"  {self.name}: "
        if not self.wrong and not self.failure:
            return [head + f"right on all {self.checked:,} calls"]
        if not self.wrong:
            done = f"right on the first {self.checked:,} calls, then " if self.checked else ""
            return [head + done + self.failure]
        first = self.wrong[0]
        case = first.case
        out = [
            head + f"wrong on {len(self.wrong):,} of {self.checked:,} calls; the first:",
            *drawn(case.board, indent="    "),
        ]
        call, name = self.call_words(case), self.name
        out.append(f"    {call} {first.did(name)}; it should {first.should(name)}")
        out.append(f"    try: ttt-tui analyze {case.board}")
        if self.failure:
            out.append(f"    then {self.failure}")
        return out

    def to_json(self) -> dict[str, Any]:
        """The grade as ``check --json`` gives it."""
        first = self.wrong[0] if self.wrong else None
        return {
            "missing": self.missing,
            "checked": self.checked,
            "wrong": len(self.wrong),
            "changed_board": len(self.changed),
            "failure": self.failure,
            "first": None
            if first is None
            else {
                "position": str(first.case.board),
                "action": None if first.case.action is None else list(first.case.action),
                "got": first.got,
                "expected": first.case.expected,
            },
        }


def graded(name: str, values: list[dict[str, Any]], failure: str = "") -> FunctionCheck:
    """Function ``name``'s grade from the host's values for `cases` (in order; fewer
    when the calls stopped early, ``failure`` saying why)."""
    found = FunctionCheck(name, checked=len(values), failure=failure)
    for case, got in zip(cases(name), values, strict=False):
        if not _right(case, got):
            found.wrong.append(Wrong(case, got))
    return found


def functions_lines(functions: list[FunctionCheck]) -> list[str]:
    """The functions' grades as the report's text: one line when every one was right,
    else a line (and the first wrong board) each; none for a file without them."""
    if not functions:
        return []
    if all(function.passed and not function.missing for function in functions):
        names = ", ".join(function.name for function in functions)
        calls = sum(function.checked for function in functions)
        return [
            f"CS50's functions right on every position they apply to: {names} ({calls:,} calls)"
        ]
    return [
        "CS50's functions, each against the engine on every position it applies to:",
        *(line for function in functions for line in function.lines()),
    ]


def drawn(board: Board, indent: str = "    ") -> list[str]:
    """The board drawn in rows, with the column letters above and row numbers beside."""
    letters = " ".join(chr(ord("a") + col) for col in range(board.n))
    return [f"{indent}  {letters}"] + [
        f"{indent}{row + 1} " + " ".join(text) for row, text in enumerate(board.rows())
    ]
