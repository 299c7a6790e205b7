"""Notifications whose toasts always get a timer that runs out.

Textual's toast rack checks that a notification has not expired, then makes its
toast, which measures the time left again and sets its timer to that. A
notification that expired between the two got a timer of a few microseconds
below zero, and Textual's timer loop spins on a negative interval for ever,
never handing back to the event loop: the app hung, drawing nothing and reading
no key (found by the real-terminal fuzz, about once in fifty runs of a seed).
"""

from __future__ import annotations

from dataclasses import dataclass
from time import time

from textual.notifications import Notification

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
