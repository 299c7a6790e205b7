"""The move history: every move with readable coordinates, the latest highlighted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from ttt_tui.engine import Cell
from ttt_tui.play.game import move_name


@dataclass(frozen=True, slots=True)
class MoveList:
    """What the history shows."""

    moves: tuple[Cell, ...] = ()
    """The moves played, in order."""
    undone: tuple[Cell, ...] = ()
    """Moves taken back that redo would replay, in the order they would come."""
    n: int = 3
    """Squares per side of the board, which the squares' names depend on."""


class History(VerticalScroll, can_focus=False):
    """Moves played, then moves undone (dimmed) that redo would replay."""

    DEFAULT_CSS = """
    History {
        height: 1fr;
        min-height: 2;
        background: $surface;
        scrollbar-size-vertical: 1;
    }
    History > .history--latest {
        background: $primary 40%;
        text-style: bold;
    }
    History > .history--undone {
        color: $text-disabled;
        text-style: italic;
    }
    History > .history--empty {
        color: $text-muted;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "history--latest",
        "history--undone",
        "history--empty",
    }

    record: reactive[MoveList] = reactive(MoveList, repaint=False)
    """The moves played and the moves taken back, on a board of a given size."""

    _follow = 0
    """The line the list keeps at its top: the one before the latest move."""

    def compose(self) -> ComposeResult:
        yield Static(id="history-lines")

    def on_mount(self) -> None:
        self._render_lines()

    def watch_record(self) -> None:
        self._render_lines()

    @property
    def moves(self) -> tuple[Cell, ...]:
        """The moves played, in order."""
        return self.record.moves

    @property
    def undone(self) -> tuple[Cell, ...]:
        """Moves taken back that redo would replay, in the order they would come."""
        return self.record.undone

    def describe(self, ply: int, cell: Cell) -> str:
        """One move as people read it, e.g. `` 3. X b2``."""
        return f"{ply + 1:>2}. {move_name(ply, cell, self.record.n)}"

    def _render_lines(self) -> None:
        shown = self.query("#history-lines").results(Static)
        target = next(shown, None)
        if target is None:
            return  # not composed yet: on_mount draws the lines
        lines: list[Text] = []
        if not self.moves and not self.undone:
            lines.append(Text("No moves yet", self.get_component_rich_style("history--empty")))
        last = len(self.moves) - 1
        latest = self.get_component_rich_style("history--latest")
        for ply, cell in enumerate(self.moves):
            lines.append(Text(self.describe(ply, cell).ljust(12), latest if ply == last else ""))
        undone = self.get_component_rich_style("history--undone")
        for offset, cell in enumerate(self.undone):
            line = f"{self.describe(len(self.moves) + offset, cell)}  undone"
            lines.append(Text(line, undone))
        text = Text("\n", no_wrap=True, overflow="ellipsis").join(lines)
        target.update(text)
        self._follow = max(0, last - 1)
        self.call_after_refresh(self._show_latest)

    def watch_virtual_size(self) -> None:
        """The lines grew or shrank: the latest move may have gone out of view."""
        self._show_latest()

    def _show_latest(self) -> None:
        """Scroll to the latest move, with the one before it above it.

        Once after the next refresh, and again whenever the lines' size changes: under
        a dialog the refresh comes before the layout that makes room for a new line,
        and a scroll then stopped short of it (AI vs AI picked in the palette showed
        moves 1 to 6 of 8, now and then)."""
        self.scroll_to(y=self._follow, animate=False)
