"""The terminal's own cursor, shown for a screen reader or a braille display.

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

Textual moves the terminal's cursor to ``App.cursor_position`` after every frame
(the public hook an input method uses), but its drivers hide the cursor when
they start and offer no public way to show it: Textual draws its own cursors.
Screen readers (Orca's review cursor, Speakup) and braille displays follow the
terminal's cursor, so in screen-reader mode `show_terminal_cursor` writes the
terminal's "show cursor" sequence through the app's driver (``App._driver``),
again whenever the terminal comes back from a suspension, where the driver hides
it once more. It is safe: the cursor only becomes visible; Textual still places
it after every frame, and draws each frame in one synchronized update, so it does
not wander over the screen as it is drawn. Textual's roadmap lists screen readers
as not started (Textualize/textual#2425 and #2348 ask for them). Can go when
Textual has a public way to show the terminal's cursor.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from ttt_tui.compat import Private

RELIES_ON = (Private("textual.app.App.__init__", attributes=("_driver",)),)
"""What of Textual's this module depends on, as it was checked."""

SHOW, HIDE = "\x1b[?25h", "\x1b[?25l"
"""The terminal's sequences that show and hide its cursor (DECTCEM)."""


def show_terminal_cursor(app: App[Any], shown: bool) -> None:
    """Show the terminal's cursor (where the focus is), or hide it as Textual does."""
    driver = app._driver
    if driver is not None and not app.is_headless:
        driver.write(SHOW if shown else HIDE)
        driver.flush()
