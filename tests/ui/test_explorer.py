"""The explorer in the app: opened from the game, the palette and the help; the tree loads
lazily; the tabs follow the selection; counts run in the background and stop on request;
and the game waits underneath, exactly as it was, until the explorer closes.

Each test walks through several things in one app, to keep the suite quick;
``TTT_LONG=1`` adds one with the real search process counting.
"""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from textual.pilot import Pilot

from tests.support import (
    SIZE,
    GatedAI,
    Notes,
    ScriptedAI,
    calls_begun,
    drawn_text,
    footer_keys,
    make_app,
    marks,
    play,
    resize,
    resize_pending,
    settle,
    start,
    until,
)
from ttt_tui.engine import (
    Analysis,
    Board,
    CancelCheck,
    Player,
    SearchCancelled,
    analyze,
    coordinate,
)
from ttt_tui.engine.minimax import (
    Count,
    CountProgressCallback,
    Search,
    StepKind,
    position_at,
    run_count,
)
from ttt_tui.play.settings import BoardSize
from ttt_tui.screens.explorer import ExplorerScreen
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.help import HelpScreen
from ttt_tui.search.client import ThreadSearcher
from ttt_tui.teach.explorer import WALK_TOO_BIG, Tab
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.explorer_board import LEGENDS
from ttt_tui.widgets.square import VerdictForm

NEAR_END_5X5 = Board.parse("XOXXO/O.X../OOX../OX..X/.OOXX")
"""A 5x5 position with eight squares left: cheap to analyse, still a real tree."""


async def explore(pilot: Pilot[None]) -> ExplorerScreen:
    """Press e, let the explorer's first analyses land, and return it."""
    await pilot.press("e")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ExplorerScreen)
    return screen


def labels(screen: ExplorerScreen, *path: int) -> list[str]:
    """The tree's labels under a node, as text."""
    node = screen.move_tree.root
    for depth in range(len(path)):
        node = next(child for child in node.children if child.data == path[: depth + 1])
    return [str(child.label) for child in node.children]


def recording() -> tuple[list[Board], object]:
    """An analyzer that records every position it is asked about."""
    analysed: list[Board] = []

    def analyzer(board: Board, cancelled: CancelCheck | None = None) -> Analysis:
        analysed.append(board)
        return analyze(board, cancelled)

    return analysed, analyzer


async def test_a_walk_through_the_explorer_and_back_to_the_game_as_it_was() -> None:
    """e on a 3x3 game: the tree with every move's value, a move selected and opened
    (lazily), its reasons, its best line stepped on the board, the alpha-beta walk to
    a cut, Hard's guarantee, the explorer's own help; Escape, and the game is as it was."""
    analysed, analyzer = recording()
    app = make_app(ScriptedAI(0), analyzer=analyzer)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        await play(pilot, "5", "right")
        board_view = game.query_one(BoardView)
        before = (marks(game), game.session.token, board_view.cursor, app.focused)

        explorer = await explore(pilot)
        root = Board.parse("O...X....")
        analysis = analyze(root)
        assert explorer.model.root == root
        assert labels(explorer) == [
            f"X {coordinate(cell, 3)}: {verdict}" + (" ★" if cell in analysis.best else "")
            for cell, verdict in sorted(analysis.moves.items())
        ]
        assert explorer.why_text.paragraphs[0].startswith("X to move: a draw with best play")
        assert analysed == [root]  # the root's moves, and nothing else yet

        await pilot.press("down")  # X b1
        await settle(pilot)
        assert explorer.model.path == (1,)
        assert (explorer.board_view.state.board, explorer.board_view.state.last_move) == (
            root.play(1),
            1,
        )
        assert explorer.why_text.paragraphs[0].startswith("X b1 draws")
        assert labels(explorer, 1) == []  # not opened: nothing built under it
        await pilot.press("enter")
        await settle(pilot)
        assert len(labels(explorer, 1)) == 6
        # Only X b1 and the best line after it were analysed: nothing elsewhere.
        assert analysed[1] == root.play(1)
        assert all(board[1] is Player.X for board in analysed[1:])

        await pilot.press("b", "full_stop", "full_stop")
        line = explorer.line_view.state
        assert line.step == 2 and line.complete
        shown = explorer.board_view.state
        assert shown.last_move is not None and shown.board.move_count == root.move_count + 3

        await pilot.press("a", "full_stop")
        assert explorer.model.tab is Tab.WALK
        assert explorer.walk_text.paragraphs[0].startswith("Step 1: position 1")
        await pilot.press("right_square_bracket")
        walker = explorer.model.walker
        assert walker is not None and walker.current is not None
        cut = walker.current
        assert cut.kind is StepKind.CUT
        assert explorer.walk_text.paragraphs[1].startswith("Cut at ")
        assert explorer.board_view.state.board == position_at(root.play(1), cut.path)
        await pilot.press("comma")
        assert walker.current is not cut

        await pilot.press("g")
        await settle(pilot)
        assert explorer.guarantee_text.paragraphs[-1].startswith("No reply is worse for O")

        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        keys = dict(help_screen.rows)
        assert keys[", / ."].startswith("step the best line")
        assert keys["w"] == "the Why tab" and keys["Esc or e"] == "back to the game"
        await pilot.press("escape")

        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game
        assert (marks(game), game.session.token, board_view.cursor, app.focused) == before


async def test_the_game_waits_under_the_explorer_which_closes_once() -> None:
    """Opened from the palette while the computer thinks: its move waits until the
    explorer closes; the help offers the explorer too; over the explorer the palette
    has no game commands; two closing keys close it once."""
    ai = GatedAI(0)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        assert isinstance(game, GameScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert any(key == "e" and "explorer" in action for key, action in app.screen.rows)
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"explorer")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        explorer = pilot.app.screen  # not app.screen, which mypy holds to be the help
        assert isinstance(explorer, ExplorerScreen)
        commands = [command.title for command in app.get_system_commands(pilot.app.screen)]
        assert explorer.model.root == Board.empty(3)
        assert "New game" not in commands and "Explorer" not in commands
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game

        await pilot.press("5")
        await calls_begun(ai, 1)
        await pilot.press("e")
        await pilot.pause()
        explorer = pilot.app.screen
        assert isinstance(explorer, ExplorerScreen)
        assert explorer.model.root == Board.parse("....X....")
        ai.allow()
        await settle(pilot)
        assert marks(game) == "....X...."  # the move came, and waits
        assert game.session.thinking
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert app.screen_stack == [game]
        assert marks(game) == "O...X...."


async def nothing_waits_on_any_tab(pilot: Pilot[None], explorer: ExplorerScreen) -> None:
    """Show each tab on a finished position: nothing is proving or waiting, the Search
    tab says there is nothing to search, and x does not stop counts that never ran."""
    for key in ("w", "b", "s", "a", "g", "s", "x"):
        await pilot.press(key)
        await settle(pilot)
        shown = drawn_text(pilot.app)
        assert "proving" not in shown.lower() and "waiting" not in shown, (key, shown)
    assert explorer.count_view.rows == ()
    assert "There is nothing to search." in explorer.count_view.note


async def test_a_finished_position_has_nothing_proving_or_waiting() -> None:
    """e on a finished game: the tree is the result alone, with no "proving…" line under
    it, and no tab waits for a search that never starts; likewise a move in the tree
    that ends the game, selected and opened."""
    app = make_app(ScriptedAI(3, 4))
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        await play(pilot, "1", "2", "3")
        assert game.session.game.is_over
        explorer = await explore(pilot)
        assert str(explorer.move_tree.root.label) == "Now: X has won"
        assert labels(explorer) == []
        await nothing_waits_on_any_tab(pilot, explorer)
        await pilot.press("escape")
        await settle(pilot)

        await pilot.app.push_screen(ExplorerScreen(Board.parse("XX.OO...."), game.searcher))
        await settle(pilot)
        ending = pilot.app.screen
        assert isinstance(ending, ExplorerScreen)
        await pilot.press("down", "enter")  # X c1, which wins
        await settle(pilot)
        assert ending.model.path == (2,)
        assert labels(ending, 2) == []
        await nothing_waits_on_any_tab(pilot, ending)


class GatedCounter:
    """Counts only once the test lets it; gives up when cancelled. Records each count."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started: list[Search] = []
        self.cancelled: list[Search] = []

    def __call__(
        self,
        board: Board,
        search: Search,
        cancelled: CancelCheck | None,
        progress: CountProgressCallback | None,
    ) -> Count:
        self.started.append(search)
        for _ in range(2000):
            if self.gate.wait(0.005):
                return run_count(board, search, cancelled, progress)
            if cancelled is not None and cancelled():
                self.cancelled.append(search)
                raise SearchCancelled
        raise AssertionError("the test never let the count run")


async def test_the_search_tab_counts_in_the_background_and_x_stops_it() -> None:
    counter = GatedCounter()
    app = make_app(searcher=ThreadSearcher(ScriptedAI(0), analyze, counter))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "5", "3")
        await pilot.press("e")
        await pilot.pause()
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        assert counter.started == []  # nothing is counted until the Search tab is shown
        await pilot.press("s")
        for _ in range(200):
            await pilot.pause(0.01)
            if counter.started:
                break
        assert counter.started == [Search.ENGINE]
        assert explorer.count_view.rows[2].state == "counting…"
        assert "x Stop count" in drawn_text(app).splitlines()[-1]
        await pilot.press("x")
        await settle(pilot)
        assert counter.cancelled == [Search.ENGINE]
        assert [row.state for row in explorer.count_view.rows] == ["stopped"] * 3
        footer = drawn_text(app).splitlines()[-1]
        assert "x Count again" in footer and "Stop count" not in footer
        counter.gate.set()
        await pilot.press("x")
        await settle(pilot)
        assert "x Stop count" in drawn_text(app).splitlines()[-1]
        board = explorer.model.root
        assert [row.state for row in explorer.count_view.rows] == ["done"] * 3
        nodes = run_count(board, Search.ALPHA_BETA).nodes
        assert explorer.count_view.rows[1].nodes == f"{nodes:,}"
        assert explorer.count_view.note.startswith("Alpha-beta visits ")


async def test_a_5x5_tree_builds_only_what_is_opened_and_the_size_is_checked() -> None:
    analysed, analyzer = recording()
    app = make_app(ScriptedAI(0), analyzer=analyzer)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        await pilot.app.push_screen(ExplorerScreen(NEAR_END_5X5, game.searcher))
        await settle(pilot)
        explorer = pilot.app.screen
        assert isinstance(explorer, ExplorerScreen)
        assert analysed == [NEAR_END_5X5]
        assert len(labels(explorer)) == 8
        assert all(not child.children for child in explorer.move_tree.root.children)
        await pilot.press("down", "enter")
        await settle(pilot)
        first = NEAR_END_5X5.legal_moves()[0]
        assert analysed[1] == NEAR_END_5X5.play(first)
        built = [child.data for child in explorer.move_tree.root.children if child.children]
        assert built == [(first,)]

        await pilot.resize_terminal(80, 24)  # the explorer's smallest: every square shows
        for _ in range(100):  # the resize reaches the screen after a debounce
            if not resize_pending(app) and explorer.size == (80, 24):
                break
            await pilot.pause()
        await pilot.pause()
        assert not explorer.has_class("-too-small")
        board = explorer.board_view
        assert all(board.square_region(cell).height >= 1 for cell in range(25))
        assert board.square_region(24).bottom <= board.content_size.height
        assert explorer.heading.region.bottom <= explorer.query_one("#explorer-top").region.bottom

        await pilot.resize_terminal(64, 20)
        await pilot.pause()
        assert explorer.has_class("-too-small")
        message = str(explorer.query_one("#too-small").render())
        assert "Terminal too small: 64x20." in message
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not explorer.has_class("-too-small")


def board_text(explorer: ExplorerScreen) -> list[str]:
    """The explorer's board as drawn, line by line, its frame included."""
    region = explorer.board_view.region
    lines = drawn_text(explorer.app).splitlines()[region.y : region.bottom]
    return [line[region.x : region.right] for line in lines]


OPEN_5X5 = Board.parse("X" + "." * 23 + "O")
"""A 5x5 position where every one of the 23 moves draws: 23 best moves, each starred."""


@pytest.mark.parametrize("size", [SIZE, (80, 24)], ids=["100x30", "80x24"])
async def test_every_square_of_the_5x5_explorer_board_keeps_its_star(
    size: tuple[int, int],
) -> None:
    """At 100x30 the rows alternated between one line and two, and the one-line rows lost
    their numbers and stars, so the tree starred every move and the board only two rows'.
    Now every row is as tall as the others, two lines where the tabs keep their room
    (each empty square's number, and its value with its star), else one (the value and
    the star)."""
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=size) as pilot:
        game = await start(pilot)
        await pilot.app.push_screen(ExplorerScreen(OPEN_5X5, game.searcher))
        await settle(pilot)
        explorer = pilot.app.screen
        assert isinstance(explorer, ExplorerScreen)
        await until(pilot, lambda: bool(explorer.board_view.state.verdicts), "the values")
        board = explorer.board_view
        heights = {board.square_region(cell).height for cell in range(25)}
        assert len(heights) == 1, heights
        shown = "\n".join(board_text(explorer))
        assert shown.count("★") == 23, shown
        lettered = board.words.verdicts is VerdictForm.LETTER
        assert bool(board.border_subtitle) is lettered  # a legend for letters alone
        if size == SIZE:
            assert heights == {2}
            numbers = set(re.findall(r"\b\d+\b", shown))
            assert numbers == {str(square) for square in range(2, 25)}, shown


async def test_letters_on_the_explorer_board_are_explained_on_its_frame() -> None:
    """ "D" and "L8" had no legend."""
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=(80, 24)) as pilot:
        game = await start(pilot)
        await pilot.app.push_screen(ExplorerScreen(NEAR_END_5X5, game.searcher))
        await settle(pilot)
        explorer = pilot.app.screen
        assert isinstance(explorer, ExplorerScreen)
        await until(pilot, lambda: bool(explorer.board_view.state.verdicts), "the values")
        assert explorer.board_view.words.verdicts is VerdictForm.LETTER
        assert any(legend in board_text(explorer)[-1] for legend in LEGENDS)


async def test_too_small_the_explorer_offers_only_the_keys_that_work_there() -> None:
    """e at 56x16, the 3x3 game's smallest: the message wraps where it means to, and the
    footer lists, whole, only going back, the help and quitting. The tree's and the
    tabs' keys do nothing on what is hidden, until the window is large enough again."""
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=(56, 16)) as pilot:
        game = await start(pilot)
        await play(pilot, "5")
        await pilot.press("e")
        await settle(pilot)
        explorer = pilot.app.screen
        assert isinstance(explorer, ExplorerScreen)
        assert explorer.has_class("-too-small")
        *body, footer = drawn_text(app).splitlines()
        assert footer.split() == ["esc", "Game", "?", "Help", "q", "Quit"]
        message = [line.strip() for line in body[1:] if line.strip()]
        assert message[0] == "Terminal too small: 56x16."
        assert all(len(line.split()) > 1 for line in message), message

        await pilot.press("down", "enter", "s", "x", "full_stop")
        await settle(pilot)
        assert (explorer.model.path, explorer.model.tab) == ((), Tab.WHY)
        assert not explorer.model.counts and not explorer.model.stopped
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is explorer

        await resize(pilot, *SIZE)
        assert not explorer.has_class("-too-small")
        await pilot.press("s")
        await until(pilot, lambda: "Stop count" in drawn_text(app).splitlines()[-1], "x shown")
        await pilot.press("down")
        await settle(pilot)
        assert explorer.model.path == (1,)
        await resize(pilot, 100, 20)  # too short, and wide enough for the palette's key
        await until(pilot, lambda: "palette" in drawn_text(app), "the palette's key shown")
        await resize(pilot, 60, 20)  # too narrow for it: it goes
        await settle(pilot)
        footer = drawn_text(app).splitlines()[-1]
        assert footer.split() == ["esc", "Game", "?", "Help", "q", "Quit"], footer
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game


async def plain_minimax_seen_counting(explorer: ExplorerScreen) -> bool:
    """Whether the Search tab shows plain minimax counting the selected position, with
    positions counted so far, before that count ends (ten seconds at most)."""
    for _ in range(1000):
        await asyncio.sleep(0.01)
        row = explorer.count_view.rows[0]
        if row.state == "counting…" and row.nodes:
            return True
        if row.state in ("done", "unfinished"):
            return False
    return False


@pytest.mark.long
async def test_the_interface_answers_keys_while_the_search_process_counts() -> None:
    """With the real search process counting plain minimax on a 4x4 position (a million
    positions), the tree's cursor still moves and the board follows at once: the count
    is in another process.

    On a busy machine the search process can run a whole count while the app waits
    for a core, and the count is only ever seen finished; the next move in the tree
    starts a count of its own, so the test moves on and watches that one (five
    positions were too few while other work ran beside CI's long run)."""
    app = make_app(search_process=True)
    async with app.run_test(size=SIZE) as pilot:
        game = await start(pilot)
        await pilot.app.push_screen(ExplorerScreen(Board.parse("X...O......X...."), game.searcher))
        explorer = pilot.app.screen
        assert isinstance(explorer, ExplorerScreen)
        await pilot.press("s")
        for _ in range(12):
            if await plain_minimax_seen_counting(explorer):
                break
            await pilot.press("down")
        else:
            pytest.fail("plain minimax was never seen counting, in twelve positions")
        # The root's moves, in the tree's order; the cursor is on the root or one of them.
        moves = explorer.model.root.legal_moves()
        path = explorer.model.path
        await pilot.press("down")
        await pilot.pause()
        assert explorer.model.path == ((moves[moves.index(path[0]) + 1],) if path else (moves[0],))
        assert explorer.board_view.state.board == explorer.model.position
        await pilot.press("escape")
        await pilot.pause()


TAB_FOOTERS = {
    "w": ["esc Game", "? Help", "q Quit"],
    "b": ["esc Game", ", Back", ". Step", "? Help", "q Quit"],
    "s": ["esc Game", "x Stop count", "? Help", "q Quit"],
    "a": ["esc Game", ", Back", ". Step", "] Cut", "? Help", "q Quit"],
    "g": ["esc Game", "? Help", "q Quit"],
}
"""Each tab's footer: its own keys, and no key that only says it does nothing here."""


async def test_each_tab_shows_its_own_keys_and_the_others_still_say_where_they_work() -> None:
    app = make_app(ScriptedAI(0))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.press("e")
        await settle(pilot)
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        for key, shown in TAB_FOOTERS.items():
            await pilot.press(key)
            await settle(pilot)
            assert (await footer_keys(pilot)) == shown, key
        await pilot.press("w", "full_stop", "right_square_bracket")
        await settle(pilot)
        assert notes.messages[-2:] == [
            "Steps are for the Best line and Alpha-beta tabs (b, a).",
            "Jumps to a cut are for the Alpha-beta tab (a).",
        ]
        await pilot.press("x")  # off the Search tab, x shows it
        await settle(pilot)
        assert explorer.model.tab is Tab.SEARCH


async def test_a_count_s_progress_repaints_the_table_without_laying_the_screen_out() -> None:
    """Progress comes ten times a second while the explorer counts, and each laid the
    whole screen out again (the table's rows asked for a layout): most of what the
    interface did while counting. A change that keeps the table's height repaints it;
    one that changes its height lays the screen out."""
    from textual.app import App, ComposeResult
    from textual.widget import Widget

    from ttt_tui.engine.minimax import Search
    from ttt_tui.teach.explorer import CountRow
    from ttt_tui.widgets.search_counts import SearchCounts

    class CountsOnly(App[None]):
        def compose(self) -> ComposeResult:
            yield SearchCounts()

    def row(search: Search, nodes: str, detail: str) -> CountRow:
        return CountRow(search, nodes, "counting…", detail)

    app = CountsOnly()
    async with app.run_test(size=(80, 24)) as pilot:
        counts = app.query_one(SearchCounts)
        layouts: list[bool] = []
        refresh = counts.refresh

        def recording(*regions: object, **options: object) -> Widget:
            layouts.append(bool(options.get("layout")))
            return refresh(*regions, **options)  # type: ignore[arg-type]

        counts.refresh = recording  # type: ignore[method-assign, assignment]
        counts.rows = (row(Search.MINIMAX, "1,234", "0.4 s, 2 of 20 moves done"),)
        await pilot.pause()
        assert any(layouts)  # a row came: the table is taller
        height = counts.size.height
        layouts.clear()
        counts.rows = (row(Search.MINIMAX, "19,876", "0.5 s, 3 of 20 moves done"),)
        await pilot.pause()
        assert layouts and not any(layouts)  # repainted, not laid out
        assert counts.size.height == height
        counts.rows = (
            row(Search.MINIMAX, "19,876", "0.5 s, 3 of 20 moves done"),
            row(Search.ALPHA_BETA, "", ""),
        )
        await pilot.pause()
        assert any(layouts)  # another row
        assert counts.size.height == height + 1


@pytest.mark.parametrize(
    ("board", "title"),
    [
        (BoardSize.THREE, "explorer, 3x3, three in a row"),
        (BoardSize.FIVE, "explorer, 5x5, four in a row"),
    ],
)
async def test_the_explorer_s_title_names_its_board_not_an_opponent(
    board: BoardSize, title: str
) -> None:
    """It said "tic-tac-toe vs minimax" on every board, and while playing your bot."""
    app = make_app(ScriptedAI(0), board=board)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "the explorer")
        assert app.screen.sub_title == title
        assert title in drawn_text(app).splitlines()[0]


async def test_the_alpha_beta_tab_shows_no_step_keys_where_the_position_is_too_large() -> None:
    """It said the position was too large to walk, and listed the keys to step it."""
    app = make_app(ScriptedAI(0), board=BoardSize.FIVE)
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "the explorer")
        await pilot.press("a")
        await settle(pilot)
        assert (await footer_keys(pilot)) == ["esc Game", "? Help", "q Quit"]
        await pilot.press("full_stop")  # the key still says why
        await settle(pilot)
        assert notes.messages[-1] == WALK_TOO_BIG
