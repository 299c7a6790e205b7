"""The command palette: Textual's, made safe against input that races its closing.

Checked with Textual 8.2.0 to 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

A real terminal delivers a double click, or a key and a click, in one read.
Textual 8.2.8's palette crashed the app on such races, all found by the
real-terminal fuzz (tests/terminal/test_fuzz.py) and each reproduced in
tests/compat/test_palette.py:

- a second click on the background (or a second Enter) closed it twice, and
  the second close popped the game screen under it (`ScreenStackError`);
- closing it while it still gathered commands left its worker querying a
  list that was gone (`NoMatches` for ``CommandList``);
- page up or down before its list was laid out looked up a line that did not
  exist yet (`KeyError` in `OptionList._move_page`);
- a click on a line drawn just before the list changed picked an option that
  no longer existed (`IndexError` in `OptionList._on_click`);
- its "No matches found" countdown could end while it was closing, and then
  looked for a list that was gone (`NoMatches` for ``CommandList``);
- an arrow or page key that reached it while its list was not there looked the
  list up all the same (`NoMatches` for ``CommandList`` again).
- closed before it had mounted (the terminal shrank below the minimum size as
  it opened), its mount looked for the screen under it past the end of the
  stack (`IndexError` in `CommandPalette._on_mount`);
- a click where no widget is (off the screen: the terminal shrank under the
  pointer between the press and the release) was looked up all the same
  (`NoWidget` in `CommandPalette._on_click`).
- keys that came right behind the Escape closing it went to it all the same:
  Textual routes a key to the focus of the moment it takes the key, and the
  palette closes only once its Escape has gone through its input and back up
  to the app. Its input took the q of Escape and q (always when they come in
  one read, which Textual takes for alt+q and the game splits in two; and apart
  too, whenever the app was busy: a storm of resizes on a loaded machine), and
  the game did not quit (issue 35, point 10; the real-terminal fuzz's seed 12).
  The app now closes the palette the moment the Escape arrives (`GamePalette.escape`),
  so what follows goes where the person meant it: tests/terminal/test_exits.py
  repeats Escape and q over the palette in a resize storm beside busy processes.

The fixes reach into a few of the palette's and the option list's private
methods (``RELIES_ON``). Each can go when the race it answers no longer crashes
Textual's own palette: the tests above reproduce every one. Upstream: the double
close is Textual's `Screen.dismiss` popping whatever is on top (Textualize/textual#4884;
the guard 0.25.0 added for #2575 went in 8.0.0, PR #6362); textual#5544 and #6308
are other palette crashes of the same kind.
"""

from __future__ import annotations

from textual import events, work
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.command import CommandList, CommandPalette
from textual.css.query import NoMatches
from textual.errors import NoWidget
from textual.timer import Timer, TimerCallback

from ttt_tui.compat import Private
from ttt_tui.compat.option_list import OptionListFixes
from ttt_tui.compat.screen import ScreenFixes

RELIES_ON = (
    Private("textual.command.CommandPalette._on_mount", "(self, _: 'Mount') -> 'None'"),
    Private("textual.command.CommandPalette._on_click", "(self, event: 'Click') -> 'None'"),
    Private("textual.command.CommandPalette._GATHER_COMMANDS_GROUP"),
    Private(
        "textual.command.CommandPalette._gather_commands", "(self, search_value: 'str') -> 'None'"
    ),
    Private("textual.command.CommandPalette._action_escape", "(self) -> 'None'", "16dae44f8205"),
    Private("textual.message_pump.MessagePump.__init__", attributes=("_closing",)),
    Private("textual.dom.DOMNode.__init__", attributes=("_pruning",)),
)
"""What of Textual's this module depends on, as it was checked."""


class SafeCommandList(CommandList, OptionListFixes):
    """The palette's list, ignoring page keys and clicks that race its updates
    (`ttt_tui.compat.option_list`)."""


class GamePalette(CommandPalette, ScreenFixes[object]):
    """Textual's command palette, closing once however fast the input comes."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield SafeCommandList() if type(widget) is CommandList else widget

    def _on_mount(self, event: events.Mount) -> None:
        """Textual's mount, unless the palette was closed before it mounted: it looks
        for the screen under it one place down the stack, which is then past the end."""
        if self not in self.app.screen_stack:
            event.prevent_default()  # Textual's `CommandPalette._on_mount` does not run

    def _on_click(self, event: events.Click) -> None:  # type: ignore[override]
        """Textual's, unless no widget is where the click is (off a screen that has just
        shrunk): it does nothing, where Textual's lookup raised `NoWidget`."""
        try:
            self.get_widget_at(event.screen_x, event.screen_y)
        except NoWidget:
            event.prevent_default()  # Textual's `CommandPalette._on_click` does not run

    LIST_ACTIONS = frozenset({"cursor_down", "command_list"})
    """The palette's key actions that work on its list."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The list's keys do nothing while the list is not there (not yet mounted, or
        already removed as the palette closes)."""
        if action in self.LIST_ACTIONS and not self.query(CommandList):
            return False
        return super().check_action(action, parameters)

    def escape(self) -> None:
        """Close now, as the palette's Escape does (its search stopped, `CommandPalette.Closed`
        posted), for the app to call as an Escape arrives: the keys behind it then go to
        the screen beneath, not into the palette's input (the module says why)."""
        self._action_escape()

    def dismiss(self, result: object = None) -> AwaitComplete:
        """Close, unless already closed: a second close would pop the screen beneath."""
        if self.app.screen is not self:
            return AwaitComplete()
        return super().dismiss(result)  # type: ignore[arg-type]

    def set_timer(
        self,
        delay: float,
        callback: TimerCallback | None = None,
        *,
        name: str | None = None,
        pause: bool = False,
    ) -> Timer:
        """Textual's timers (the palette's "busy" and "No matches found" countdowns),
        doing nothing once the palette has begun to close."""

        def unless_closing() -> object:
            if self._pruning or self._closing or callback is None:
                return None
            return callback()

        return super().set_timer(delay, unless_closing, name=name, pause=pause)

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        """Textual's gathering, which may find its list gone if the palette closed meanwhile."""
        gather = CommandPalette._gather_commands.__wrapped__  # type: ignore[attr-defined]
        try:
            await gather(self, search_value)
        except NoMatches:
            if self.app.screen is self and self.is_attached:
                raise
            # Closed while gathering: there is nowhere to show the commands.
