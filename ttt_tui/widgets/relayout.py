"""Laying the screen out again only when a widget's height has changed.

Textual lays the whole screen out again for a widget whose content may have
changed size (``Static.update``, a reactive declared ``layout=True``): in the
explorer, whose counts change ten times a second, that was most of what the
interface did (docs/performance.md). A widget whose new content has the height
it was laid out with needs only a repaint.
"""

from __future__ import annotations

from textual.widget import Widget


def relayout_if_resized(widget: Widget) -> None:
    """Repaint ``widget``, and lay the screen out again if its content, as it renders
    now, is not as tall as it was laid out; call it after changing the content."""
    widget.refresh()  # which also forgets the content's height measured before
    width = widget.content_size.width
    height = widget.content_size.height
    if not width or widget.get_content_height(widget.size, widget.app.size, width) != height:
        widget.refresh(layout=True)
