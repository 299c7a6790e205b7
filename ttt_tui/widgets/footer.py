"""The footer: the screen's keys, fitted to the terminal's width."""

from __future__ import annotations

from ttt_tui.compat.footer import SteadyFooter

COMFORTABLE_WIDTH = 80
"""Narrowest terminal whose footer fits every key with room to spare."""


class GameFooter(SteadyFooter):
    """The keys that work now, each with its label whole at any width the game plays at."""

    def fit(self, width: int) -> None:
        """Fit the keys to a terminal this wide: below `COMFORTABLE_WIDTH` every key
        keeps its label whole only without padding, and without the palette's key
        (the help and the palette still list it)."""
        self.compact = width < COMFORTABLE_WIDTH
        self.show_command_palette = width >= COMFORTABLE_WIDTH
