"""A segmented control: a title, and one of a few options, picked by a click, or by the
arrow keys and Enter."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Click
from textual.geometry import Offset, Region
from textual.message import Message

from ttt_tui.widgets.cursor import follow_focus
from ttt_tui.widgets.targets import ClickTargets

E = TypeVar("E", bound=enum.Enum)
"""The kind of value a choice picks from, e.g. `Difficulty`."""


class Choice(ClickTargets[int], Generic[E], can_focus=True):
    """Options in a row, one selected, under a title. Posts `Choice.Changed` when the
    user picks one.

    It shows only what its parent sets: a pick asks for the option and leaves
    `value` alone, and the parent sets `value` once the choice has taken
    effect. So it can never show a setting that is not in force, even if a
    pick is refused or lost. Setting `value` posts nothing.

    With the focus, as in a radio set, ← and → move a cursor over the options
    (stopping at either end) and Enter or Space picks the one under it: an arrow
    alone changes nothing. (An arrow used to pick at once, so one press on Mode or
    Board threw the game in play away, and → on Hard wrapped round to Easy.)
    """

    FOCUS_ON_CLICK = False
    """A click picks an option but leaves focus where it was (the board), so the
    arrow keys keep moving the board's cursor; Tab reaches the control."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("right", "move(1)", "Next", show=False),
        Binding("enter,space", "pick_cursor", "Choose", show=False),
    ]

    DEFAULT_CSS = """
    Choice {
        height: 1;
        width: 1fr;
    }
    Choice.-titled {
        height: 3;
    }
    Choice > .choice--title {
        color: $text-muted;
    }
    Choice > .choice--key {
        color: $text-muted;
        text-style: dim;
    }
    Choice > .choice--selected {
        background: $primary;
        color: $text;
        text-style: bold;
    }
    Choice:focus > .choice--selected {
        background: $accent;
    }
    Choice:focus.-away > .choice--selected {
        background: $primary;
    }
    Choice > .choice--cursor {
        background: $accent 50%;
        color: $text;
        text-style: bold underline;
    }
    Choice > .choice--option {
        background: $surface;
        color: $text-muted;
    }
    Choice:focus > .choice--option {
        background: $surface-lighten-1;
    }
    Choice:disabled > .choice--selected {
        background: $panel;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "choice--title",
        "choice--key",
        "choice--selected",
        "choice--option",
        "choice--cursor",
    }

    class Changed(Message):
        """The user picked an option (shown once the parent sets `value`)."""

        def __init__(self, choice: Choice[Any], value: enum.Enum) -> None:
            self.choice = choice
            """The control that changed."""
            self.value = value
            """The value now selected."""
            super().__init__()

        @property
        def control(self) -> Choice[Any]:
            """The control that changed (for `@on` selectors)."""
            return self.choice

    def __init__(
        self,
        options: Sequence[tuple[E, str] | tuple[E, str, str]],
        value: E,
        *,
        title: str = "",
        key: str = "",
        inline: bool = False,
        id: str | None = None,  # noqa: A002
        classes: str | None = None,
        tooltip: str | None = None,
    ) -> None:
        """Options are (value, label) pairs, or (value, label, short label) for
        options whose label may not fit a narrow control. A ``title`` is drawn
        above the options after a blank line (or, ``inline``, before them on their
        line), followed by the keys that pick them, if any (``d``)."""
        super().__init__(id=id, classes=classes)
        self.title = title
        """What the options choose, e.g. ``Difficulty``."""
        self.key = key
        """The keys that pick the options from anywhere, shown after the title."""
        self.inline = inline
        """Whether the title shares the options' line."""
        self._reader_line = False
        """Whether `set_inline` put the title on the options' line."""
        if title and not inline:
            self.add_class("-titled")
        self.options = [(option[0], option[1]) for option in options]
        """The (value, label) pairs, in display order."""
        self.short_labels = {option[0]: option[-1] for option in options}
        """Each option's label for when its full label does not fit."""
        self._value = value
        self._cursor = self._index(value)
        """The option Enter would pick, while the control has the focus."""
        if tooltip:
            self.tooltip = tooltip

    @property
    def value(self) -> E:
        """The selected option's value."""
        return self._value

    @value.setter
    def value(self, value: E) -> None:
        if value != self._value:
            self._value = value
            self._move_cursor(self._index(value))
            self.refresh()

    @property
    def cursor(self) -> E:
        """The option under the cursor (the selected one, unless the arrows moved it)."""
        return self.options[self._cursor][0]

    def _index(self, value: E) -> int:
        values = [option for option, _ in self.options]
        return values.index(value) if value in values else 0

    def _move_cursor(self, index: int) -> None:
        self._cursor = index
        self.set_class(index != self._index(self._value), "-away")
        self.refresh()
        follow_focus(self)

    def cursor_spot(self) -> Offset:
        """Where the terminal's cursor goes while the control has the focus (a screen
        reader follows it): on the option under its cursor, the chosen one unless
        the arrows moved it."""
        region = self.option_region(self._cursor)
        shown = self._shown(self._cursor, region.width)
        left = len(shown) - len(shown.lstrip(" "))  # its first letter, as `render` centres it
        return self.content_region.offset + region.offset + Offset(left, 0)

    def set_inline(self, inline: bool) -> None:
        """Draw the title before the options, on their line (``inline``; without the key,
        to leave the options room), or above them. In screen-reader mode the line the
        terminal's cursor sits on then names the control, for a braille display or a
        screen reader reading that line."""
        if inline != self._reader_line:
            self.inline = self._reader_line = inline
            self.set_class(bool(self.title) and not inline, "-titled")
            self.refresh(layout=True)
            follow_focus(self)

    def _shown(self, index: int, width: int) -> str:
        """Option ``index``'s label as drawn ``width`` cells wide: centred, or its short
        label where the whole one would run into the next."""
        value, label = self.options[index]
        if len(label) >= width:
            label = self.short_labels[value]
        return label[: max(width, 1)].center(width)

    def on_focus(self) -> None:
        follow_focus(self)

    def on_blur(self) -> None:
        """The cursor goes back to the selected option: leaving picks nothing."""
        self._move_cursor(self._index(self._value))

    def _heading(self) -> Text:
        heading = Text(self.title, style=self.get_component_rich_style("choice--title"))
        if self.key and not self._reader_line:  # there, the room is the options'.
            heading.append(f"  ({self.key})", style=self.get_component_rich_style("choice--key"))
        return heading

    def _spans(self) -> list[tuple[int, int]]:
        """Each option's start and end column."""
        left = self._heading().cell_len + 1 if self.inline and self.title else 0
        width = max(self.content_size.width - left, 1)
        count = len(self.options)
        edges = [left + round(i * width / count) for i in range(count + 1)]
        return list(zip(edges, edges[1:], strict=False))

    def option_region(self, index: int) -> Region:
        """Where an option is drawn, relative to the control's content area."""
        start, end = self._spans()[index]
        return Region(start, self.content_size.height - 1, end - start, 1)

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        if self.title and self.inline:
            text.append_text(self._heading())
            text.append(" ")
        elif self.title:
            if self.content_size.height > 2:  # a blank line above, where there is room
                text.append("\n")
            text.append_text(self._heading())
            text.append("\n")
        spans = zip(self.options, self._spans(), strict=True)
        for index, ((value, _), (start, end)) in enumerate(spans):
            shown = self._shown(index, end - start)
            if value == self.value:
                part = "choice--selected"
            elif index == self._cursor and self.has_focus:
                part = "choice--cursor"
            else:
                part = "choice--option"
            text.append(shown, style=self.get_component_rich_style(part))
        return text

    def _pick(self, index: int) -> None:
        value = self.options[index][0]
        if value != self.value:
            self.post_message(self.Changed(self, value))

    def action_move(self, delta: int) -> None:
        """Move the cursor to the previous or next option, stopping at either end."""
        self._move_cursor(min(max(self._cursor + delta, 0), len(self.options) - 1))

    def action_pick_cursor(self) -> None:
        """Pick the option under the cursor."""
        self._pick(self._cursor)

    def target_at(self, offset: Offset) -> int | None:
        """The index of the option at an offset in the content area, if any."""
        options = range(len(self.options))
        return next((i for i in options if self.option_region(i).contains_point(offset)), None)

    def on_click(self, event: Click) -> None:
        """A left click picks the option under it (the press on it too: `ClickTargets`);
        the other buttons, and clicks on the title, do nothing."""
        index = self.clicked(event)
        if index is not None:
            self._pick(index)
