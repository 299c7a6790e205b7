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


LOOK_CLASSES = frozenset({"-hint", "-cursor", "-win", "-lost"})
"""The classes a square's look sets, for its background."""


def _classes(look: CellLook) -> frozenset[str]:
    flags = {"-hint": look.hint, "-cursor": look.cursor, "-win": look.win, "-lost": look.lost}
    return frozenset(name for name, on in flags.items() if on)


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
    Cell.-cursor {
        background: $primary 30%;
    }
    Cell.-hint {
        background: $success 20%;
    }
    Cell.-cursor.-hint {
        background: $success 35%;
    }
    Cell.-win {
        background: $success 45%;
    }
    Cell.-win.-lost {
        background: $error 45%;
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
        # The look's classes from the start: adding them once mounted restyles the square.
        super().__init__(id=id, classes=" ".join(_classes(look)))
        self.index = index
        """This square's cell index, 0-based in reading order."""
        self.set_reactive(Cell.look, look)

    def watch_look(self, look: CellLook) -> None:
        self.set_classes(_classes(look) | (self.classes - LOOK_CLASSES))

    def render(self) -> Text:
        """The mark drawn to the square's size, or its number and verdict."""
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
