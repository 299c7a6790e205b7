"""`ttt_tui.compat.footer`: the footer shows its screen's keys from the start."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from tests.support import (
    FooterKey,
)
from ttt_tui.widgets.footer import GameFooter


async def test_the_footer_shows_its_screen_s_keys_from_the_start() -> None:
    """Textual's footer stays empty until its screen first says its bindings changed:
    a dialog opened as the game started (a key typed at once) kept the game's footer
    blank behind it, which the real-terminal fuzz saw as a screen drawn for another
    size."""

    class Bare(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("n", "new", "New")]

        def compose(self) -> ComposeResult:
            yield Static("the screen")

    app = Bare()
    async with app.run_test() as pilot:
        await pilot.pause()
        footer = GameFooter()
        await app.screen.mount(footer)  # no bindings change follows
        await pilot.pause()
        assert "n New" in [str(key.render()).strip() for key in footer.query(FooterKey)]
