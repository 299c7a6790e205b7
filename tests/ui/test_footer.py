"""The footer: the keys of the mode at hand."""

from __future__ import annotations

from tests.support import (
    SIZE,
    ScriptedAI,
    footer_keys,
    make_app,
    start,
)
from ttt_tui.widgets.score import Score


async def test_you_vs_ai_footer_and_score_label() -> None:
    """The footer has the essential keys; the score says it counts this session."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert (await footer_keys(pilot)) == [
            "n New", "u Undo", "c Coach", "i Hint", "s Stats", "? Help", "q Quit",
        ]  # fmt: skip
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session",
            "Wins 0 · Draws 0 · Losses 0",
        ]
