"""The footer: the screen's keys, fitted to the terminal's width.

The game's own rather than Textual's ``Footer``, for what a player met with
Textual's (8.2): it stays blank until its screen's bindings first change, so a
dialog opened as the game started (a key typed at once) kept the game's footer
empty behind it (Textualize/textual#4550 and #4565 are reports of the same
kind); and it skips every rebuild while the app has lost the focus, so a
terminal resized then kept the palette's key and cut "q Quit" until it was
focused again (found by the real-terminal fuzz; no upstream report found).
Mending either in a subclass of Textual's needs its private
``Footer._bindings_ready``. This one shows the screen's keys from the start and
follows them whenever they change, whatever has the focus, with every label
whole at any width the game plays at (`fit`). It looks and answers as Textual's
does (the theme's footer colours, keys lit under the pointer with their
tooltips, a press on a key pressing it and on a disabled one ringing). Can go
when Textual's footer shows its screen's keys on mount and rebuilds while the
app is unfocused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.events import Leave, MouseDown, MouseMove
from textual.reactive import reactive
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen

COMFORTABLE_WIDTH = 80
"""Narrowest terminal whose footer fits every key with room to spare."""

DIVIDER = "▏"
"""Drawn left of the palette's key, as Textual's footer draws its ``vkey`` border."""


class FooterItem(NamedTuple):
    """One key as the footer shows it."""

    key: str
    """The key a click on it presses (``n``)."""
    key_display: str
    """How the key is shown (``n``, ``↑↓←→``, ``^p``)."""
    description: str
    """What it does (``New``)."""
    action: str
    """The action it is bound to (``new_game``)."""
    enabled: bool
    """Whether it does something now: a disabled key is dim, and a click on it rings."""
    tooltip: str
    """What it says under the pointer, if anything."""
    palette: bool = False
    """Whether it is the command palette's key, at the right end."""


class Placed(NamedTuple):
    """A key and the columns it takes: ``start`` up to, not including, ``end``."""

    item: FooterItem
    start: int
    end: int


ShownKeys = tuple[FooterItem, ...]


class GameFooter(Widget, can_focus=False):
    """The keys that work now, each with its label whole at any width the game plays at."""

    DEFAULT_CSS = """
    GameFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .game-footer--item {
            background: $footer-item-background;
        }
        .game-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        .game-footer--disabled {
            text-style: dim;
        }
        .game-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .game-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .game-footer--divider {
            color: $foreground 20%;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "game-footer--item",
        "game-footer--hover",
        "game-footer--disabled",
        "game-footer--key",
        "game-footer--description",
        "game-footer--divider",
    }

    ALLOW_SELECT = False

    compact: reactive[bool] = reactive(False)
    """Keys close together, as on a narrow terminal (`fit`)."""
    show_command_palette: reactive[bool] = reactive(True)
    """Whether the palette's key is shown at the right end."""

    def __init__(self) -> None:
        super().__init__()
        self._items: ShownKeys | None = None
        """The keys shown, once read from the screen."""
        self._hover: FooterItem | None = None
        """The key under the pointer."""

    def fit(self, width: int) -> None:
        """Fit the keys to a terminal this wide: below `COMFORTABLE_WIDTH` every key
        keeps its label whole only without padding, and without the palette's key
        (the help and the palette still list it)."""
        self.compact = width < COMFORTABLE_WIDTH
        self.show_command_palette = width >= COMFORTABLE_WIDTH

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def watch_compact(self) -> None:
        self.refresh()

    def watch_show_command_palette(self) -> None:
        self._update_items()

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen:
            self._update_items()

    def _update_items(self) -> None:
        if self.is_attached and (items := self._read_items()) != self._items:
            self._items = items
            if self._hover not in items:
                self._hover_over(None)
            self.refresh()

    @property
    def items(self) -> ShownKeys:
        """The keys shown, in order, the palette's last if shown."""
        if self._items is None:
            self._items = self._read_items()
        return self._items

    def _read_items(self) -> ShownKeys:
        """The screen's keys as Textual's footer shows them: those bound with ``show``,
        one a action (its first key), and the palette's key if it is shown."""
        app = self.app
        active_bindings = self.screen.active_bindings
        items: list[FooterItem] = []
        actions: set[str] = set()
        for _node, binding, enabled, tooltip in active_bindings.values():
            if binding.show and binding.action not in actions:
                actions.add(binding.action)
                display = app.get_key_display(binding)
                items.append(
                    FooterItem(
                        binding.key, display, binding.description, binding.action, enabled, tooltip
                    )
                )
        palette = active_bindings.get(app.COMMAND_PALETTE_BINDING)
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE and palette is not None:
            _node, binding, enabled, _tooltip = palette
            items.append(
                FooterItem(
                    binding.key,
                    app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    enabled,
                    binding.tooltip or binding.description,
                    palette=True,
                )
            )
        return tuple(items)

    def _parts(self, item: FooterItem) -> tuple[str, str]:
        """A key's two parts as drawn, padding included: its key and its description."""
        compact = self.compact or item.palette  # the palette's key is always compact
        key = item.key_display if compact else f" {item.key_display} "
        if not item.description:
            return item.key_display, ""
        return key, f" {item.description}" if compact else f"{item.description} "

    def placed(self) -> list[Placed]:
        """Each key shown and its columns, the palette's last: a key that does not fit
        whole is cut at the palette's key, or at the right edge, as in Textual's footer."""
        width = self.size.width
        palette = next((item for item in self.items if item.palette), None)
        right = width
        placed: list[Placed] = []
        if palette is not None:
            key, description = self._parts(palette)
            length = cell_len(DIVIDER + key + description) + (0 if self.compact else 1)
            right = max(width - length, 0)
            placed.append(Placed(palette, right, width))
        x = 0
        keys: list[Placed] = []
        for item in self.items:
            if item.palette:
                continue
            key, description = self._parts(item)
            if x >= right:
                break
            end = x + cell_len(key + description)
            keys.append(Placed(item, x, end))
            x = end + (1 if self.compact else 0)
        return keys + placed

    def item_at(self, x: int) -> FooterItem | None:
        """The key drawn at column ``x`` of the footer, if any (the palette's over a key
        it cuts)."""
        return next((p.item for p in reversed(self.placed()) if p.start <= x < p.end), None)

    def _styles(self, item: FooterItem) -> tuple[Style, Style, Style]:
        """A key's styles: under it all, its key's, its description's."""
        layers = ["game-footer--item"]
        if item == self._hover:
            layers.append("game-footer--hover")
        if not item.enabled:
            layers.append("game-footer--disabled")
        # Each part layered over the key's own look, as a part of Textual's footer key
        # is over the key: the visual style adds one component's background to the next.
        return (
            self.get_visual_style(*layers).rich_style,
            self.get_visual_style(*layers, "game-footer--key").rich_style,
            self.get_visual_style(*layers, "game-footer--description").rich_style,
        )

    def render(self) -> Text:
        line = Text(no_wrap=True, overflow="crop", end="")
        x = 0
        for item, start, end in self.placed():
            if start > x:
                line.append(" " * (start - x))
            elif start < x:  # the palette's key, over the end of a key it cuts
                line.truncate(start)
            base, key_style, description_style = self._styles(item)
            key, description = self._parts(item)
            drawn = Text.assemble((key, key_style), (description, description_style))
            if item.palette:
                # As Textual draws a border: its colour over the key's look unlit.
                look = self.get_visual_style("game-footer--item", "game-footer--divider")
                divider = Style(color=look.rich_style.color)
                padding = " " * (end - start - cell_len(DIVIDER) - drawn.cell_len)
                drawn = Text.assemble((DIVIDER, divider), drawn, padding)
            drawn.stylize_before(base)
            line.append_text(drawn)
            x = end
        return line

    def on_mouse_move(self, event: MouseMove) -> None:
        self._hover_over(self.item_at(event.x))

    def on_leave(self, event: Leave) -> None:
        self._hover_over(None)

    def _hover_over(self, item: FooterItem | None) -> None:
        if item != self._hover:
            self._hover = item
            self.tooltip = item.tooltip if item is not None and item.tooltip else None
            self.refresh()

    def on_mouse_down(self, event: MouseDown) -> None:
        """A press on a key presses it, as on Textual's footer; on a disabled one, a bell."""
        item = self.item_at(event.x)
        if item is None:
            return
        if item.enabled:
            self.app.simulate_key(item.key)
        else:
            self.app.bell()
