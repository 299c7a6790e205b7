"""A game session: who plays each side, the moves, undo and redo. No UI imports."""

from __future__ import annotations

import enum


class Mode(enum.Enum):
    """Who plays each side."""

    HUMAN_VS_AI = "human_vs_ai"
    """You against the computer."""
    TWO_PLAYERS = "two_players"
    """Two people taking turns on one keyboard."""
    AI_VS_AI = "ai_vs_ai"
    """The computer against itself, each side at its own difficulty."""
