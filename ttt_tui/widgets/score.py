"""The session score: results since the app started, labelled as such."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class Score(Widget):
    """ "This session" over the counts, e.g. ``Wins 2 · Draws 1 · Losses 0``.

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

    def render(self) -> Text:
        width = self.content_size.width
        long = " · ".join(f"{label} {count}" for label, _, count in self.counts)
        short = " · ".join(f"{short} {count}" for _, short, count in self.counts)
        line = long if len(long) <= width else short
        title = Text("This session", style=self.get_component_rich_style("score--title"))
        return Text("\n", no_wrap=True, overflow="ellipsis").join([title, Text(line)])
