"""One square of the board: a large mark, or its number and coach verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ttt_tui import glyphs
from ttt_tui.engine import Outcome, Player, Verdict


def short_verdict(verdict: Verdict, width: int) -> str:
    """A verdict cut to fit: ``win in 3``, then ``win 3``, then ``W3``."""
    full = str(verdict)
    if len(full) <= width:
        return full
    if verdict.outcome is Outcome.DRAW:
        return "draw" if width >= 4 else "D"
    medium = f"{verdict.outcome.value} {verdict.plies}"
    if len(medium) <= width:
        return medium
    return f"{verdict.outcome.value[0].upper()}{verdict.plies}"


@dataclass(frozen=True)
class CellLook:
    """Everything a square shows."""

    mark: Player | None = None
    """The mark on this square, if any."""
    last: bool = False
    """Whether the most recent move was played here."""
    verdict: Verdict | None = None
    """The coach's verdict for playing here, shown when set."""
    hint: bool = False
    """Whether a hint points here."""
    cursor: bool = False
    """Whether the keyboard cursor is here."""
    win: bool = False
    """Whether this square is on the winning line."""
    lost: bool = False
    """Whether the winning line through it is the person's loss."""


def background(look: CellLook) -> str | None:
    """The component class whose background the square is painted with, if any:
    the winning line (or the person's loss) first, then the cursor and the hint."""
    if look.win:
        return "cell--line-lost" if look.lost else "cell--line"
    if look.cursor and look.hint:
        return "cell--cursor-hint"
    if look.cursor:
        return "cell--cursor"
    if look.hint:
        return "cell--hint"
    return None


def fill(text: Text, width: int, height: int, style: Style) -> Text:
    """``text`` centred in a ``width`` x ``height`` block painted with ``style``: what
    the square's CSS alignment does, done here so the background covers the block."""
    lines = text.split("\n", allow_blank=True)[:height] if height else []
    top = max(height - len(lines), 0) // 2
    blank = Text(" " * width)
    rows = [blank] * top + lines + [blank] * (height - top - len(lines))
    block = Text("\n").join(_centred(row, width) for row in rows)
    block.style = style
    # The labels' own styles carry the square's usual background: paint over it.
    block.stylize(Style(bgcolor=style.bgcolor), 0, len(block))
    return block


def _centred(row: Text, width: int) -> Text:
    row = row.copy()
    row.truncate(width)
    row.align("center", width)
    return row


class Cell(Widget):
    """A square that shows its mark and reports clicks."""

    DEFAULT_CSS = """
    Cell {
        width: 1fr;
        height: 1fr;
        background: $surface;
        content-align: center middle;
        text-align: center;
    }
    Cell:hover {
        background: $surface-lighten-1;
    }
    /* Painted by render (see fill): a class change would restyle the square. */
    Cell > .cell--cursor {
        background: $primary 40%;
    }
    Cell > .cell--hint {
        background: $success 30%;
    }
    Cell > .cell--cursor-hint {
        background: $success 45%;
    }
    Cell > .cell--line {
        background: $success 55%;
    }
    Cell > .cell--line-lost {
        background: $error 55%;
    }
    Cell > .cell--x {
        color: $text-accent;
        text-style: bold;
    }
    Cell > .cell--o {
        color: $text-primary;
        text-style: bold;
    }
    Cell > .cell--number {
        color: $text-muted;
    }
    Cell > .cell--last {
        color: $text-warning;
        text-style: bold;
    }
    Cell > .cell--win {
        color: $text-success;
    }
    Cell > .cell--draw {
        color: $text-warning;
    }
    Cell > .cell--loss {
        color: $text-error;
    }
    Cell > .cell--best {
        color: $text-success;
        text-style: bold;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "cell--x",
        "cell--o",
        "cell--number",
        "cell--last",
        "cell--win",
        "cell--draw",
        "cell--loss",
        "cell--best",
        "cell--cursor",
        "cell--hint",
        "cell--cursor-hint",
        "cell--line",
        "cell--line-lost",
    }

    look: reactive[CellLook] = reactive(CellLook)
    """What the square shows; a new look that equals the old one redraws nothing."""

    class Selected(Message):
        """The user clicked this square."""

        def __init__(self, index: int) -> None:
            self.index = index
            """The square's cell index, 0-based in reading order."""
            super().__init__()

    def __init__(self, index: int, look: CellLook, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.index = index
        """This square's cell index, 0-based in reading order."""
        self.set_reactive(Cell.look, look)

    def render(self) -> Text:
        """The mark drawn to the square's size, or its number and verdict, on the
        background the look calls for."""
        text = self._content()
        painted = background(self.look)
        if painted is None:
            return text
        width, height = self.content_size
        return fill(text, width, height, self.get_component_rich_style(painted))

    def _content(self) -> Text:
        width, height = self.content_size
        look = self.look
        if look.mark is not None:
            style = self.get_component_rich_style(f"cell--{look.mark.value.lower()}")
            lines = glyphs.draw(look.mark.value, width, height)
            text = Text("\n".join(lines), style=style)
            if look.last and height - len(lines) >= 2:
                # A blank line above balances the tag below, keeping the mark
                # level with the marks in the other squares.
                text = Text.assemble("\n", text, "\n", self._last_tag())
            elif look.last:
                text.stylize(Style(underline=True))
            return text
        return self._empty_text(width, height)

    def _last_tag(self) -> Text:
        return Text("last move", style=self.get_component_rich_style("cell--last"))

    def _empty_text(self, width: int, height: int) -> Text:
        look = self.look
        label = str(self.index + 1)
        if look.cursor:
            # Marked in text, not only by the background: with NO_COLOR (or to a
            # colour-blind eye) the cursor and a hinted square look alike.
            label = f"▶ {label} ◀" if width >= 5 else f"▶{label}◀"
        number = Text(label, style=self.get_component_rich_style("cell--number"))
        lines = [number]
        if look.verdict is not None:
            outcome = look.verdict.outcome.value
            lines.append(
                Text(
                    short_verdict(look.verdict, width),
                    style=self.get_component_rich_style(f"cell--{outcome}"),
                )
            )
        if look.hint:
            lines.append(
                Text(
                    "★ best" if width >= 6 else "★",
                    style=self.get_component_rich_style("cell--best"),
                )
            )
        if height < len(lines):
            lines = lines[1:] if look.verdict is not None or look.hint else lines
            lines = lines[: max(height, 1)]
        return Text("\n").join(lines)

    def on_click(self, event: Click) -> None:
        """A left click plays here; the other buttons do nothing."""
        event.stop()
        if event.button == 1:
            self.post_message(self.Selected(self.index))
