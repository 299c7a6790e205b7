"""The board: every square painted by one widget from an immutable `BoardState`, and its cursor."""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import replace
from fractions import Fraction
from typing import ClassVar, NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.events import Click, Leave, MouseMove
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.timer import Timer

from ttt_tui.engine import Board, Cell, cells_of
from ttt_tui.play.view import BoardState
from ttt_tui.widgets.cursor import follow_focus, has_the_cursor
from ttt_tui.widgets.square import SquareLook, Wording, draw, wording
from ttt_tui.widgets.targets import ClickTargets

EMPTY = BoardState(Board.empty(), None, False, {}, frozenset())
"""What the board shows before it is given a state."""

GUTTER = Size(2, 1)
"""Columns between squares side by side, and rows between squares one above the other."""

DRAWN_SQUARES = 200
"""How many drawn squares the board keeps (a few looks of every square of 5x5)."""

SquareKey = tuple[int, SquareLook, bool, Size, Wording]
"""What a square's lines depend on: which square, its look, the mouse over it, the board's
size, and the words the board's squares use."""


class Painted(NamedTuple):
    """A square as painted."""

    lines: list[Strip]
    """Its lines, each as wide as the square."""
    spot: Offset
    """Where the terminal's cursor goes in it, in the board's content area: on the
    number between its pointers (``▶ 5 ◀``), else in its middle (`BoardView._spot_in`)."""


TYPING_SECONDS = 1.0
"""How long after a digit the next one still adds to the number (``1``, ``6``: square 16)."""


def middle(n: int) -> Cell:
    """The square in the middle of an n x n board (right of and below it, if n is even)."""
    return (n // 2) * n + n // 2


@functools.cache
def spans(total: int, count: int, gutter: int) -> tuple[tuple[int, int], ...]:
    """Offsets and lengths of ``count`` equal parts of ``total`` with ``gutter`` between
    them, rounded as Textual's grid rounds ``1fr`` tracks."""
    unit = Fraction(max(total - gutter * (count - 1), 0), count)
    edges: list[int] = []
    position = Fraction(0)
    for _ in range(count):
        edges.append(position.__floor__())
        position += unit
        edges.append(position.__floor__())
        position += gutter
    return tuple((start, end - start) for start, end in zip(edges[::2], edges[1::2], strict=True))


@functools.cache
def even_spans(total: int, count: int, gutter: int) -> tuple[tuple[int, int], ...]:
    """Offsets and lengths of ``count`` parts of one length, as long as fits ``total``
    with ``gutter`` between them, centred in it (what is left over split round them)."""
    length = max(total - gutter * (count - 1), 0) // count
    start = (total - length * count - gutter * (count - 1)) // 2
    return tuple((start + i * (length + gutter), length) for i in range(count))


class BoardView(ClickTargets[Cell], can_focus=True):
    """Shows a position, the cursor, the last move, the winning line and coach verdicts.

    It holds no game state of its own: the screen assigns `state`. It owns the
    keyboard cursor and the keys that move it and play there, and reports a square
    chosen by click or key as `BoardView.CellChosen`. It paints the squares itself,
    line by line, and repaints only the squares whose look changed.
    """

    DEFAULT_CSS = """
    BoardView {
        background: $foreground 25%;
        border: round $foreground 25%;
        width: 1fr;
        height: 1fr;
        min-width: 17;
        min-height: 8;
    }
    BoardView:focus {
        border: round $primary;
    }
    /* A number waiting for its second digit, on the frame's bottom edge. */
    BoardView {
        border-subtitle-color: $text;
        border-subtitle-background: $primary;
        border-subtitle-style: bold;
    }
    BoardView > .board--square {
        background: $surface;
        color: $foreground;
    }
    BoardView > .board--hover {
        background: $surface-lighten-1;
        color: $foreground;
    }
    BoardView > .board--cursor {
        background: $primary 40%;
    }
    BoardView > .board--hint {
        background: $success 30%;
    }
    BoardView > .board--cursor-hint {
        background: $success 45%;
    }
    BoardView > .board--line {
        background: $success 55%;
    }
    BoardView > .board--line-lost {
        background: $error 55%;
    }
    BoardView > .board--x {
        color: $text-accent;
        text-style: bold;
    }
    BoardView > .board--o {
        color: $text-primary;
        text-style: bold;
    }
    BoardView > .board--number {
        color: $text-muted;
    }
    BoardView > .board--last {
        color: $text-warning;
        text-style: bold;
    }
    BoardView > .board--win {
        color: $text-success;
    }
    BoardView > .board--draw {
        color: $text-warning;
    }
    BoardView > .board--loss {
        color: $text-error;
    }
    BoardView > .board--best {
        color: $text-success;
        text-style: bold;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--square",
        "board--hover",
        "board--cursor",
        "board--hint",
        "board--cursor-hint",
        "board--line",
        "board--line-lost",
        "board--x",
        "board--o",
        "board--number",
        "board--last",
        "board--win",
        "board--draw",
        "board--loss",
        "board--best",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move_cursor(-1, 0)", "Up", show=False, tooltip="move the cursor"),
        Binding("down,j", "move_cursor(1, 0)", "Down", show=False, tooltip="move the cursor"),
        Binding("left,h", "move_cursor(0, -1)", "Left", show=False, tooltip="move the cursor"),
        Binding("right,l", "move_cursor(0, 1)", "Right", show=False, tooltip="move the cursor"),
        Binding("enter,space", "play_cursor", "Play", show=False, tooltip="play at the cursor"),
    ]

    # Neither repaints the whole board: the squares whose look changes repaint.
    state: reactive[BoardState] = reactive(EMPTY, repaint=False)
    """The position and what to mark on it."""
    cursor: reactive[Cell] = reactive(middle(3), repaint=False)
    """The square under the keyboard cursor."""

    class CellChosen(Message):
        """The person chose a square to play, by click or key."""

        def __init__(self, cell: Cell) -> None:
            self.cell = cell
            """The square's cell index, 0-based in reading order."""
            super().__init__()

    class NoSuchSquare(Message):
        """The person typed a number that names no square of the board."""

        def __init__(self, number: int, squares: int) -> None:
            self.number = number
            """What was typed."""
            self.squares = squares
            """How many squares the board has, numbered from 1."""
            super().__init__()

    def __init__(self, state: BoardState = EMPTY, *, id: str | None = None) -> None:  # noqa: A002
        """A board showing ``state``, its cursor in the middle."""
        super().__init__(id=id)
        self.set_reactive(BoardView.state, state)
        self.set_reactive(BoardView.cursor, middle(state.board.n))
        self._looks: tuple[SquareLook, ...] = ()
        self._hover: Cell | None = None
        self._drawn: OrderedDict[SquareKey, Painted] = OrderedDict()
        """Squares as painted, by everything they depend on, the most recent last: a
        cursor going to and fro, or a square lit and unlit, is drawn once."""
        self._styles: dict[tuple[str, bool], Style] = {}
        self._words = Wording()
        """The words the squares were last drawn with (see `words`)."""
        self._words_for: tuple[BoardState, int] | None = None
        """The state and the narrowest square's width that `_words` was chosen for."""
        self._typed = 0
        """The number typed so far, while more digits may follow; 0 for none."""
        self._typed_timer: Timer | None = None
        """Ends the wait for a second digit."""

    # What each square shows.

    @property
    def looks(self) -> tuple[SquareLook, ...]:
        """What each square shows, in cell order."""
        if not self._looks:
            self._looks = self._compute_looks()
        return self._looks

    def _compute_looks(self) -> tuple[SquareLook, ...]:
        state = self.state
        board = state.board
        winning = set(cells_of(board.winning_cells()))
        return tuple(
            SquareLook(
                mark=board[index],
                last=index == state.last_move,
                verdict=state.verdicts.get(index),
                hint=index in state.hints,
                cursor=index == self.cursor,
                named=index == self.cursor and state.named,
                win=index in winning,
                lost=index in winning and state.line_lost,
                pending=index in state.pending,
            )
            for index in range(board.size)
        )

    def watch_state(self, old: BoardState, new: BoardState) -> None:
        if new.board.n != old.board.n:
            # Another board: the cursor starts in the middle of it, and the square the
            # pointer was over was the old board's (repainting it crashed on a smaller one).
            self.set_reactive(BoardView.cursor, middle(new.board.n))
            self._hover = None
            self._stop_typing()
        self._show()
        follow_focus(self)

    def watch_cursor(self, old: Cell, new: Cell) -> None:
        looks = list(self._looks)
        if not all(0 <= index < len(looks) for index in (old, new)):
            self._show()
            return
        # Only the two squares the cursor leaves and enters change.
        looks[old] = replace(looks[old], cursor=False, named=False)
        looks[new] = replace(looks[new], cursor=True, named=self.state.named)
        self._show(tuple(looks))
        follow_focus(self)

    def cursor_spot(self) -> Offset:
        """Where the terminal's cursor goes while the board has the focus (a screen
        reader follows it): on the cursor square's number, between its pointers
        (``▶ 5 ◀``), or in the square's middle where it shows a mark."""
        key = self._square_key(self.cursor)
        painted = self._drawn.get(key)
        spot = self._spot_in(key, []) if painted is None else painted.spot
        return self.content_region.offset + spot

    def _spot_in(self, key: SquareKey, lines: list[Strip]) -> Offset:
        """The cursor's spot in the content area, in the square of ``key`` painted as
        ``lines``."""
        index, size = key[0], key[3]
        region = self.square_region(index, size)
        spot = Offset(region.width // 2, region.height // 2)
        for y, line in enumerate(strip.text for strip in lines):
            pointer = line.find("▶")
            if pointer >= 0:
                spot = Offset(line.find(str(index + 1), pointer), y)
                break
        return region.offset + spot

    def on_focus(self) -> None:
        follow_focus(self)

    def on_resize(self) -> None:
        follow_focus(self)

    @property
    def words(self) -> Wording:
        """The words every square uses: the longest that fit the narrowest square with
        room to spare, for all the board's verdicts at once."""
        return self._words_within(self._columns())

    def _words_within(self, columns: tuple[tuple[int, int], ...]) -> Wording:
        narrowest = min(length for _, length in columns)
        if self._words_for != (self.state, narrowest):
            self._words_for = (self.state, narrowest)
            self._words = wording(self.state.verdicts.values(), narrowest)
        return self._words

    def _show(self, looks: tuple[SquareLook, ...] | None = None) -> None:
        old, old_words = self._looks, self._words
        self._looks = self._compute_looks() if looks is None else looks
        # A verdict that changes the board's wording changes squares whose look did not.
        if len(old) != len(self._looks) or self.words != old_words:
            self._drawn.clear()
            self.refresh()
            return
        for index, (before, after) in enumerate(zip(old, self._looks, strict=True)):
            if before != after:
                self._repaint(index)

    def _repaint(self, index: Cell) -> None:
        region = self.square_region(index)
        if region:
            self.refresh(region)

    # Where the squares are.

    @property
    def n(self) -> int:
        """Squares per side."""
        return self.state.board.n

    def _columns(self, size: Size | None = None) -> tuple[tuple[int, int], ...]:
        """Each column's offset and width, in the content area (of ``size``, if given:
        a widget's size is looked up through its screen, a cost on every line drawn)."""
        return spans((size or self.content_size).width, self.n, GUTTER.width)

    def _rows(self, size: Size | None = None) -> tuple[tuple[int, int], ...]:
        """Each row's offset and height, in the content area (of ``size``, if given)."""
        return spans((size or self.content_size).height, self.n, GUTTER.height)

    def square_region(self, index: Cell, size: Size | None = None) -> Region:
        """Where a square is drawn, relative to the board's content area (of ``size``,
        if given)."""
        row, col = divmod(index, self.n)
        x, width = self._columns(size)[col]
        y, height = self._rows(size)[row]
        return Region(x, y, width, height)

    def square_at(self, offset: Offset) -> Cell | None:
        """The square at an offset in the content area, if any (None on a gutter)."""
        col = next((i for i, (x, w) in enumerate(self._columns()) if x <= offset.x < x + w), None)
        row = next((i for i, (y, h) in enumerate(self._rows()) if y <= offset.y < y + h), None)
        return None if col is None or row is None else row * self.n + col

    # Painting.

    def notify_style_update(self) -> None:
        """Styles changed (focus, theme): repaint every square in the new styles."""
        self._styles.clear()
        self._drawn.clear()
        super().notify_style_update()

    def _gap_style(self) -> Style:
        """The board's own background, between the squares."""
        style = self._styles.get(("", False))
        if style is None:
            style = self._styles[("", False)] = Style(bgcolor=self.rich_style.bgcolor)
        return style

    def _style(self, name: str, hover: bool) -> Style:
        """A component's style over a square's ground, blended as Textual blends a
        child's colours over its parent's background."""
        key = (name, hover)
        style = self._styles.get(key)
        if style is None:
            ground = self.get_component_styles("board--hover" if hover else "board--square")
            styles = self.get_component_styles(name)
            background: Color = ground.background
            if name not in ("board--square", "board--hover") and styles.has_rule("background"):
                background = background + styles.background
            color: Color = styles.color if styles.has_rule("color") else ground.color
            style = Style.from_color((background + color).rich_color, background.rich_color)
            style += styles.text_style
            self._styles[key] = style
        return style

    def square_text(self, index: Cell) -> str:
        """The text a square shows, as plain lines (its marks, number, verdict or hint)."""
        region = self.square_region(index)
        return self._draw(index, region.width, region.height).plain

    def _draw(self, index: Cell, width: int, height: int) -> Text:
        hover = index == self._hover
        look = self.looks[index]
        smallest = (
            min(length for _, length in self._columns()),
            min(length for _, length in self._rows()),
        )

        def style(name: str) -> Style:
            return self._style(name, hover)

        return draw(look, str(index + 1), width, height, style, self.words, smallest)

    def _square_key(
        self, index: Cell, size: Size | None = None, words: Wording | None = None
    ) -> SquareKey:
        """What square ``index``'s painted lines depend on: their key in `_drawn`."""
        size = size or self.content_size
        return (index, self.looks[index], index == self._hover, size, words or self.words)

    def _square_lines(
        self, index: Cell, width: int, height: int, size: Size, words: Wording
    ) -> list[Strip]:
        key = self._square_key(index, size, words)
        painted = self._drawn.get(key)
        if painted is not None:
            self._drawn.move_to_end(key)
        else:
            console = self.app.console
            rows = self._draw(index, width, height).split("\n", allow_blank=True)
            lines = [Strip(row.render(console, end=""), width) for row in rows]
            painted = Painted(lines, self._spot_in(key, lines))
            self._drawn[key] = painted
            if len(self._drawn) > DRAWN_SQUARES:
                self._drawn.popitem(last=False)
        if index == self.cursor and has_the_cursor(self):
            # Painted in this frame, before Textual moves the terminal's cursor.
            self.app.cursor_position = self.content_region.offset + painted.spot
        return painted.lines

    def render_line(self, y: int) -> Strip:
        size = self.content_size
        width = size.width
        gap = self._gap_style()
        rows, columns = self._rows(size), self._columns(size)
        words = self._words_within(columns)
        row = next(
            (
                (index, y - top, height)
                for index, (top, height) in enumerate(rows)
                if top <= y < top + height
            ),
            None,
        )
        if row is None:
            return Strip([Segment(" " * width, gap)], width)
        index, line, height = row
        parts: list[Strip] = []
        x = 0
        n = len(columns)
        for col, (left, square_width) in enumerate(columns):
            if left > x:
                parts.append(Strip([Segment(" " * (left - x), gap)], left - x))
            square = index * n + col
            parts.append(self._square_lines(square, square_width, height, size, words)[line])
            x = left + square_width
        if width > x:
            parts.append(Strip([Segment(" " * (width - x), gap)], width - x))
        return Strip.join(parts)

    # The mouse.

    def on_mouse_move(self, event: MouseMove) -> None:
        offset = event.get_content_offset(self)
        self._hover_over(None if offset is None else self.square_at(offset))

    def on_leave(self, event: Leave) -> None:
        self._hover_over(None)

    def _hover_over(self, square: Cell | None) -> None:
        if square != self._hover:
            before, self._hover = self._hover, square
            for index in (before, square):
                if index is not None:
                    self._repaint(index)

    def target_at(self, offset: Offset) -> Cell | None:
        return self.square_at(offset)

    def on_click(self, event: Click) -> None:
        """A left click on a square plays there (the press on it too: `ClickTargets`);
        other buttons and the gutters do nothing."""
        square = self.clicked(event)
        if square is not None:
            # The keyboard's cursor stays where it is: the play is drawn in one
            # frame, the mark with nothing else moving.
            self._stop_typing()
            self.post_message(self.CellChosen(square))

    # The keys.

    @property
    def typed(self) -> int:
        """The square's number typed so far while a digit may still follow (``1`` on
        4x4), which Enter plays; 0 for none."""
        return self._typed

    def _start_typing(self, number: int) -> None:
        """Wait `TYPING_SECONDS` for another digit, saying so on the board's frame: the
        cursor does not move when it is already on the square, so nothing else shows a
        digit is waiting."""
        self._typed = number
        self.border_subtitle = f"Square {number}… Enter, or a second digit"
        if self._typed_timer is not None:
            self._typed_timer.stop()
        self._typed_timer = self.set_timer(TYPING_SECONDS, self._stop_typing)

    def _stop_typing(self) -> None:
        self._typed = 0
        if self.border_subtitle:
            # Set, even to what it is, the frame's subtitle redraws the whole board,
            # and every line it spans: each arrow key did.
            self.border_subtitle = ""
        if self._typed_timer is not None:
            self._typed_timer.stop()
            self._typed_timer = None

    def play_typed(self) -> None:
        """Play the square whose number is waiting for a second digit."""
        number = self._typed
        self._stop_typing()
        if number:
            self.post_message(self.CellChosen(number - 1))

    def type_digit(self, digit: int) -> None:
        """Name a square by its number, a digit at a time, and play it once no digit
        can follow: at once for 1-9 on 3x3, and for 2-9 on 4x4 (the cursor stays
        where it is). While a digit may still follow (``1`` on 4x4 could become
        10-16), the cursor waits on the square named so far, which Enter plays; the
        next digit must come within `TYPING_SECONDS`, and the cursor follows it."""
        squares = self.state.board.size
        following = bool(self._typed)
        number = self._typed * 10 + digit if following else digit
        self._stop_typing()
        if not 1 <= number <= squares:
            self.post_message(self.NoSuchSquare(number, squares))
            return
        if following or number * 10 <= squares:
            # The cursor follows a number typed in more than one digit.
            self.cursor = number - 1
        if number * 10 > squares:
            self.post_message(self.CellChosen(number - 1))
        else:
            self._start_typing(number)

    def action_play_cursor(self) -> None:
        """Choose the square under the cursor."""
        self._stop_typing()
        self.post_message(self.CellChosen(self.cursor))

    def action_move_cursor(self, rows: int, cols: int) -> None:
        """Move the cursor, wrapping at the edges."""
        self._stop_typing()
        n = self.n
        row, col = divmod(self.cursor, n)
        self.cursor = ((row + rows) % n) * n + (col + cols) % n
