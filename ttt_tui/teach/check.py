"""Grading a learner's bot: the positions it is asked about, each answer labelled as
the review labels a move (`ttt_tui.teach.review.grade`), and the report: counts, a
verdict on the answers, a score, their speed apart, the worst examples in the
explorer's words, and a diagnosis where the pattern fits one of the usual minimax
bugs.

Pure: the bot itself runs elsewhere (`ttt_tui.commands.check`), and hands this
module each answer as it came. A CS50 file's other functions are graded in
`ttt_tui.teach.cs50`; the bugs are named in `ttt_tui.teach.diagnose`.
"""

from __future__ import annotations

import enum
import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ttt_tui.engine import SIZES, Analysis, Board, Cell, Player, Status, coordinate
from ttt_tui.engine.board import OFF, UNKNOWN, read_square
from ttt_tui.teach.cs50 import FunctionCheck, drawn, functions_lines, reachable_positions
from ttt_tui.teach.diagnose import answer_bugs, function_bugs
from ttt_tui.teach.explain import Analyzer, best_line, why
from ttt_tui.teach.review import LABELS, Label, grade


class Side(enum.Enum):
    """Whose positions are checked."""

    X = "X"
    O = "O"  # noqa: E741 - the mark's own name
    BOTH = "both"

    def wants(self, player: Player) -> bool:
        """Whether a position with ``player`` to move is checked."""
        return self is Side.BOTH or self.value == player.value


def every_3x3_position(side: Side) -> list[Board]:
    """Every legal 3x3 position still in play whose side to move is checked, fewest
    marks first (4,520 for both sides)."""
    return [
        board
        for board in reachable_positions()
        if board.status is Status.IN_PROGRESS and side.wants(board.to_move)
    ]


SAMPLE_EMPTIES = {4: (3, 10), 5: (3, 12)}
"""On 4x4 and 5x5, the empty squares a sampled position keeps, fewest and most: few
enough for the engine to prove every move at once."""


def sampled_positions(n: int, side: Side, count: int, seed: int = 0) -> list[Board]:
    """``count`` distinct seeded positions on a 4x4 or 5x5 board, reached by random
    play, still in play, whose side to move is checked."""
    rng = random.Random(f"check/{n}/{seed}")
    least, most = SAMPLE_EMPTIES[n]
    found: dict[str, Board] = {}
    tries = 0
    while len(found) < count and tries < count * 200:
        tries += 1
        board = Board.empty(n, SIZES[n])
        keep = rng.randint(least, most)
        while board.empty_mask.bit_count() > keep and not board.is_game_over():
            board = board.play(rng.choice(board.legal_moves()))
        if board.status is Status.IN_PROGRESS and side.wants(board.to_move):
            found.setdefault(str(board), board)
    return list(found.values())


class Problem(enum.Enum):
    """An answer that could not be graded."""

    ILLEGAL = "illegal"
    ERROR = "errors"
    TIMEOUT = "timeouts"


PROBLEM_WORDS = {
    Problem.ILLEGAL: "illegal answer",
    Problem.ERROR: "error",
    Problem.TIMEOUT: "timeout",
}


@dataclass(frozen=True, slots=True)
class Answer:
    """What the bot did with one position."""

    board: Board
    cell: Cell | None = None
    """The square it chose, if it chose one on the board and free."""
    problem: Problem | None = None
    detail: str = ""
    """For a problem: what was wrong (the answer given, the traceback, the stderr)."""
    changed_board: bool = False
    """Whether it wrote on the board it was given (Python bots)."""
    said: Any = None
    """The answer as the bot gave it (`ttt_tui.bots.bot.Reply.said`), if it gave one."""
    unreadable: bool = False
    """For an illegal answer: whether it named no square at all."""
    seconds: float = 0.0
    """How long the bot took to answer (or to be given up on)."""


@dataclass(frozen=True, slots=True)
class Graded:
    """A legal answer, with its label."""

    answer: Answer
    analysis: Analysis
    label: Label

    @property
    def cell(self) -> Cell:
        cell = self.answer.cell
        assert cell is not None
        return cell


def graded(answer: Answer, analysis: Analysis) -> Graded:
    """A legal answer labelled from the analysis of its position."""
    assert answer.cell is not None
    return Graded(answer, analysis, grade(analysis.value, analysis.moves[answer.cell]))


EXAMPLES = 3
"""Worst answers drawn in a report."""

SLOW_ANSWER = 1.0
"""Seconds from which an answer is slow enough for the report to say what would speed
it up."""

UNREADABLE_SHOWN = 5
"""Different unreadable lines a report shows (each once)."""


def duration(seconds: float) -> str:
    """``0.3 ms``, ``120 ms`` or ``4.7 s``."""
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s"


def where(board: Board) -> str:
    """Where an answer was given, for a person: ``on the empty board``, or ``in`` the
    position in analyze's notation."""
    return "on the empty board" if board.move_count == 0 else f"in {board}"


@dataclass
class Report:
    """Everything `ttt-tui check` says of a bot."""

    n: int
    positions: int
    """Positions the bot was to be asked about."""
    graded: list[Graded] = field(default_factory=list)
    problems: list[Answer] = field(default_factory=list)
    changed_board: int = 0
    interrupted: bool = False
    """Whether a signal stopped the check (Ctrl+C, SIGTERM)."""
    functions: list[FunctionCheck] = field(default_factory=list)
    """A CS50 file's other functions, graded (none for other bots)."""
    asked_twice: int = 0
    """Positions asked a second time (those the bot answered quickly)."""
    unstable: list[tuple[Board, Any, Any]] = field(default_factory=list)
    """Positions asked twice with two different answers: the board and both answers."""
    stopped: str = ""
    """Why the check stopped before asking every position, if it did for time: the
    total budget spent, or too many timeouts in a row."""
    limit: float | None = None
    """The course's time limit for one answer, if one was asked for."""
    stray: dict[str, int] = field(default_factory=dict)
    """Lines a command wrote that answered nothing, each with how often it came."""

    @property
    def asked(self) -> int:
        """Positions asked so far."""
        return len(self.graded) + len(self.problems)

    def add(self, answer: Answer, analysis: Analysis | None, stray: tuple[str, ...] = ()) -> None:
        """Count one answer (``analysis`` is needed for a legal one), and the ``stray``
        lines a command wrote before it, after its previous answer."""
        for line in stray:
            self.stray[line] = self.stray.get(line, 0) + 1
        if answer.changed_board:
            self.changed_board += 1
        if answer.problem is not None or analysis is None:
            self.problems.append(answer)
        else:
            self.graded.append(graded(answer, analysis))

    def labels(self, player: Player | None = None) -> dict[Label, int]:
        """The count of each review label, of one side's answers or of all."""
        found: dict[Label, int] = {label: 0 for label in LABELS if label is not Label.GOOD}
        for item in self.graded:
            if player is None or item.answer.board.to_move is player:
                found[item.label] = found.get(item.label, 0) + 1
        return found

    def problem_count(self, problem: Problem) -> int:
        return sum(1 for answer in self.problems if answer.problem is problem)

    @property
    def verdict(self) -> str:
        """``interrupted`` or ``unfinished`` (stopped for time) when not every position
        was asked; else, of the answers alone: ``perfect``, ``slow`` or ``loses``."""
        if self.interrupted:
            return "interrupted"
        if self.stopped:
            return "unfinished"
        counts = self.labels()
        if self.problems or self.changed_board or counts[Label.MISTAKE] or counts[Label.BLUNDER]:
            return "loses"
        if not all(function.passed for function in self.functions):
            return "loses"
        if counts[Label.INACCURACY] or counts.get(Label.GOOD, 0):
            return "slow"
        return "perfect"

    @property
    def score(self) -> int:
        """Out of 100, rounded down: a point for each best answer, half a point for one
        that keeps the result more slowly, none for anything else, over every position
        of the check (one never asked scores nothing); 100 only for every answer best."""
        halves = sum(
            0 if item.answer.changed_board or item.label.turning else 1 + (item.label is Label.BEST)
            for item in self.graded
        )
        return 100 * halves // (2 * self.positions) if self.positions else 0

    def times(self) -> list[Answer]:
        """The answers that came (every one but the timeouts), quickest first."""
        came = [item.answer for item in self.graded]
        came += [answer for answer in self.problems if answer.problem is not Problem.TIMEOUT]
        return sorted(came, key=lambda answer: answer.seconds)

    def over_limit(self) -> int:
        """Answers slower than the course's time limit (none without one)."""
        if self.limit is None:
            return 0
        return sum(1 for answer in self.times() if answer.seconds > self.limit)

    def speed_lines(self) -> list[str]:
        """The answers' speed: the median, the slowest and where, what makes a minimax
        slow when it is, and the course's time limit if one was asked for."""
        times = self.times()
        if not times:
            return []
        slowest = times[-1]
        out = [
            f"Speed: median {duration(statistics.median(a.seconds for a in times))},"
            f" slowest {duration(slowest.seconds)} {where(slowest.board)}"
        ]
        if slowest.seconds >= SLOW_ANSWER:
            place = "empty-board" if slowest.board.move_count == 0 else f"{slowest.board}"
            out.append(
                f"  your {place} answer took {duration(slowest.seconds)}: alpha-beta or a"
                " memo makes it instant (plain minimax plays out every game from there)"
            )
        if self.limit is not None:
            over = self.over_limit()
            out.append(
                f"Time limit: {over:,} {'answer' if over == 1 else 'answers'} took longer"
                f" than the {self.limit:g} s allowed (--max-answer-seconds)"
                if over
                else f"Time limit: every answer within the {self.limit:g} s allowed"
            )
        return out

    def unreadable(self) -> list[str]:
        """Every line that named no square, once each, in the order they came: the
        unreadable answers and the stray lines of a command."""
        lines = [str(a.said) for a in self.problems if a.unreadable]
        return list(dict.fromkeys([*lines, *self.stray]))

    def examples(self, most: int = EXAMPLES) -> list[Graded]:
        """The worst answers: blunders first, then mistakes, then inaccuracies; fewer
        marks first within each, as the simplest to follow."""
        bad = [item for item in self.graded if item.label not in (Label.BEST, Label.GOOD)]
        # `LABELS` runs from best to blunder: the worst label has the highest index.
        bad.sort(key=lambda item: (-LABELS.index(item.label), item.answer.board.move_count))
        return bad[:most]

    def diagnosis(self) -> list[str]:
        """The usual bugs the pattern fits, in words (none when nothing fits): a CS50
        file's functions first (`ttt_tui.teach.diagnose`)."""
        found = function_bugs(self.functions)
        thrown = {
            player: [
                item
                for item in self.graded
                if item.answer.board.to_move is player and item.label.turning
            ]
            for player in Player
        }
        asked = {
            player: sum(1 for item in self.graded if item.answer.board.to_move is player)
            for player in Player
        }
        for good, bad in ((Player.X, Player.O), (Player.O, Player.X)):
            if asked[good] and not thrown[good] and len(thrown[bad]) >= 0.2 * asked[bad] > 0:
                found.append(
                    f"It plays well as {good.value} and throws results away as"
                    f" {bad.value} ({len(thrown[bad]):,} of {asked[bad]:,} positions):"
                    f" it may be scoring every position for {good.value}, whoever is"
                    " to move. Minimax maximises for the side to move and minimises"
                    " for the other."
                )
        counts = self.labels()
        if counts[Label.INACCURACY] and not (counts[Label.MISTAKE] or counts[Label.BLUNDER]):
            found.append(
                "It never throws a result away, but it does not prefer quicker wins (or"
                " slower losses): every win scores the same however far off it is. Score a"
                " win higher the sooner it comes (say 10 minus the depth)."
            )
        turning = thrown[Player.X] + thrown[Player.O]
        if turning and all(item.answer.board.empty_mask.bit_count() <= 3 for item in turning):
            found.append(
                "It throws results away only with three squares or fewer left: look at"
                " the end of the game, where a win on the last square or a full board"
                " may not be seen (an off-by-one in the terminal test)."
            )
        if self.changed_board:
            found.append(
                f"It wrote on the board it was given in {self.changed_board:,} positions:"
                " try each move on a copy (or undo it), or the next call sees marks that"
                " were never played."
            )
        return found + answer_bugs(self)

    def example_lines(self, item: Graded, analyze: Analyzer) -> list[str]:
        """One worst answer: the board, the bot's move, the best ones and why."""
        board, cell, analysis = item.answer.board, item.cell, item.analysis
        n = board.n
        rows = drawn(board)
        best = ", ".join(coordinate(c, n) for c in analysis.best)
        return [
            f"  {board.to_move.value} to move, the bot played {coordinate(cell, n)}"
            f" ({item.label.value}); best: {best}",
            *rows,
            f"    {self.reason(item, analyze)}",
            f"    try: ttt-tui analyze {board}",
        ]

    @staticmethod
    def reason(item: Graded, analyze: Analyzer) -> str:
        """Why the bot's answer is worth what it is, in the explorer's words."""
        after = item.answer.board.play(item.cell)
        line = [] if after.is_game_over() else best_line(after, analyze)
        return why(item.analysis, item.cell, line)

    def lines(self, analyze: Analyzer) -> list[str]:
        """The report as text: a CS50 file's functions first (a wrong ``winner``
        explains a wrong ``minimax``), then the answers."""
        out = functions_lines(self.functions)
        out += [
            f"{self.n}x{self.n}: {self.asked:,} of {self.positions:,} positions asked"
            + (" (interrupted)" if self.interrupted else "")
        ]
        counts = self.labels()
        out.append("  " + ", ".join(f"{label.value} {count:,}" for label, count in counts.items()))
        out.append(
            "  "
            + ", ".join(f"{problem.value} {self.problem_count(problem):,}" for problem in Problem)
            + f", changed_board {self.changed_board:,}"
        )
        for player in Player:
            side = self.labels(player)
            if sum(side.values()):
                out.append(
                    f"  as {player.value}: "
                    + ", ".join(f"{label.value} {count:,}" for label, count in side.items())
                )
        examples = self.examples()
        if examples:
            out.append("The worst answers:")
            for item in examples:
                out += self.example_lines(item, analyze)
        for problem in Problem:
            first = next((a for a in self.problems if a.problem is problem), None)
            if first is not None:
                out.append(f"The first {PROBLEM_WORDS[problem]}, in {first.board}:")
                out += ["    " + line for line in first.detail.rstrip().splitlines()[-12:]]
                out.append(f"    try: ttt-tui analyze {first.board}")
        unreadable = self.unreadable()
        if unreadable:
            some = f", the first {UNREADABLE_SHOWN}" if len(unreadable) > UNREADABLE_SHOWN else ""
            out.append(
                f"Lines that name no square ({len(unreadable):,} different, each shown once"
                f"{some}): a bot's other output belongs on standard error"
            )
            out += [f"    {line[:100]!r}" for line in unreadable[:UNREADABLE_SHOWN]]
        for sentence in self.diagnosis():
            out.append(f"Diagnosis: {sentence}")
        out += self.speed_lines()
        if self.stopped:
            out.append(f"Stopped early: {self.stopped}")
        out.append(f"Score: {self.score} out of 100")
        out.append(f"Verdict: {self.verdict}")
        return out

    def to_json(self, analyze: Analyzer) -> dict[str, Any]:
        """The report as ``check --json`` gives it."""
        return {
            "board": self.n,
            "positions": self.asked,
            "labels": {label.value: count for label, count in self.labels().items()},
            "illegal": self.problem_count(Problem.ILLEGAL),
            "errors": self.problem_count(Problem.ERROR),
            "timeouts": self.problem_count(Problem.TIMEOUT),
            "changed_board": self.changed_board,
            "verdict": self.verdict,
            "score": self.score,
            "interrupted": self.interrupted,
            "stopped": self.stopped or None,
            "diagnosis": self.diagnosis(),
            "functions": {function.name: function.to_json() for function in self.functions},
            "asked_twice": self.asked_twice,
            "unstable": [
                {"position": str(board), "answers": [first, second]}
                for board, first, second in self.unstable
            ],
            "speed": self.speed_json(),
            "problems": [
                {
                    "position": str(answer.board),
                    "problem": answer.problem.value if answer.problem else None,
                    "answer": answer.said if answer.problem is Problem.ILLEGAL else None,
                    "detail": answer.detail,
                    "seconds": answer.seconds,
                }
                for answer in self.problems
            ],
            "unreadable": self.unreadable(),
            "examples": [
                {
                    "position": str(item.answer.board),
                    "cell": item.cell,
                    "square": coordinate(item.cell, self.n),
                    "label": item.label.value,
                    "best": list(item.analysis.best),
                    "why": self.reason(item, analyze),
                }
                for item in self.examples()
            ],
        }

    def speed_json(self) -> dict[str, Any] | None:
        """The answers' speed as `speed_lines` says it, for ``--json``; None before any."""
        times = self.times()
        if not times:
            return None
        return {
            "median": statistics.median(a.seconds for a in times),
            "slowest": times[-1].seconds,
            "slowest_position": str(times[-1].board),
            "limit": self.limit,
            "over_limit": self.over_limit(),
        }


UNREADABLE = "unreadable"
"""How `read_answer`'s reason begins for an answer that names no square."""


def read_answer(board: Board, kind: str, answer: Any) -> tuple[Cell | None, str]:
    """The square a bot's answer names, or None and why it is illegal.

    ``minimax`` answers a 0-based ``(row, col)``; ``choose_move`` and a command
    answer a number from 1 or a name (``b2``), read as `ttt-tui review` reads them."""
    n = board.n
    if kind == "minimax":
        if not (isinstance(answer, list) and len(answer) == 2):
            return None, f"{UNREADABLE}: expected (row, col), got {answer!r}"
        row, col = answer
        if not (0 <= row < n and 0 <= col < n):
            return None, f"off the board: ({row}, {col})"
        found: Cell | str = row * n + col
    else:
        text = str(answer).strip().lower()
        found = read_square(text, n)
        if found == OFF:
            return None, f"off the board: {text}"
        if found == UNKNOWN:
            return None, f"{UNREADABLE}: {str(answer)[:60]!r}"
    assert isinstance(found, int)
    if (board.x | board.o) >> found & 1:
        said = f"({answer[0]}, {answer[1]}) is " if kind == "minimax" else ""
        return None, f"a taken square: {said}{coordinate(found, n)}"
    return found, ""


def judged(
    board: Board, kind: str, said: Any, *, changed_board: bool = False, seconds: float = 0.0
) -> Answer:
    """A bot's answer, as it said it, read as a square (`read_answer`): legal or not."""
    cell, why = read_answer(board, kind, said)
    if cell is None:
        return Answer(
            board,
            problem=Problem.ILLEGAL,
            detail=why,
            changed_board=changed_board,
            said=said,
            unreadable=why.startswith(UNREADABLE),
            seconds=seconds,
        )
    return Answer(board, cell=cell, changed_board=changed_board, said=said, seconds=seconds)


def positions_for(n: int, side: Side, count: int) -> Iterator[Board]:
    """The positions to ask about on an ``n`` x ``n`` board."""
    if n == 3:
        yield from every_3x3_position(side)
    else:
        yield from sampled_positions(n, side, count)
