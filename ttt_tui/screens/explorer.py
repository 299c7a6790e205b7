"""The explorer: see minimax think about a position, over the game, which waits for it.

The screen turns keys, clicks and the tree's messages into `Explorer` calls,
has the searches the model wants run in the app's searcher (a process of its
own, so the interface never waits), and pushes the model's view down to the
tree, the board and the tabs. Its workers only await the searcher and post
what it found; they never touch a widget.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Static, TabbedContent, TabPane
from textual.worker import Worker

from ttt_tui.engine import Analysis, Board, Progress, SearchCancelled
from ttt_tui.engine.minimax import Count, CountProgress, Search
from ttt_tui.play.settings import BoardSize
from ttt_tui.screens.base import BaseScreen
from ttt_tui.search.client import Searcher
from ttt_tui.teach.explorer import Explorer, Tab
from ttt_tui.widgets.best_line import BestLine
from ttt_tui.widgets.board import GUTTER, BoardView
from ttt_tui.widgets.explain_text import ExplainText
from ttt_tui.widgets.explorer_board import ExplorerBoard
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.move_tree import MoveTree, Path
from ttt_tui.widgets.relayout import relayout_if_resized
from ttt_tui.widgets.search_counts import SearchCounts
from ttt_tui.widgets.title_bar import TitleBar

MIN_WIDTH, MIN_HEIGHT = 80, 24
HEADING = 2
"""Lines kept under the board for the position's heading."""
TABS_ROOM = 10
"""Lines the tabs keep (their bar and eight lines of text) where the board grows."""
"""The smallest terminal the explorer lays out in."""

FETCH, COUNTS = "explorer-fetch", "explorer-counts"
"""Worker groups: analyses (for the tree and the tabs), and the Search tab's counts."""

RULES = (
    "The explorer shows the game tree of the position you opened it on: each move with"
    " its exact value under perfect play, the best ones starred. Open a move (Enter) to"
    " see the replies; selecting one shows its position on the board.\n\n"
    "Why: the reason for the selected move's value, in words (forks, blocks, forced moves)."
    " Best line: perfect play from both sides, a move at a time. Search: how many positions"
    " plain minimax, alpha-beta and the engine visit to find the value. Alpha-beta: the"
    " search itself, step by step, with alpha, beta and every cut explained. Guarantee:"
    " every reply to Hard's move, none of them worse for Hard than promised.\n\n"
    "The game waits, exactly as it was, until you go back to it."
)
"""The explorer's help, above its keys."""

STEP_TIP = "step the best line or the alpha-beta walk back / forward"
CUT_TIP = "alpha-beta walk: back to the previous cut / on to the next"


class ExplorerScreen(BaseScreen[None]):
    """The game tree of a position, a small board, and five tabs that explain it.

    Opened from the game (``e``, or the palette) on the position in play;
    Escape (or ``e``) goes back to the game, which has waited as it was.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,e", "close", "Game", key_display="esc", tooltip="back to the game"),
        *(
            Binding(key, f"tab('{tab.value}')", tab.label, show=False, tooltip=f"{tip} tab")
            for key, tab, tip in (
                ("w", Tab.WHY, "the Why"),
                ("b", Tab.LINE, "the Best line"),
                ("s", Tab.SEARCH, "the Search"),
                ("a", Tab.WALK, "the Alpha-beta"),
                ("g", Tab.GUARANTEE, "the Guarantee"),
            )
        ),
        Binding("comma", "step(False)", "Back", key_display=",", tooltip=STEP_TIP),
        Binding("full_stop", "step(True)", "Step", key_display=".", tooltip=STEP_TIP),
        Binding(
            "left_square_bracket",
            "jump(False)",
            "Cut",
            key_display="[",
            show=False,
            tooltip=CUT_TIP,
        ),
        Binding("right_square_bracket", "jump(True)", "Cut", key_display="]", tooltip=CUT_TIP),
        Binding("x", "toggle_counting", "Stop count", tooltip="stop counting, or count again"),
        Binding("x", "count_again", "Count again", tooltip="stop counting, or count again"),
        # The same keys on the other tabs, out of the footer: they say where they work
        # (and x shows the Search tab).
        Binding("comma,full_stop", "step_elsewhere", show=False),
        Binding("left_square_bracket,right_square_bracket", "jump_elsewhere", show=False),
        Binding("x", "count_elsewhere", show=False),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]
    AUTO_FOCUS = ""
    """The screen gives the tree the focus itself, and only while the tree is shown
    (its keys must do nothing behind the "too small" message)."""
    TOO_SMALL_ACTIONS: ClassVar[frozenset[str]] = frozenset({"close", "help"})
    """The explorer's keys that work while the terminal is too small: the rest act on
    the tree and the tabs, which are hidden."""
    TAB_ACTIONS: ClassVar[dict[str, frozenset[Tab]]] = {
        "step": frozenset({Tab.LINE, Tab.WALK}),
        "jump": frozenset({Tab.WALK}),
        "toggle_counting": frozenset({Tab.SEARCH}),
        "count_again": frozenset({Tab.SEARCH}),
        "step_elsewhere": frozenset(Tab) - {Tab.LINE, Tab.WALK},
        "jump_elsewhere": frozenset(Tab) - {Tab.WALK},
        "count_elsewhere": frozenset(Tab) - {Tab.SEARCH},
    }
    """The tabs each tab-bound key works on (and shows in the footer on)."""

    DEFAULT_CSS = """
    ExplorerScreen #explorer-top {
        height: 1fr;
    }
    ExplorerScreen MoveTree {
        width: 1fr;
    }
    ExplorerScreen #explorer-side {
        width: 40%;
        max-width: 44;
    }
    ExplorerScreen #explorer-heading {
        height: auto;
        padding: 0 1;
        text-style: bold;
    }
    ExplorerScreen ExplorerBoard {
        height: 1fr;
        margin: 0 1;
    }
    ExplorerScreen TabbedContent {
        height: 1fr;
    }
    ExplorerScreen TabPane {
        padding: 0;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
    }
    ExplorerScreen TabPane > * {
        width: 1fr;
    }
    ExplorerScreen.-too-small #explorer-top,
    ExplorerScreen.-too-small TabbedContent {
        display: none;
    }
    """

    class Analysed(Message):
        """An analysis the explorer asked for has come."""

        def __init__(self, analysis: Analysis) -> None:
            self.analysis = analysis
            super().__init__()

    class Proving(Message):
        """An analysis the explorer asked for is under way."""

        def __init__(self, board: Board, progress: Progress | None) -> None:
            self.board = board
            self.progress = progress
            super().__init__()

    class Counted(Message):
        """A count has finished (``count`` None: it was given up)."""

        def __init__(self, board: Board, count: Count | None, search: Search) -> None:
            self.board = board
            self.count = count
            self.search = search
            super().__init__()

    class Counting(Message):
        """A count is under way (``progress`` None as it begins)."""

        def __init__(self, board: Board, search: Search, progress: CountProgress | None) -> None:
            self.board = board
            self.search = search
            self.progress = progress
            super().__init__()

    def __init__(self, board: Board, searcher: Searcher) -> None:
        super().__init__()
        # The board explored, not the game's opponent: the explorer plays nobody.
        self.sub_title = f"explorer, {BoardSize(board.n).rule}"
        self.model = Explorer(board)
        """What is known and selected, and what the tabs show."""
        self.searcher = searcher
        """Where the analyses and counts are worked out (the app's)."""
        self.move_tree = MoveTree(board)
        # Built at the explored board's size: its cursor then stays off the board.
        self.board_view = ExplorerBoard(self.model.view().board)
        self.heading = Static(id="explorer-heading")
        self._heading = ""
        """What the heading shows."""
        self.why_text = ExplainText()
        self.line_view = BestLine()
        self.count_view = SearchCounts()
        self.walk_text = ExplainText()
        self.guarantee_text = ExplainText()
        self._fetches: dict[Board, Worker[None]] = {}
        """Analyses under way, by position."""
        self._tree_wants: dict[Board, list[Path]] = {}
        """Tree nodes opened whose moves are on their way, by position."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="explorer-top"):
            yield self.move_tree
            with Vertical(id="explorer-side"):
                yield self.board_view
                yield self.heading
        with TabbedContent(initial=Tab.WHY.value):
            for tab, panel, key in (
                (Tab.WHY, self.why_text, "w"),
                (Tab.LINE, self.line_view, "b"),
                (Tab.SEARCH, self.count_view, "s"),
                (Tab.WALK, self.walk_text, "a"),
                (Tab.GUARANTEE, self.guarantee_text, "g"),
            ):
                with TabPane(f"{tab.label} ({key})", id=tab.value):
                    yield panel
        yield Static(id="too-small")
        # The game's footer: Textual's does not redraw when its palette key is turned off.
        yield GameFooter()

    def on_mount(self) -> None:
        self.check_size()
        self.move_tree.root.expand()
        self.move_tree.move_cursor(self.move_tree.root)
        self._want()
        self._show()

    def action_help(self) -> None:
        """The explorer's keys, and what it shows."""
        from ttt_tui.screens.help import HelpScreen

        if not isinstance(self.app.screen, HelpScreen):
            self.app.push_screen(
                HelpScreen(
                    MoveTree,
                    ExplorerScreen,
                    app=type(self.app),
                    rules=RULES,
                    mouse=("left click", "open a move in the tree, or play it on the board"),
                )
            )

    # Closing.

    def action_close(self) -> None:
        """Back to the game; searches still running for the explorer are given up."""
        self.dismiss()

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close, giving up the searches still running for the explorer (once: see
        `BaseScreen.dismiss`)."""
        if self.app.screen is self:
            self.workers.cancel_all()
        return super().dismiss(result)

    # The view.

    def _show(self) -> None:
        """Push the model's view down: the heading, the board and the tab shown."""
        view = self.model.view()
        if view.heading != self._heading:
            self._heading = view.heading
            self.heading.update(view.heading, layout=False)
            relayout_if_resized(self.heading)
        self.board_view.state = view.board
        match view.tab:
            case Tab.WHY:
                self.why_text.paragraphs = view.why
            case Tab.LINE if view.line is not None:
                self.line_view.state = view.line
            case Tab.SEARCH:
                self.count_view.rows = view.counts
                self.count_view.note = view.counts_note
            case Tab.WALK:
                self.walk_text.paragraphs = view.walk
            case Tab.GUARANTEE:
                self.guarantee_text.paragraphs = view.guarantee

    # Input.

    @on(MoveTree.Chosen)
    def _chosen(self, message: MoveTree.Chosen) -> None:
        if self.model.select(message.path):
            self.workers.cancel_group(self, COUNTS)
            self._want()
            self._count()
            self.refresh_bindings()
            self._show()

    @on(MoveTree.Opened)
    def _opened(self, message: MoveTree.Opened) -> None:
        path = message.path
        board = self.move_tree.position(path)
        known = self.model.analyses.get(board)
        if known is not None:
            self.move_tree.fill(path, known)
        else:
            self._tree_wants.setdefault(board, []).append(path)
            self._want()

    @on(BoardView.CellChosen)
    def _cell_chosen(self, message: BoardView.CellChosen) -> None:
        """A click on the small board: the move there, from the selected position."""
        path = self.model.path
        board = self.model.position
        analysis = self.model.analyses.get(board)
        if analysis is None or message.cell not in analysis.moves:
            return
        self.move_tree.fill(path, analysis)
        self.move_tree.show((*path, message.cell))

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, message: TabbedContent.TabActivated) -> None:
        tab = Tab(message.pane.id)
        if tab is not self.model.tab:
            self.model.set_tab(tab)
            self._want()
            self._count()
            self.refresh_bindings()
            self._show()

    def action_tab(self, name: str) -> None:
        """Show a tab."""
        self.query_one(TabbedContent).active = name

    def action_step(self, forward: bool) -> None:
        """Step the best line or the alpha-beta walk."""
        self._say(self.model.step(forward))

    def action_jump(self, forward: bool) -> None:
        """Go to the walk's next or previous cut."""
        self._say(self.model.jump(forward))

    def action_step_elsewhere(self) -> None:
        """A step key on a tab without steps: say where they work."""
        self._say(self.model.step(True))

    def action_jump_elsewhere(self) -> None:
        """A cut key on a tab without the walk: say where it works."""
        self._say(self.model.jump(True))

    def action_count_elsewhere(self) -> None:
        """`x` on a tab without counts: show the Search tab, where they are."""
        self.action_tab(Tab.SEARCH.value)

    def action_toggle_counting(self) -> None:
        """Stop counting the selected position, or count it again."""
        refusal = self.model.toggle_counting()
        if refusal is None and self.model.counting_stopped:
            self.workers.cancel_group(self, COUNTS)
        elif refusal is None:
            self._count()
        self.refresh_bindings()
        self._say(refusal)

    def action_count_again(self) -> None:
        """Count the selected position again (the footer's name for `x` once stopped)."""
        self.action_toggle_counting()

    def _say(self, refusal: str | None) -> None:
        if refusal is not None:
            self.notify(refusal, severity="warning", timeout=2)
        self._show()

    # Searches, in the app's searcher; the workers post what they found.

    def _want(self) -> None:
        """Start the analyses wanted now and give up those no longer wanted.

        The tab's positions one at a time, in the order it needs them (each next
        one is known only once the one before it is analysed), and every tree node
        opened; an analysis the selection or the tab has left behind is given up,
        so the search process is free for what is looked at now.
        """
        missing = [b for b in self.model.study_order() if b not in self.model.analyses]
        needed = set(missing[:1]) | set(self._tree_wants)
        for board, worker in list(self._fetches.items()):
            if board not in needed and board not in missing:
                worker.cancel()
                del self._fetches[board]
                self.model.proving.pop(board, None)
        for board in needed:
            if board not in self._fetches:
                self.model.analysis_progress(board, None)
                self._fetches[board] = self._fetch(board)

    @work(group=FETCH, exit_on_error=False)
    async def _fetch(self, board: Board) -> None:
        """Have a position analysed."""

        def proving(progress: Progress) -> None:
            self.post_message(self.Proving(board, progress))

        try:
            analysis = await self.searcher.analyze(board, proving)
        except SearchCancelled:
            return
        self.post_message(self.Analysed(analysis))

    @work(exclusive=True, group=COUNTS, exit_on_error=False)
    async def _count(self) -> None:
        """Count each search's work on the selected position, quickest first."""
        model = self.model
        while (search := model.next_count()) is not None:
            board = model.position

            def counting(progress: CountProgress, board: Board = board) -> None:
                self.post_message(self.Counting(board, progress.search, progress))

            self.post_message(self.Counting(board, search, None))
            try:
                count = await self.searcher.count(board, search, counting)
            except (SearchCancelled, asyncio.CancelledError):
                # Given up (stopped, or another position selected): no longer counting.
                self.post_message(self.Counted(board, None, search))
                raise
            model.add_count(board, count)
            self.post_message(self.Counted(board, count, search))

    @on(Analysed)
    def _analysed(self, message: Analysed) -> None:
        analysis = message.analysis
        self.model.add_analysis(analysis)
        self._fetches.pop(analysis.board, None)
        for path in self._tree_wants.pop(analysis.board, []):
            self.move_tree.fill(path, analysis)
        self._want()
        self._show()

    @on(Proving)
    def _proving(self, message: Proving) -> None:
        if message.board in self.model.analyses:
            return  # a report that was on its way as the analysis came
        self.model.analysis_progress(message.board, message.progress)
        progress = message.progress
        if progress is not None:
            for path in self._tree_wants.get(message.board, []):
                self.move_tree.waiting(path, f"proving… {progress.nodes:,} positions")
        self._show()

    @on(Counted)
    def _counted(self, message: Counted) -> None:
        if message.count is None:
            self.model.count_ended(message.board, message.search)
        else:
            self.model.add_count(message.board, message.count)
        self._show()

    @on(Counting)
    def _counting(self, message: Counting) -> None:
        if (message.board, message.search) in self.model.counts:
            return
        if message.progress is None:
            self.model.count_began(message.board, message.search)
        else:
            self.model.count_progress(message.board, message.progress)
        self._show()

    # Size, and which keys work.

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys work, and show in the footer, now: while the terminal is too
        small, only going back to the game and the help; the walk's keys only where
        there is a walk (elsewhere they say why); `x` as "Stop count" or, on a position
        whose counting was stopped, "Count again"."""
        if self.has_class("-too-small") and action not in self.TOO_SMALL_ACTIONS:
            return False
        if self.model.tab is Tab.WALK and self.model.walker is None:
            # Too large a position to walk: the walk's keys leave the footer, and say why.
            if action in ("step", "jump"):
                return False
            if action in ("step_elsewhere", "jump_elsewhere"):
                return True
        if action in self.TAB_ACTIONS and self.model.tab not in self.TAB_ACTIONS[action]:
            return False
        if action in ("toggle_counting", "count_again"):
            # One key, named for what it does to the selected position now.
            stopped = self.model.counting_stopped
            return stopped if action == "count_again" else not stopped
        return True

    def check_size(self, size: Size | None = None) -> None:
        """As every screen's; and the board as tall as its rows of squares need, each
        row two lines tall (a number, and a value with its star) where the tabs keep
        `TABS_ROOM` lines, else one, however short the terminal."""
        super().check_size(size)
        height = (size or self.app.size).height
        n = self.model.root.n
        for lines in (2, 1):
            board = lines * n + (n - 1) * GUTTER.height + 2  # the border's two lines
            if lines == 1 or height - 2 - (board + HEADING) >= TABS_ROOM:
                break
        self.board_view.styles.min_height = board
        self.query_one("#explorer-top").styles.min_height = board + HEADING

    def too_small(self, width: int, height: int) -> str | None:
        """The "too small" message, below `MIN_WIDTH` x `MIN_HEIGHT`."""
        if width >= MIN_WIDTH and height >= MIN_HEIGHT:
            return None
        # Broken by hand into lines that fit the game's smallest terminal, so that no
        # line wraps to leave a word alone.
        return (
            f"Terminal too small: {width}x{height}.\n"
            f"The explorer needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\n"
            "Enlarge the window to explore;\nEsc goes back to the game, q quits."
        )

    def focus_target(self) -> MoveTree:
        """The tree: its keys need the focus."""
        return self.move_tree
