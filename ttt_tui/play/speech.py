"""The game in words, for a listener: the announcement line, and the move box's commands.

Pure: no UI imports. A screen reader, a braille display or Speakup reads lines
of text; `announcement` says what just happened as plain sentences, the same
words every time (``O plays b2.``, ``Square 5 is taken.``), and `read_command`
reads what is typed in the move box (``c3``, ``5``, ``board``, ``undo``), whose
questions `answer` puts into words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ttt_tui.engine import Board, Cell, Player, Status, cells_of, coordinate, mover_of, read_square
from ttt_tui.engine.board import OFF
from ttt_tui.play.game import Game, move_name
from ttt_tui.play.session import Session
from ttt_tui.play.settings import Mode, level_name

# What happened ------------------------------------------------------------------


@dataclass(frozen=True)
class Heard:
    """What the listener was last told about: the game, and its moves then."""

    game: Game | None = None
    moves: tuple[Cell, ...] = ()


def move_sentence(ply: int, cell: Cell, n: int) -> str:
    """A move, always in the same words: ``O plays b2``."""
    return f"{mover_of(ply).value} plays {coordinate(cell, n)}"


def _squares(cells: Sequence[Cell], n: int) -> str:
    return ", ".join(coordinate(cell, n) for cell in cells)


def ending(game: Game) -> str:
    """How the last move ended the game, after its sentence: `` and wins: a1, b2, c3``,
    or ``. A draw``; nothing if the game goes on."""
    board = game.board
    if game.status is Status.DRAW:
        return ". A draw"
    if game.status.winner is None:
        return ""
    return f" and wins: {_squares(list(cells_of(board.winning_cells())), board.n)}"


def next_up(session: Session) -> str:
    """Whose turn it is, or what the game waits for, as a sentence (no stop)."""
    game = session.game
    if game.is_over:
        return "Press n for a new game"
    stopped = session.bot_stopped
    if stopped is not None:
        return f"Your bot gave no move: {stopped}"
    to_move = game.board.to_move
    if game.mode is Mode.AI_VS_AI:
        level = level_name(session.difficulty_for(to_move))
        if session.paused:
            return f"Paused, {to_move.value} ({level}) to move; p resumes"
        return f"{to_move.value} ({level}) is thinking"
    if game.ai_to_move:
        return f"{level_name(session.level_of(None))} is thinking"
    if game.mode is Mode.TWO_PLAYERS:
        return f"{to_move.value} to move"
    return "Your move"


def announcement(heard: Heard, session: Session) -> str:
    """What to say about the session now, to someone last told about ``heard``: the moves
    played (or taken back) since, how the game ended, and whose turn it is."""
    game = session.game
    n = game.board.n
    moves = tuple(game.moves)
    parts: list[str] = []
    before = heard.moves if heard.game is game else ()
    if heard.game is None:
        parts.append(which_game(game))
    elif heard.game is not game:
        parts.append(f"New game, {game.board.n}x{game.board.n}")
    kept = 0
    while kept < min(len(before), len(moves)) and before[kept] == moves[kept]:
        kept += 1
    if kept < len(before):
        taken = [move_name(ply, before[ply], n) for ply in range(kept, len(before))]
        parts.append(f"Taken back: {', '.join(taken)}")
    for ply in range(kept, len(moves)):
        sentence = move_sentence(ply, moves[ply], n)
        parts.append(sentence + (ending(game) if ply == len(moves) - 1 else ""))
    parts.append(next_up(session))
    return " ".join(f"{part}." for part in parts if part)


def which_game(game: Game) -> str:
    """The game in play, as its first announcement names it: ``3x3, you play X``,
    ``4x4, two players``, ``5x5, AI vs AI``."""
    n = game.board.n
    if game.mode is Mode.HUMAN_VS_AI:
        return f"{n}x{n}, you play {game.human.value}"
    return f"{n}x{n}, {'two players' if game.mode is Mode.TWO_PLAYERS else 'AI vs AI'}"


# The move box -----------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """Play this square."""

    cell: Cell


@dataclass(frozen=True)
class Ask:
    """Say something about the game: one of `QUESTIONS`."""

    question: str


@dataclass(frozen=True)
class Act:
    """Do what a key does: the screen's action of this name."""

    action: str
    """As a binding names it, with its parameters if any: ``undo``, ``pause(False)``."""

    @property
    def said(self) -> str:
        """The action's name in the move box: ``resume``."""
        return next(word for word, action in ACTIONS.items() if action == self.action)


@dataclass(frozen=True)
class Unclear:
    """Nothing to do; the reason, to be said."""

    why: str


Command = Play | Ask | Act | Unclear

QUESTIONS = ("board", "last", "threats", "score", "help")
"""What the move box answers in words."""

ACTIONS = {
    "new game": "new_game",
    "new": "new_game",
    "undo": "undo",
    "redo": "redo",
    "hint": "hint",
    "coach": "toggle_coach",
    "difficulty": "cycle_difficulty",
    "pause": "pause(True)",
    "resume": "pause(False)",
    "move now": "move_now",
    "explore": "explore",
    "review": "review",
    "stats": "stats",
    "quit": "quit",
}
"""Keys' actions by the names the move box knows them by."""


def read_command(text: str, n: int) -> Command:
    """What a line typed in the move box asks for on an ``n`` x ``n`` board. A leading
    ``:`` is passed over: a person who opens the box with ``:`` by habit types it twice."""
    words = " ".join(text.lower().lstrip().removeprefix(":").split())
    if not words:
        return Unclear("Type a square such as b2, or help")
    if words in QUESTIONS:
        return Ask(words)
    if words in ACTIONS:
        return Act(ACTIONS[words])
    found = read_square(words, n)
    if isinstance(found, int):
        return Play(found)
    last = coordinate(n * n - 1, n)
    if found == OFF:
        return Unclear(f"There is no square {words}: they are a1 to {last}, or 1 to {n * n}")
    return Unclear(f"Unknown command: {words}. Type a square such as b2, or help")


def board_sentence(board: Board) -> str:
    """The board row by row: ``Row 1: X, empty, O. Row 2: ...``, row 1 at the top."""
    n = board.n
    rows = []
    for row in range(n):
        marks = [board[row * n + col] for col in range(n)]
        named = ", ".join("empty" if mark is None else mark.value for mark in marks)
        rows.append(f"Row {row + 1}: {named}.")
    return " ".join(rows)


def threats_sentence(board: Board) -> str:
    """Every line one move from completion, for both sides: ``X wins at c3 (a1 to c3).``"""
    geo = board.geometry
    found = []
    for player in Player:
        mine, theirs = board.marks(player), board.marks(player.other)
        for line in geo.lines:
            empty = line & ~mine & ~theirs
            if not line & theirs and empty and not empty & (empty - 1):
                cells = list(cells_of(line))
                (square,) = cells_of(empty)
                found.append(
                    f"{player.value} wins at {coordinate(square, board.n)}"
                    f" ({coordinate(cells[0], board.n)} to {coordinate(cells[-1], board.n)})."
                )
    return " ".join(found) or "No threats: no line is one move from completion."


HELP = (
    "Type a square by name or number, such as b2 or 5, and press Enter. Or type: "
    + ", ".join(QUESTIONS)
    + "; or a key's action: "
    + ", ".join(name for name in ACTIONS if name != "new")
    + ". Escape closes the box."
)


def answer(question: str, session: Session) -> str:
    """The move box's answer to one of `QUESTIONS`."""
    game = session.game
    board = game.board
    if question == "board":
        return board_sentence(board)
    if question == "last":
        if not game.moves:
            return "No moves yet."
        ply = len(game.moves) - 1
        return f"Last move: {move_sentence(ply, game.moves[ply], board.n)}."
    if question == "threats":
        return threats_sentence(board)
    if question == "score":
        counts = ", ".join(f"{label} {count}" for label, _, count in session.view().score)
        return f"This session: {counts}."
    return HELP
