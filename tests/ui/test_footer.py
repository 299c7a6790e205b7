"""The footer and the titles: the keys of the mode at hand, the score's board and who
plays."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import AppBlur
from textual.widgets import Static

from tests.support import (
    SIZE,
    ScriptedAI,
    cell_look,
    footer_keys,
    make_app,
    play,
    resize,
    settle,
    start,
)
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.explorer import ExplorerScreen
from ttt_tui.screens.game import EXPLORE_KEY_WIDTH
from ttt_tui.widgets.footer import GameFooter
from ttt_tui.widgets.score import Score


async def test_you_vs_ai_footer_and_score_label() -> None:
    """The footer has the essential keys; the score says it counts this session."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert (await footer_keys(pilot)) == [
            "n New", "u Undo", "c Coach", "i Hint", "s Stats", "e Explore", "? Help", "q Quit",
        ]  # fmt: skip
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session, 3x3",
            "Wins 0 · Draws 0 · Losses 0",
        ]


async def test_redo_is_offered_while_there_is_something_to_redo() -> None:
    """The footer never offered r, even right after an undo."""
    app = make_app(ScriptedAI(4, 8))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play(pilot, "1", "2")
        assert "r Redo" not in await footer_keys(pilot)
        await play(pilot, "u")
        keys = await footer_keys(pilot)
        assert keys[:3] == ["n New", "u Undo", "r Redo"]
        await play(pilot, "r")
        assert "r Redo" not in await footer_keys(pilot)
        await play(pilot, "u", "3")  # a new move: nothing left to redo
        assert "r Redo" not in await footer_keys(pilot)


async def test_explore_is_offered_where_the_footer_has_room_and_e_works_anywhere() -> None:
    """The footer never offered e: the explorer was found only through the help or the
    palette. Where it is shown, the widest footer (Redo too) still fits whole."""
    app = make_app(ScriptedAI(4, 8))
    async with app.run_test(size=(EXPLORE_KEY_WIDTH, 30)) as pilot:
        screen = await start(pilot)
        await play(pilot, "1", "2", "u")
        assert "e Explore" in await footer_keys(pilot)
        for item, _start, end in screen.query_one(GameFooter).placed():
            assert end <= EXPLORE_KEY_WIDTH, f"{item.description} is cut"

        await resize(pilot, EXPLORE_KEY_WIDTH - 1, 30)
        assert "e Explore" not in await footer_keys(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen

        await resize(pilot, EXPLORE_KEY_WIDTH, 30)
        assert "e Explore" in await footer_keys(pilot)


async def test_the_score_names_its_board_and_the_title_who_plays() -> None:
    """The session's score is kept a board apart, and says which; the title says who
    plays (it said "vs minimax" in two-player mode too)."""
    app = make_app(ScriptedAI(), settings=Settings(mode=Mode.TWO_PLAYERS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.sub_title == "tic-tac-toe, 2 players"
        await play(pilot, "1", "4", "2", "5", "3")  # X wins on 3x3
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session, 3x3",
            "X wins 1 · O wins 0 · Draws 0",
        ]
        screen.action_board(4)
        await settle(pilot)
        assert screen.sub_title == "4x4, four in a row, 2 players"
        assert str(screen.query_one(Score).render()).splitlines() == [
            "This session, 4x4",
            "X wins 0 · O wins 0 · Draws 0",
        ]
        screen.apply(screen.session.set_mode(Mode.HUMAN_VS_AI))
        await settle(pilot)
        assert screen.sub_title == "4x4, four in a row, vs minimax"


# The footer itself: its keys fitted to the width, following its screen's keys -----------


class Keys(App[None]):
    """Four keys, Undo disabled, and the game's footer under a Static."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move", "Move", key_display="↑↓←→"),
        Binding("n", "new", "New", tooltip="A new game"),
        Binding("u", "undo", "Undo"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("the screen")
        yield GameFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "undo" else True

    def action_new(self) -> None:
        self.pressed.append("n")

    def action_move(self) -> None:
        self.pressed.append("up")


async def bottom_line(
    width: int, keys: type[Keys] = Keys
) -> tuple[str, dict[str, tuple[int, int]]]:
    """The footer's line at ``width``, a column a character (the second column of a wide
    one blank), and each key's columns, by its key."""
    app = keys()
    async with app.run_test(size=(width, 5)) as pilot:
        footer = app.query_one(GameFooter)
        footer.fit(width)
        await pilot.pause()
        plain = footer.render().plain
        text = "".join(char.ljust(cell_len(char)) for char in plain)
        return text, {item.key: (start, end) for item, start, end in footer.placed()}


async def test_wide_every_key_is_padded_and_the_palette_s_key_is_at_the_right_end() -> None:
    text, spots = await bottom_line(100)
    assert text.startswith(" ↑↓←→ Move  n New  u Undo  q Quit ")
    assert text.rstrip().endswith("▏^p palette")
    assert len(text) == 100
    assert text[slice(*spots["n"])] == " n New "
    assert spots["ctrl+p"][1] == 100


async def test_narrow_every_label_is_whole_without_padding_or_the_palette_s_key() -> None:
    text, spots = await bottom_line(60)
    assert text.split() == ["↑↓←→", "Move", "n", "New", "u", "Undo", "q", "Quit"]
    assert text[slice(*spots["q"])] == "q Quit"
    assert "ctrl+p" not in spots


async def test_a_footer_narrower_than_its_keys_cuts_them_at_its_edge() -> None:
    text, spots = await bottom_line(12)
    assert text[:12] == "↑↓←→ Move n "  # the widget draws its first 12 columns
    assert list(spots) == ["up", "n"]


class WideKeys(Keys):
    """A key shown with a character two columns wide."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "wide", "Wide", key_display="全"),
        *Keys.BINDINGS,
    ]


async def test_a_key_two_columns_wide_takes_two_columns() -> None:
    text, spots = await bottom_line(60, WideKeys)
    start, end = spots["w"]
    assert end - start == 7  # "全 Wide"
    assert text[start:end] == "全  Wide"  # the character's second column blank here
    assert text[:start].split()[-2:] == ["q", "Quit"]  # the key after Quit, one column on
    assert text[start - 2 : start] == "t "


async def test_a_disabled_key_is_dimmed_and_a_key_under_the_pointer_lit() -> None:
    app = Keys()
    async with app.run_test(size=(60, 5)) as pilot:
        footer = app.query_one(GameFooter)
        footer.fit(60)
        await pilot.pause()
        spots = {item.key: (start, end) for item, start, end in footer.placed()}

        def look(key: str) -> tuple[object, ...]:
            return cell_look(app.screen.get_style_at(spots[key][0], 4))

        unlit_n = look("n")
        assert look("u")[0] != unlit_n[0]  # Undo is disabled: its key dimmed
        await pilot.hover(GameFooter, offset=(spots["n"][0], 0))
        await pilot.pause()
        assert look("n") != unlit_n
        await pilot.hover(GameFooter, offset=(spots["q"][0], 0))
        await pilot.pause()
        assert look("n") == unlit_n


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
        assert "n New" in footer.render().plain


async def test_the_footer_follows_the_width_while_the_terminal_has_lost_focus() -> None:
    """Textual's footer does not rebuild while the app is unfocused: a terminal
    resized after a focus-out report kept the palette's key and cut "q Quit" (the
    long real-terminal fuzz, seed 12; a tiling window manager resizes windows
    nobody is typing in)."""
    app = Keys()
    async with app.run_test(size=(100, 24)) as pilot:
        footer = app.query_one(GameFooter)
        footer.fit(100)
        await pilot.pause()
        assert "^p palette" in footer.render().plain
        app.post_message(AppBlur())
        await pilot.pause()
        assert not app.app_focus
        footer.fit(60)
        await pilot.pause()
        assert footer.render().plain.split() == [
            "↑↓←→",
            "Move",
            "n",
            "New",
            "u",
            "Undo",
            "q",
            "Quit",
        ]


async def test_a_press_on_a_key_presses_it_and_on_a_disabled_one_rings() -> None:
    app = Keys()
    bells: list[None] = []
    app.bell = lambda: bells.append(None)  # type: ignore[method-assign]
    async with app.run_test(size=(60, 5)) as pilot:
        footer = app.query_one(GameFooter)
        footer.fit(60)
        await pilot.pause()
        spots = {item.key: (start, end) for item, start, end in footer.placed()}
        await pilot.mouse_down(GameFooter, offset=(spots["n"][0] + 2, 0))
        await pilot.mouse_down(GameFooter, offset=(spots["up"][1] - 1, 0))
        await pilot.pause()
        assert app.pressed == ["n", "up"]
        await pilot.mouse_down(GameFooter, offset=(spots["u"][0], 0))
        await pilot.pause()
        assert app.pressed == ["n", "up"] and len(bells) == 1
        await pilot.mouse_down(GameFooter, offset=(59, 0))  # no key there
        await pilot.pause()
        assert app.pressed == ["n", "up"] and len(bells) == 1


async def test_a_key_under_the_pointer_says_what_its_tooltip_says() -> None:
    app = Keys()
    async with app.run_test(size=(60, 5)) as pilot:
        footer = app.query_one(GameFooter)
        footer.fit(60)
        await pilot.pause()
        spots = {item.key: (start, end) for item, start, end in footer.placed()}
        await pilot.hover(GameFooter, offset=(spots["n"][0], 0))
        assert footer.tooltip == "A new game"
        await pilot.hover(GameFooter, offset=(spots["q"][0], 0))
        assert footer.tooltip is None
