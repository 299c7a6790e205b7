"""A panel of the explorer that explains in words: a few paragraphs, the first in bold."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class ExplainText(Widget):
    """Paragraphs of text from the explorer's view; the first is the headline.

    The screen assigns `paragraphs`; the panel redraws only when they change.
    """

    DEFAULT_CSS = """
    ExplainText {
        height: auto;
        padding: 0 1;
    }
    """

    paragraphs: reactive[tuple[str, ...]] = reactive((), layout=True)
    """What the panel says, a paragraph a line; an empty string leaves a blank line."""

    def render(self) -> Text:
        text = Text()
        for index, paragraph in enumerate(self.paragraphs):
            if index:
                text.append("\n")
            text.append(paragraph, style="bold" if index == 0 else "")
        return text
