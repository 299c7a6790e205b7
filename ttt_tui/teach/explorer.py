"""The explorer's model: a position, what is known of its game tree, and what each panel shows.

Pure: no UI imports (a test proves it). The explorer screen turns keys and
clicks into `Explorer` calls, runs the searches the model asks for (analyses
for the tree, the best line and the guarantee; counts for the Search tab) in
the app's search process, hands their results back, and draws the immutable
`ExplorerView` the model gives it.

Every value shown comes from an `Analysis` the engine proved; the words come
from `ttt_tui.teach.explain`; the alpha-beta walk from
`ttt_tui.engine.minimax.walk`, worked out a step at a time as it is asked for.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from ttt_tui.engine import Analysis, Board, Cell, Outcome, Progress, coordinate
from ttt_tui.engine.minimax import (
    WALK_EMPTY,
    Count,
    CountProgress,
    Search,
    Step,
    StepKind,
    position_at,
    walk,
)
from ttt_tui.play.view import BoardState
from ttt_tui.teach.explain import (
    Ply,
    best_ply,
    count_words,
    guarantee,
    guarantee_lines,
    path_words,
    rough,
    step_words,
    summary,
    tactic_tag,
    why,
)

JUMP_LIMIT = 5_000
"""Most walk steps one key may take while looking for the next cut."""

COUNT_ORDER = (Search.ENGINE, Search.ALPHA_BETA, Search.MINIMAX)
"""The order the counts run in: quickest first."""


class Tab(enum.Enum):
    """The explorer's panels, one shown at a time beside the tree."""

    WHY = "why"
    """Why the selected move is worth what it is, in words."""
    LINE = "line"
    """The best line from the selected position, a move at a time."""
    SEARCH = "search"
    """How many positions each search visits to value the selected position."""
    WALK = "walk"
    """Alpha-beta on the selected position, a step at a time."""
    GUARANTEE = "guarantee"
    """Every reply to Hard's move, and what Hard then gets."""

    @property
    def label(self) -> str:
        """The tab's title."""
        return _TAB_LABELS[self]


_TAB_LABELS = {
    Tab.WHY: "Why",
    Tab.LINE: "Best line",
    Tab.SEARCH: "Search",
    Tab.WALK: "Alpha-beta",
    Tab.GUARANTEE: "Guarantee",
}


@dataclass(frozen=True, slots=True)
class LineRow:
    """One move of the best line, as the Best line tab lists it."""

    name: str
    """E.g. ``X c3``."""
    value: str
    """The move's value for its player, e.g. ``win in 3``."""
    tag: str
    """What it does: ``a fork: threatens a1 and b2``, ``forced: blocks a1–c3``, or empty."""


@dataclass(frozen=True, slots=True)
class LineState:
    """The Best line tab."""

    rows: tuple[LineRow, ...]
    step: int
    """How many of its moves the board shows played (0: the position itself)."""
    complete: bool
    """Whether the line reaches the end of the game (else it is still being worked out)."""
    note: str
    """A line under the list: how it ends, or what is being proven."""


@dataclass(frozen=True, slots=True)
class CountRow:
    """One search on the Search tab."""

    search: Search
    nodes: str
    """Positions so far or in all, e.g. ``549,946``; empty before it starts."""
    state: str
    """``counting…``, ``done``, ``stopped`` or ``waiting``."""
    detail: str
    """The result in words, or how far it has got."""


@dataclass(frozen=True, slots=True)
class ExplorerView:
    """What the explorer shows now: the heading, the small board, and the part of the
    tab shown. The other tabs' parts stay empty: each is worked out only while its tab
    is shown, so a tree move or a count's progress costs only what is on screen."""

    tab: Tab
    """The tab shown."""
    heading: str
    """What the small board shows: how it was reached, who is to move, its value."""
    board: BoardState
    """The small board: the selected position, or the line's or the walk's position."""
    why: tuple[str, ...] = ()
    """The Why tab: the selected move's value, and the reason for it."""
    line: LineState | None = None
    """The Best line tab."""
    counts: tuple[CountRow, ...] = ()
    """The Search tab's rows: plain minimax, alpha-beta, the engine."""
    counts_note: str = ""
    """The Search tab's note under the rows."""
    walk: tuple[str, ...] = ()
    """The Alpha-beta tab: the walk's current step in words."""
    guarantee: tuple[str, ...] = ()
    """The Guarantee tab: every reply to Hard's move, and what Hard then gets."""


class Walker:
    """The alpha-beta walk of one position, forward and back.

    Steps are worked out only when first asked for, and kept, so going back
    costs nothing.
    """

    def __init__(self, root: Board) -> None:
        self.root = root
        self._steps: list[Step] = []
        self._source: Iterator[Step] = walk(root)
        self.index = -1
        """The step shown; -1 before the first."""

    @property
    def current(self) -> Step | None:
        """The step shown, if any."""
        return self._steps[self.index] if self.index >= 0 else None

    @property
    def finished(self) -> bool:
        """Whether the step shown is the last."""
        step = self.current
        return step is not None and step.kind is StepKind.DONE

    def forward(self) -> bool:
        """Show the next step; False at the end."""
        if self.finished:
            return False
        if self.index + 1 == len(self._steps):
            self._steps.append(next(self._source))
        self.index += 1
        return True

    def back(self) -> bool:
        """Show the step before; False at the start."""
        if self.index < 0:
            return False
        self.index -= 1
        return True

    def next_cut(self, limit: int = JUMP_LIMIT) -> bool:
        """Go forward to the next cut (or the end), at most ``limit`` steps."""
        moved = False
        for _ in range(limit):
            if not self.forward():
                break
            moved = True
            step = self.current
            if step is not None and step.kind is StepKind.CUT:
                break
        return moved

    def previous_cut(self) -> bool:
        """Go back to the cut before the step shown (or the start)."""
        moved = False
        while self.back():
            moved = True
            step = self.current
            if step is not None and step.kind is StepKind.CUT:
                break
        return moved


class Explorer:
    """A position being explored: the analyses known, the node selected, the tab shown,
    the counts and the walk."""

    def __init__(self, root: Board) -> None:
        self.root = root
        """The position the explorer was opened on (the game's)."""
        self.analyses: dict[Board, Analysis] = {}
        """Every analysis received, by position."""
        self.proving: dict[Board, Progress | None] = {}
        """Positions whose analysis is being worked out, with its latest progress."""
        self.path: tuple[Cell, ...] = ()
        """The selected node: moves from the root."""
        self.tab = Tab.WHY
        """The panel shown."""
        self.line_step = 0
        """Moves of the best line the board shows played, on the Best line tab."""
        self.counts: dict[tuple[Board, Search], Count] = {}
        """Finished counts, by position and search."""
        self.counting: dict[tuple[Board, Search], CountProgress | None] = {}
        """Counts under way, with their latest progress."""
        self.stopped: set[Board] = set()
        """Positions whose counting the person stopped."""
        self._walker: Walker | None = None

    # What is selected.

    @property
    def position(self) -> Board:
        """The selected node's position."""
        return position_at(self.root, self.path)

    def select(self, path: tuple[Cell, ...]) -> bool:
        """Select the node reached by ``path``; False if it already was."""
        if path == self.path:
            return False
        position_at(self.root, path)  # raises on an illegal path
        self.path = path
        self.line_step = 0
        self._walker = None
        return True

    def set_tab(self, tab: Tab) -> None:
        """Show another panel."""
        self.tab = tab

    # What the searches found.

    def add_analysis(self, analysis: Analysis) -> None:
        """An analysis arrived."""
        self.analyses[analysis.board] = analysis
        self.proving.pop(analysis.board, None)

    def analysis_progress(self, board: Board, progress: Progress | None) -> None:
        """An analysis is under way (``progress`` None when it has just begun)."""
        self.proving[board] = progress

    def add_count(self, board: Board, count: Count) -> None:
        """A count finished."""
        self.counts[board, count.search] = count
        self.counting.pop((board, count.search), None)

    def count_progress(self, board: Board, progress: CountProgress) -> None:
        """A count is under way and has got this far."""
        self.counting[board, progress.search] = progress

    def count_began(self, board: Board, search: Search) -> None:
        """A count has begun."""
        self.counting[board, search] = None

    def count_ended(self, board: Board, search: Search) -> None:
        """A count was given up (stopped, or the selection moved on)."""
        self.counting.pop((board, search), None)

    def toggle_counting(self) -> str | None:
        """Stop counting the selected position, or start again; why not, if it cannot."""
        board = self.position
        if board.is_game_over():
            return self._over(board, NOTHING_TO_SEARCH)
        if board in self.stopped:
            self.stopped.discard(board)
        elif self._uncounted(board) is None:
            return ALL_COUNTED
        else:
            self.stopped.add(board)
        return None

    @property
    def counting_stopped(self) -> bool:
        """Whether the person stopped counting the selected position."""
        return self.position in self.stopped

    # What to work out next.

    def study_order(self) -> list[Board]:
        """The positions whose analyses the tab shown needs, in the order it needs them.

        Why: the parent (to say why its move is worth what it is; the root alone
        needs only its own), then the best line after the move. Best line: the
        selected position and each position of the line. Guarantee: the selected
        position and the one after Hard's move. Search and Alpha-beta: the selected
        position. Nothing more, so that on 5x5 only what is looked at is proven.
        """
        board = self.position
        if board.is_game_over():
            return [position_at(self.root, self.path[:-1])] if self.path else []
        wanted: list[Board] = []
        if self.tab is Tab.WHY and self.path:
            wanted.append(position_at(self.root, self.path[:-1]))
        wanted.append(board)
        if self.tab in (Tab.SEARCH, Tab.WALK) or (self.tab is Tab.WHY and not self.path):
            return wanted
        last = 2 if self.tab is Tab.GUARANTEE else None
        while len(wanted) != last:
            analysis = self.analyses.get(board)
            if analysis is None:
                break
            board = best_ply(analysis).after
            if board.is_game_over():
                break
            wanted.append(board)
        return wanted

    def next_count(self) -> Search | None:
        """The next count the Search (or Alpha-beta) tab wants for the selected position."""
        board = self.position
        if self.tab not in (Tab.SEARCH, Tab.WALK) or board.is_game_over():
            return None
        if board in self.stopped:
            return None
        return self._uncounted(board)

    def _uncounted(self, board: Board) -> Search | None:
        """The first search, in the order they are counted, not yet counted on ``board``."""
        return next((s for s in COUNT_ORDER if (board, s) not in self.counts), None)

    # Stepping.

    def line(self) -> tuple[list[Ply], bool]:
        """The best line from the selected position as far as it is known, and whether
        it is whole."""
        plies: list[Ply] = []
        board = self.position
        while not board.is_game_over():
            analysis = self.analyses.get(board)
            if analysis is None:
                return plies, False
            ply = best_ply(analysis)
            plies.append(ply)
            board = ply.after
        return plies, True

    @property
    def walker(self) -> Walker | None:
        """The alpha-beta walk of the selected position, if it is small enough to follow."""
        board = self.position
        if board.is_game_over() or board.empty_mask.bit_count() > WALK_EMPTY:
            return None
        if self._walker is None:
            self._walker = Walker(board)
        return self._walker

    def step(self, forward: bool) -> str | None:
        """Step the best line or the walk, whichever tab is shown; why not, if it cannot."""
        if self.tab is Tab.LINE:
            plies, complete = self.line()
            if forward:
                if self.line_step < len(plies):
                    self.line_step += 1
                    return None
                return "The line is at the end of the game." if complete else "Still proving…"
            if self.line_step > 0:
                self.line_step -= 1
                return None
            return "The line is at its start."
        if self.tab is Tab.WALK:
            walker = self.walker
            if walker is None:
                return self._no_walk()
            moved = walker.forward() if forward else walker.back()
            if not moved:
                return "The walk is over." if forward else "The walk is at its start."
            return None
        return "Steps are for the Best line and Alpha-beta tabs (b, a)."

    def jump(self, forward: bool) -> str | None:
        """Go to the next or previous cut of the walk; why not, if it cannot."""
        if self.tab is not Tab.WALK:
            return "Jumps to a cut are for the Alpha-beta tab (a)."
        walker = self.walker
        if walker is None:
            return self._no_walk()
        moved = walker.next_cut() if forward else walker.previous_cut()
        if not moved:
            return "The walk is over." if forward else "The walk is at its start."
        return None

    # What is shown.

    def view(self) -> ExplorerView:
        """What is on screen now: the heading, the board and the tab shown."""
        heading, board, tab = self._heading(), self._board(), self.tab
        match tab:
            case Tab.WHY:
                return ExplorerView(tab, heading, board, why=self._why())
            case Tab.LINE:
                return ExplorerView(tab, heading, board, line=self._line_state())
            case Tab.SEARCH:
                rows, note = self._count_rows(), self._counts_note()
                return ExplorerView(tab, heading, board, counts=rows, counts_note=note)
            case Tab.WALK:
                return ExplorerView(tab, heading, board, walk=self._walk_lines())
            case Tab.GUARANTEE:
                return ExplorerView(tab, heading, board, guarantee=self._guarantee())

    def _heading(self) -> str:
        """What the board shows: the selected position, or a step of the line or walk."""
        board = self.position
        if self.tab is Tab.LINE and self.line_step:
            plies, _ = self.line()
            ply = plies[self.line_step - 1]
            following = plies[self.line_step] if self.line_step < len(plies) else None
            value = "proving…" if following is None else str(following.verdict)
            where = f"Best line {self.line_step}. {ply.name}"
            return self._describe(where, ply.after, value)
        walker = self.walker if self.tab is Tab.WALK else None
        step = walker.current if walker is not None else None
        if step is not None:
            where = "Alpha-beta at " + path_words(self.root, (*self.path, *step.path))
            return self._describe(where, position_at(board, step.path), None)
        analysis = self.analyses.get(board)
        value = "proving…" if analysis is None else str(analysis.value)
        return self._describe(
            "Now" if not self.path else path_words(self.root, self.path), board, value
        )

    @staticmethod
    def _describe(where: str, board: Board, value: str | None) -> str:
        """``where: X to move, win in 3`` (without the value if it is None), or the result."""
        if board.status.winner is not None:
            return f"{where}: {board.status.winner.value} has won"
        if board.is_game_over():
            return f"{where}: a draw"
        if value is None:
            return f"{where}: {board.to_move.value} to move"
        return f"{where}: {board.to_move.value} to move, {value}"

    def _board(self) -> BoardState:
        board = self.position
        last = self.path[-1] if self.path else None
        if self.tab is Tab.LINE:
            plies, _ = self.line()
            shown = plies[: self.line_step]
            if shown:
                board, last = shown[-1].after, shown[-1].cell
            following = plies[self.line_step] if self.line_step < len(plies) else None
            hints = frozenset() if following is None else frozenset({following.cell})
            return BoardState(board, last, False, {}, hints)
        if self.tab is Tab.WALK:
            walker = self.walker
            step = walker.current if walker is not None else None
            if step is not None:
                at = position_at(board, step.path)
                moved = step.path[-1] if step.path else last
                return BoardState(at, moved, False, {}, frozenset())
            return BoardState(board, last, False, {}, frozenset())
        analysis = self.analyses.get(board)
        if analysis is None:
            pending = frozenset() if board.is_game_over() else frozenset(board.legal_moves())
            return BoardState(board, last, False, {}, frozenset(), pending)
        return BoardState(board, last, False, dict(analysis.moves), frozenset(analysis.best))

    def _proving(self, board: Board) -> str:
        progress = self.proving.get(board)
        if progress is None:
            return "Proving…"
        return f"Proving… {progress.nodes:,} positions, {progress.elapsed:.1f} s ({progress.stage})"

    def _why(self) -> tuple[str, ...]:
        board = self.position
        if not self.path:
            if board.is_game_over():
                return (self._over(board),)
            analysis = self.analyses.get(board)
            if analysis is None:
                return (self._proving(board),)
            return (
                summary(analysis),
                "",
                "Select a move in the tree (↑ ↓, Enter to open it) to hear why it is"
                " worth what it is.",
            )
        parent = position_at(self.root, self.path[:-1])
        analysis = self.analyses.get(parent)
        if analysis is None:
            return (self._proving(parent),)
        plies, complete = self.line()
        text = why(analysis, self.path[-1], plies, complete)
        lines = [text]
        if not complete:
            lines += ["", self._proving(self._pending_line_board(plies))]
        return tuple(lines)

    def _pending_line_board(self, plies: list[Ply]) -> Board:
        return plies[-1].after if plies else self.position

    @staticmethod
    def _over(board: Board, then: str = "There are no moves to explore.") -> str:
        """What a finished position is, and ``then`` what that means for the tab shown."""
        winner = board.status.winner
        result = "a draw" if winner is None else f"{winner.value} has won"
        return f"The game is over here: {result}. {then}"

    def _no_walk(self) -> str:
        """Why the selected position has no alpha-beta walk."""
        board = self.position
        return self._over(board, NOTHING_TO_SEARCH) if board.is_game_over() else WALK_TOO_BIG

    def _line_state(self) -> LineState:
        board = self.position
        if board.is_game_over():
            return LineState((), 0, True, self._over(board))
        plies, complete = self.line()
        rows = tuple(LineRow(ply.name, str(ply.verdict), tactic_tag(ply)) for ply in plies)
        if complete:
            end = plies[-1].after if plies else board
            winner = end.status.winner
            note = "The game ends in a draw." if winner is None else f"{winner.value} wins."
        else:
            note = self._proving(self._pending_line_board(plies))
        return LineState(rows, self.line_step, complete, note)

    def _count_rows(self) -> tuple[CountRow, ...]:
        board = self.position
        if board.is_game_over():
            return ()  # nothing is counted, so no row would ever leave "waiting"
        rows = []
        for search in (Search.MINIMAX, Search.ALPHA_BETA, Search.ENGINE):
            count = self.counts.get((board, search))
            if count is not None:
                state = "done" if count.finished else "unfinished"
                rows.append(CountRow(search, f"{count.nodes:,}", state, count_words(count)))
                continue
            key = (board, search)
            if key in self.counting:
                progress = self.counting[key]
                nodes = "" if progress is None else f"{progress.nodes:,}"
                detail = ""
                if progress is not None:
                    detail = f"{progress.seconds:.1f} s"
                    if progress.root_moves and search is not Search.ENGINE:
                        detail += f", {progress.root_done} of {progress.root_moves} moves done"
                rows.append(CountRow(search, nodes, "counting…", detail))
            elif board in self.stopped:
                rows.append(CountRow(search, "", "stopped", "x counts again"))
            else:
                rows.append(CountRow(search, "", "waiting", ""))
        return tuple(rows)

    def _counts_note(self) -> str:
        board = self.position
        if board.is_game_over():
            return self._over(board, NOTHING_TO_SEARCH)
        plain = self.counts.get((board, Search.MINIMAX))
        pruned = self.counts.get((board, Search.ALPHA_BETA))
        engine = self.counts.get((board, Search.ENGINE))
        if plain and pruned and plain.finished and pruned.finished and pruned.nodes:
            ratio = plain.nodes / pruned.nodes
            text = f"Alpha-beta visits {ratio:,.0f}x fewer positions than plain minimax"
            if engine and engine.nodes:
                text += f"; the engine {plain.nodes / engine.nodes:,.0f}x fewer"
            return text + ", and all three find the same value."
        if plain and plain.estimate is not None:
            years = ""
            if plain.seconds > 0:
                rate = plain.nodes / plain.seconds
                seconds = plain.estimate.nodes / rate
                years = f": at this rate, about {_duration(seconds)}"
            return f"Plain minimax cannot finish here{years}."
        return "Positions visited to value this position; x stops or restarts counting."

    def _walk_lines(self) -> tuple[str, ...]:
        walker = self.walker
        board = self.position
        if walker is None:
            return (self._no_walk(),)
        step = walker.current
        total = self.counts.get((board, Search.ALPHA_BETA))
        of = f" of {total.nodes:,}" if total is not None and total.finished else ""
        if step is None:
            return (
                f"Alpha-beta on {path_words(self.root, self.path)}, moves in reading order."
                " Press . to take the first step, ] to go to the next cut.",
                "Scores are from X's side: a win scores the squares left + 1 (a quicker win"
                " scores more), plus when X wins and minus when O does; a draw scores 0.",
                "α is the best score X is already sure of on the way to a position, β the best"
                " O is sure of; once α ≥ β the rest of the position's moves cannot matter.",
            )
        counts = f"Step {walker.index + 1}: position {step.nodes:,}{of}, cuts so far {step.cuts:,}"
        return (counts, *step_words(board, step))

    def _guarantee(self) -> tuple[str, ...]:
        board = self.position
        if board.is_game_over():
            return (self._over(board),)
        analysis = self.analyses.get(board)
        if analysis is None:
            return (self._proving(board),)
        hard = best_ply(analysis)
        after = hard.after
        if after.is_game_over():
            return tuple(guarantee_lines(guarantee(analysis, None)))
        following = self.analyses.get(after)
        if following is None:
            return (f"Hard would play {coordinate(hard.cell, board.n)}.", self._proving(after))
        lines = guarantee_lines(guarantee(analysis, following))
        if analysis.value.outcome is Outcome.LOSS:
            lines.append("(Hard never gets here from the start: it is lost only after a mistake.)")
        return tuple(lines)


NOTHING_TO_SEARCH = "There is nothing to search."
"""What the Search and Alpha-beta tabs say on a finished position."""

ALL_COUNTED = "Every search here has finished counting: there is nothing to stop."
"""Why `x` stops nothing on a position whose three counts are done."""

WALK_TOO_BIG = (
    f"The alpha-beta walk is for positions with at most {WALK_EMPTY} empty squares"
    " (3x3 from the start; 4x4 and 5x5 near their end): select a deeper position in the tree."
)
"""Why there is no walk of the selected position."""


def _duration(seconds: float) -> str:
    """A long time in words, to two figures: ``3 hours``, ``5 million years``."""
    for unit, length in (("years", 365.25 * 86_400), ("days", 86_400), ("hours", 3_600)):
        if seconds >= length:
            return f"{rough(seconds / length)} {unit}"
    return f"{rough(seconds)} seconds"
