"""The board widget on its own: where it draws its squares, what a click or the mouse
does there, and that it repaints only the squares whose look changed."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Grid
from textual.geometry import Offset
from textual.widget import Widget

from tests.support import (
    SIZE,
    ScriptedAI,
    app_exception,
    board_view,
    drag,
    make_app,
    play,
    play_a_game,
    score_total,
    settle,
    start,
)
from ttt_tui.engine import Board, Cell, Player
from ttt_tui.play.settings import BoardSize
from ttt_tui.storage import Store
from ttt_tui.widgets.board import GUTTER, BoardView, spans
from ttt_tui.widgets.square import SquareLook, draw


class BoardOnly(App[None]):
    """The board widget alone; it records the squares chosen on it."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[Cell] = []

    def compose(self) -> ComposeResult:
        yield BoardView()

    def on_board_view_cell_chosen(self, message: BoardView.CellChosen) -> None:
        self.chosen.append(message.cell)


class GridOnly(App[None]):
    """Textual's own grid of 1fr tracks, with the board's gutters, to measure against."""

    CSS = f"""
    Grid {{ grid-size: 3 3; grid-gutter: {GUTTER.height} {GUTTER.width}; border: round white; }}
    Widget {{ width: 1fr; height: 1fr; }}
    """

    def compose(self) -> ComposeResult:
        with Grid():
            for _ in range(9):
                yield Widget()


def middle_of(board: BoardView, cell: Cell) -> Offset:
    """The middle of a square, as an offset from the board's top-left corner."""
    region = board.square_region(cell).translate(board.content_offset)
    return Offset(region.x + region.width // 2, region.y + region.height // 2)


@given(
    total=st.integers(min_value=0, max_value=300),
    count=st.integers(min_value=1, max_value=5),
    gutter=st.integers(min_value=0, max_value=3),
)
def test_spans_are_equal_parts_with_exact_gutters(total: int, count: int, gutter: int) -> None:
    parts = spans(total, count, gutter)
    assert len(parts) == count
    lengths = [length for _, length in parts]
    assert max(lengths) - min(lengths) <= 1
    for (begin, length), (next_begin, _) in zip(parts, parts[1:], strict=False):
        assert next_begin - (begin + length) == gutter
    assert parts[0][0] == 0
    if total >= gutter * (count - 1):
        last_start, last_length = parts[-1]
        assert last_start + last_length == total


async def test_squares_sit_where_textual_s_grid_would_put_them() -> None:
    """The board paints its own squares; they land exactly on the cells of a Textual
    grid with the same tracks and gutters, at many sizes."""
    for width, height in [(100, 30), (57, 17), (203, 61)]:
        grid_app = GridOnly()
        async with grid_app.run_test(size=(width, height)) as pilot:
            await pilot.pause()
            grid = grid_app.query_one(Grid)
            expected = [w.region.translate(-grid.content_region.offset) for w in grid.children]
            grid_size = grid.content_size
        board_app = BoardOnly()
        async with board_app.run_test(size=(width, height)) as pilot:
            await pilot.pause()
            board = board_app.query_one(BoardView)
            assert board.content_size == grid_size, (width, height)
            shown = [board.square_region(cell) for cell in range(9)]
            assert shown == expected, (width, height)


async def test_a_left_click_on_a_square_chooses_it_and_nothing_else_does() -> None:
    app = BoardOnly()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.query_one(BoardView)
        origin = board.content_offset
        for cell in (0, 4, 8):
            assert await pilot.click(BoardView, offset=middle_of(board, cell))
        # Right and middle buttons, a gutter, the border.
        middle = middle_of(board, 4)
        assert await pilot.click(BoardView, offset=middle, button=3)
        assert await pilot.click(BoardView, offset=middle, button=2)
        gutter = board.square_region(0).translate(origin).top_right + Offset(0, 1)
        assert board.square_at(gutter - origin) is None
        assert await pilot.click(BoardView, offset=gutter)
        assert await pilot.click(BoardView, offset=(0, 0))
        await pilot.pause()
        assert app.chosen == [0, 4, 8]
        assert board.cursor == 4  # a click chooses a square; the keyboard's cursor stays


async def test_a_square_is_chosen_only_by_a_press_and_release_on_it() -> None:
    """As with a button: a press on one square and a release on another choose
    nothing (the whole board is one widget, so Textual makes a Click of it), and a
    drag that comes back to the square it began on chooses that square."""
    app = BoardOnly()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.query_one(BoardView)
        first, third = middle_of(board, 0), middle_of(board, 2)
        await drag(pilot, 1, first, third)
        await drag(pilot, 1, third, first)
        assert app.chosen == []
        await drag(pilot, 1, first, third, first)
        await drag(pilot, 1, third)
        assert app.chosen == [0, 2]


async def test_the_mouse_lights_the_square_under_it() -> None:
    app = BoardOnly()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.query_one(BoardView)

        def ground(cell: Cell) -> object:
            region = board.square_region(cell)
            strip = board.render_line(region.y)
            (segment,) = list(strip.crop(region.x, region.x + 1))
            assert segment.style is not None
            return segment.style.bgcolor

        plain = ground(2)
        assert ground(0) == plain
        await pilot.hover(BoardView, offset=middle_of(board, 0))
        await pilot.pause()
        assert ground(0) != plain
        assert ground(2) == plain
        await pilot.hover(BoardView, offset=(0, 0))  # the border: over no square
        await pilot.pause()
        assert ground(0) == plain


async def test_a_change_repaints_only_the_squares_it_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cursor move draws the two squares it leaves and enters; a mark, its square."""
    drawn: list[str] = []

    def counting_draw(look: SquareLook, label: str, *args: Any) -> Text:
        drawn.append(label)
        return draw(look, label, *args)

    monkeypatch.setattr("ttt_tui.widgets.board.draw", counting_draw)
    app = BoardOnly()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.query_one(BoardView)
        assert sorted(drawn, key=int) == [str(n) for n in range(1, 10)]
        drawn.clear()
        board.cursor = 5
        await pilot.pause()
        assert sorted(drawn) == ["5", "6"]
        drawn.clear()
        board.state = replace(board.state, board=Board.empty().play(0), last_move=0)
        await pilot.pause()
        assert drawn == ["1"]


async def test_an_arrow_key_repaints_the_two_squares_and_not_the_whole_board() -> None:
    """The frame's subtitle (a square's number half typed) was set on every cursor
    move, even to the empty text it was, and that redrew the whole board and every
    line it spans."""
    app = BoardOnly()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.query_one(BoardView)
        board.focus()
        await pilot.pause()
        whole: list[object] = []
        refresh = board.refresh

        def recording(*regions: Any, **options: Any) -> Any:
            if not regions:
                whole.append(options)
            return refresh(*regions, **options)

        board.refresh = recording  # type: ignore[method-assign]
        await pilot.press("right", "down", "left", "up")
        await pilot.pause()
        assert whole == []


def hues(svg: str) -> set[str]:
    """Colours in a screenshot that are not a grey, leaving out the window's title-bar dots."""
    svg = re.sub(r"<circle[^>]*/>", "", svg)
    found = set()
    for colour in re.findall(r"#([0-9a-fA-F]{6})\b", svg):
        r, g, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
        # Rich's SVG draws default-coloured text in #c5c8c6: grey to any eye.
        if max(r, g, b) - min(r, g, b) > 4:
            found.add(f"#{colour.lower()}")
    return found


async def screenshot(play: bool) -> tuple[str, dict[Player, str]]:
    """The screen, after a whole game if ``play``, and how an X cell and an O cell are drawn."""
    app = make_app(store=Store(enabled=False), seed=1)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await start(pilot)
        if play:
            await play_a_game(pilot, screen)
            assert score_total(screen) == 1
        drawn: dict[Player, str] = {}
        board = screen.query_one(BoardView)
        for cell, look in enumerate(board.looks):
            if look.mark is not None:
                drawn.setdefault(look.mark, board.square_text(cell))
        return app.export_screenshot(), drawn


async def test_with_no_color_the_cursor_is_marked_in_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """In greys the cursor and a hinted square had the same background: the cursor
    square now shows its number between pointers, whatever the colours."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(ScriptedAI(0))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "5", "i", "right")
        board = board_view(pilot)
        assert board.cursor == 5
        hinted = [c for c, look in enumerate(board.looks) if look.hint and c != 5]
        assert hinted
        shown = [line.strip() for line in board.square_text(5).splitlines() if line.strip()]
        assert shown[0] == "▶ 6 ◀"
        for cell in hinted:
            assert "▶" not in board.square_text(cell)


async def test_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR=1: a whole game in greys only, with X and O told apart by their shapes."""
    coloured, _ = await screenshot(play=False)
    assert hues(coloured), "the check must see colour when there is some"

    monkeypatch.setenv("NO_COLOR", "1")
    plain, drawn = await screenshot(play=True)
    assert hues(plain) == set()
    assert set(drawn) == {Player.X, Player.O}
    x, o = drawn[Player.X], drawn[Player.O]
    assert x.strip() and o.strip()
    assert x != o


async def test_the_pointer_over_a_square_of_a_bigger_board_leaves_a_smaller_one_whole() -> None:
    """Hovering square 16 of 4x4, then 3x3 chosen, then the pointer leaving the board:
    the square hovered was repainted on the new board, which has no square 16, and the
    app crashed (IndexError; the long real-terminal fuzz, seed 14)."""
    app = make_app(board=BoardSize.FOUR)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        board = screen.query_one(BoardView)
        square = board.square_region(15)
        assert await pilot.hover("#board", offset=(square.x + 1, square.y + 1))
        screen.action_board(3)
        await settle(pilot)
        assert screen.session.game.board.n == 3
        assert await pilot.hover("#sidebar")  # the pointer leaves the board
        await settle(pilot)
        assert app_exception(app) is None
        assert app.is_running
