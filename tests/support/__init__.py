"""Helpers shared by the Pilot and snapshot tests: scripted computers, one way to build
the app, Pilot steps that wait for the computer, and readers of what is on screen.

What only one test file needs stays in that file.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import textual._wait
from rich.style import Style
from textual import events
from textual.app import App
from textual.drivers._writer_thread import MAX_QUEUED_WRITES as MAX_QUEUED_WRITES
from textual.drivers._writer_thread import WriterThread as WriterThread
from textual.geometry import Offset
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets._toast import Toast as Toast
from textual.worker import WorkerCancelled, WorkerState

from ttt_tui.app import TicTacToeApp
from ttt_tui.engine import (
    Analysis,
    Board,
    CancelCheck,
    Cell,
    Difficulty,
    Player,
    SearchCancelled,
    analyze,
    choose_move,
)
from ttt_tui.play.session import Changed, Session
from ttt_tui.play.settings import Level, Settings
from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.screens.game import GameScreen
from ttt_tui.search.client import Analyzer, MoveChooser, Searcher, ThreadSearcher
from ttt_tui.storage import DATABASE_FILE, GameRecord, Store
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.footer import FooterItem, GameFooter
from ttt_tui.widgets.square import SquareLook, background
from ttt_tui.widgets.status import StatusLine

SIZE = (100, 30)
"""Terminal size for every test unless it is about size."""

RunBefore = Callable[[Pilot[None]], Awaitable[None]]
"""What `snap_compare` runs before it takes the shot."""

# The computer ----------------------------------------------------------------


@dataclass(eq=False)
class Call:
    """One call of a scripted computer: what it was asked and what became of it."""

    board: Board
    difficulty: Difficulty
    gate: threading.Event = field(default_factory=threading.Event)
    """Set to let this call return its move (a `GatedAI`'s calls wait for it)."""
    saw_cancel: threading.Event = field(default_factory=threading.Event)
    """Set when the call noticed it was cancelled and gave up."""
    result: Cell | None = None
    """The move it returned, if it returned one."""


class ScriptedAI:
    """Plays the first free square of its script and records who asked at what level."""

    def __init__(self, *script: Cell) -> None:
        self.script = list(script)
        """Squares in order of preference; any free square after them."""
        self.calls: list[tuple[Player, Difficulty]] = []
        """The side to move and the difficulty of each call, in order."""
        self.asked: list[Call] = []
        """Each call in full, in order: its board, its gate, and its result."""
        self._lock = threading.Condition()

    @property
    def difficulties(self) -> list[Difficulty]:
        """The difficulty of each call, in order."""
        return [difficulty for _, difficulty in self.calls]

    def pick(self, board: Board) -> Cell:
        """The first free square of the script, else the first free square."""
        return next(c for c in self.script + list(range(board.size)) if board[c] is None)

    def wait_calls(self, count: int) -> bool:
        """Block (in a thread) until at least ``count`` calls have begun."""
        with self._lock:
            return self._lock.wait_for(lambda: len(self.calls) >= count, timeout=10)

    async def next_call(self, count: int) -> Call:
        """Wait, without blocking the app's loop, for the ``count``-th call; that call."""
        await calls_begun(self, count)
        return self.asked[count - 1]

    def _begun(self, call: Call) -> None:
        """Called under the lock as a call is recorded (`GatedAI` opens its gate here)."""
        call.gate.set()

    def __call__(
        self,
        board: Board,
        difficulty: Difficulty,
        rng: random.Random,
        cancelled: CancelCheck | None = None,
    ) -> Cell:
        call = Call(board, difficulty)
        with self._lock:
            self.calls.append((board.to_move, difficulty))
            self.asked.append(call)
            self._begun(call)
            self._lock.notify_all()
        self._wait(call, cancelled)
        call.result = self.pick(board)
        return call.result

    def _wait(self, call: Call, cancelled: CancelCheck | None) -> None:
        """Wait in the worker thread until the call's gate opens, giving up if cancelled
        (unless `stubborn`); for at most `HOLD_SECONDS`, so a failing test cannot hang."""
        deadline = time.monotonic() + HOLD_SECONDS
        while not call.gate.wait(0.002):
            if not self.stubborn and cancelled is not None and cancelled():
                call.saw_cancel.set()
                raise SearchCancelled
            if time.monotonic() > deadline:
                raise AssertionError("the test never let the computer move")

    stubborn = False
    """Whether the chooser ignores cancellation."""


HOLD_SECONDS = 30.0
"""The longest a held computer waits for the test to let it move."""


class GatedAI(ScriptedAI):
    """A scripted computer whose every move waits until the test lets it through: the
    next moves by count (`allow`), every move from now on (`release_all`, until `hold`),
    or one call by its gate (``ai.asked[i].gate.set()``).

    ``stubborn`` choosers ignore cancellation and return their move anyway once let
    go, the worst case for a result that arrives too late.
    """

    def __init__(self, *script: Cell, stubborn: bool = False) -> None:
        super().__init__(*script)
        self.stubborn = stubborn
        self._allowed = 0
        """Moves let through ahead of the calls that will use them."""
        self._released = False

    def _begun(self, call: Call) -> None:
        if self._released or self._allowed:
            self._allowed -= not self._released
            call.gate.set()

    def allow(self, moves: int = 100) -> None:
        """Let this many more moves through: calls waiting first, then calls to come."""
        with self._lock:
            for call in self.asked:
                if moves and not (call.gate.is_set() or call.saw_cancel.is_set()):
                    call.gate.set()
                    moves -= 1
            self._allowed += moves

    def release_all(self) -> None:
        """Let every call, waiting or still to come, return at once (until `hold`)."""
        with self._lock:
            self._released = True
            for call in self.asked:
                call.gate.set()

    def hold(self) -> None:
        """Make calls from now on wait again, with nothing let through ahead of them."""
        with self._lock:
            self._released = False
            self._allowed = 0


async def calls_begun(ai: ScriptedAI, count: int) -> None:
    """Wait, without blocking the app's loop, until the chooser has been called ``count`` times."""
    assert await asyncio.to_thread(ai.wait_calls, count), f"fewer than {count} calls"


# The app ---------------------------------------------------------------------


def make_app(
    chooser: MoveChooser = choose_move,
    settings: Settings | None = None,
    analyzer: Analyzer = analyze,
    *,
    seed: int = 7,
    searcher: Searcher | None = None,
    search_process: bool = False,
    **options: Any,
) -> TicTacToeApp:
    """The real app with no thinking delay, no animations, seed 7 and a store that
    saves nothing.

    The real engine plays and coaches unless ``chooser`` or ``analyzer`` stand in
    for it, in a thread (a search process a test apiece would cost more than
    most tests); a test gives its own ``searcher``, or asks for the app's own
    ``search_process`` as the game has it. ``options`` go to `TicTacToeApp` as they
    are (``store``, ``difficulty``, ``board``, ``mark`` ...).

    Animations (a tab's sliding underline, a scroll) draw nothing a test checks
    that their last frame does not, and `Pilot.press` waits for each to end: a tab
    switched by a key cost 0.4 s.
    """
    if not search_process:
        searcher = searcher or ThreadSearcher(chooser, analyzer)
    app = TicTacToeApp(settings=settings, ai_delay=0, seed=seed, searcher=searcher, **options)
    app.animation_level = "none"
    return app


@dataclass(frozen=True)
class Notice:
    """One notification as the app asked for it."""

    title: str
    message: str
    severity: str


class Notes:
    """Records every notification the app raises, and still shows it."""

    def __init__(self, app: TicTacToeApp) -> None:
        self.notices: list[Notice] = []
        """Every notification so far, oldest first."""
        original = app.notify

        def notify(message: str, **options: Any) -> None:
            title = options.get("title", "")
            self.notices.append(Notice(title, message, options.get("severity", "information")))
            original(message, **options)

        app.notify = notify  # type: ignore[method-assign]

    @property
    def messages(self) -> list[str]:
        """The text of every notification so far."""
        return [notice.message for notice in self.notices]

    def since(self, count: int) -> list[str]:
        """Messages after the first ``count``."""
        return self.messages[count:]


# Driving it with Pilot -------------------------------------------------------


async def settle(pilot: Pilot[None]) -> None:
    """Let every worker finish and every message it posted land, including chains of them.

    The turn a move starts cancels the worker that sent it, often before that
    worker has finished, so a cancelled worker is expected here, not an error.
    """
    app = pilot.app
    for _ in range(30):
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers):
            return
    raise AssertionError("workers kept starting")


async def until(
    pilot: Pilot[None], condition: Callable[[], bool], what: str, seconds: float = 10
) -> None:
    """Pause until ``condition`` holds, or fail naming ``what`` after ``seconds``.

    For what Textual does in several hops, each a message or a timer: a resize
    (debounced, then passed to the screens), a footer rebuilt after its bindings
    changed, a toast mounted and laid out. One `pilot.pause` waits for the messages
    queued when it began, so how many pauses the hops take depends on the machine's
    load, not on the app: counting pauses fails on a busy machine, waiting for the
    condition does not, and a condition that never holds still fails.
    """
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not so after {seconds} s")
        await pilot.pause()


async def resize(pilot: Pilot[None], width: int, height: int) -> None:
    """Resize the terminal and wait until every screen has handled it and been laid out.

    `Pilot.resize_terminal` returns after one pause, but the app passes a resize on
    to its screens from a timer (`resize_pending`); on a loaded machine the pause
    can end first, and the screen still shows the old size.
    """
    await pilot.resize_terminal(width, height)
    await until(pilot, lambda: not resize_pending(pilot.app), "the resize reached the screens")
    await pilot.pause()


async def start(pilot: Pilot[None]) -> GameScreen:
    """First layout (before it every region is 0x0), then the game screen."""
    await pilot.pause()
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def start_blocked(pilot: Pilot[None], ai: ScriptedAI) -> GameScreen:
    """First layout of a game whose computer is held at its first move."""
    await pilot.pause()
    await calls_begun(ai, 1)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def play(pilot: Pilot[None], *keys: str) -> None:
    """Press keys one at a time, letting the computer (and the coach) finish after each."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def agree_to_a_new_game(pilot: Pilot[None]) -> None:
    """Answer yes to "Start a new game? This one will be recorded as abandoned." if the
    last choice asked it (a board, mode or mark chosen in the middle of a game)."""
    await pilot.pause()
    if isinstance(pilot.app.screen, ConfirmScreen):
        await pilot.press("y")
        await pilot.pause()


def playing(*keys: str) -> RunBefore:
    """A ``run_before`` that lays out, then presses keys, letting everything finish after each."""

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await settle(pilot)
        await play(pilot, *keys)

    return run_before


def playing_quietly(*keys: str) -> RunBefore:
    """`playing`, then the notifications taken down: they time out on the clock."""

    async def run_before(pilot: Pilot[None]) -> None:
        await playing(*keys)(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run_before


def from_the_driver(
    kind: type[events.MouseEvent], at: Offset, button: int = 1
) -> events.MouseEvent:
    """A mouse event at a screen cell as the terminal driver posts it: to the app, which
    makes a `Click` of a release over the widget that had the press."""
    x, y = at
    held = button if kind is not events.MouseMove else 0
    return kind(None, x, y, 0, 0, held, False, False, False, screen_x=x, screen_y=y)


async def drag(pilot: Pilot[None], button: int, *path: Offset) -> None:
    """Press at the first offset, move through the others, release at the last."""
    app = pilot.app
    app.post_message(from_the_driver(events.MouseDown, path[0], button))
    for at in path[1:]:
        app.post_message(from_the_driver(events.MouseMove, at, button))
    app.post_message(from_the_driver(events.MouseUp, path[-1], button))
    await pilot.pause()
    await pilot.pause()


async def click_option(pilot: Pilot[None], selector: str, label: str, button: int = 1) -> None:
    """Click the middle of an option of a segmented control, found by its label."""
    choice = pilot.app.screen.query_one(selector, Choice)
    offset = option_middle(choice, label) - choice.region.offset
    assert await pilot.click(selector, offset=offset, button=button)


def option_middle(choice: Choice[Any], label: str) -> Offset:
    """The screen cell in the middle of an option of a segmented control."""
    labels = [shown for _, shown in choice.options]
    region = choice.option_region(labels.index(label)).translate(choice.content_region.offset)
    return Offset(region.x + region.width // 2, region.y)


# Reading the screen ----------------------------------------------------------


def marks(screen: GameScreen) -> str:
    """The board in the model, as nine characters: ``X.O......``."""
    return str(screen.session.game.board)


def board_view(pilot: Pilot[None]) -> BoardView:
    """The board on the screen in front."""
    return pilot.app.screen.query_one(BoardView)


def looks(pilot: Pilot[None]) -> tuple[SquareLook, ...]:
    """What each square shows, in cell order."""
    return board_view(pilot).looks


def shown_marks(pilot: Pilot[None]) -> str:
    """The board as the squares show it, in the same nine-character form."""
    return "".join("." if look.mark is None else look.mark.value for look in looks(pilot))


def square_offset(pilot: Pilot[None], cell: Cell) -> tuple[int, int]:
    """The middle of a square, as an offset from the board widget's top-left corner."""
    board = board_view(pilot)
    region = board.square_region(cell).translate(board.content_offset)
    return region.x + region.width // 2, region.y + region.height // 2


async def click_square(pilot: Pilot[None], cell: Cell, button: int = 1) -> bool:
    """Click the middle of a square, as a person would; False if it is not on screen."""
    return await pilot.click(BoardView, offset=square_offset(pilot, cell), button=button)


def selected(pilot: Pilot[None], selector: str) -> str:
    """The label drawn as selected in a segmented control."""
    choice = pilot.app.screen.query_one(selector, Choice)
    text = choice.render()
    style = choice.get_component_rich_style("choice--selected")
    return next(text.plain[s.start : s.end].strip() for s in text.spans if s.style == style)


class StaleWatch:
    """Counts search results the session dropped because the game had moved on."""

    def __init__(self, session: Session) -> None:
        self.count = 0
        """Moves and analyses dropped as stale since the watch began."""
        apply_move, apply_analysis = session.apply_move, session.apply_analysis

        def move(token: int, cell: Cell, level: Level) -> Changed | None:
            return self._count(apply_move(token, cell, level))

        def analysis(token: int, result: Analysis) -> Changed | None:
            return self._count(apply_analysis(token, result))

        session.apply_move = move  # type: ignore[method-assign]
        session.apply_analysis = analysis  # type: ignore[method-assign,assignment]

    def _count(self, outcome: Changed | None) -> Changed | None:
        self.count += outcome is None
        return outcome


PAINTED = {
    "-cursor": {"board--cursor", "board--cursor-hint"},
    "-win": {"board--line", "board--line-lost"},
    "-lost": {"board--line-lost"},
    "-hint": {"board--hint", "board--cursor-hint"},
}
"""The backgrounds that show a square as under the cursor, on the winning line, on the
line of the person's loss, or hinted."""


def cells_with(pilot: Pilot[None], shown: str) -> set[int]:
    """Indexes of the squares painted as ``-cursor``, ``-win``, ``-lost`` or ``-hint``."""
    return {cell for cell, look in enumerate(looks(pilot)) if background(look) in PAINTED[shown]}


def hinted(pilot: Pilot[None]) -> set[int]:
    """Squares a hint highlights."""
    return cells_with(pilot, "-hint")


def cell_look(style: Style, blank: bool = False) -> tuple[object, ...]:
    """What a cell drawn with ``style`` shows: its background, and unless the cell is
    ``blank``, its colour, bold and dim (the look the tests compare with Textual's own
    widgets, cell by cell)."""
    return (style.bgcolor,) if blank else (style.color, style.bgcolor, style.bold, style.dim)


def status(pilot: Pilot[None]) -> StatusLine:
    """The status line in the sidebar."""
    return pilot.app.screen.query_one("#status", StatusLine)


def score_total(screen: GameScreen) -> int:
    """Games counted in the sidebar's score line, as drawn ("Wins 0 · Draws 1 · Losses 0")."""
    counts = str(screen.query_one("#score").render()).splitlines()[-1]
    return sum(int(n) for n in re.findall(r"\d+", counts))


async def footer_keys(pilot: Pilot[None]) -> list[str]:
    """The footer's keys as shown, e.g. ``n New``, less the command palette's, once
    the footer has caught up with the screen's bindings (it rebuilds after a refresh,
    a few hops later: however many pauses that takes on a loaded machine)."""
    screen = pilot.app.screen

    def wanted() -> list[tuple[str, bool]]:
        by_action: dict[str, tuple[str, bool]] = {}
        for key, active in screen.active_bindings.items():
            if active.binding.show and key != pilot.app.COMMAND_PALETTE_BINDING:
                by_action.setdefault(
                    active.binding.action, (active.binding.description, active.enabled)
                )
        return list(by_action.values())

    def shown() -> list[FooterItem]:
        return [item for item in screen.query_one(GameFooter).items if not item.palette]

    def caught_up() -> bool:
        return [(item.description, item.enabled) for item in shown()] == wanted()

    await until(pilot, caught_up, f"the footer shows {wanted()}")
    return [f"{item.key_display} {item.description}" for item in shown()]


# Playing a whole game ------------------------------------------------------------


async def play_a_game(pilot: Pilot[None], screen: GameScreen) -> None:
    """Press the digit of the first free square until the game ends, as a person could."""
    for _ in range(9):
        if screen.session.game.is_over:
            return
        free = next(cell for cell in range(9) if screen.session.game.board[cell] is None)
        await pilot.press(str(free + 1))
        assert pilot.app.is_running, "the app stopped in the middle of a game"
        await settle(pilot)
    assert screen.session.game.is_over, str(screen.session.game.board)


# Input as a real terminal delivers it ------------------------------------------------


def key(name: str) -> events.Key:
    """A key as the driver posts it."""
    return events.Key(name, name if len(name) == 1 else None)


def press_and_release(x: int, y: int) -> list[events.Event]:
    """A left click as the driver delivers it: a press, then a release."""
    return [from_the_driver(kind, Offset(x, y)) for kind in (events.MouseDown, events.MouseUp)]


async def race(pilot: Pilot[None], *burst: events.Event) -> None:
    """Post events as one read of a real terminal delivers them: all before any is handled."""
    for event in burst:
        pilot.app.post_message(event)
    await pilot.pause()
    await pilot.pause()


# What is on disk ------------------------------------------------------------------


def records(directory: Path) -> list[dict[str, Any]]:
    """The game records in ``directory``'s database, oldest first, as the JSON objects
    ``games export`` writes (none without a database)."""
    path = directory / DATABASE_FILE
    if not path.exists():
        return []
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT record FROM games ORDER BY id").fetchall()
    finally:
        db.close()
    return [json.loads(text) for (text,) in rows]


def stored(store: Store) -> list[GameRecord]:
    """Every game ``store`` holds, oldest first; each must be readable."""
    games = [record for _, record in store.iter_games()]
    readable = [record for record in games if isinstance(record, GameRecord)]
    assert readable == games, games
    return readable


def games_in_play(directory: Path) -> list[tuple[str, str | None]]:
    """The games in play kept in ``directory``'s database: each one's state (JSON) and
    owner (None once left), oldest first."""
    path = directory / DATABASE_FILE
    if not path.exists():
        return []
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return db.execute("SELECT state, owner FROM games_in_play ORDER BY id").fetchall()
    finally:
        db.close()


def left_games(directory: Path) -> list[dict[str, Any]]:
    """The games in play that their app left unfinished, to be offered back, as JSON."""
    return [json.loads(state) for state, owner in games_in_play(directory) if owner is None]


# Another ttt-tui ------------------------------------------------------------------

HOLD_LOCK = """
import sys
from pathlib import Path
from ttt_tui.storage.database import DATABASE_FILE, connect
db = connect(Path(sys.argv[1]) / DATABASE_FILE, None)
db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()
"""


class LockHolder:
    """Another process holding a data directory's database for writing, as another
    ttt-tui saving or a stuck one would, until `release` (or the end of the ``with``
    block)."""

    def __init__(self, directory: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLD_LOCK, str(directory)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline() == "held\n", "the lock holder did not start"

    @property
    def holding(self) -> bool:
        """Whether it still holds the lock."""
        return self.process.poll() is None

    def release(self) -> None:
        """Let go of the lock, and end."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait(10)

    def __enter__(self) -> LockHolder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


# Textual internals the tests truly need, each wrapped once here ------------------

# Imported above for the tests, as ``textual.widgets`` does not export it: `Toast`,
# a notification on screen.


def app_exception(app: TicTacToeApp) -> BaseException | None:
    """The unexpected error the app has caught, if any.

    Textual keeps it private (``App._exception``) and raises it only when
    ``run_test`` ends; the fuzz test looks after every event, so that it can
    name the event that caused it.
    """
    return app._exception


def look_for_idle_every(seconds: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make Pilot look whether the app is idle every ``seconds`` (Textual's own: 0.02).

    Textual has no setting for it, only the constants of ``textual._wait``; the
    fuzz test shortens the look to send more events while the computer thinks.
    """
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", seconds)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", seconds / 4)


def resize_pending(app: App[Any]) -> bool:
    """Whether a resize has reached the app but not yet its screens.

    Textual passes a resize on once the app is idle (``App._resize_event``, private),
    from 8.2.3 after a short debounce too (``App._resize_timer``, private, absent
    before); `resize` waits for it, and the fuzz test checks the "too small" message
    only once the resize has landed.
    """
    timer = getattr(app, "_resize_timer", None)
    return timer is not None or app._resize_event is not None


def drawn_strips(app: App[Any]) -> list[Strip]:
    """What the screen shows now, line by line, with its colours: the top screen drawn in
    full, with whatever it shows of the screens under it, as it would go to the terminal.

    Textual's screenshot (``export_screenshot``) draws the same, but as SVG; the
    compositor's own strips (``Screen._compositor``, private) are its segments.
    """
    return app.screen._compositor.render_strips()


def drawn_text(app: App[Any]) -> str:
    """What the screen shows now, as lines of text (`drawn_strips`)."""
    return "\n".join("".join(segment.text for segment in strip) for strip in drawn_strips(app))
