"""The session score: results since the app started on the board in play, labelled as such."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class Score(Widget):
    """ "This session, 3x3" over the counts, e.g. ``Wins 2 · Draws 1 · Losses 0``: they
    are kept a board apart, and the title says which.

    The counts are (label, short label, count) triples; the short labels are
    used when the long line does not fit, so the line never wraps mid-count.
    """

    DEFAULT_CSS = """
    Score {
        height: 2;
        width: 1fr;
    }
    Score > .score--title {
        color: $text-muted;
    }
    """

    COMPONENT_CLASSES = {"score--title"}

    counts: reactive[tuple[tuple[str, str, int], ...]] = reactive(tuple)
    """Each outcome's label, short label and count, in display order."""
    board: reactive[str] = reactive("3x3")
    """The board the counts are for, e.g. ``4x4``."""

    def render(self) -> Text:
        width = self.content_size.width
        long = " · ".join(f"{label} {count}" for label, _, count in self.counts)
        short = " · ".join(f"{short} {count}" for _, short, count in self.counts)
        line = long if len(long) <= width else short
        title = Text(
            f"This session, {self.board}", style=self.get_component_rich_style("score--title")
        )
        return Text("\n", no_wrap=True, overflow="ellipsis").join([title, Text(line)])
