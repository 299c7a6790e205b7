"""The help: every binding, described, and closing it."""

from __future__ import annotations

import io

from rich.console import Console
from textual.binding import Binding
from textual.widgets import Static

from tests.support import (
    SIZE,
    make_app,
    start,
)
from ttt_tui.app import TicTacToeApp
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.help import HelpScreen
from ttt_tui.widgets.board import BoardView

KEY_NAMES = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "question_mark": "?",
    "escape": "esc",
    "colon": ":",
}
"""How the help writes keys whose binding name is a word."""


def help_text(screen: HelpScreen) -> str:
    """Everything the help screen says, as plain text."""
    console = Console(width=68, record=True, file=io.StringIO())
    for static in screen.query(Static):
        console.print(static.content)
    return console.export_text()


def documented(binding: Binding, words: set[str]) -> bool:
    """Whether the help's words name one of the binding's keys."""
    keys = binding.key.split(",")
    if keys[0].isdigit() and binding.action.startswith("digit"):
        return {"0", "9"} <= words  # "0 – 9"
    shown = {KEY_NAMES.get(key, key) for key in keys}
    if binding.key_display:
        shown.add(binding.key_display)
    return bool({name.lower() for name in shown} & words)


def test_every_binding_says_what_it_does_for_the_help() -> None:
    """The help is made from the bindings' tooltips: a binding without one would be
    missing from it. Only the AI vs AI explanation, the way back to 3x3 from a terminal
    too small for a bigger board (which that message gives), and Enter for a number
    typed from the sidebar (each key is listed once) stay out."""
    bindings = [*BoardView.BINDINGS, *GameScreen.BINDINGS, *TicTacToeApp.BINDINGS]
    silent = [b.action for b in bindings if isinstance(b, Binding) and not b.tooltip]
    assert sorted(silent) == ["board(3)", "board(4)", "computer_plays_both", "play_typed"]


async def test_help_lists_every_binding_and_closes_with_escape() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)

        words = set(help_text(help_screen).lower().split())
        bindings = [*BoardView.BINDINGS, *GameScreen.BINDINGS, *TicTacToeApp.BINDINGS]
        assert all(isinstance(binding, Binding) for binding in bindings)
        missing = [
            b.key
            for b in bindings
            if isinstance(b, Binding) and b.tooltip and not documented(b, words)
        ]
        assert not missing, f"the help does not mention {missing}"
        assert "ctrl+p" in words

        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert app.screen is screen
