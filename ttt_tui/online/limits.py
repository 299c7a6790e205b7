"""The room server's limits by default: read by the server and by the options of the
commands that run one (`ttt-tui host`, `ttt-tui serve`). Nothing but numbers, so that
every launch reads them without loading the network."""

from __future__ import annotations

DEFAULT_MAX_ROOMS = 100
"""Rooms at once unless told otherwise."""

DEFAULT_PER_ADDRESS = 16
"""Connections at once from one address unless told otherwise."""
