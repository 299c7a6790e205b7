"""The game screen: owns the game, turns input into moves and runs the AI worker."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Header, Static
from textual.worker import Worker, WorkerState, get_current_worker

from ttt_tui.engine import (
    Analysis,
    Board,
    CancelCheck,
    Cell,
    Difficulty,
    IllegalMoveError,
    Player,
    SearchCancelled,
    Status,
    analyze,
    choose_move,
)
from ttt_tui.game import Game, Mode, move_name
from ttt_tui.messages import AIMoved, AnalysisReady
from ttt_tui.screens.notices import show_store_notices
from ttt_tui.storage import GameRecord, Result, Settings, Store, outcomes_for, stats_outcome
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.cell import Cell as CellWidget
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.history import History
from ttt_tui.widgets.sidebar import Sidebar
from ttt_tui.widgets.status import StatusLine

MIN_WIDTH = 56
"""Narrowest terminal the layout fits."""
MIN_HEIGHT = 16
"""Shortest terminal the layout fits."""


def is_too_small(width: int, height: int) -> bool:
    """Whether a terminal of this size is below what the layout needs."""
    return width < MIN_WIDTH or height < MIN_HEIGHT


WARNING_SECONDS = 2.0
"""How long a warning about ignored input stays on screen."""

MoveChooser = Callable[[Board, Difficulty, random.Random, CancelCheck | None], Cell]
"""Picks the computer's move; `choose_move` unless a test slows it down."""

OUTCOME_LABELS = {
    "win": "Wins",
    "draw": "Draws",
    "loss": "Losses",
    "x_won": "X wins",
    "o_won": "O wins",
}


class GameScreen(Screen[None]):
    """The board, the sidebar and the game flow.

    Every change to the game goes through `_changed`, which names the new
    turn with a fresh token, cancels work for the old one, pushes the state
    down into the widgets and starts the computer if it is its move.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move_cursor(-1, 0)", "Up", show=False),
        Binding("down,j", "move_cursor(1, 0)", "Down", show=False),
        Binding("left,h", "move_cursor(0, -1)", "Left", show=False),
        Binding("right,l", "move_cursor(0, 1)", "Right", show=False),
        Binding("enter,space", "play_cursor", "Play", key_display="⏎"),
        *(
            Binding(str(cell + 1), f"play({cell})", f"Play square {cell + 1}", show=False)
            for cell in range(9)
        ),
        Binding("n", "new_game", "New"),
        Binding("d", "cycle_difficulty", "Difficulty", show=False),
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("c", "toggle_coach", "Coach"),
        Binding("i", "hint", "Hint"),
        Binding("p", "pause", "Pause"),
        Binding("s", "stats", "Stats"),
    ]

    def __init__(
        self,
        settings: Settings,
        store: Store,
        ai_delay: float,
        rng: random.Random,
        move_chooser: MoveChooser = choose_move,
    ) -> None:
        super().__init__()
        self.settings = settings
        """The choices in force; saved whenever one changes."""
        self.store = store
        """Where settings, stats and game records go."""
        self.ai_delay = ai_delay
        """Least seconds the computer appears to think."""
        self.rng = rng
        """Source of every random choice the computer makes."""
        self.move_chooser = move_chooser
        self.game = Game(mode=settings.mode, human=settings.mark)
        """The game in play."""
        self.session_score: dict[Mode, Counter[str]] = {mode: Counter() for mode in Mode}
        """Results this session by mode, counted as in the stats."""
        self.token = 0
        """Names the current turn; a worker result for any other token is stale."""
        self.stale_results = 0
        """Worker results dropped because the game had moved on (for tests)."""
        self.thinking = False
        """Whether an AI move is being computed for the current token."""
        self.paused = False
        """Whether AI vs AI is paused."""
        self.analysing = False
        """Whether an analysis is being computed for the current token."""
        self.analysis: Analysis | None = None
        """Minimax's view of the current position, once computed."""
        self.hint_requested = False
        """Whether the person asked for a hint in the current position."""
        self._last_warning = ""
        self._last_warning_until = 0.0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield BoardView(id="board")
            yield Sidebar(self.settings)
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        # Read every file now, so a damaged one is reported at start rather
        # than when the first game ends.
        self.store.load_stats()
        self.store.load_games()
        self.show_store_notices()
        self.query_one(BoardView).focus()
        self._check_size(self.app.size.width, self.app.size.height)
        self._changed()

    @property
    def difficulty(self) -> Difficulty:
        """The computer's strength in You vs AI."""
        return self.settings.difficulty

    def difficulty_for(self, player: Player) -> Difficulty:
        """The strength of the engine playing a side."""
        if self.game.mode is Mode.AI_VS_AI:
            s = self.settings
            return s.ai_x_difficulty if player is Player.X else s.ai_o_difficulty
        return self.settings.difficulty

    # The flow.

    def _changed(self, *, moved: bool = True) -> None:
        """Start a new turn: drop work for the old one, redraw, and set the next going.

        ``moved=False`` is for changes that keep the position (difficulty,
        coach, pause): the analysis and any hint shown stay valid.
        """
        self.token += 1
        # Cancel only work still in flight: a worker whose result was just
        # applied has finished, and must not end up marked cancelled.
        if self.thinking:
            self.thinking = False
            self.workers.cancel_group(self, "ai")
        if self.analysing:
            self.analysing = False
            self.workers.cancel_group(self, "analysis")
        if moved:
            self.analysis = None
            self.hint_requested = False
        self._finish_if_over()
        self._sync()
        if self.game.ai_to_move and not self.paused:
            self._start_thinking()
        wanted = self.settings.coach or self.hint_requested
        if wanted and self.analysis is None and not self.game.is_over:
            self._start_analysing()

    def _start_analysing(self) -> None:
        self.analysing = True
        self._analyse(self.game.board, self.token)

    def _start_thinking(self) -> None:
        self.thinking = True
        self._sync_status()
        board = self.game.board
        self._think(
            board,
            self.difficulty_for(board.to_move),
            random.Random(self.rng.getrandbits(64)),
            self.token,
        )

    @work(thread=True, exclusive=True, group="ai", exit_on_error=False)
    def _think(self, board: Board, difficulty: Difficulty, rng: random.Random, token: int) -> None:
        """Compute a move off the UI thread; never touches widgets."""
        worker = get_current_worker()
        started = time.monotonic()
        try:
            cell = self.move_chooser(board, difficulty, rng, lambda: worker.is_cancelled)
        except SearchCancelled:
            return
        while not worker.is_cancelled:
            remaining = self.ai_delay - (time.monotonic() - started)
            if remaining <= 0:
                break
            time.sleep(min(remaining, 0.02))
        if not worker.is_cancelled:
            self.post_message(AIMoved(token, cell))

    @on(AIMoved)
    def _apply_ai_move(self, message: AIMoved) -> None:
        if message.token != self.token or not self.game.ai_to_move or self.paused:
            self.stale_results += 1
            return
        self.thinking = False
        self.game.play(message.cell)
        self._changed()

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _analyse(self, board: Board, token: int) -> None:
        """Minimax's verdict on every move, off the UI thread, for the coach and hints."""
        worker = get_current_worker()
        try:
            analysis = analyze(board, lambda: worker.is_cancelled)
        except SearchCancelled:
            return
        if not worker.is_cancelled:
            self.post_message(AnalysisReady(token, analysis))

    @on(AnalysisReady)
    def _apply_analysis(self, message: AnalysisReady) -> None:
        if message.token != self.token:
            self.stale_results += 1
            return
        self.analysing = False
        self.analysis = message.analysis
        self._sync_board()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that failed is a bug: raise it so the app's crash handling reports it."""
        error = event.worker.error
        if event.state is WorkerState.ERROR and error is not None:
            raise error

    def crash_details(self) -> dict[str, object]:
        """What a crash report needs to replay this game."""
        game = self.game
        return {
            "settings": self.settings.to_json(),
            "mode": game.mode.value,
            "human": game.human.value,
            "board": str(game.board),
            "moves": " ".join(str(cell) for cell in game.moves) or "(none)",
            "moves read as": " ".join(move_name(p, c) for p, c in enumerate(game.moves)),
            "undone": game.redo_stack,
        }

    # Results and records.

    def _finish_if_over(self) -> None:
        """Count and record the game the first time it ends."""
        game = self.game
        if game.is_over and not game.result_recorded:
            self._record(Result.from_status(game.status))

    def close_game(self) -> None:
        """Record the game as abandoned if it was left unfinished."""
        if self.game.moves and not self.game.result_recorded:
            self._record(Result.ABANDONED)

    def _record(self, result: Result) -> None:
        game = self.game
        game.result_recorded = True
        human = game.human if game.mode is Mode.HUMAN_VS_AI else None
        outcome = stats_outcome(result, human)
        if outcome is not None:
            self.session_score[game.mode][outcome] += 1
        record = GameRecord(
            started=game.started,
            ended=datetime.now(UTC),
            mode=game.mode,
            x_difficulty=None if game.is_human(Player.X) else self.difficulty_for(Player.X),
            o_difficulty=None if game.is_human(Player.O) else self.difficulty_for(Player.O),
            human_mark=human,
            moves=tuple(game.moves),
            result=result,
            undo_used=game.undo_used,
            hints_used=game.hints_used,
        )
        self.store.record_game(record)
        self.show_store_notices()

    def warn(self, message: str) -> None:
        """Say briefly why input did nothing; the same words are not stacked
        again while they are still on screen, however fast the keys come."""
        now = time.monotonic()
        if message == self._last_warning and now < self._last_warning_until:
            return
        self._last_warning, self._last_warning_until = message, now + WARNING_SECONDS
        self.notify(message, severity="warning", timeout=WARNING_SECONDS)

    def show_store_notices(self) -> None:
        """Tell the person about anything that went wrong with saving."""
        show_store_notices(self, self.store)

    def update_settings(self, **changes: Any) -> None:
        """Change settings and save them."""
        self.settings = replace(self.settings, **changes)
        self.store.save_settings(self.settings)
        self.show_store_notices()

    # Drawing: data flows down into the widgets.

    def _sync(self) -> None:
        game = self.game
        self._sync_board()
        sidebar = self.query_one(Sidebar)
        sidebar.mode = game.mode
        self.query_one("#mode", Choice).value = game.mode.value
        self.query_one("#difficulty", Choice).value = self.settings.difficulty.value
        self.query_one("#mark", Choice).value = game.human.value
        self.query_one("#ai-x-difficulty", Choice).value = self.settings.ai_x_difficulty.value
        self.query_one("#ai-o-difficulty", Choice).value = self.settings.ai_o_difficulty.value
        # Mirroring a setting into its checkbox must not read as the person
        # clicking it: the echo would toggle the setting again.
        with self.prevent(Checkbox.Changed):
            self.query_one("#coach", Checkbox).value = self.settings.coach
            self.query_one("#alternate", Checkbox).value = self.settings.alternate_start
        score = self.session_score[game.mode]
        self.query_one("#score", Static).update(
            " · ".join(f"{OUTCOME_LABELS[o]} {score[o]}" for o in outcomes_for(game.mode))
        )
        self._sync_hints_used()
        history = self.query_one(History)
        history.moves = tuple(game.moves)
        history.undone = tuple(cell for group in reversed(game.redo_stack) for cell in group)
        self._sync_status()

    def _sync_hints_used(self) -> None:
        self.query_one("#hints-used", Static).update(f"Hints this game: {self.game.hints_used}")

    def _sync_board(self) -> None:
        board_view = self.query_one(BoardView)
        board_view.board = self.game.board
        board_view.last_move = self.game.last_move
        analysis = self.analysis
        board_view.verdicts = dict(analysis.moves) if analysis and self.settings.coach else {}
        show_hint = analysis is not None and self.hint_requested
        board_view.hints = frozenset(analysis.best) if analysis and show_hint else frozenset()

    def _sync_status(self) -> None:
        status = self.query_one(StatusLine)
        status.thinking = self.thinking
        status.message = self.status_text()
        game = self.game
        winner = game.status.winner
        one_human = game.mode is Mode.HUMAN_VS_AI
        status.set_class(winner is not None and (not one_human or game.is_human(winner)), "-won")
        status.set_class(winner is not None and one_human and not game.is_human(winner), "-lost")
        status.set_class(game.status is Status.DRAW, "-drawn")

    def status_text(self) -> str:
        """What the status line says about the game now."""
        game = self.game
        result = game.status
        to_move = game.board.to_move
        if result is Status.DRAW:
            return "Draw"
        if result.winner is not None:
            if game.mode is Mode.HUMAN_VS_AI:
                return "You win!" if game.is_human(result.winner) else "AI wins"
            return f"{result.winner.value} wins!"
        if game.mode is Mode.AI_VS_AI:
            level = self.difficulty_for(to_move).value.capitalize()
            if self.paused:
                return f"Paused: p resumes ({to_move.value} {level} to move)"
            return f"{to_move.value} ({level}) is thinking…"
        if game.ai_to_move:
            return f"Thinking… ({self.difficulty.value.capitalize()})"
        if game.mode is Mode.TWO_PLAYERS:
            return f"{to_move.value} to move"
        return f"Your move ({to_move.value})"

    # Moves.

    def _try_play(self, cell: Cell) -> None:
        game = self.game
        if game.is_over:
            self.warn("The game is over: press n for a new one.")
            return
        if game.ai_to_move:
            self.warn("Wait for the AI to move.")
            return
        try:
            game.play(cell)
        except IllegalMoveError:
            self.warn(f"Square {cell + 1} is taken.")
            return
        self._changed()

    @on(CellWidget.Selected)
    def _cell_clicked(self, message: CellWidget.Selected) -> None:
        self.query_one(BoardView).cursor = message.index
        self._try_play(message.index)

    def action_play(self, cell: int) -> None:
        """Play a square by number."""
        self.query_one(BoardView).cursor = cell
        self._try_play(cell)

    def action_play_cursor(self) -> None:
        """Play the square under the cursor."""
        self._try_play(self.query_one(BoardView).cursor)

    def action_move_cursor(self, rows: int, cols: int) -> None:
        """Move the cursor, wrapping at the edges."""
        board_view = self.query_one(BoardView)
        n = self.game.board.n
        row, col = divmod(board_view.cursor, n)
        board_view.cursor = ((row + rows) % n) * n + (col + cols) % n

    def action_undo(self) -> None:
        """Take back to your previous turn, cancelling a move the AI is thinking about."""
        if self.game.mode is Mode.AI_VS_AI:
            self.warn("Undo is for games with a person in them.")
        elif self.game.undo():
            self._changed()
        else:
            self.warn("Nothing to undo.")

    def action_redo(self) -> None:
        """Replay what undo took back."""
        if self.game.redo():
            self._changed()
        else:
            self.warn("Nothing to redo.")

    # Games and settings.

    def new_game(self, mode: Mode | None = None, human: Player | None = None) -> None:
        """Abandon the current game (recorded as such) and start another."""
        self.close_game()
        mode = mode or self.game.mode
        if human is None:
            human = self.game.human
            if self.settings.alternate_start and self.game.moves:
                if mode is Mode.HUMAN_VS_AI:
                    human = human.other
                elif mode is Mode.AI_VS_AI:
                    s = self.settings
                    self.update_settings(
                        ai_x_difficulty=s.ai_o_difficulty, ai_o_difficulty=s.ai_x_difficulty
                    )
        if human is not self.settings.mark or mode is not self.settings.mode:
            self.update_settings(mark=human, mode=mode)
        self.game = Game(mode=mode, human=human)
        self.paused = False
        self.refresh_bindings()
        self._changed()

    def action_new_game(self) -> None:
        """Start a new game with the same settings."""
        self.new_game()

    def action_cycle_difficulty(self) -> None:
        """Checkbox to the next difficulty."""
        self.set_difficulty(self.settings.difficulty.next)

    def set_difficulty(self, difficulty: Difficulty, field: str = "difficulty") -> None:
        """Use a new difficulty from the computer's next move on."""
        if getattr(self.settings, field) is difficulty:
            return
        self.update_settings(**{field: difficulty})
        self.notify(f"Difficulty: {difficulty.value.capitalize()}", timeout=1.5)
        self._changed(moved=False)

    def set_mark(self, mark: Player) -> None:
        """Play the other mark: starts a new game."""
        if mark is not self.game.human:
            self.new_game(human=mark)

    def set_mode(self, mode: Mode) -> None:
        """Change who plays each side: starts a new game."""
        if mode is not self.game.mode:
            self.new_game(mode=mode)

    def action_toggle_coach(self) -> None:
        """Show or hide minimax's verdict on every empty square."""
        self.update_settings(coach=not self.settings.coach)
        self.notify(f"Coach {'on' if self.settings.coach else 'off'}", timeout=1.5)
        self._changed(moved=False)

    def action_hint(self) -> None:
        """Highlight the best moves for the player to move, without playing them.

        In AI vs AI that is the engine about to move, which is most useful paused.
        """
        game = self.game
        if game.is_over:
            self.warn("The game is over: no hint needed.")
            return
        if game.mode is Mode.HUMAN_VS_AI and game.ai_to_move:
            self.warn("Hints are for your turn.")
            return
        if not self.hint_requested:
            game.hints_used += 1
            self.hint_requested = True
            self._sync_hints_used()
        if self.analysis is None:
            if not self.analysing:
                self._start_analysing()
        else:
            self._sync_board()

    def action_pause(self) -> None:
        """Pause or resume AI vs AI."""
        self.paused = not self.paused
        self._changed(moved=False)

    def action_stats(self) -> None:
        """Show all-time statistics."""
        from ttt_tui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self.store))

    @on(Choice.Changed, "#difficulty")
    def _difficulty_chosen(self, message: Choice.Changed) -> None:
        self.set_difficulty(Difficulty(message.value))

    @on(Choice.Changed, "#ai-x-difficulty")
    def _x_engine_chosen(self, message: Choice.Changed) -> None:
        self.set_difficulty(Difficulty(message.value), "ai_x_difficulty")

    @on(Choice.Changed, "#ai-o-difficulty")
    def _o_engine_chosen(self, message: Choice.Changed) -> None:
        self.set_difficulty(Difficulty(message.value), "ai_o_difficulty")

    @on(Choice.Changed, "#mark")
    def _mark_chosen(self, message: Choice.Changed) -> None:
        self.set_mark(Player(message.value))

    @on(Choice.Changed, "#mode")
    def _mode_chosen(self, message: Choice.Changed) -> None:
        self.set_mode(Mode(message.value))

    @on(Checkbox.Changed, "#coach")
    def _coach_switched(self, message: Checkbox.Changed) -> None:
        if message.value is not self.settings.coach:
            self.action_toggle_coach()

    @on(Checkbox.Changed, "#alternate")
    def _alternate_switched(self, message: Checkbox.Changed) -> None:
        if message.value is not self.settings.alternate_start:
            self.update_settings(alternate_start=message.value)

    @on(Button.Pressed, "#new-game")
    def _new_game_pressed(self) -> None:
        self.action_new_game()

    # Size.

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys work now: none of the game's while the terminal is too small
        (the board is hidden), and pause only in AI vs AI (it shows in the footer then)."""
        if self.has_class("-too-small"):
            return False
        if action == "pause":
            return self.game.mode is Mode.AI_VS_AI
        return True

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        too_small = is_too_small(width, height)
        if too_small != self.has_class("-too-small"):
            self.set_class(too_small, "-too-small")
            self.refresh_bindings()
        if too_small:
            self.query_one("#too-small", Static).update(
                f"Terminal too small: {width}x{height}.\n"
                f"ttt-tui needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
                "Enlarge the window to play; q quits."
            )
