"""A playing session: the game, the settings and all that decides what happens next.

Pure: no UI imports and no file I/O (a test proves it). The game screen turns
input into `Session` calls, runs the searches the session asks for, saves what
its replies say to save, and draws the immutable `View` it gives back. Every
change names a new turn with a fresh token, so a search result computed for an
older turn is recognised as stale and dropped.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime

from ttt_tui.engine import (
    Analysis,
    Board,
    Cell,
    Difficulty,
    IllegalMoveError,
    Player,
    Progress,
    Status,
    Verdict,
)
from ttt_tui.play.game import EndedGame, Game, SavedGame, ended_game, move_name
from ttt_tui.play.results import OUTCOME_LABELS, Result, outcomes_for, stats_outcome
from ttt_tui.play.settings import BOT, LEVELS, BoardSize, Level, Mode, Settings, level_name
from ttt_tui.play.view import BoardState, StatusView, View


class Refusal(enum.Enum):
    """Why input did nothing, in the words the person is told."""

    GAME_OVER = "The game is over: press n for a new one."
    AI_VS_AI_OVER = "AI vs AI is over: press n for a new game."
    NOT_YOUR_TURN = "Wait for the AI to move."
    SQUARE_TAKEN = "Square {square} is taken."
    COMPUTER_PLAYS_BOTH = "AI vs AI: the computer plays both sides; p pauses."
    PAUSED_COMPUTER_PLAYS_BOTH = "Paused: the computer plays both sides here; p resumes."
    NOTHING_TO_UNDO = "Nothing to undo."
    NOTHING_TO_REDO = "Nothing to redo."
    NO_HINT_GAME_OVER = "The game is over: no hint needed."
    HINTS_ON_YOUR_TURN = "Hints are for your turn."
    NO_COMPUTER = "2 players: there is no computer to set a difficulty for."
    ENGINES_IN_SIDEBAR = "AI vs AI: set each engine's level in the sidebar."
    ENGINES_IN_AI_VS_AI = "The X and O engines play only in AI vs AI."
    NOT_THINKING = "The computer is not thinking."
    NO_MOVE_YET = "The computer has no move yet: wait a moment."
    NOT_PROVEN = "Hard has no move proven to keep its result yet: wait a moment."
    NO_BOT = "No bot was given: start the game with --bot FILE or --bot-cmd COMMAND."


@dataclass(frozen=True)
class Refused:
    """Input that did nothing."""

    why: Refusal
    cell: Cell | None = None
    """The square asked for, when the refusal is about one."""

    @property
    def message(self) -> str:
        """What to tell the person."""
        square = "" if self.cell is None else str(self.cell + 1)
        return self.why.value.format(square=square)


class Work(enum.Enum):
    """A search the session can have in flight."""

    MOVE = "move"
    """The computer's next move."""
    ANALYSIS = "analysis"
    """Minimax's verdict on every move, for the coach and hints."""


@dataclass(frozen=True)
class Changed:
    """The session changed: redraw, start what it wants, cancel what it dropped, and
    save what it says to save."""

    notice: str = ""
    """What to tell the person about the change, if anything."""
    cancel: frozenset[Work] = frozenset()
    """Searches still in flight for a turn that is over."""
    settings: Settings | None = None
    """The settings, when this change changed them: to be kept for the next run."""
    ended: EndedGame | None = None
    """The game this change finished or abandoned: to be recorded, once."""
    bot_failed: str = ""
    """Why the learner's bot gave no move, when this change is that failure: to be
    told once, with the offer to go on with Hard."""


Reply = Changed | Refused | None
"""What a session call did: changed something, refused (and why), or nothing at all."""


@dataclass(frozen=True)
class MoveRequest:
    """The computer should pick a move in this position at this level."""

    token: int
    board: Board
    difficulty: Level
    """The level to play at: one of the engine's, or the learner's bot."""


@dataclass(frozen=True)
class AnalysisRequest:
    """Minimax should judge every move in this position."""

    token: int
    board: Board


@dataclass
class Session:
    """The game in play, the settings, and what the computer should do next.

    Nothing is saved here: a call that changes the settings, or ends a game,
    says so in the `Changed` it returns, for the caller to save. ``now`` tells
    the time a game ended.
    """

    settings: Settings
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    bot_offered: bool = False
    """Whether the learner's bot (`ttt-tui --bot`) is there to be chosen as a level;
    it then starts as the computer in You vs AI and as X in AI vs AI."""
    game: Game = field(init=False)
    """The game in play."""
    token: int = field(init=False, default=0)
    """Names the current turn; a search result for any other token is stale."""
    paused: bool = field(init=False, default=False)
    """Whether AI vs AI is paused."""
    hint_requested: bool = field(init=False, default=False)
    """Whether the person asked for a hint in the current position."""
    analysis: Analysis | None = field(init=False, default=None)
    """Minimax's view of the current position, once computed."""
    in_flight: set[Work] = field(init=False, default_factory=set)
    """Searches asked for in the current turn whose results have not come."""
    progress: dict[Work, Progress] = field(init=False, default_factory=dict)
    """The latest progress of each search in flight that has reported any."""
    score: dict[tuple[BoardSize, Mode], Counter[str]] = field(init=False)
    """Results this session by board and mode, counted as in the stats."""
    _unsaved: Settings | None = field(init=False, default=None)
    """Settings changed since the last `Changed` said so."""
    _ended: EndedGame | None = field(init=False, default=None)
    """A game ended since the last `Changed` said so."""
    bot_seats: set[Player | None] = field(init=False, default_factory=set)
    """The computers the learner's bot plays: You vs AI's (None), AI vs AI's X and O.
    Kept for this run only: the settings keep the engine's levels."""
    bot_failure: tuple[int, str] | None = field(init=False, default=None)
    """The turn in which the bot gave no move, and why: it is not asked again in it."""

    def __post_init__(self) -> None:
        self.game = self._new_game(self.settings.mode, self.settings.mark)
        if self.bot_offered:
            self.bot_seats = {None, Player.X}
        self.score = {(size, mode): Counter() for size in BoardSize for mode in Mode}

    def _new_game(self, mode: Mode, human: Player) -> Game:
        board = Board.empty(self.settings.board.n)
        return Game(mode=mode, human=human, started=self.now(), board=board)

    def begin(self) -> Changed:
        """The first turn: call once the screen is there to start what it wants."""
        return self._same_turn()

    # What the computer should do.

    def difficulty_for(self, player: Player) -> Level:
        """The level of the computer playing a side."""
        return self.level_of(player if self.game.mode is Mode.AI_VS_AI else None)

    def level_of(self, seat: Player | None) -> Level:
        """The level of a computer: You vs AI's (``seat`` None), or AI vs AI's X or O."""
        if seat in self.bot_seats:
            return BOT
        s = self.settings
        if seat is None:
            return s.difficulty
        return s.ai_x_difficulty if seat is Player.X else s.ai_o_difficulty

    @property
    def bot_stopped(self) -> str | None:
        """Why the learner's bot gave no move in this turn, if it did not."""
        if self.bot_failure is None or self.bot_failure[0] != self.token:
            return None
        return self.bot_failure[1]

    @property
    def thinking(self) -> bool:
        """Whether the computer's move for this turn is being computed."""
        return Work.MOVE in self.in_flight

    def take_requests(self) -> list[MoveRequest | AnalysisRequest]:
        """Take the searches this turn needs that are not under way: each is in flight from
        now on, for the caller to start."""
        wanted: list[MoveRequest | AnalysisRequest] = []
        game = self.game
        if (
            game.ai_to_move
            and not self.paused
            and Work.MOVE not in self.in_flight
            and self.bot_stopped is None
        ):
            self.in_flight.add(Work.MOVE)
            board = game.board
            wanted.append(MoveRequest(self.token, board, self.difficulty_for(board.to_move)))
        analysis_wanted = self.settings.coach or self.hint_requested
        if (
            analysis_wanted
            and self.analysis is None
            and not game.is_over
            and Work.ANALYSIS not in self.in_flight
        ):
            self.in_flight.add(Work.ANALYSIS)
            wanted.append(AnalysisRequest(self.token, game.board))
        return wanted

    def apply_move(self, token: int, cell: Cell, level: Level) -> Changed | None:
        """The computer's move for turn ``token``; None (dropped) if the turn is over."""
        if token != self.token or not self.game.ai_to_move or self.paused:
            return None
        self.in_flight.discard(Work.MOVE)
        self.progress.pop(Work.MOVE, None)
        self.game.play(cell, level)
        return self._next_turn()

    def bot_gave_no_move(self, token: int, why: str) -> Changed | None:
        """The learner's bot gave no move for turn ``token`` (``why`` says what it did);
        None (dropped) if the turn is over. It is not asked again in this turn: the
        change offers to go on with Hard, and picking any level goes on."""
        if token != self.token or Work.MOVE not in self.in_flight:
            return None
        self.in_flight.discard(Work.MOVE)
        self.progress.pop(Work.MOVE, None)
        self.bot_failure = (token, why)
        return replace(self._changed(), bot_failed=why)

    def apply_analysis(self, token: int, analysis: Analysis) -> Changed | None:
        """Minimax's verdicts for turn ``token``; None (dropped) if the turn is over."""
        if token != self.token:
            return None
        self.in_flight.discard(Work.ANALYSIS)
        self.progress.pop(Work.ANALYSIS, None)
        self.analysis = analysis
        return self._changed()

    def report(self, token: int, work: Work, progress: Progress) -> Changed | None:
        """How a search for turn ``token`` is getting on; None (dropped) if the turn is over."""
        if token != self.token or work not in self.in_flight:
            return None
        self.progress[work] = progress
        return self._changed()

    def move_now(self) -> Changed | Refused:
        """Make the computer play the best move its search has found so far.

        Hard plays it only once it is proven to keep the position's result;
        the other levels look a ply or two ahead and have no such proof to wait for.
        """
        if not self.thinking:
            return Refused(Refusal.NOT_THINKING)
        progress = self.progress.get(Work.MOVE)
        if progress is None or progress.best is None:
            return Refused(Refusal.NO_MOVE_YET)
        level = self.difficulty_for(self.game.board.to_move)
        if level is Difficulty.HARD and not progress.proven:
            return Refused(Refusal.NOT_PROVEN)
        changed = self.apply_move(self.token, progress.best, level)
        assert changed is not None
        return replace(changed, cancel=changed.cancel | {Work.MOVE})

    @property
    def can_move_now(self) -> bool:
        """Whether `move_now` would play a move now."""
        progress = self.progress.get(Work.MOVE)
        if not self.thinking or progress is None or progress.best is None:
            return False
        level = self.difficulty_for(self.game.board.to_move)
        return progress.proven or level is not Difficulty.HARD

    # A person's moves.

    def play(self, cell: Cell) -> Changed | Refused:
        """Play a square for the person to move."""
        game = self.game
        if game.is_over:
            return Refused(Refusal.GAME_OVER)
        if game.mode is Mode.AI_VS_AI:
            return self.computer_plays_both()
        if game.ai_to_move:
            return Refused(Refusal.NOT_YOUR_TURN)
        try:
            game.play(cell)
        except IllegalMoveError:
            return Refused(Refusal.SQUARE_TAKEN, cell)
        return self._next_turn()

    def computer_plays_both(self) -> Refused:
        """Why a key or click meant for a person does nothing in AI vs AI."""
        if self.game.is_over:
            return Refused(Refusal.AI_VS_AI_OVER)
        if self.paused:
            return Refused(Refusal.PAUSED_COMPUTER_PLAYS_BOTH)
        return Refused(Refusal.COMPUTER_PLAYS_BOTH)

    def undo(self) -> Changed | Refused:
        """Take back to the person's previous turn, dropping a move being thought about."""
        if self.game.mode is Mode.AI_VS_AI:
            return self.computer_plays_both()
        return self._next_turn() if self.game.undo() else Refused(Refusal.NOTHING_TO_UNDO)

    def redo(self) -> Changed | Refused:
        """Replay what undo took back."""
        if self.game.mode is Mode.AI_VS_AI:
            return self.computer_plays_both()
        return self._next_turn() if self.game.redo() else Refused(Refusal.NOTHING_TO_REDO)

    def hint(self) -> Changed | Refused | None:
        """Point at the best moves for the person to move, without playing them (no hints
        in AI vs AI: nobody there is a person to help)."""
        game = self.game
        if game.mode is Mode.AI_VS_AI:
            return self.computer_plays_both()
        if game.is_over:
            return Refused(Refusal.NO_HINT_GAME_OVER)
        if game.mode is Mode.HUMAN_VS_AI and game.ai_to_move:
            return Refused(Refusal.HINTS_ON_YOUR_TURN)
        if self.hint_requested:
            return None
        game.hints_used += 1
        self.hint_requested = True
        return self._changed()

    # Games and settings.

    def new_game(
        self, mode: Mode | None = None, human: Player | None = None, *, alternate: bool = False
    ) -> Changed:
        """Abandon the current game (to be recorded as such) and start another.

        With ``alternate`` (a plain new game while "Alternate who starts" is on)
        the sides swap, and the notice says who starts now.
        """
        self._abandon()
        mode = mode or self.game.mode
        notice = ""
        settings = self.settings
        if human is None:
            human = self.game.human
            if alternate and mode is Mode.HUMAN_VS_AI:
                human = human.other
                notice = f"Sides swapped: you play {human.value}."
            elif alternate and mode is Mode.AI_VS_AI:
                x, o = settings.ai_o_difficulty, settings.ai_x_difficulty
                settings = replace(settings, ai_x_difficulty=x, ai_o_difficulty=o)
                notice = f"Engines swapped: X {x.value.capitalize()}, O {o.value.capitalize()}."
        self._save(replace(settings, mark=human, mode=mode))
        self.game = self._new_game(mode, human)
        self.paused = False
        return self._next_turn(notice)

    def set_mode(self, mode: Mode) -> Changed | None:
        """Change who plays each side: starts a new game."""
        return self.new_game(mode=mode) if mode is not self.game.mode else None

    def set_mark(self, mark: Player) -> Changed | None:
        """Play the other mark: starts a new game."""
        return self.new_game(human=mark) if mark is not self.game.human else None

    def set_board(self, size: BoardSize) -> Changed | None:
        """Play on another board: starts a new game."""
        if size is self.settings.board:
            return None
        self._save(replace(self.settings, board=size))
        return self.new_game()

    def set_difficulty(
        self, difficulty: Level, side: Player | None = None
    ) -> Changed | Refused | None:
        """Use a new level from the computer's next move on: the computer's in You vs
        AI (``side`` None), or one engine's in AI vs AI (``side`` X or O). Refused in
        a mode without that computer, so that no hidden setting changes. The bot's
        level chosen again after it gave no move asks it again."""
        s, mode = self.settings, self.game.mode
        if side is None and mode is not Mode.HUMAN_VS_AI:
            return self._no_computer()
        if side is not None and mode is not Mode.AI_VS_AI:
            return Refused(Refusal.ENGINES_IN_AI_VS_AI)
        if difficulty is BOT and not self.bot_offered:
            return Refused(Refusal.NO_BOT)
        stopped = self.bot_stopped is not None and self.seat_to_move() == side
        if self.level_of(side) is difficulty and not stopped:
            return None
        if difficulty is BOT:
            self.bot_seats.add(side)
        else:
            self.bot_seats.discard(side)
            if side is None:
                self._save(replace(s, difficulty=difficulty))
            elif side is Player.X:
                self._save(replace(s, ai_x_difficulty=difficulty))
            else:
                self._save(replace(s, ai_o_difficulty=difficulty))
        level = level_name(difficulty)
        return self._same_turn(f"{side.value} engine: {level}" if side else f"Difficulty: {level}")

    def seat_to_move(self) -> Player | None:
        """The seat of the computer to move: X or O in AI vs AI, None otherwise."""
        return self.game.board.to_move if self.game.mode is Mode.AI_VS_AI else None

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels on offer: the engine's, and the bot's when there is one."""
        return LEVELS if self.bot_offered else tuple(Difficulty)

    def cycle_difficulty(self) -> Changed | Refused | None:
        """Switch the computer to the next level (You vs AI only), round from the last."""
        levels = self.levels
        return self.set_difficulty(levels[(levels.index(self.level_of(None)) + 1) % len(levels)])

    def _no_computer(self) -> Refused:
        if self.game.mode is Mode.TWO_PLAYERS:
            return Refused(Refusal.NO_COMPUTER)
        return Refused(Refusal.ENGINES_IN_SIDEBAR)

    def set_coach(self, on: bool) -> Changed | None:
        """Show or hide minimax's verdict on every empty square."""
        if on is self.settings.coach:
            return None
        self._save(replace(self.settings, coach=on))
        return self._same_turn(f"Coach {'on' if on else 'off'}")

    def set_screen_reader(self, on: bool) -> Changed | None:
        """Set the game up for a screen reader or a braille display, or back."""
        if on is self.settings.screen_reader:
            return None
        self._save(replace(self.settings, screen_reader=on))
        return self._changed(f"Screen-reader mode {'on' if on else 'off'}")

    def set_alternate(self, on: bool) -> Changed | None:
        """Swap sides at each new game, or stop swapping."""
        if on is self.settings.alternate_start:
            return None
        self._save(replace(self.settings, alternate_start=on))
        return self._changed()

    def set_theme(self, theme: str) -> Changed | None:
        """Remember the app's theme for the next run."""
        if theme == self.settings.theme:
            return None
        self._save(replace(self.settings, theme=theme))
        return self._changed()

    def set_paused(self, paused: bool) -> Changed | Refused | None:
        """Pause or resume AI vs AI."""
        if self.game.is_over:
            return Refused(Refusal.AI_VS_AI_OVER)
        if paused is self.paused:
            return None
        self.paused = paused
        return self._same_turn()

    def snapshot(self) -> SavedGame | None:
        """The game in play as kept to be resumed later (`resume`); None when there is
        nothing to resume: no move made or undone, or the game has ended (and was
        recorded)."""
        game = self.game
        if game.result_recorded or not (game.moves or game.redo_stack):
            return None
        settings = replace(
            self.settings, mode=game.mode, mark=game.human, board=BoardSize(game.board.n)
        )
        return SavedGame(
            settings=settings,
            started=game.started,
            moves=tuple(game.moves),
            levels=tuple(game.levels),
            redo_stack=tuple(tuple(group) for group in game.redo_stack),
            redo_levels=tuple(tuple(levels) for levels in game.redo_levels),
            undo_used=game.undo_used,
            hints_used=game.hints_used,
            paused=self.paused,
        )

    def resume(self, saved: SavedGame) -> Changed:
        """Put back a game kept by `snapshot` (in an earlier run): its position, history,
        board, mode, sides, levels and coach. The game in play, if it has moves, is
        abandoned. This run's theme, screen-reader mode and "alternate who starts" stay.

        Raises `ValueError` when ``saved`` is not a game its settings could have played.
        """
        game = Game.restore(saved)
        self._abandon()
        kept = self.settings
        self._save(
            replace(
                saved.settings,
                theme=kept.theme,
                screen_reader=kept.screen_reader,
                alternate_start=kept.alternate_start,
            )
        )
        self.game = game
        self.paused = saved.paused and game.mode is Mode.AI_VS_AI
        return self._next_turn(f"Resumed your {saved.board.label} game.")

    @property
    def would_abandon(self) -> bool:
        """Whether starting another game now would record this one as abandoned: it has
        moves, and has not ended (nor been recorded)."""
        return bool(self.game.moves) and not self.game.result_recorded

    def close_game(self) -> EndedGame | None:
        """The game as abandoned, to be recorded, if it was left unfinished (the
        session is ending)."""
        self._abandon()
        ended, self._ended = self._ended, None
        return ended

    def _abandon(self) -> None:
        if self.would_abandon:
            self._record(Result.ABANDONED)

    # The turn.

    def _next_turn(self, notice: str = "") -> Changed:
        """A new position: results for the old one are stale, and so is its analysis."""
        self.analysis = None
        self.hint_requested = False
        return self._same_turn(notice)

    def _same_turn(self, notice: str = "") -> Changed:
        """A change that keeps the position valid for the analysis and any hint shown
        (difficulty, coach, pause), or a new position (`_next_turn`)."""
        self.token += 1
        cancel = frozenset(self.in_flight)
        self.in_flight.clear()
        self.progress.clear()
        game = self.game
        if game.is_over and not game.result_recorded:
            self._record(Result.from_status(game.status))
        return self._changed(notice, cancel)

    def _changed(self, notice: str = "", cancel: frozenset[Work] = frozenset()) -> Changed:
        """A change, carrying the settings and the game to save since the last one."""
        settings, self._unsaved = self._unsaved, None
        ended, self._ended = self._ended, None
        return Changed(notice, cancel, settings, ended)

    def _record(self, result: Result) -> None:
        game = self.game
        game.result_recorded = True
        self._ended = ended_game(game, result, self.now(), self.difficulty_for)
        outcome = stats_outcome(result, self._ended.human)
        if outcome is not None:
            self.score[BoardSize(game.board.n), game.mode][outcome] += 1

    def _save(self, settings: Settings) -> None:
        if settings != self.settings:
            self.settings = settings
            self._unsaved = settings

    # What is shown.

    def view(self) -> View:
        """Everything on screen now, as one immutable snapshot."""
        game, analysis = self.game, self.analysis
        hint = analysis is not None and self.hint_requested
        score = self.score[BoardSize(game.board.n), game.mode]
        verdicts: Mapping[Cell, Verdict] = {}
        pending: frozenset[Cell] = frozenset()
        if self.settings.coach and not game.is_over:
            # Until the analysis is complete, the verdicts proven so far.
            partial = self.progress.get(Work.ANALYSIS)
            shown = analysis or (partial.analysis if partial is not None else None)
            verdicts = dict(shown.moves) if shown is not None else {}
            if analysis is None and Work.ANALYSIS in self.in_flight:
                pending = frozenset(game.board.legal_moves()) - set(verdicts)
        return View(
            board=BoardState(
                board=game.board,
                last_move=game.last_move,
                line_lost=game.person_lost,
                verdicts=verdicts,
                hints=frozenset(analysis.best) if analysis and hint else frozenset(),
                pending=pending,
                named=self.settings.screen_reader,
            ),
            status=status_view(self),
            score=tuple((*OUTCOME_LABELS[o], score[o]) for o in outcomes_for(game.mode)),
            hints_used=game.hints_used,
            moves=tuple(game.moves),
            undone=tuple(cell for group in reversed(game.redo_stack) for cell in group),
            n=game.board.n,
            settings=self.settings,
            mode=game.mode,
            human=game.human,
            paused=self.paused,
            is_over=game.is_over,
            levels=(self.level_of(None), self.level_of(Player.X), self.level_of(Player.O)),
            level_choices=self.levels,
            slow_search=self.thinking and Work.MOVE in self.progress,
        )

    def crash_details(self) -> dict[str, object]:
        """What a crash report needs to replay this game."""
        game = self.game
        return {
            "settings": {f.name: _plain(getattr(self.settings, f.name)) for f in fields(Settings)},
            "mode": game.mode.value,
            "human": game.human.value,
            "board": str(game.board),
            "moves": " ".join(str(cell) for cell in game.moves) or "(none)",
            "moves read as": " ".join(
                move_name(p, c, game.board.n) for p, c in enumerate(game.moves)
            ),
            "levels": " ".join(level.value if level else "person" for level in game.levels),
            "undone": game.redo_stack,
        }


def _plain(value: object) -> object:
    """A setting as a crash report shows it: an enum by its value."""
    return value.value if isinstance(value, enum.Enum) else value


def status_view(session: Session) -> StatusView:
    """The status line for a session."""
    game = session.game
    winner = game.status.winner
    one_person = game.mode is Mode.HUMAN_VS_AI
    return StatusView(
        message=status_text(session),
        detail=status_detail(session),
        thinking=session.thinking,
        won=winner is not None and (not one_person or game.is_human(winner)),
        lost=game.person_lost,
        drawn=game.status is Status.DRAW,
    )


def status_text(session: Session) -> str:
    """What the status line says about the game now."""
    game = session.game
    to_move = game.board.to_move
    winner = game.status.winner
    if game.is_over:
        if winner is None:
            return "Draw"
        if game.mode is Mode.HUMAN_VS_AI:
            return "You win!" if game.is_human(winner) else "AI wins"
        return f"{winner.value} wins!"
    if game.mode is Mode.AI_VS_AI:
        if session.paused:
            return "Paused: p resumes"
        if session.bot_stopped is not None:
            return f"{to_move.value} (Your bot) gave no move"
        level = level_name(session.difficulty_for(to_move))
        return f"{to_move.value} ({level}) is thinking…"
    if game.ai_to_move:
        if session.bot_stopped is not None:
            return "Your bot gave no move"
        return f"Thinking… ({level_name(session.level_of(None))})"
    if game.mode is Mode.TWO_PLAYERS:
        return f"{to_move.value} to move"
    return f"Your move ({to_move.value})"


def status_detail(session: Session) -> str:
    """The status line's second part: what to do next, who is to move when paused, or
    how a long search is getting on (time, positions, its depth, what it is proving)."""
    game = session.game
    if game.is_over:
        if game.mode is Mode.AI_VS_AI:
            return "n: new game\nv: review the game"
        return "n: new game · v: review\nu: undo, to study it"
    if game.mode is Mode.AI_VS_AI and session.paused:
        to_move = game.board.to_move
        return f"{to_move.value} ({level_name(session.difficulty_for(to_move))}) to move"
    stopped = session.bot_stopped
    if stopped is not None:
        return f"{stopped[0].upper()}{stopped[1:]}.\nPick a level to go on."
    progress = session.progress.get(Work.MOVE) if session.thinking else None
    if progress is None:
        return ""
    if session.difficulty_for(game.board.to_move) is BOT:
        return progress.stage  # the learner's bot: how long it has been thinking
    depth = "" if progress.depth is None else f" · depth {progress.depth}"
    lines = [f"{progress.elapsed:.1f} s · {progress.nodes:,} positions{depth}", progress.stage]
    if session.can_move_now:
        lines.append("m: move now")
    elif progress.best is not None:
        lines.append("m: not proven yet")
    return "\n".join(lines)
