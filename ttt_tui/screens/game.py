"""The game screen: turns input into `Session` calls, runs its searches, shows its view."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, TypeAlias

from textual import on
from textual.actions import parse
from textual.app import ComposeResult
from textual.binding import ActiveBinding, BindingType
from textual.containers import Horizontal
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static

from ttt_tui.compat.cursor import show_terminal_cursor
from ttt_tui.play.game import SavedGame
from ttt_tui.play.session import Refused, Reply, Session
from ttt_tui.play.settings import BOT, BoardSize, Level, Mode
from ttt_tui.play.speech import Ask, Play, Unclear, answer, read_command
from ttt_tui.screens import game_keys, game_search, resume_offer
from ttt_tui.screens.base import BaseScreen
from ttt_tui.screens.bot_offer import BotOffer
from ttt_tui.screens.friend import Friends, ServedTab
from ttt_tui.screens.game_keys import EXPLORE_KEY_WIDTH as EXPLORE_KEY_WIDTH
from ttt_tui.screens.game_keys import PUZZLES_KEY_WIDTH
from ttt_tui.screens.game_search import Found, Searches
from ttt_tui.screens.new_game import NewGameQuestion
from ttt_tui.screens.over_game import OverGame
from ttt_tui.search.client import Searcher
from ttt_tui.storage.saver import Saver
from ttt_tui.storage.store import LeftGame
from ttt_tui.widgets.announcement import Announcement
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.move_box import MoveBox
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


def fitting(board: BoardSize, width: int, height: int) -> list[BoardSize]:
    """The boards smaller than ``board`` that a terminal of this size fits."""
    return [
        size for size in BoardSize if size.n < board.n and not is_too_small(width, height, size)
    ]


def too_small_message(board: BoardSize, width: int, height: int) -> str | None:
    """What the game screen says in place of a ``board`` game that a terminal of this size
    does not fit, naming the smaller boards that fit; None if the board fits."""
    if not is_too_small(width, height, board):
        return None
    min_width, min_height = MIN_SIZES[board]
    message = (
        f"Terminal too small: {width}x{height}.\n"
        f"The {board.label} board needs at least {min_width}x{min_height}.\n\n"
        "Enlarge the window to play; q quits."
    )
    smaller = fitting(board, width, height)
    if smaller:
        keys = " or ".join(str(size.n) for size in smaller)
        boards = " or ".join(size.label for size in smaller)
        message += f"\nOr press {keys} to play on {boards} instead."
    return message


OPPONENTS = {
    Mode.HUMAN_VS_AI: "vs minimax",
    Mode.TWO_PLAYERS: "2 players",
    Mode.AI_VS_AI: "minimax vs minimax",
    Mode.ONLINE: "online",
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


NOTICE_SECONDS = 1.5
"""How long a notice about a change (difficulty, coach, swapped sides) stays on screen."""


class GameScreen(BaseScreen[None]):
    """The board, the sidebar and the game flow.

    Every reply of a `Session` call goes through `apply`, the one funnel: it
    cancels the searches the session dropped, starts the ones it wants, and
    pushes the session's new view down to the board and the sidebar. Which keys
    work, and which the footer lists, is `ttt_tui.screens.game_keys`'s to say.
    """

    BINDINGS: ClassVar[list[BindingType]] = game_keys.BINDINGS
    VERTICAL_BREAKPOINTS = HEIGHTS
    """How closely the sidebar packs its controls (``-tight``, ``-compact``, ``-roomy``)."""
    AUTO_FOCUS = ""
    """The screen gives the board the focus itself, and only while the board is shown
    (its keys must do nothing behind the "too small" message)."""

    # What the searches post to the screen (`ttt_tui.screens.game_search`).
    AIMoved: TypeAlias = game_search.AIMoved
    BotGaveNoMove: TypeAlias = game_search.BotGaveNoMove
    AnalysisReady: TypeAlias = game_search.AnalysisReady
    SearchProgress: TypeAlias = game_search.SearchProgress

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
        tab: ServedTab | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        """The game, the settings, and what the computer should do next."""
        self.saver = saver
        """Where the settings and the games the session hands back are saved."""
        self.searcher = searcher
        """Where the computer's moves and the coach's analyses are worked out."""
        self.keep_in_play = keep_in_play
        """Whether the game in play is saved after each change, to be offered back if the
        app goes without ending it (the terminal's game; not a served tab's)."""
        self._kept: SavedGame | None = None
        """The game in play as last handed to the saver."""
        self._keys_for = (session.game.mode, False, False, False, False)
        """The mode, pause and game-over state the footer's keys were last worked out for
        (at first, those of the new game the footer is first drawn for)."""
        self._roomy: tuple[bool, bool] | None = None
        """Whether the footer had room for the explorer's key, and for the puzzles', when last
        sized."""
        self._searches = Searches(self, searcher, bot, ai_delay, rng)
        """The computer's moves (minimax's or the learner's bot's) and minimax's analyses."""
        self.over = OverGame(self, session, saver, searcher, rng, self._search_answered)
        """The explorer, the puzzles, the review and the stats, over the game."""
        self.friends = Friends(self, session, saver, tab, self.over.online)
        """A friend played online, from a tab of `ttt-tui serve` (``tab``)."""
        self._offer = BotOffer(self, session, bot, self.apply)
        """The offer to go on with Hard when the learner's bot gives no move."""
        self.new_game = NewGameQuestion(
            self, session, self._restarted, lambda: self._sidebar.revert()
        )
        """A new game on another board, in another mode or with the other mark."""

    def compose(self) -> ComposeResult:
        self.add_class(spacing_for(self.app.size.height))
        view = self.session.view()
        self._board = BoardView(view.board, id="board")
        self._sidebar = Sidebar(view)
        self._line = Announcement(id="announcement")
        self._box = MoveBox(id="move-box")
        yield TitleBar()
        with Horizontal(id="main"):
            yield self._board
            yield self._sidebar
        yield self._line
        yield self._box
        yield Static(id="too-small")
        yield GameFooter()

    def on_mount(self) -> None:
        self.check_size()
        self.apply(self.session.begin())

    # The one funnel.

    def apply(self, reply: Reply) -> None:
        """Act on what a session call did: warn, or save what it says to save, start and
        cancel searches, and redraw."""
        if reply is None:
            return
        if isinstance(reply, Refused):
            self._line.warn(reply.message)
            return
        if reply.ended is not None:
            self.saver.record(reply.ended)
        if reply.settings is not None:
            self.saver.save_settings(reply.settings)
        if self.keep_in_play and (kept := self.session.snapshot()) != self._kept:
            self._kept = kept
            self.saver.keep_in_play(kept)
        for dropped in reply.cancel:
            self._searches.cancel(dropped)
        for request in self.session.take_requests():
            self._searches.start(request)
        if reply.notice:
            self.notify(reply.notice, timeout=NOTICE_SECONDS)
        if reply.bot_failed:
            self._offer.make(reply.bot_failed)
        view = self.session.view()
        self._line.tell(self.session, reply.notice)
        if view.settings.screen_reader != self.has_class("-screen-reader"):
            self.set_class(view.settings.screen_reader, "-screen-reader")
            show_terminal_cursor(self.app, view.settings.screen_reader)
        self._board.state = view.board
        self._sidebar.view = view
        self.sub_title = subtitle(BoardSize(view.n), view.mode, view.levels)
        keys = (view.mode, view.paused, view.is_over, view.slow_search, bool(view.undone))
        if keys != self._keys_for:
            self._keys_for = keys
            self.refresh_bindings()

    @on(AIMoved)
    @on(BotGaveNoMove)
    @on(AnalysisReady)
    @on(SearchProgress)
    def _search_answered(self, message: Found) -> None:
        """What a search found, for the session to take, or to drop if the turn is over;
        the computer's move waits while the explorer is open."""
        session = self.session
        match message:
            case GameScreen.AIMoved(token, cell, level):
                if self.over.hold(message):
                    return
                self.apply(session.apply_move(token, cell, level))
            case GameScreen.BotGaveNoMove(token, why):
                self.apply(session.bot_gave_no_move(token, why))
            case GameScreen.AnalysisReady(token, analysis):
                self.apply(session.apply_analysis(token, analysis))
            case GameScreen.SearchProgress(token, work, progress):
                self.apply(session.report(token, work, progress))

    def on_screen_resume(self) -> None:
        """Back on top: an offer that waited for the screen over the game is made now."""
        self._offer.resumed()

    # Notices.

    def announce(self, notice: str) -> None:
        """Say a notice of the app's on the announcement line (in screen-reader mode, in
        place of a toast), unless the line says it already."""
        self._line.announce(notice)

    # Input: the board, the sidebar, the move box and the keys.

    @on(BoardView.CellChosen)
    @on(BoardView.NoSuchSquare)
    def _board_input(self, message: BoardView.CellChosen | BoardView.NoSuchSquare) -> None:
        if isinstance(message, BoardView.CellChosen):
            self.apply(self.session.play(message.cell))
        else:
            why = f"There is no square {message.number}: they are 1 to {message.squares}."
            self._line.warn(why)

    @on(Sidebar.BoardChosen)
    @on(Sidebar.ModeChosen)
    @on(Sidebar.MarkChosen)
    @on(Sidebar.DifficultyChosen)
    @on(Sidebar.CoachSwitched)
    @on(Sidebar.AlternateSwitched)
    @on(Sidebar.NewGamePressed)
    def _sidebar_chose(self, message: Message) -> None:
        """A choice in the sidebar: what its key or its command in the palette does."""
        session = self.session
        match message:
            case Sidebar.BoardChosen(board=board):
                self.new_game.board(board)
            case Sidebar.ModeChosen(mode=mode):
                self.new_game.mode(mode)
            case Sidebar.MarkChosen(mark=mark):
                self.new_game.mark(mark)
            case Sidebar.DifficultyChosen(side=side, difficulty=difficulty):
                self.apply(session.set_difficulty(difficulty, side))
            case Sidebar.CoachSwitched(on=coach):
                self.apply(session.set_coach(coach))
            case Sidebar.AlternateSwitched(on=alternate):
                self.apply(session.set_alternate(alternate))
            case Sidebar.NewGamePressed():
                self.action_new_game()

    @on(Input.Submitted, "#move-box")
    async def _move_box_line(self, event: Input.Submitted) -> None:
        event.input.value = ""
        command = read_command(event.value, self.session.game.board.n)
        if isinstance(command, Play):
            self.apply(self.session.play(command.cell))
        elif isinstance(command, Ask):
            self._line.say(answer(command.question, self.session))
        elif isinstance(command, Unclear):
            self._line.say(f"{command.why}.")
        elif command.action == "quit":
            await self.app.run_action("quit")
        elif not self.check_action(*parse(command.action)[1:]):
            self._line.say(f"{command.said.capitalize()} does nothing now.")
        else:
            await self.run_action(command.action)

    def action_board(self, n: int) -> None:
        """Play on the n x n board: a new game, once the person agrees to lose this one."""
        self.new_game.board(BoardSize(n))

    def offer_left(self, left: LeftGame) -> None:
        """Ask whether to resume the game an earlier run left unfinished
        (`resume_offer.offer_left`)."""
        resume_offer.offer_left(self.app, left, self.session, self.saver, self._restarted)

    def _restarted(self, reply: Reply) -> None:
        """A new game or a resumed one begun: its board may not fit."""
        self.apply(reply)
        self.check_size()

    def action_digit(self, digit: int) -> None:
        """Name a square by its number, digit by digit; the board plays it once complete."""
        self._board.type_digit(digit)

    def action_play_typed(self) -> None:
        """Play the square whose number waits for a second digit."""
        self._board.play_typed()

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
        """Replay what undo took back, or say there is nothing to redo."""
        self.apply(self.session.redo())

    def action_toggle_screen_reader(self) -> None:
        """Screen-reader mode on or off: the terminal's cursor on the focus, and the
        announcement line."""
        self.apply(self.session.set_screen_reader(not self.session.settings.screen_reader))

    def action_toggle_coach(self) -> None:
        """Show or hide minimax's verdict on every empty square."""
        self.apply(self.session.set_coach(not self.session.settings.coach))

    def action_hint(self) -> None:
        """Highlight the best moves for the person to move, without playing them."""
        self.apply(self.session.hint())

    def action_pause(self, paused: bool | None = None) -> None:
        """Pause AI vs AI, or resume it (``paused`` False); the key does what the footer
        says, the other of the two."""
        self.apply(self.session.set_paused(not self.session.paused if paused is None else paused))

    def action_computer_plays_both(self) -> None:
        """Say why a key meant for a person does nothing in AI vs AI."""
        self.apply(self.session.computer_plays_both())

    def action_move_now(self) -> None:
        """Have the computer play the best move its search has found so far."""
        self.apply(self.session.move_now())

    def action_move_box(self) -> None:
        """Open the move box, where a square or a command is typed (`:`)."""
        if not self.has_class("-too-small"):
            self._box.open()

    def action_close_move_box(self) -> None:
        """Close the move box; the board has the focus again."""
        self._box.close()
        self.set_focus(self._board)

    # The screens over the game (`ttt_tui.screens.over_game`).

    def action_explore(self) -> None:
        """Open the explorer on the position in play; the game waits until it closes."""
        self.over.explorer()

    def action_puzzles(self) -> None:
        """Open the puzzles; the game waits until they close, as under the explorer."""
        self.over.puzzles()

    def action_review(self) -> None:
        """Open the review of the game just ended."""
        self.over.review()

    def action_stats(self) -> None:
        """Show all-time statistics."""
        self.over.stats()

    def action_play_friend(self) -> None:
        """Make a room for a friend and show its invites (a served tab's game)."""
        self.friends.host()

    def action_join_friend(self) -> None:
        """Ask for a friend's invite and join their room (a served tab's game)."""
        self.friends.ask()

    # Which keys work, and the size.

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys work now (`game_keys.works`)."""
        too_small = self.has_class("-too-small")
        board = BoardSize(self.session.game.board.n)
        return game_keys.works(
            action,
            parameters,
            self.session,
            too_small=too_small,
            fitting=fitting(board, *self.app.size) if too_small else (),
            box_focused=self._box.has_focus,
            typed=bool(self._board.typed),
        )

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """As every screen's, but the game's keys as the footer lists them
        (`game_keys.listed`)."""
        width = self.app.size.width
        return {
            key: active
            if active.node is not self
            else active._replace(binding=game_keys.listed(active.binding, self.session, width))
            for key, active in super().active_bindings.items()
        }

    def check_size(self, size: Size | None = None) -> None:
        """As every screen's, and the footer's keys worked out again where the explorer's
        or the puzzles' key comes or goes with the width."""
        super().check_size(size)
        # Shown by its own style (so that it can take the focus at once), the move box
        # hides with the rest of the game behind the "too small" message.
        self._box.fit(not self.has_class("-too-small"))
        width = (size or self.app.size).width
        roomy = (width >= EXPLORE_KEY_WIDTH, width >= PUZZLES_KEY_WIDTH)
        if roomy != self._roomy:
            self._roomy = roomy
            self.refresh_bindings()

    def too_small(self, width: int, height: int) -> str | None:
        """The "too small" message for the board in play, naming the smaller boards that
        fit; None if the board fits."""
        return too_small_message(BoardSize(self.session.game.board.n), width, height)

    def focus_target(self) -> Widget:
        """The move box while it is open, else the board: their keys need the focus."""
        box = self._box
        return box if box.is_open else self._board
