"""`ttt_tui.compat.footer`: the footer shows its screen's keys from the start."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import AppBlur
from textual.widgets import Static

from tests.support import (
    FooterKey,
    styling,
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


class FooterOnly(App[None]):
    """The game's footer, showing two keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New"),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield GameFooter()


async def test_the_footer_follows_the_width_while_the_terminal_has_lost_focus() -> None:
    """Textual's footer does not rebuild while the app is unfocused: a terminal
    resized after a focus-out report kept the palette's key and cut "q Quit" (the
    long real-terminal fuzz, seed 12; a tiling window manager resizes windows
    nobody is typing in)."""

    app = FooterOnly()
    async with app.run_test(size=(100, 24)) as pilot:
        footer = app.query_one(GameFooter)
        footer.fit(100)
        await pilot.pause()
        app.post_message(AppBlur())
        await pilot.pause()
        assert not app.app_focus
        footer.fit(60)
        await pilot.pause()
        shown = [str(key.render()).strip() for key in footer.query(FooterKey)]
        assert shown == ["n New", "q Quit"]


async def test_the_footer_s_keys_are_styled_once_as_they_mount() -> None:
    """Textual's keys are born compact and then bound to the footer's compactness as
    they mount, each change restyling the key and its parts again; the footer's keys
    are built as compact as the footer, so a key is styled once as it mounts."""

    app = FooterOnly()
    async with app.run_test(size=(60, 24)) as pilot:
        footer = app.query_one(GameFooter)
        footer.fit(60)
        await pilot.pause()
        styled = styling(app)
        footer.call_later(footer.recompose)  # as the footer's own rebuilds run
        await pilot.pause()
        await pilot.pause()
        keys = list(footer.query(FooterKey))
        assert keys and all(key.has_class("-compact") for key in keys)
        assert all(styled.count(key) == 1 for key in keys)
