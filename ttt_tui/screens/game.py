"""The game screen: turns input into `Session` calls, runs its searches, shows its view."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static

from ttt_tui.compat.cursor import show_terminal_cursor
from ttt_tui.engine import Analysis, Cell, Difficulty, Player, Progress, SearchCancelled
from ttt_tui.play.game import SavedGame, abandoned
from ttt_tui.play.results import MODE_LABELS
from ttt_tui.play.session import AnalysisRequest, MoveRequest, Outcome, Refused, Session, Work
from ttt_tui.play.settings import BOT, BoardSize, Level, Mode
from ttt_tui.play.speech import (
    Ask,
    Heard,
    Play,
    Unclear,
    announcement,
    answer,
    read_command,
)
from ttt_tui.screens.base import BaseScreen
from ttt_tui.screens.confirm import ConfirmScreen, ResumeQuestion
from ttt_tui.search.client import Searcher
from ttt_tui.storage.saver import Saver
from ttt_tui.storage.store import LeftGame
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.move_box import MoveBox
from ttt_tui.widgets.relayout import relayout_if_resized
from ttt_tui.widgets.sidebar import HEIGHTS, Sidebar, spacing_for
from ttt_tui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from ttt_tui.bots.player import BotPlayer

MIN_SIZES: dict[BoardSize, tuple[int, int]] = {
    BoardSize.THREE: (56, 16),
    BoardSize.FOUR: (64, 20),
    BoardSize.FIVE: (72, 24),
}
"""The smallest terminal (columns, rows) each board's game fits, every square whole."""
MIN_WIDTH, MIN_HEIGHT = MIN_SIZES[BoardSize.THREE]
"""The smallest terminal any game fits: 3x3's."""


def is_too_small(width: int, height: int, board: BoardSize = BoardSize.THREE) -> bool:
    """Whether a terminal of this size is below what the board's layout needs."""
    min_width, min_height = MIN_SIZES[board]
    return width < min_width or height < min_height


OPPONENTS = {
    Mode.HUMAN_VS_AI: "vs minimax",
    Mode.TWO_PLAYERS: "2 players",
    Mode.AI_VS_AI: "minimax vs minimax",
}
"""Who plays, as the title says it."""


def subtitle(board: BoardSize, mode: Mode, levels: tuple[Level, ...] = ()) -> str:
    """The title's second part: the game, and who plays it (``tic-tac-toe vs minimax``,
    ``4x4, four in a row, 2 players``); with ``levels`` (You vs AI's computer's, AI vs
    AI's X's and O's), the learner's bot named where it plays (``vs your bot``)."""
    game = "tic-tac-toe" if board is BoardSize.THREE else board.rule
    between = " " if mode is Mode.HUMAN_VS_AI and board is BoardSize.THREE else ", "
    opponents = OPPONENTS[mode]
    if BOT in levels and mode is not Mode.TWO_PLAYERS:
        names = ["your bot" if level is BOT else "minimax" for level in levels]
        opponents = f"vs {names[0]}" if mode is Mode.HUMAN_VS_AI else " vs ".join(names[1:])
    return f"{game}{between}{opponents}"


WARNING_SECONDS = 2.0
"""How long a warning about ignored input stays on screen."""

NOTICE_SECONDS = 1.5
"""How long a notice about a change (difficulty, coach, swapped sides) stays on screen."""

EXPLORE_KEY_WIDTH = 90
"""The narrowest terminal whose footer has room for the explorer's key."""

REVIEW_KEY_WIDTH = 80
"""The narrowest terminal whose footer has room for the review's key (a game over)."""

SQUARE_TIP = "play a square by its number (1 top-left; 16 is 1 then 6)"
DIFFICULTY_TIP = "next difficulty (You vs AI)"
UNDO_TIP = "undo to your last turn / redo"


class GameScreen(BaseScreen[None]):
    """The board, the sidebar and the game flow.

    Every outcome of a `Session` call goes through `apply`, the one funnel:
    it cancels the searches the session dropped, starts the ones it wants,
    and pushes the session's new view down to the board and the sidebar.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Squares by number work wherever the focus is; the board's own keys
        # (arrows, Enter) work when it has the focus.
        *(
            Binding(
                str(digit),
                f"digit({digit})",
                f"Square {digit}",
                show=False,
                tooltip=SQUARE_TIP,
            )
            for digit in range(10)
        ),
        # A number waiting for its second digit (1 on 4x4) is played by Enter or Space
        # wherever the focus is, before a focused sidebar control takes the key.
        Binding("enter,space", "play_typed", show=False, priority=True),
        # Where a bigger board does not fit, 3 or 4 goes to a smaller board that
        # does; the "too small" message says so, and nothing else needs them.
        *(Binding(str(n), f"board({n})", f"{n}x{n} board", show=False) for n in (3, 4)),
        Binding("n", "new_game", "New", tooltip="new game"),
        Binding("d", "cycle_difficulty", "Difficulty", show=False, tooltip=DIFFICULTY_TIP),
        Binding("u", "undo", "Undo", tooltip=UNDO_TIP),
        # Redo is offered while there is something to redo; r still says when there
        # is not.
        Binding("r", "redo", "Redo", tooltip=UNDO_TIP),
        Binding("r", "nothing_to_redo", show=False),
        Binding("c", "toggle_coach", "Coach", tooltip="coach: minimax's verdict on each square"),
        Binding("i", "hint", "Hint", tooltip="hint: highlight the best moves (your turn)"),
        Binding("p", "pause", "Pause", tooltip="pause or resume AI vs AI"),
        Binding("p", "resume", "Resume", tooltip="pause or resume AI vs AI"),
        # In AI vs AI the keys above that need a person say why they do nothing.
        Binding("u,r,i,p", "computer_plays_both", show=False),
        Binding("s", "stats", "Stats", tooltip="all-time stats"),
        # Taken before the focused widget sees it, so that the keys typed right after
        # (":c3" in one go) go to the box and not to the board.
        Binding(
            "colon",
            "move_box",
            "Move box",
            show=False,
            priority=True,
            tooltip="type a square by name (b2) or a command (board, threats, undo)",
        ),
        # Also taken first, while the box has the focus: "escape, q" typed in one go
        # closes the box and quits, the q going to the game and not into the box.
        Binding("escape", "close_move_box", "Close", priority=True, tooltip="close the move box"),
        # The review is offered in the footer where it has room; v works anywhere.
        Binding("v", "review", "Review", tooltip="review the game: every move graded"),
        Binding("v", "review_unlisted", show=False),
        # The explorer is offered where the footer has room for it; e works anywhere.
        Binding(
            "e",
            "explore",
            "Explore",
            tooltip="explorer: the game tree, why each move is good or bad, minimax step by step",
        ),
        Binding("e", "explore_unlisted", show=False),
        Binding(
            "m",
            "move_now",
            "Move now",
            tooltip="move now: the computer plays the best move it has found (Hard: once proven)",
        ),
    ]
    VERTICAL_BREAKPOINTS = HEIGHTS
    """How closely the sidebar packs its controls (``-tight``, ``-compact``, ``-roomy``)."""
    AUTO_FOCUS = ""
    """The screen gives the board the focus itself, and only while the board is shown
    (its keys must do nothing behind the "too small" message)."""
    PERSON_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"undo", "redo", "nothing_to_redo", "hint"}
    )
    """Actions for games with a person in them: off (and out of the footer) in AI vs AI."""

    class AIMoved(Message):
        """The computer picked a move for the game whose turn had this token."""

        def __init__(self, token: int, cell: Cell, level: Level) -> None:
            self.token = token
            """The turn the move was computed for; stale when the game moved on."""
            self.cell = cell
            """The chosen cell."""
            self.level = level
            """The level the move was chosen at, which the game records with it."""
            super().__init__()

    class BotGaveNoMove(Message):
        """The learner's bot gave no move for the turn with this token."""

        def __init__(self, token: int, why: str) -> None:
            self.token = token
            """The turn it was asked about; stale when the game moved on."""
            self.why = why
            """What it did instead, in one sentence."""
            super().__init__()

    class AnalysisReady(Message):
        """Minimax finished analysing the position whose turn had this token."""

        def __init__(self, token: int, analysis: Analysis) -> None:
            self.token = token
            """The turn the analysis is for; stale when the game moved on."""
            self.analysis = analysis
            """The verdict on every legal move."""
            super().__init__()

    class SearchProgress(Message):
        """A search for the turn with this token is still running, and has got this far."""

        def __init__(self, token: int, work: Work, progress: Progress) -> None:
            self.token = token
            """The turn the search is for; stale when the game moved on."""
            self.work = work
            """Which search: the computer's move or the coach's analysis."""
            self.progress = progress
            """Time, positions searched, what it is proving, and its best move so far."""
            super().__init__()

    def __init__(
        self,
        session: Session,
        saver: Saver,
        ai_delay: float,
        rng: random.Random,
        searcher: Searcher,
        bot: BotPlayer | None = None,
        *,
        keep_in_play: bool = False,
    ) -> None:
        super().__init__()
        self.session = session
        """The game, the settings, and what the computer should do next."""
        self.saver = saver
        """Where the settings and the games the session hands back are saved."""
        self.ai_delay = ai_delay
        """Least seconds the computer appears to think."""
        self.rng = rng
        """Source of every random choice the computer makes."""
        self.searcher = searcher
        """Where the computer's moves and the coach's analyses are worked out."""
        self.bot = bot
        """The learner's bot, which plays where its level is chosen."""
        self.keep_in_play = keep_in_play
        """Whether the game in play is saved after each change, to be offered back if the
        app goes without ending it (the terminal's game; not a served tab's)."""
        self._kept: SavedGame | None = None
        """The game in play as last handed to the saver."""
        self._keys_for = (session.game.mode, False, False, False, False)
        """The mode, pause and game-over state the footer's keys were last worked out for
        (at first, those of the new game the footer is first drawn for)."""
        self._last_warning = ""
        self._last_warning_until = 0.0
        self._exploring = False
        """Whether the explorer is open over the game, which then waits as it was."""
        self._roomy: bool | None = None
        """Whether the footer had room for the explorer's key when last sized."""
        self._held: GameScreen.AIMoved | None = None
        """The computer's move that came while the explorer was open, played when it closes."""
        self._offer_waiting = False
        """Whether the offer to go on with Hard waits for the screen over the game to close."""
        self._box_open = False
        """Whether the move box is open (hidden, but still open, while the terminal is
        too small)."""
        self._heard = Heard()
        """What the announcement line last told about: the game and its moves then."""
        self._told = ""
        """What the announcement line last said of the game (a warning may follow it)."""

    def compose(self) -> ComposeResult:
        self.add_class(spacing_for(self.app.size.height))
        view = self.session.view()
        yield TitleBar()
        with Horizontal(id="main"):
            yield BoardView(view.board, id="board")
            yield Sidebar(view)
        yield Static(id="announcement", markup=False)
        yield MoveBox(id="move-box")
        yield Static(id="too-small")
        yield GameFooter()

    def on_mount(self) -> None:
        self.check_size()
        self.apply(self.session.begin())

    # The one funnel.

    def apply(self, outcome: Outcome) -> None:
        """Act on what a session call did: warn, or save what it says to save, start and
        cancel searches, and redraw."""
        if outcome is None:
            return
        if isinstance(outcome, Refused):
            self.warn(outcome.message)
            return
        if outcome.ended is not None:
            self.saver.record(outcome.ended)
        if outcome.settings is not None:
            self.saver.save_settings(outcome.settings)
        if self.keep_in_play:
            kept = self.session.snapshot()
            if kept != self._kept:
                self._kept = kept
                self.saver.keep_in_play(kept)
        for dropped in outcome.cancel:
            self.workers.cancel_group(self, dropped.value)
        for request in self.session.requests():
            if isinstance(request, MoveRequest):
                self._think(request, self.rng.getrandbits(64))
            else:
                self._analyse(request)
        if outcome.notice:
            self.notify(outcome.notice, timeout=NOTICE_SECONDS)
        if outcome.bot_failed:
            self._offer_hard(outcome.bot_failed)
        view = self.session.view()
        self._tell_what_changed(outcome.notice)
        if view.settings.screen_reader != self.has_class("-screen-reader"):
            self.set_class(view.settings.screen_reader, "-screen-reader")
            show_terminal_cursor(self.app, view.settings.screen_reader)
        self.query_one(BoardView).state = view.board
        self.query_one(Sidebar).view = view
        board = BoardSize(view.n)
        self.sub_title = subtitle(board, view.mode, view.levels)
        keys = (view.mode, view.paused, view.is_over, view.slow_search, bool(view.undone))
        if keys != self._keys_for:
            self._keys_for = keys
            self.refresh_bindings()

    # Searches, in the searcher (a process of its own); the workers wait for them and
    # post what they found, and never touch widgets.

    @work(exclusive=True, group=Work.MOVE.value, exit_on_error=False)
    async def _think(self, request: MoveRequest, seed: int) -> None:
        """Have the computer's move worked out, taking at least `ai_delay` seconds."""
        started = time.monotonic()
        level = request.difficulty
        try:
            if isinstance(level, Difficulty):
                reporter = self._reporter(request.token, Work.MOVE)
                cell = await self.searcher.choose_move(request.board, level, seed, reporter)
            else:
                assert self.bot is not None, "the bot's level is offered only with a bot"
                # Loaded with the bot (ttt-tui --bot), not before every first frame.
                from ttt_tui.bots.player import BotFailed

                try:
                    reporter = self._reporter(request.token, Work.MOVE)
                    cell = await self.bot.choose_move(request.board, reporter)
                except BotFailed as failed:
                    self.post_message(self.BotGaveNoMove(request.token, str(failed)))
                    return
        except SearchCancelled:
            return
        remaining = self.ai_delay - (time.monotonic() - started)
        if remaining > 0:
            await asyncio.sleep(remaining)
        self.post_message(self.AIMoved(request.token, cell, request.difficulty))

    @on(AIMoved)
    def _ai_moved(self, message: GameScreen.AIMoved) -> None:
        if self._exploring:
            self._held = message
            return
        self.apply(self.session.apply_move(message.token, message.cell, message.level))

    @on(BotGaveNoMove)
    def _bot_gave_no_move(self, message: GameScreen.BotGaveNoMove) -> None:
        self.apply(self.session.bot_gave_no_move(message.token, message.why))

    def on_screen_resume(self) -> None:
        """Back on top: an offer that came while another screen was up is made now."""
        if self._offer_waiting:
            self._offer_waiting = False
            if (why := self.session.bot_stopped) is not None:
                self._offer_hard(why)

    def _offer_hard(self, why: str) -> None:
        """Say once what the bot did, and offer to go on with Hard, or to try the bot
        again (started afresh, so that a file fixed meanwhile is read again). Under
        another screen (the stats, the help, the palette) the offer waits for it to close."""
        if self.app.screen is not self:
            self._offer_waiting = True
            return
        seat = self.session.seat_to_move()
        token = self.session.token

        def answered(hard: bool | None) -> None:
            if self.session.token != token or self.session.bot_stopped is None:
                return  # the game moved on meanwhile
            if hard:
                self.apply(self.session.set_difficulty(Difficulty.HARD, seat))
            else:
                assert self.bot is not None
                self.bot.restart()
                self.apply(self.session.set_difficulty(BOT, seat))

        who = "Your bot" if seat is None else f"Your bot, playing {seat.value},"
        self.app.push_screen(
            ConfirmScreen(f"{who} gave no move: {why}.\n\nGo on with Hard?", "Hard", "Try again"),
            answered,
        )

    @work(exclusive=True, group=Work.ANALYSIS.value, exit_on_error=False)
    async def _analyse(self, request: AnalysisRequest) -> None:
        """Have minimax's verdict on every move worked out, for the coach and hints."""
        reporter = self._reporter(request.token, Work.ANALYSIS)
        try:
            analysis = await self.searcher.analyze(request.board, reporter)
        except SearchCancelled:
            return
        self.post_message(self.AnalysisReady(request.token, analysis))

    @on(AnalysisReady)
    def _analysis_ready(self, message: GameScreen.AnalysisReady) -> None:
        self.apply(self.session.apply_analysis(message.token, message.analysis))

    def _reporter(self, token: int, work: Work) -> Callable[[Progress], None]:
        def report(progress: Progress) -> None:
            self.post_message(self.SearchProgress(token, work, progress))

        return report

    @on(SearchProgress)
    def _search_progress(self, message: GameScreen.SearchProgress) -> None:
        self.apply(self.session.report(message.token, message.work, message.progress))

    # Notices.

    def say(self, sentences: str) -> None:
        """Write sentences on the announcement line, in place of the last ones (shown in
        screen-reader mode, for a screen reader or a braille display to read). Hidden,
        the line keeps its words for when it is shown, and lays nothing out: Textual
        would lay the whole screen out again for every move."""
        line = self.query_one("#announcement", Static)
        line.update(sentences, layout=False)
        if line.display:
            relayout_if_resized(line)

    def _tell_what_changed(self, notice: str) -> None:
        """Say what changed since the listener was last told: the moves, the game's end,
        whose turn it is; and the notice of the change, if it had one. While the
        computer thinks its reply, what the person played stays on the line, so that
        the reply comes with it: ``X plays b2. O plays a1. Your move.``"""
        session = self.session
        game = session.game
        told = announcement(self._heard, session)
        if notice:
            told = f"{notice}. {told}"
        elif told == self._told:
            return  # nothing new; a warning said since stays
        self._told = told
        waiting = game.mode is Mode.HUMAN_VS_AI and game.ai_to_move and not game.is_over
        if not waiting:
            self._heard = Heard(game, tuple(game.moves))
        self.say(told)

    def announce(self, notice: str) -> None:
        """Say a notice (the app's, in screen-reader mode, in place of a toast) on the
        announcement line, unless the line says it already: the game's own warnings
        and changes are said there with their sentences."""
        line = self.query_one("#announcement", Static)
        if notice.rstrip(".") not in str(line.render()):
            self.say(" ".join(notice.split()))

    def warn(self, message: str) -> None:
        """Say briefly why input did nothing; the same words are not stacked
        again while they are still on screen, however fast the keys come."""
        self.say(message)
        now = time.monotonic()
        if message == self._last_warning and now < self._last_warning_until:
            return
        self._last_warning, self._last_warning_until = message, now + WARNING_SECONDS
        self.notify(message, severity="warning", timeout=WARNING_SECONDS)

    # Input: the board, the sidebar and the keys.

    @on(BoardView.CellChosen)
    def _cell_chosen(self, message: BoardView.CellChosen) -> None:
        self.apply(self.session.play(message.cell))

    @on(BoardView.NoSuchSquare)
    def _no_such_square(self, message: BoardView.NoSuchSquare) -> None:
        self.warn(f"There is no square {message.number}: they are 1 to {message.squares}.")

    @on(Sidebar.BoardChosen)
    def _board_chosen(self, message: Sidebar.BoardChosen) -> None:
        self.action_board(message.board.n)

    @on(Sidebar.ModeChosen)
    def _mode_chosen(self, message: Sidebar.ModeChosen) -> None:
        self.choose_mode(message.mode)

    @on(Sidebar.MarkChosen)
    def _mark_chosen(self, message: Sidebar.MarkChosen) -> None:
        self.choose_mark(message.mark)

    def choose_mode(self, mode: Mode) -> None:
        """Play in ``mode``: a new game, once the person agrees to lose this one."""
        if mode is not self.session.game.mode:
            label = MODE_LABELS[mode].long
            self._new_game_asked(f"Start a new game, {label}?", lambda: self.session.set_mode(mode))

    def choose_mark(self, mark: Player) -> None:
        """Play ``mark``: a new game, once the person agrees to lose this one."""
        if mark is not self.session.game.human:
            question = f"Start a new game as {mark.value}?"
            self._new_game_asked(question, lambda: self.session.set_mark(mark))

    def _new_game_asked(self, question: str, start: Callable[[], Outcome]) -> None:
        """Start a new game with ``start``, asking first where a game in progress would be
        lost (recorded as abandoned): no, or Escape, keeps it exactly as it was."""

        def answered(yes: bool | None) -> None:
            if yes:
                self.apply(start())
                self.check_size()
            else:
                self.query_one(Sidebar).revert()

        if not self.session.would_abandon:
            answered(True)
            return
        question += " This one will be recorded as abandoned."
        self.app.push_screen(ConfirmScreen(question, "New game", "Keep playing"), answered)

    @on(Sidebar.DifficultyChosen)
    def _difficulty_chosen(self, message: Sidebar.DifficultyChosen) -> None:
        self.apply(self.session.set_difficulty(message.difficulty, message.side))

    @on(Sidebar.CoachSwitched)
    def _coach_switched(self, message: Sidebar.CoachSwitched) -> None:
        self.apply(self.session.set_coach(message.on))

    @on(Sidebar.AlternateSwitched)
    def _alternate_switched(self, message: Sidebar.AlternateSwitched) -> None:
        self.apply(self.session.set_alternate(message.on))

    @on(Sidebar.NewGamePressed)
    def _new_game_pressed(self) -> None:
        self.action_new_game()

    def action_digit(self, digit: int) -> None:
        """Name a square by its number, digit by digit; the board plays it once complete."""
        self.query_one(BoardView).type_digit(digit)

    def action_play_typed(self) -> None:
        """Play the square whose number waits for a second digit."""
        self.query_one(BoardView).play_typed()

    def action_board(self, n: int) -> None:
        """Play on the n x n board: a new game, once the person agrees to lose this one."""
        board = BoardSize(n)
        if board is not self.session.settings.board:
            question = f"Start a new {board.label} game?"
            self._new_game_asked(question, lambda: self.session.set_board(board))

    def offer_left(self, left: LeftGame) -> None:
        """Ask whether to resume the game an earlier run left unfinished: ``y`` puts it back
        as it was, ``n`` records it as abandoned. Not asked once a game here has begun
        (the next launch asks)."""
        if self.session.game.moves or self.session.game.redo_stack:
            self.saver.release_left(left)
            return
        when = left.saved.astimezone()
        day = "" if when.date() == datetime.now().astimezone().date() else f"{when:%b} {when.day}, "
        question = (
            f"Resume your {left.game.board.label} game from {day}{when:%H:%M}?"
            " If not, it is recorded as abandoned."
        )

        def answered(resume: bool | None) -> None:
            if resume:
                self.saver.resume_left(left)
                self.apply(self.session.resume(left.game))
                self.check_size()
            elif resume is False:
                self.saver.abandon_left(left, abandoned(left.game, self.session.now()))
            else:
                self.saver.release_left(left)

        self.app.push_screen(ResumeQuestion(question, "Resume", "Start afresh"), answered)

    def action_new_game(self) -> None:
        """Start a new game with the same settings (swapping sides if they alternate)."""
        self.apply(self.session.new_game(alternate=self.session.settings.alternate_start))

    def action_cycle_difficulty(self) -> None:
        """Switch the computer to the next difficulty (You vs AI only)."""
        self.apply(self.session.cycle_difficulty())

    def action_undo(self) -> None:
        """Take back to your previous turn, cancelling a move the AI is thinking about."""
        self.apply(self.session.undo())

    def action_redo(self) -> None:
        """Replay what undo took back."""
        self.apply(self.session.redo())

    def action_nothing_to_redo(self) -> None:
        """r with nothing undone: say so."""
        self.action_redo()

    def action_toggle_screen_reader(self) -> None:
        """Screen-reader mode on or off: the terminal's cursor on the focus, and the
        announcement line."""
        self.apply(self.session.set_screen_reader(not self.session.settings.screen_reader))

    # The move box.

    def action_move_box(self) -> None:
        """Open the move box, where a square or a command is typed (`:`)."""
        if self.has_class("-too-small"):
            return
        self._box_open = True
        box = self.query_one(MoveBox)
        box.display = True
        # At once, not after the keys already waiting: ":c3" typed in one go is c3.
        self.set_focus(box)

    def action_close_move_box(self) -> None:
        """Close the move box; the board has the focus again."""
        self._box_open = False
        box = self.query_one(MoveBox)
        box.value = ""
        box.display = False
        self.set_focus(self.query_one(BoardView))

    @on(Input.Submitted, "#move-box")
    async def _move_box_line(self, event: Input.Submitted) -> None:
        event.input.value = ""
        command = read_command(event.value, self.session.game.board.n)
        if isinstance(command, Play):
            self.apply(self.session.play(command.cell))
        elif isinstance(command, Ask):
            self.say(answer(command.question, self.session))
        elif isinstance(command, Unclear):
            self.say(f"{command.why}.")
        elif command.action == "quit":
            await self.app.run_action("quit")
        elif self.check_action(command.action, ()) is False:
            self.say(f"{command.action.replace('_', ' ').capitalize()} does nothing now.")
        else:
            await self.run_action(command.action)

    def action_toggle_coach(self) -> None:
        """Show or hide minimax's verdict on every empty square."""
        self.apply(self.session.set_coach(not self.session.settings.coach))

    def action_hint(self) -> None:
        """Highlight the best moves for the person to move, without playing them."""
        self.apply(self.session.hint())

    def action_pause(self) -> None:
        """Pause AI vs AI."""
        self.apply(self.session.set_paused(True))

    def action_resume(self) -> None:
        """Resume AI vs AI."""
        self.apply(self.session.set_paused(False))

    def action_computer_plays_both(self) -> None:
        """Say why a key meant for a person does nothing in AI vs AI."""
        self.apply(self.session.computer_plays_both())

    def action_move_now(self) -> None:
        """Have the computer play the best move its search has found so far."""
        self.apply(self.session.move_now())

    def action_explore(self) -> None:
        """Open the explorer on the position in play; the game waits until it closes."""
        from ttt_tui.screens.explorer import ExplorerScreen

        if self._exploring:
            return
        self._exploring = True
        self.app.push_screen(ExplorerScreen(self.session.game.board, self.searcher), self._explored)

    def action_explore_unlisted(self) -> None:
        """e where the footer has no room for it: the explorer all the same."""
        self.action_explore()

    def _explored(self, _result: None = None) -> None:
        """Back from the explorer: a move the computer found meanwhile is played now."""
        self._exploring = False
        held, self._held = self._held, None
        if held is not None:
            self._ai_moved(held)

    def action_review(self) -> None:
        """Open the review of the game just ended."""
        from ttt_tui.screens.review import ReviewScreen

        game = self.session.game
        if not game.is_over or isinstance(self.app.screen, ReviewScreen):
            return
        person = game.human if game.mode is Mode.HUMAN_VS_AI else None
        review = ReviewScreen(game.board.n, tuple(game.moves), self.searcher, person=person)
        self.app.push_screen(review)

    @property
    def exploring(self) -> bool:
        """Whether the game's explorer is open over it: the computer's move, if it
        comes meanwhile, waits until the explorer closes."""
        return self._exploring

    def action_review_unlisted(self) -> None:
        """v where the footer has no room for it: the review all the same."""
        self.action_review()

    def action_stats(self) -> None:
        """Show all-time statistics."""
        from ttt_tui.screens.stats import StatsScreen

        board = BoardSize(self.session.game.board.n)
        self.app.push_screen(StatsScreen(self.saver, self.searcher, board))

    # Size, and which keys work.

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys work, and show in the footer, now.

        None of the game's while the terminal is too small (the board is
        hidden), except 3 for the 3x3 board where a bigger one does not fit;
        pause or resume only in AI vs AI; undo, redo and hints only in games
        with a person in them.
        """
        if action == "board":
            return self.has_class("-too-small") and BoardSize(parameters[0]) in self._fitting()
        if self.has_class("-too-small"):
            return False
        session = self.session
        ai_vs_ai = session.game.mode is Mode.AI_VS_AI
        over = session.game.is_over
        if action == "pause":
            return ai_vs_ai and not session.paused and not over
        if action == "resume":
            return ai_vs_ai and session.paused and not over
        if action == "computer_plays_both":
            return ai_vs_ai
        if action == "close_move_box":
            return self.query_one(MoveBox).has_focus
        if action == "move_now":
            return session.thinking and Work.MOVE in session.progress
        if action == "play_typed":
            return bool(self.query_one(BoardView).typed)
        if action in self.PERSON_ACTIONS and ai_vs_ai:
            return False
        if action in ("redo", "nothing_to_redo"):
            return bool(session.game.redo_stack) is (action == "redo")
        if action in ("review", "review_unlisted"):
            return over and (self.app.size.width >= REVIEW_KEY_WIDTH) is (action == "review")
        if action in ("explore", "explore_unlisted"):
            return (self.app.size.width >= EXPLORE_KEY_WIDTH) is (action == "explore")
        return True

    @property
    def board(self) -> BoardSize:
        """The board of the game in play."""
        return BoardSize(self.session.game.board.n)

    def _fitting(self) -> list[BoardSize]:
        """The smaller boards that fit the terminal, where the board in play does not."""
        width, height = self.app.size
        return [
            size
            for size in BoardSize
            if size.n < self.board.n and not is_too_small(width, height, size)
        ]

    def check_size(self, size: Size | None = None) -> None:
        """As every screen's, and the footer's keys worked out again where the explorer's
        key comes or goes with the width."""
        super().check_size(size)
        # Shown by its own style (so that it can take the focus at once), the move box
        # hides with the rest of the game behind the "too small" message.
        self.query_one(MoveBox).display = self._box_open and not self.has_class("-too-small")
        roomy = (size or self.app.size).width >= EXPLORE_KEY_WIDTH
        if roomy is not self._roomy:
            self._roomy = roomy
            self.refresh_bindings()

    def too_small(self, width: int, height: int) -> str | None:
        """The "too small" message for the board in play, naming the smaller boards that
        fit; None if the board fits."""
        board = self.board
        if not is_too_small(width, height, board):
            return None
        min_width, min_height = MIN_SIZES[board]
        message = (
            f"Terminal too small: {width}x{height}.\n"
            f"The {board.label} board needs at least {min_width}x{min_height}.\n\n"
            "Enlarge the window to play; q quits."
        )
        fitting = self._fitting()
        if fitting:
            keys = " or ".join(str(size.n) for size in fitting)
            boards = " or ".join(size.label for size in fitting)
            message += f"\nOr press {keys} to play on {boards} instead."
        return message

    def focus_target(self) -> Widget:
        """The move box while it is open, else the board: their keys need the focus."""
        return self.query_one(MoveBox) if self._box_open else self.query_one(BoardView)
