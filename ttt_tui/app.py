"""The Textual app: title, styles, global bindings and the game screen."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import random
import re
import signal
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.console import RenderableType
from textual import events, on, work
from textual.app import CommandCallback, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.content import Content
from textual.driver import Driver
from textual.events import Resize
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.theme import Theme, ThemeProvider

from ttt_tui.compat.app import AppFixes
from ttt_tui.compat.cursor import show_terminal_cursor
from ttt_tui.compat.hangup import (
    HangupWatch,
    LastResort,
    can_watch,
    discard_output,
    hung_up,
)
from ttt_tui.compat.palette import GamePalette
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.results import MODE_LABELS
from ttt_tui.play.session import Session
from ttt_tui.play.settings import PLAYABLE_MODES, BoardSize, Level, Mode, Settings, level_name
from ttt_tui.screens.friend import ServedTab
from ttt_tui.screens.game import GameScreen, is_too_small
from ttt_tui.search.client import Searcher, SearchProcess
from ttt_tui.storage import LeftGame, Notice, Store, crash
from ttt_tui.storage.pictures import NotSaved, save_picture
from ttt_tui.storage.saver import QUIT_SECONDS, Saver
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.colours import board_colours
from ttt_tui.widgets.cursor import follow_focus

if TYPE_CHECKING:
    from ttt_tui.bots.player import BotPlayer

LAST_RESORT_SECONDS = QUIT_SECONDS + 3.0
"""How long a game whose terminal (or server) has gone may take to end, its last saves
waiting up to `QUIT_SECONDS` for another ttt-tui's lock, before it is ended outright."""

ALT_LETTER = re.compile(r"alt\+(shift\+)?([a-z])")
"""A letter with Alt (and Shift), as Textual names the key."""

ESCAPE_DIGITS = dict(zip("º¡™£¢∞§¶•ª", "0123456789", strict=True))
"""What Textual 8.2 reads Escape and a digit in one read as: the characters macOS's
Option key types with the digits (º for 0, ¡ for 1 ... ª for 9)."""


def escape_then(key: str, character: str | None = None) -> str | None:
    """The key a person typed after Escape, where Textual read the two as one key: the
    letter of an alt+letter (``q``, or ``Q`` for alt+shift+q), or the digit whose
    Option character Textual made of Escape and a digit (``∞``: Escape then 5).

    A terminal sends Alt+Q as Escape then q, and so does a person who types Escape
    and q quickly over a slow link, or in tmux within its escape-time (half a second
    by default). The game binds no Alt key and no such character, so it takes the
    person at their word: Escape closes what is open, and the key acts.
    """
    if character is not None and character in ESCAPE_DIGITS:
        return ESCAPE_DIGITS[character]
    match = ALT_LETTER.fullmatch(key)
    if match is None:
        return None
    shift, letter = match.groups()
    return letter.upper() if shift else letter


HIGH_CONTRAST = Theme(
    name="ttt-high-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#ffffff",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#000000",
    boost="#ffffff",
    success="#00ff00",
    warning="#ffff00",
    error="#ff6060",
    dark=True,
)
"""White and bright colours on black, for low vision; every meaning also has a mark
or a word, so it reads without colour too (``NO_COLOR``)."""


UNREADABLE_THEMES = ("ansi-dark", "ansi-light")
"""Textual's themes the game does not offer: their colours are the terminal's own, which
the game cannot know, so it cannot make the board readable in them (its hint drew green
words on green)."""


def _plays_at(level: Level, side: Player | None = None) -> str:
    """What choosing ``level`` for You vs AI's computer (``side`` None) or an engine of
    AI vs AI does, for the palette."""
    if isinstance(level, Difficulty):
        who = "The computer" if side is None else side.value
        return f"{who} plays at {level.value} from its next move"
    return f"Your bot plays {'for the computer' if side is None else side.value} from its next move"


class TicTacToeApp(AppFixes[None]):
    """Tic-tac-toe against a minimax opponent."""

    TITLE = "ttt-tui"
    SUB_TITLE = "tic-tac-toe vs minimax"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
        Binding("q", "quit", "Quit", tooltip="quit (an unfinished game is recorded as abandoned)"),
    ]
    EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
    """Signals that end the app the way q does (a terminal closing sends SIGHUP); it then
    exits with status 128 plus the signal's number."""
    ALLOW_SELECT = False
    """No text selection: a game has nothing to copy, and Textual 8.2's selection
    start crashes on a mouse-down over a widget being removed (a toast leaving)."""

    class StorageNotice(Message):
        """What the person should know about their data (from the saver's thread): the
        notices that came together, shown as one."""

        def __init__(self, notices: list[Notice]) -> None:
            self.notices = notices
            """The notices; plain text, since they quote paths and file contents."""
            super().__init__()

    class LeftGameFound(Message):
        """An earlier run left a game unfinished, now this app's to offer back."""

        def __init__(self, left: LeftGame) -> None:
            self.left = left
            """The game, and where it is kept."""
            super().__init__()

    class SaveFailed(Message):
        """A save raised an unexpected error (a bug, reported as a crash)."""

        def __init__(self, error: BaseException) -> None:
            self.error = error
            """What it raised."""
            super().__init__()

    def __init__(
        self,
        *,
        settings: Settings | None = None,
        store: Store | None = None,
        difficulty: Difficulty | None = None,
        board: BoardSize | None = None,
        mark: Player | None = None,
        ai_delay: float = 0.0,
        seed: int | None = None,
        searcher: Searcher | None = None,
        bot: BotPlayer | None = None,
        screen_reader: bool | None = None,
        resume: bool = False,
        after_first_frame: Callable[[], None] | None = None,
        puzzles: bool = False,
        tab: ServedTab | None = None,
    ) -> None:
        """Settings come from ``store`` unless given; ``difficulty``, ``board`` and
        ``mark`` override them, as the command line does. ``store`` defaults to one
        that saves nothing, as tests want; ``searcher`` to a `SearchProcess` that
        lives as long as the app. ``bot``, the learner's (started), is offered as a
        level and closed with the app. ``screen_reader``, if given, sets screen-reader
        mode for this run (`ttt-tui --screen-reader`, a served tab's page). With
        ``resume`` the game in play is kept after every change, one left unfinished is
        kept as it is at the end instead of recorded as abandoned, and a game an earlier
        run left is offered back (the terminal's game; a served tab has none of it).
        ``after_first_frame`` is called once the first frame is drawn (the launch's own
        work, `ttt_tui.commands.play`). With ``puzzles`` the puzzles open over the game at
        once (`ttt-tui puzzles`). ``tab`` is a served tab's way to its server's rooms, to
        play a friend (`ttt_tui.screens.friend`); with its ``joining`` the invite its page
        brought is joined at once."""
        super().__init__()
        self.register_theme(HIGH_CONTRAST)
        for name in UNREADABLE_THEMES:
            self.unregister_theme(name)
        self.store = store or Store(enabled=False)
        """Where settings, stats and game records are kept; called only by the saver once
        the app runs."""
        self.saver = Saver(
            self.store,
            report=lambda notices: self.post_message(self.StorageNotice(notices)),
            failed=lambda error: self.post_message(self.SaveFailed(error)),
        )
        """Saves settings and games, and reads the stats, off the event loop."""
        # The store checks the saved theme against the themes there are, so an
        # unknown one is named in a notice rather than silently kept.
        settings = settings or self.store.load_settings(themes=set(self.available_themes))
        if difficulty is not None:
            settings = replace(settings, difficulty=difficulty)
        if mark is not None:
            settings = replace(settings, mark=mark)
        if board is not None:
            settings = replace(settings, board=board)
        if screen_reader is not None:
            settings = replace(settings, screen_reader=screen_reader)
        if settings.theme in self.available_themes:
            self.theme = settings.theme
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        """Seeds every choice the computer makes; `--seed` replays a session."""
        self.crash_report: Path | None = None
        """Where the report of an unexpected error went, if one happened."""
        self.crash_message = ""
        """What to tell the person after an unexpected error, until it is told."""
        self.quitting = False
        """Set by quit: input that arrives after it is ignored, so a key typed
        right after ``q`` cannot open a screen while the app shuts down."""
        self.session = Session(settings, bot_offered=bot is not None)
        """The game in play and the settings in force."""
        self.bot = bot
        """The learner's bot (`ttt-tui --bot`), if one was given."""
        self.searcher = searcher or SearchProcess(on_restart=self._search_restarted)
        """Where the computer's moves and the coach's analyses are worked out."""
        self.resume = resume
        """Whether games in play are kept, and a left one offered back."""
        self._game_screen = GameScreen(
            self.session,
            self.saver,
            ai_delay,
            random.Random(self.seed),
            self.searcher,
            bot,
            keep_in_play=resume,
            tab=tab,
        )
        self._hangup_watch: HangupWatch | None = None
        """Ends the app when its terminal, or its web server, goes without a signal."""
        self._last_resort = LastResort(LAST_RESORT_SECONDS, 128 + signal.SIGHUP)
        """Ends the process outright if it outlives its terminal by that long."""
        self._after_first_frame = after_first_frame
        self._open_puzzles = puzzles
        self.last_words: list[str] = []
        """What to tell the person once the app has gone: notices about the last saves,
        and what could not be saved."""

    def get_css_variables(self) -> dict[str, str]:
        """The theme's CSS variables, and the board's colours made readable in it
        (`ttt_tui.widgets.colours`: ``$board-x``, ``$board-cursor`` ...)."""
        variables = super().get_css_variables()
        return {**variables, **board_colours(variables)}

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for where the app runs, except that in a terminal on Linux or
        macOS it is one that ends cleanly when its terminal hangs up
        (`ttt_tui.compat.driver`)."""
        driver = super().get_driver_class()
        if sys.platform == "win32":
            return driver
        # Imported here: Textual's Linux driver, which ours extends, needs termios.
        from textual.drivers.linux_driver import LinuxDriver

        from ttt_tui.compat.driver import GameDriver

        return GameDriver if driver is LinuxDriver else driver

    def get_default_screen(self) -> Screen[None]:
        return self._game_screen

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        # Back from a suspension, the driver has hidden the cursor again.
        self.app_resume_signal.subscribe(self, lambda _app: self.show_cursor())
        # What the first frame does not need starts once it is drawn: reading the saved
        # files over, and the search process (a search asked for sooner starts it).
        self.call_after_refresh(self._start_behind_first_frame)
        if self._open_puzzles:
            self._game_screen.action_puzzles()
        loop = asyncio.get_running_loop()
        for signum in self.EXIT_SIGNALS:
            # Not where signals cannot be handled (Windows; a loop outside the main thread).
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self._exit_on_signal, signum)
        if not self.is_headless and can_watch() and sys.__stdin__ is not None:
            hung_up = functools.partial(self._hung_up, loop)
            self._hangup_watch = HangupWatch(sys.__stdin__.fileno(), hung_up)
            self._hangup_watch.start()

    def _start_behind_first_frame(self) -> None:
        self.saver.start()
        friends = self._game_screen.friends
        if friends.tab is not None and friends.tab.joining:
            friends.join_brought()
        if self.resume:
            self.saver.claim_left_game().add_done_callback(self._left_game_claimed)
        self.searcher.start()
        if self._after_first_frame is not None:
            self._after_first_frame()

    def _left_game_claimed(self, claimed: Future[LeftGame | None]) -> None:
        """In the saver's thread: a left game found is offered on the event loop."""
        if not claimed.cancelled() and claimed.exception() is None:
            left = claimed.result()
            if left is not None:
                self.post_message(self.LeftGameFound(left))

    @on(LeftGameFound)
    def _left_game_found(self, message: LeftGameFound) -> None:
        if self.quitting:
            self.saver.release_left(message.left)
        else:
            self._game_screen.offer_left(message.left)

    async def on_unmount(self) -> None:
        """Every way out ends here, once: q, the palette's Quit, a browser tab closing or
        its server going, a signal. An unfinished game is kept to be resumed (`resume`)
        or else recorded as abandoned, unless the app is ending on an unexpected error
        (the game may be in any state then; the last one kept is offered next time);
        whatever is still to save is saved, waiting a few seconds at most for another
        ttt-tui to let go of the data directory (`last_words` says what was not)."""
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop = asyncio.get_running_loop()
            for signum in self.EXIT_SIGNALS:
                loop.remove_signal_handler(signum)
        if self._hangup_watch is not None:
            self._hangup_watch.close()
        if self.resume and not self.crashed:
            self.saver.leave_in_play(self.session.snapshot())
        ended = None if self.crashed or self.resume else self.session.close_game()
        if ended is not None:
            self.saver.record(ended)
        await self.searcher.close()
        if self.bot is not None:
            await self.bot.close()
        self.last_words = await asyncio.to_thread(self.saver.close, QUIT_SECONDS)

    def _hung_up(self, loop: asyncio.AbstractEventLoop) -> None:
        """The terminal, or the web server, has gone, with or without a signal
        (`HangupWatch`, in its thread): end as on SIGHUP, writing nothing more, and
        within `LAST_RESORT_SECONDS` whatever holds the event loop up."""
        discard_output()
        self._last_resort.arm()
        loop.call_soon_threadsafe(self._exit_on_signal, signal.SIGHUP)

    def _output_hung_up(self, error: Exception) -> bool:
        """Whether ``error`` is a write to a terminal or web server that has gone: a
        server killed while its game draws (Textual's web driver writes to the pipe
        itself, so the broken pipe comes here) is a hang-up, not a crash."""
        return (
            self._hangup_watch is not None
            and isinstance(error, BrokenPipeError)
            and any(hung_up(fd) for fd in (1, 2))
        )

    def _exit_on_signal(self, signum: int) -> None:
        if signum == signal.SIGHUP:
            self._last_resort.arm()
        if self.quitting:
            return
        self.quitting = True
        self.exit(return_code=128 + signum)

    def show_cursor(self) -> None:
        """Show the terminal's cursor in screen-reader mode (it sits where the focus is,
        for a screen reader or a braille display to follow), or hide it."""
        show_terminal_cursor(self, self.session.settings.screen_reader)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The terminal's cursor goes where the focus went (hidden but in screen-reader
        mode, where a screen reader follows it)."""
        follow_focus(event.widget)

    def _search_restarted(self) -> None:
        self.notify(
            "The search process stopped; a new one has taken over and the game goes on.",
            severity="warning",
        )

    def _theme_changed(self, theme: object) -> None:
        self._game_screen.apply(self.session.set_theme(self.theme))

    def action_save_screenshot(self) -> None:
        """Save a picture of the screen in the current folder, else in a ``screenshots``
        folder in the data directory (made if needed), and say where, or why not; in a
        browser, download it. (Textual's own went to the Downloads folder, and where
        there was none said only "Failed to save screenshot".)"""
        if self.is_web:
            self.deliver_screenshot()
            return
        self._save_screenshot(self.export_screenshot())

    @work(group="screenshot")
    async def _save_screenshot(self, svg: str) -> None:
        folders, passed_over = [], []
        try:
            folders.append(Path.cwd())
        except OSError as error:
            passed_over.append(f"the current folder: {error.strerror}")
        if self.store.directory is not None:
            folders.append(self.store.directory / "screenshots")
        try:
            saved = await asyncio.to_thread(save_picture, svg, ".svg", folders, datetime.now())
        except NotSaved as error:
            reasons = "; ".join([*passed_over, str(error)])
            self.notify(f"Not saved: {reasons}", title="Screenshot", severity="error", markup=False)
            return
        why = "".join(f" ({reason})" for reason in [*passed_over, *saved.passed_over])
        self.notify(f"Saved {saved.path}{why}", title="Screenshot", markup=False)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A notification: a toast, except in screen-reader mode, where it is said on the
        game's announcement line (the one line a screen reader follows) and no toast is
        drawn over it; there a toast shows only on a screen without that line (the
        explorer, the review, the stats)."""
        if not (self.session.settings.screen_reader and self._game_screen.is_mounted):
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # from a thread: the widgets are the event loop's
            self.call_later(
                self.notify, message, title=title, severity=severity, timeout=timeout, markup=markup
            )
            return
        plain = Content.from_markup(message).plain if markup else message
        self._game_screen.announce(f"{title}: {plain}" if title else plain)
        if self.screen is not self._game_screen and not isinstance(self.screen, ModalScreen):
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    @on(StorageNotice)
    def _storage_notice(self, message: StorageNotice) -> None:
        """One notification for the notices that came together (a launch's several would
        each have covered the sidebar for seconds), titled for what happened."""
        notices = message.notices
        title = " · ".join(dict.fromkeys(notice.title for notice in notices))
        text = "\n".join(notice.text for notice in notices)
        warning = any(notice.warning for notice in notices)
        severity: SeverityLevel = "warning" if warning else "information"
        self.notify(text, title=title, severity=severity, timeout=8, markup=False)

    @on(SaveFailed)
    def _save_failed(self, message: SaveFailed) -> None:
        raise message.error

    def unexpected_error(self, error: Exception) -> bool:
        """Write a crash report, for the one short message the command prints once the
        terminal is back (`crash_message`); a write to a terminal or web server that has
        gone ends the app as the hang-up it is."""
        if self._output_hung_up(error):
            discard_output()
            self._exit_on_signal(signal.SIGHUP)
            return True
        details = {"seed": self.seed, **self.session.crash_details()}
        self.crash_report = crash.write_report(self.store.directory, error, details)
        self.crash_message = crash.crash_message(self.crash_report, error)
        return False

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Leave the app. After an unexpected error the exit status stays 1, even when a
        quit that was already queued (a key typed with the crashing one) asks for 0."""
        if self.crashed:
            return_code = max(return_code, 1)
        super().exit(result, return_code, message)

    @property
    def crashed(self) -> bool:
        """Whether an unexpected error is ending the app."""
        return bool(self.crash_message) or self.crash_report is not None

    async def action_quit(self) -> None:
        """Leave; an unfinished game is recorded as abandoned on the way out (`on_unmount`)."""
        if self.quitting:
            return
        self.quitting = True
        self.exit()

    def action_help_quit(self) -> None:
        """ctrl+c: say how to quit. Textual names its own ctrl+q; the footer's q quits
        too, except on a dialog, where it closes the dialog."""
        q = self.active_bindings.get("q")
        key = "q" if q is not None and q.binding.action in ("quit", "app.quit") else "^q"
        self.notify(f"Press [b]{key}[/b] to quit the app", title="Do you want to quit?")

    async def on_event(self, event: events.Event) -> None:
        """Drop keys and mouse events once quitting: nothing they do would be seen; take
        an alt+letter, or Escape and a digit read as one key, as the Escape and the key a
        person typed (`escape_then`); close the command palette as its Escape arrives
        (`GamePalette.escape`), so that the keys behind it reach the screen beneath."""
        if self.quitting and isinstance(event, events.InputEvent):
            return
        if isinstance(event, events.Key) and not event.is_forwarded:
            typed = escape_then(event.key, event.character)
            if typed is not None:
                await self.on_event(events.Key("escape", "\x1b"))
                await self.on_event(events.Key(typed, typed))
                return
            if event.key == "escape" and isinstance(self.screen, GamePalette):
                # Closed now, not once the Escape has been through it: a q right
                # behind it would be typed into it, and the game would not quit.
                self.screen.escape()
                return
            if self._quits(event):
                await self.action_quit()
                return
        await super().on_event(event)

    def _quits(self, key: events.Key) -> bool:
        """Whether ``key`` is the quit key where it arrives: bound to quit, and not taken
        by the focused widget (the move box takes a typed q).

        Decided as it arrives, not once the focused widget has it: a key that comes
        with it in one read and moves the focus (``:`` opens the move box at once, so
        that ``:c3`` is c3) would otherwise hand the q to the move box, and ``q:`` did
        not quit.
        """
        if key.key != "q":  # the app's quit key (BINDINGS); every other key goes its way
            return False
        active = self.active_bindings.get(key.key)
        if active is None or active.binding.action not in ("quit", "app.quit"):
            return False
        focused = self.focused
        return focused is None or not focused.check_consume_key(key.key, key.character)

    def action_command_palette(self) -> None:
        """Show the command palette (made safe against racing input, see `GamePalette`),
        unless the terminal is below the minimum size, where Textual 8.2's palette
        crashes laying itself out a few columns wide."""
        open_already = isinstance(self.screen, CommandPalette)
        if self.use_command_palette and not open_already and not is_too_small(*self.size):
            # No id (Textual gives its own "--command-palette"): a palette opened
            # while the last one is still being removed would clash with it.
            self.push_screen(GamePalette())

    def search_themes(self) -> None:
        """Textual's theme picker (the palette's Theme command), in the game's palette:
        Textual's own closed twice on a double click and popped the game screen (the
        real-terminal fuzz found it); and, like the palette, not below the minimum size."""
        if not is_too_small(*self.size):
            self.push_screen(
                GamePalette(providers=[ThemeProvider], placeholder="Search for themes…")
            )

    def on_resize(self, event: Resize) -> None:
        """Close the command palette if the terminal shrinks below the minimum (where it
        cannot lay itself out)."""
        if is_too_small(*event.size) and isinstance(self.screen, CommandPalette):
            self.pop_screen()

    def action_help(self) -> None:
        """Show the rules and bindings."""
        from ttt_tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(BoardView, GameScreen, app=type(self)))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's commands and the game's, none of which runs once the app is quitting.

        The palette runs a chosen command after it has closed (`call_later`), so a
        quit typed right behind the choice got in first, and the command then
        worked on a game screen that was already gone (a crash the real-terminal
        fuzz found, with Textual's own Keys command).
        """
        for command in self._commands(screen):
            yield command._replace(callback=self._unless_quitting(command.callback))

    def _unless_quitting(self, callback: CommandCallback) -> CommandCallback:
        async def run() -> None:
            if not self.quitting:
                result = callback()
                if inspect.isawaitable(result):
                    await result

        return run

    def _commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        # Loaded when first needed, as the screens they open are: not before the first frame.
        from ttt_tui.screens.explorer import ExplorerScreen
        from ttt_tui.screens.review import ReviewScreen

        own_help = isinstance(screen, ExplorerScreen | ReviewScreen)
        online = screen is self._game_screen.over.online_screen
        help_ = (
            screen.action_help
            if isinstance(screen, ExplorerScreen | ReviewScreen)
            else self.action_help
        )
        for command in super().get_system_commands(screen):
            if command.title == "Screenshot":
                yield command._replace(
                    help="Save a picture of the screen (SVG) in the current folder",
                    callback=self.action_save_screenshot,
                )
                continue
            if command.callback == screen.action_maximize:
                # Nothing here is meant to fill the screen alone; the board maximized
                # hid the status and the game's keys behind a hatching.
                continue
            if command.callback in (self.action_show_help_panel, self.action_hide_help_panel):
                # Textual's keys panel, docked beside the game, squeezed it below its
                # minimum width (the footer cut, the title shortened) and named keys
                # without saying what they do; the help lists every key, described.
                yield SystemCommand("Keys", "Every key and what it does (?)", help_)
                continue
            yield command
        if own_help or online:
            return  # the game waits under the explorer, the review and an online game
        game, session = self._game_screen, self.session
        yield SystemCommand("New game", "Start a new game", game.action_new_game)
        mode = session.game.mode
        for level in session.levels if mode is Mode.HUMAN_VS_AI else ():
            yield SystemCommand(
                f"Difficulty: {level_name(level)}",
                _plays_at(level),
                lambda d=level: game.apply(session.set_difficulty(d)),
            )
        for side in Player if mode is Mode.AI_VS_AI else ():
            for level in session.levels:
                yield SystemCommand(
                    f"{side.value} engine: {level_name(level)}",
                    _plays_at(level, side),
                    lambda d=level, p=side: game.apply(session.set_difficulty(d, p)),
                )
        for mode in PLAYABLE_MODES:
            yield SystemCommand(
                f"Mode: {MODE_LABELS[mode].long}",
                "Starts a new game",
                lambda m=mode: game.new_game.mode(m),
            )
        for board in BoardSize:
            yield SystemCommand(
                f"Board: {board.rule}",
                "Starts a new game",
                lambda n=board.n: game.action_board(n),
            )
        if session.game.mode is Mode.AI_VS_AI:
            ai_vs_ai = MODE_LABELS[Mode.AI_VS_AI].long
            if session.paused:
                yield SystemCommand("Resume", f"{ai_vs_ai} plays on (p)", game.action_pause)
            else:
                yield SystemCommand(
                    "Pause", f"Stop {ai_vs_ai} after this move (p)", game.action_pause
                )
        else:
            yield SystemCommand("Undo", "Back to your previous turn (u)", game.action_undo)
            yield SystemCommand("Redo", "Replay what undo took back (r)", game.action_redo)
            yield SystemCommand("Hint", "Highlight the best moves (i)", game.action_hint)
        if session.game.mode is Mode.HUMAN_VS_AI:
            for mark in Player:
                yield SystemCommand(
                    f"Play as {mark.value}",
                    "X moves first; starts a new game",
                    lambda m=mark: game.new_game.mark(m),
                )
        yield SystemCommand("Coach on/off", "Show minimax's verdicts (c)", game.action_toggle_coach)
        yield SystemCommand(
            "Screen-reader mode on/off",
            "The terminal's cursor on what has the focus; every event said in one line",
            game.action_toggle_screen_reader,
        )
        yield SystemCommand(
            "Move box",
            "Type a square by name (b2) or a command (board, threats, undo) (:)",
            game.action_move_box,
        )
        yield SystemCommand("Stats", "All-time results", game.action_stats)
        yield SystemCommand(
            "Play a friend",
            "A room for a friend, with invites to play and to watch (f)",
            game.action_play_friend,
        )
        yield SystemCommand(
            "Join a friend's game",
            "Play or watch with your friend's invite",
            game.action_join_friend,
        )
        yield SystemCommand(
            "Explorer", "See minimax think about this position (e)", game.action_explore
        )
        yield SystemCommand(
            "Puzzles",
            "Find the only move, proven by the engine; a rating and streaks",
            game.action_puzzles,
        )
        if session.game.is_over:
            yield SystemCommand(
                "Review",
                "Every move of this game graded, and where it turned (v)",
                game.action_review,
            )
        yield SystemCommand("Help", "The rules and every key", self.action_help)
