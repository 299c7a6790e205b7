"""A game: who plays each side, the moves, undo and redo, and how it ended.

Pure: no UI imports and no file I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ttt_tui.engine import Board, Cell, Player, Status, coordinate, mover_of
from ttt_tui.play.results import Result
from ttt_tui.play.settings import BoardSize, Level, Mode, Settings


def move_name(ply: int, cell: Cell, n: int) -> str:
    """A move as people read it on an n x n board: the mark and the square, e.g. ``X b2``."""
    return f"{mover_of(ply).value} {coordinate(cell, n)}"


@dataclass
class Game:
    """One game: its moves, who plays them, and what was undone.

    The board is derived from the moves, so undo and redo cannot disagree
    with it. Each move keeps the level it was computed at (`levels`), so a
    record can tell a game played at one level from one whose level changed.
    """

    mode: Mode = Mode.HUMAN_VS_AI
    """Who plays each side."""
    human: Player = Player.X
    """The human's mark when playing against the computer."""
    moves: list[Cell] = field(default_factory=list)
    """The cells played, in order."""
    levels: list[Level | None] = field(default_factory=list)
    """The level each move in `moves` was computed at; None for a person's move."""
    redo_stack: list[list[Cell]] = field(default_factory=list)
    """Groups of moves taken back by undo, latest last."""
    redo_levels: list[list[Level | None]] = field(default_factory=list)
    """The levels of the moves in `redo_stack`, group for group."""
    undo_used: bool = False
    """Whether undo was used in this game."""
    hints_used: int = 0
    """How many hints were asked for in this game."""
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    """When the game began."""
    board: Board = field(default_factory=Board.empty)
    """The current position (kept in step with `moves`)."""
    result_recorded: bool = False
    """Whether this game's first result has been counted; undo after the end
    is for study and does not count again."""

    def is_human(self, player: Player) -> bool:
        """Whether a person plays this side."""
        if self.mode in (Mode.TWO_PLAYERS, Mode.ONLINE):
            return True
        if self.mode is Mode.AI_VS_AI:
            return False
        return player is self.human

    @property
    def status(self) -> Status:
        """Where the game stands."""
        return self.board.status

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.board.is_game_over()

    @property
    def ai_to_move(self) -> bool:
        """Whether the computer should move now."""
        return not self.is_over and not self.is_human(self.board.to_move)

    @property
    def person_lost(self) -> bool:
        """Whether the computer beat the person (You vs AI only)."""
        winner = self.status.winner
        return winner is not None and self.mode is Mode.HUMAN_VS_AI and not self.is_human(winner)

    @property
    def last_move(self) -> Cell | None:
        """The most recent cell played, if any."""
        return self.moves[-1] if self.moves else None

    def play(self, cell: Cell, level: Level | None = None) -> Board:
        """Mark a cell for the side to move; a fresh move forgets what was undone.

        ``level`` is the difficulty the computer computed the move at, and is
        given exactly when the computer plays the side to move. Raises
        `IllegalMoveError` for an occupied cell or a finished game, and
        `ValueError` for a level given for a person or missing for the computer.
        """
        board = self.board.play(cell)
        side = self.board.to_move
        if self.is_human(side) and level is not None:
            raise ValueError(
                f"{side.value} is played by a person: expected no level, got {level.value}"
            )
        if not self.is_human(side) and level is None:
            raise ValueError(
                f"{side.value} is played by the computer: expected the level of its move"
            )
        self.board = board
        self.moves.append(cell)
        self.levels.append(level)
        self.redo_stack.clear()
        self.redo_levels.clear()
        return self.board

    def _undo_group(self) -> list[Cell]:
        """The trailing moves one undo takes back; empty when there are none."""
        if self.mode is Mode.AI_VS_AI or not self.moves:
            return []
        if self.mode is Mode.TWO_PLAYERS:
            return self.moves[-1:]
        for start in range(len(self.moves) - 1, -1, -1):
            if mover_of(start) is self.human:
                return self.moves[start:]
        return []

    @property
    def can_redo(self) -> bool:
        """Whether undone moves can be replayed."""
        return bool(self.redo_stack) and self.mode is not Mode.AI_VS_AI

    def undo(self) -> bool:
        """Take back to the person's previous turn; False if there is nothing to undo.

        Against the computer this removes the person's last move and the
        reply to it (or just the move, if the reply had not come yet).
        """
        group = self._undo_group()
        if not group:
            return False
        kept = len(self.moves) - len(group)
        self.redo_levels.append(self.levels[kept:])
        del self.moves[kept:]
        del self.levels[kept:]
        self.redo_stack.append(group)
        self.undo_used = True
        self._rebuild()
        return True

    def redo(self) -> bool:
        """Replay the last undone group of moves; False if there is none."""
        if not self.can_redo:
            return False
        group = self.redo_stack.pop()
        for cell in group:
            self.board = self.board.play(cell)
        self.moves.extend(group)
        self.levels.extend(self.redo_levels.pop())
        return True

    def _rebuild(self) -> None:
        board = Board.empty(self.board.n, self.board.k)
        for cell in self.moves:
            board = board.play(cell)
        self.board = board

    @classmethod
    def restore(cls, saved: SavedGame) -> Game:
        """The game ``saved`` keeps, undo and redo history included.

        Raises `ValueError` (`IllegalMoveError` among them) when the moves, their levels
        or the moves undone are not a game its settings could have played.
        """
        settings = saved.settings
        game = cls(
            mode=settings.mode,
            human=settings.mark,
            started=saved.started,
            board=Board.empty(settings.board.n),
        )
        if len(saved.levels) != len(saved.moves):
            raise ValueError(f"levels: expected one per move, got {len(saved.levels)}")
        if len(saved.redo_levels) != len(saved.redo_stack):
            raise ValueError("redo_levels: expected one group per group undone")
        for cell, level in zip(saved.moves, saved.levels, strict=True):
            game.play(cell, level)
        # Each undone group must replay from where the ones after it leave the game.
        replay = cls(mode=game.mode, human=game.human, board=game.board)
        for group, levels in zip(
            reversed(saved.redo_stack), reversed(saved.redo_levels), strict=True
        ):
            if not group or len(levels) != len(group):
                raise ValueError("redo_stack: expected groups of moves, each with its levels")
            for cell, level in zip(group, levels, strict=True):
                replay.play(cell, level)
        game.redo_stack = [list(group) for group in saved.redo_stack]
        game.redo_levels = [list(levels) for levels in saved.redo_levels]
        game.undo_used = saved.undo_used or bool(saved.redo_stack)
        game.hints_used = saved.hints_used
        return game


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game in progress as it is kept to be resumed after the app has gone (a quit, a
    crash, a lost terminal): everything `Game.restore` and the session need to put it
    back exactly as it was."""

    settings: Settings
    """The settings it was played with: its board, mode, the person's mark, every
    computer's level and the coach."""
    started: datetime
    """When the game began."""
    moves: tuple[Cell, ...]
    """The cells played, in order."""
    levels: tuple[Level | None, ...]
    """The level each move was computed at; None for a person's move."""
    redo_stack: tuple[tuple[Cell, ...], ...] = ()
    """Groups of moves taken back by undo, latest last."""
    redo_levels: tuple[tuple[Level | None, ...], ...] = ()
    """The levels of the moves in `redo_stack`, group for group."""
    undo_used: bool = False
    """Whether undo was used."""
    hints_used: int = 0
    """How many hints were asked for."""
    paused: bool = False
    """Whether AI vs AI was paused."""

    @property
    def board(self) -> BoardSize:
        """The board it is played on."""
        return self.settings.board


@dataclass(frozen=True, slots=True)
class EndedGame:
    """A game as it ended, finished or abandoned: what the storage records of it."""

    started: datetime
    """When the game began."""
    ended: datetime
    """When it finished or was abandoned."""
    mode: Mode
    """Who played each side."""
    human: Player | None
    """The person's mark in You vs AI; None in the other modes."""
    moves: tuple[Cell, ...]
    """The cells played, in order, X's first."""
    levels: tuple[Level | None, ...]
    """The level each move was computed at; None for a person's move."""
    in_force: tuple[Level | None, Level | None]
    """The level of the computer playing X, then O, when the game ended; None for a
    side a person played."""
    result: Result
    """How it ended."""
    undo_used: bool
    """Whether any move was taken back."""
    hints_used: int
    """How many hints were asked for."""
    n: int
    """Squares per side of the board."""
    k: int
    """Marks in a row that win on it."""


def ended_game(
    game: Game,
    result: Result,
    at: datetime,
    level_in_force: Callable[[Player], Level],
) -> EndedGame:
    """``game`` as it ends in ``result`` at ``at``; ``level_in_force`` gives the level of
    each computer side then."""
    return EndedGame(
        started=game.started,
        ended=at,
        mode=game.mode,
        human=game.human if game.mode is Mode.HUMAN_VS_AI else None,
        moves=tuple(game.moves),
        levels=tuple(game.levels),
        in_force=(
            None if game.is_human(Player.X) else level_in_force(Player.X),
            None if game.is_human(Player.O) else level_in_force(Player.O),
        ),
        result=result,
        undo_used=game.undo_used,
        hints_used=game.hints_used,
        n=game.board.n,
        k=game.board.k,
    )


def abandoned(saved: SavedGame, at: datetime) -> EndedGame:
    """A game kept to be resumed, ended instead as abandoned at ``at`` (the person chose
    not to resume it). Raises `ValueError` as `Game.restore` does."""
    settings = saved.settings

    def in_force(player: Player) -> Level:
        if settings.mode is not Mode.AI_VS_AI:
            return settings.difficulty
        return settings.ai_x_difficulty if player is Player.X else settings.ai_o_difficulty

    return ended_game(Game.restore(saved), Result.ABANDONED, at, in_force)
