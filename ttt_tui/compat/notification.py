"""Notifications whose toasts always get a timer that runs out.

Textual's toast rack checks that a notification has not expired, then makes its
toast, which measures the time left again and sets its timer to that. A
notification that expired between the two got a timer of a few microseconds
below zero, and Textual's timer loop spins on a negative interval for ever,
never handing back to the event loop: the app hung, drawing nothing and reading
no key (found by the real-terminal fuzz, about once in fifty runs of a seed).

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`). Can go when Textual's
toast clamps its timer at zero, or its timer loop handles a negative interval (no
upstream report was found; ``Toast.__init__`` still takes the time left as it is).
"""

from __future__ import annotations

from dataclasses import dataclass
from time import time

from textual.notifications import Notification

from ttt_tui.compat import Private

RELIES_ON = (
    Private("textual.notifications.Notification.time_left"),
    Private("textual.notifications.Notification.has_expired"),
)
"""What of Textual's this module depends on, as it was checked: the toast reads a
notification's time left, which `Notice` keeps above zero."""


SHORTEST_TIMER = 0.01
"""Seconds the toast of a notification that has just expired stays up, at least."""


@dataclass
class Notice(Notification):
    """A notification whose time left, as its toast reads it, is never below
    `SHORTEST_TIMER`; whether it has expired is told by the clock as before."""

    @property
    def time_left(self) -> float:
        """The time left until the notification expires, or `SHORTEST_TIMER` if less."""
        return max(self._remaining(), SHORTEST_TIMER)

    @property
    def has_expired(self) -> bool:
        """Whether the notification has expired."""
        return self._remaining() <= 0

    def _remaining(self) -> float:
        return self.raised_at + self.timeout - time()
