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
from ttt_tui.game import Game, move_name, record_of
from ttt_tui.messages import AIMoved, AnalysisReady
from ttt_tui.results import OUTCOME_LABELS, Result, outcomes_for, stats_outcome
from ttt_tui.screens.notices import show_store_notices
from ttt_tui.screens.unselectable import Unselectable
from ttt_tui.settings import Mode, Settings
from ttt_tui.storage import Store
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.cell import Cell as CellWidget
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.history import History
from ttt_tui.widgets.score import Score
from ttt_tui.widgets.sidebar import Sidebar
from ttt_tui.widgets.status import StatusLine

MIN_WIDTH = 56
"""Narrowest terminal the layout fits."""
MIN_HEIGHT = 16
"""Shortest terminal the layout fits."""


COMFORTABLE_WIDTH = 80
"""Narrowest terminal whose footer fits every key with room to spare."""


def is_too_small(width: int, height: int) -> bool:
    """Whether a terminal of this size is below what the layout needs."""
    return width < MIN_WIDTH or height < MIN_HEIGHT


WARNING_SECONDS = 2.0
"""How long a warning about ignored input stays on screen."""

MoveChooser = Callable[[Board, Difficulty, random.Random, CancelCheck | None], Cell]
"""Picks the computer's move; `choose_move` unless a test slows it down."""


class GameScreen(Unselectable[None]):
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
        Binding("enter,space", "play_cursor", "Play", show=False),
        *(
            Binding(str(cell + 1), f"play({cell})", f"Play square {cell + 1}", show=False)
            for cell in range(9)
        ),
        Binding("n", "new_game", "New"),
        Binding("d", "cycle_difficulty", "Difficulty", show=False),
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo", show=False),
        Binding("c", "toggle_coach", "Coach"),
        Binding("i", "hint", "Hint"),
        Binding("p", "pause", "Pause"),
        Binding("p", "resume", "Resume"),
        # In AI vs AI the keys above that need a person say why they do nothing.
        Binding(
            ",".join(["enter", "space", "u", "r", "i", "p", *(str(c + 1) for c in range(9))]),
            "computer_plays_both",
            show=False,
        ),
        Binding("s", "stats", "Stats"),
    ]
    PERSON_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"play", "play_cursor", "undo", "redo", "hint"}
    )
    """Actions for games with a person in them: off (and out of the footer) in AI vs AI."""

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
        self._keys_for = (self.game.mode, False, False)
        """The mode, pause and game-over state the footer's keys were last worked out for
        (at first, those of the new game the footer is first drawn for)."""
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
        keys = (self.game.mode, self.paused, self.game.is_over)
        if keys != self._keys_for:
            self._keys_for = keys
            self.refresh_bindings()
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
            self.post_message(AIMoved(token, cell, difficulty))

    @on(AIMoved)
    def _apply_ai_move(self, message: AIMoved) -> None:
        if message.token != self.token or not self.game.ai_to_move or self.paused:
            self.stale_results += 1
            return
        self.thinking = False
        self.game.play(message.cell, message.level)
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
            "levels": " ".join(level.value if level else "person" for level in game.levels),
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
        record = record_of(game, result, datetime.now(UTC), self.difficulty_for)
        outcome = stats_outcome(result, record.human_mark)
        if outcome is not None:
            self.session_score[game.mode][outcome] += 1
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
        self.query_one(Score).counts = tuple(
            (*OUTCOME_LABELS[o], score[o]) for o in outcomes_for(game.mode)
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
        game = self.game
        board_view.line_lost = game.person_lost
        board_view.board = game.board
        board_view.last_move = game.last_move
        analysis = self.analysis
        board_view.verdicts = dict(analysis.moves) if analysis and self.settings.coach else {}
        show_hint = analysis is not None and self.hint_requested
        board_view.hints = frozenset(analysis.best) if analysis and show_hint else frozenset()

    def _sync_status(self) -> None:
        status = self.query_one(StatusLine)
        status.thinking = self.thinking
        status.message = self.status_text()
        status.detail = self.status_detail()
        game = self.game
        winner = game.status.winner
        one_human = game.mode is Mode.HUMAN_VS_AI
        status.set_class(winner is not None and (not one_human or game.is_human(winner)), "-won")
        status.set_class(game.person_lost, "-lost")
        status.set_class(game.status is Status.DRAW, "-drawn")

    def status_detail(self) -> str:
        """The status line's second part: what to do next, or who is to move when paused."""
        game = self.game
        if game.is_over:
            if game.mode is Mode.AI_VS_AI:
                return "n: new game"
            return "n: new game\nu: undo, to study it"
        if game.mode is Mode.AI_VS_AI and self.paused:
            to_move = game.board.to_move
            return f"{to_move.value} ({self.difficulty_for(to_move).value.capitalize()}) to move"
        return ""

    def status_text(self) -> str:
        """What the status line says about the game now."""
        game = self.game
        result = game.status
        to_move = game.board.to_move
        winner = result.winner
        if game.is_over:
            if winner is None:
                return "Draw"
            if game.mode is Mode.HUMAN_VS_AI:
                return "You win!" if game.is_human(winner) else "AI wins"
            return f"{winner.value} wins!"
        if game.mode is Mode.AI_VS_AI:
            if self.paused:
                return "Paused: p resumes"
            level = self.difficulty_for(to_move).value.capitalize()
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
        if game.mode is Mode.AI_VS_AI:
            self.action_computer_plays_both()
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

    def action_computer_plays_both(self) -> None:
        """Say why a key or click meant for a person does nothing in AI vs AI."""
        if self.game.is_over:
            self.warn("AI vs AI is over: press n for a new game.")
        elif self.paused:
            self.warn("Paused: the computer plays both sides here; p resumes.")
        else:
            self.warn("AI vs AI: the computer plays both sides; p pauses.")

    def action_undo(self) -> None:
        """Take back to your previous turn, cancelling a move the AI is thinking about."""
        if self.game.undo():
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

    def new_game(
        self, mode: Mode | None = None, human: Player | None = None, *, alternate: bool = False
    ) -> None:
        """Abandon the current game (recorded as such) and start another.

        With ``alternate`` (a plain new game while "Alternate who starts" is on)
        the sides swap, and the person is told who starts now.
        """
        self.close_game()
        mode = mode or self.game.mode
        if human is None:
            human = self.game.human
            if alternate and mode is Mode.HUMAN_VS_AI:
                human = human.other
                self.notify(f"Sides swapped: you play {human.value}.", timeout=2)
            elif alternate and mode is Mode.AI_VS_AI:
                s = self.settings
                self.update_settings(
                    ai_x_difficulty=s.ai_o_difficulty, ai_o_difficulty=s.ai_x_difficulty
                )
                x, o = (d.value.capitalize() for d in (s.ai_o_difficulty, s.ai_x_difficulty))
                self.notify(f"Engines swapped: X {x}, O {o}.", timeout=2)
        if human is not self.settings.mark or mode is not self.settings.mode:
            self.update_settings(mark=human, mode=mode)
        self.game = Game(mode=mode, human=human)
        self.paused = False
        self._changed()

    def action_new_game(self) -> None:
        """Start a new game with the same settings (swapping sides if they alternate)."""
        self.new_game(alternate=self.settings.alternate_start)

    def action_cycle_difficulty(self) -> None:
        """Switch the computer to the next difficulty (You vs AI only)."""
        mode = self.game.mode
        if mode is Mode.TWO_PLAYERS:
            self.warn("Two players: there is no computer to set a difficulty for.")
        elif mode is Mode.AI_VS_AI:
            self.warn("AI vs AI: set each engine's level in the sidebar.")
        else:
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
        """Highlight the best moves for the person to move, without playing them."""
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
        """Pause AI vs AI."""
        self._set_paused(True)

    def action_resume(self) -> None:
        """Resume AI vs AI."""
        self._set_paused(False)

    def _set_paused(self, paused: bool) -> None:
        if self.game.is_over:
            self.warn("AI vs AI is over: press n for a new game.")
            return
        self.paused = paused
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
        """Which keys work, and show in the footer, now.

        None of the game's while the terminal is too small (the board is
        hidden); pause or resume only in AI vs AI; playing, undo, redo and hints
        only in games with a person in them.
        """
        if self.has_class("-too-small"):
            return False
        ai_vs_ai = self.game.mode is Mode.AI_VS_AI
        if action == "pause":
            return ai_vs_ai and not self.paused and not self.game.is_over
        if action == "resume":
            return ai_vs_ai and self.paused and not self.game.is_over
        if action == "computer_plays_both":
            return ai_vs_ai
        if action in self.PERSON_ACTIONS:
            return not ai_vs_ai
        return True

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        footer = self.query_one(Footer)
        # Below this width every key keeps its label whole only without padding,
        # and without the palette's key (the help and the palette still list it).
        footer.compact = width < COMFORTABLE_WIDTH
        footer.show_command_palette = width >= COMFORTABLE_WIDTH
        too_small = is_too_small(width, height)
        if too_small != self.has_class("-too-small"):
            self.set_class(too_small, "-too-small")
            self.refresh_bindings()
        if too_small:
            # Textual's keys panel (the palette's Keys command) would cover the message.
            self.query("HelpPanel").remove()
            self.query_one("#too-small", Static).update(
                f"Terminal too small: {width}x{height}.\n"
                f"ttt-tui needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
                "Enlarge the window to play; q quits."
            )
