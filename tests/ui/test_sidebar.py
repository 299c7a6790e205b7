"""The sidebar's controls: difficulty, mark and board, picked by a press and release or
by keys, taking effect as they say."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.widgets import Checkbox

from tests.support import (
    SIZE,
    ScriptedAI,
    Toast,
    agree_to_a_new_game,
    click_option,
    drag,
    make_app,
    marks,
    option_middle,
    play,
    records,
    selected,
    settle,
    shown_marks,
    start,
    status,
    stored,
    until,
)
from ttt_tui.engine import (
    Board,
    Difficulty,
    Player,
)
from ttt_tui.play.results import Result
from ttt_tui.play.settings import PLAYABLE_MODES, BoardSize, Mode, Settings
from ttt_tui.play.view import StatusView
from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.screens.game import MIN_HEIGHT, MIN_WIDTH
from ttt_tui.storage import Store
from ttt_tui.widgets.board import BoardView
from ttt_tui.widgets.choice import Choice
from ttt_tui.widgets.sidebar import MODE_OPTIONS, Sidebar, SidebarCheckbox, spacing_for


class ChoiceHost(App[None]):
    """A lone mode control whose picks are noted and, unless told, not acted on."""

    def __init__(self, *, act: bool) -> None:
        super().__init__()
        self.act = act
        self.picked: list[Mode] = []

    def compose(self) -> ComposeResult:
        yield Choice(MODE_OPTIONS, Mode.HUMAN_VS_AI, id="mode")

    def on_choice_changed(self, message: Choice.Changed) -> None:
        assert isinstance(message.value, Mode)
        self.picked.append(message.value)
        if self.act:
            message.choice.value = message.value


async def test_an_option_is_picked_only_by_a_press_and_release_on_it() -> None:
    """As with the board's squares: a press on one option and a release on another
    picked the one under the release (Textual makes a Click of a release over the
    widget the press was on); now it picks nothing, and a drag that comes back to the
    option it began on picks that option."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        difficulty = screen.query_one("#difficulty", Choice)
        easy, hard = option_middle(difficulty, "Easy"), option_middle(difficulty, "Hard")
        await drag(pilot, 1, easy, hard)
        await drag(pilot, 1, hard, easy)
        assert screen.session.settings.difficulty is Difficulty.MEDIUM
        await drag(pilot, 1, easy, hard, easy)
        assert screen.session.settings.difficulty is Difficulty.EASY
        await drag(pilot, 1, hard)
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert selected(pilot, "#difficulty") == "Hard"


async def test_clicking_hard_sets_the_difficulty() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert selected(pilot, "#difficulty") == "Medium"
        await click_option(pilot, "#difficulty", "Hard")
        await pilot.pause()
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert selected(pilot, "#difficulty") == "Hard"
        await click_option(pilot, "#difficulty", "Easy")
        await pilot.pause()
        assert screen.session.settings.difficulty is Difficulty.EASY
        assert selected(pilot, "#difficulty") == "Easy"


async def test_d_cycles_easy_medium_hard_and_round() -> None:
    app = make_app(difficulty=Difficulty.EASY)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert selected(pilot, "#difficulty") == "Easy"
        for expected in (Difficulty.MEDIUM, Difficulty.HARD, Difficulty.EASY):
            await pilot.press("d")
            assert screen.session.settings.difficulty is expected
            assert selected(pilot, "#difficulty") == expected.value.capitalize()


async def test_a_focused_control_s_arrows_move_a_cursor_and_enter_or_space_choose() -> None:
    """An arrow picked at once (one → on Mode or Board threw the game away) and wrapped
    round from Hard to Easy; now, as in a radio set, arrows only move the cursor, it
    stops at either end, and Enter or Space chooses."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        control = screen.query_one("#difficulty", Choice)
        control.focus()
        await pilot.pause()
        for key, cursor in [
            ("right", Difficulty.HARD),
            ("right", Difficulty.HARD),  # no wrapping round to Easy
            ("left", Difficulty.MEDIUM),
            ("left", Difficulty.EASY),
            ("left", Difficulty.EASY),
        ]:
            await pilot.press(key)
            assert control.cursor is cursor, key
            assert screen.session.settings.difficulty is Difficulty.MEDIUM, key
            assert selected(pilot, "#difficulty") == "Medium"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.session.settings.difficulty is Difficulty.EASY
        assert selected(pilot, "#difficulty") == "Easy"
        await pilot.press("right", "right", "space")
        await settle(pilot)
        assert screen.session.settings.difficulty is Difficulty.HARD
        # The arrows went to the control, not the board.
        assert screen.query_one(BoardView).cursor == 4

        # Leaving the control picks nothing, and its cursor goes back to the choice.
        await pilot.press("left")
        assert control.cursor is Difficulty.MEDIUM and control.has_class("-away")
        await pilot.press("tab")
        await settle(pilot)
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert control.cursor is Difficulty.HARD and not control.has_class("-away")


async def test_an_arrow_on_mode_or_board_leaves_the_game_in_play() -> None:
    """Tab to Mode or Board and press →: the game was abandoned at once, unasked. An
    arrow only moves the cursor; Enter chooses, and asks before the game is lost."""
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        for selector in ("#mode", "#board-size"):
            screen.query_one(selector, Choice).focus()
            await play(pilot, "right", "left", "right")
            assert marks(screen) == "X...O....", selector
            assert screen.session.game.mode is Mode.HUMAN_VS_AI
        assert stored(app.store) == []
        await play(pilot, "enter")  # Board's cursor is on 4x4: chosen, if agreed
        assert isinstance(app.screen, ConfirmScreen)
        await play(pilot, "n")  # not agreed: the game, and the focus, as they were
        assert marks(screen) == "X...O...."
        assert app.focused is screen.query_one("#board-size", Choice)
        await play(pilot, "enter")
        await agree_to_a_new_game(pilot)
        assert screen.session.game.board.n == 4
        assert [r.result for r in stored(app.store)] == [Result.ABANDONED]


async def test_a_difficulty_change_mid_game_applies_from_the_ai_s_next_move() -> None:
    ai = ScriptedAI(4, 8, 6)
    app = make_app(ai)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        await play(pilot, "d")
        assert ai.difficulties == [Difficulty.MEDIUM]
        assert selected(pilot, "#difficulty") == "Hard"
        assert marks(screen) == "X...O...."  # the change did not restart the game
        await play(pilot, "3")
        assert ai.difficulties == [Difficulty.MEDIUM, Difficulty.HARD]
        assert marks(screen) == "X.X.O...O"


async def test_choosing_o_starts_a_new_game_with_the_ai_opening_as_x() -> None:
    app = make_app(ScriptedAI(4, 0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "9")
        assert marks(screen) == "....O...X"

        await click_option(pilot, "#mark", "O (second)")
        await agree_to_a_new_game(pilot)
        await settle(pilot)

        assert screen.session.game.human is Player.O
        assert marks(screen) == "....X...."
        assert shown_marks(pilot) == "....X...."
        assert selected(pilot, "#mark") == "O (second)"
        assert status(pilot).message == "Your move (O)"
        await play(pilot, "1")
        assert marks(screen) == "OX..X...."
        assert screen.session.game.moves == [4, 0, 1]


async def test_the_result_shows_however_far_the_controls_are_scrolled() -> None:
    """The status line scrolled away with the sidebar's controls, so a person who had
    scrolled down to the Board or Coach controls never saw "AI wins"."""
    app = make_app(ScriptedAI(0, 1, 2))
    async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
        screen = await start(pilot)
        controls = screen.query_one("#sidebar-scroll", VerticalScroll)
        assert controls.max_scroll_y > 0  # the controls do not all fit: they scroll
        controls.scroll_end(animate=False)
        await play(pilot, "4", "5", "9")  # the computer takes the top row
        await settle(pilot)
        assert screen.session.game.status.winner is Player.O
        status = screen.query_one("#status")
        assert "AI wins" in str(status.render())
        assert screen.region.contains_region(status.region)
        widget, _ = screen.get_widget_at(*status.region.offset)
        assert widget is status


CONTROLS = {
    Mode.HUMAN_VS_AI: ("#mode", "#board-size", "#difficulty", "#mark"),
    Mode.TWO_PLAYERS: ("#mode", "#board-size"),
    Mode.AI_VS_AI: ("#mode", "#board-size", "#ai-x-difficulty", "#ai-o-difficulty"),
}
"""The controls each mode shows, besides the two switches and the New game button."""

STATUSES = [
    StatusView("Your move (X)", "", thinking=False, won=False, lost=False, drawn=False),
    StatusView(
        "Draw",
        "n: new game · v: review\nu: undo, to study it",
        thinking=False,
        won=False,
        lost=False,
        drawn=True,
    ),
    StatusView(
        "Thinking… (Hard)",
        "12.5 s · 1,234,567 positions · depth 17\nproving that no move loses\nm: move now",
        thinking=True, won=False, lost=False, drawn=False,
    ),
]  # fmt: skip
"""The shortest status, a game's end, and the longest: a long search's."""


@pytest.mark.parametrize("mode", PLAYABLE_MODES, ids=[mode.value for mode in PLAYABLE_MODES])
@pytest.mark.parametrize("size", [SIZE, (80, 24)], ids=["100x30", "80x24"])
async def test_the_controls_stay_put_and_in_view_whatever_the_status_says(
    size: tuple[int, int], mode: Mode
) -> None:
    """At 100x30 the options moved down two rows when the status grew ("Draw / n: new
    game / u: undo…"), under a pointer aimed a moment before; at 80x24 Difficulty sat on
    the last row under the notices, and You play, Coach, Alternate and New game had to
    be scrolled to."""
    app = make_app(ScriptedAI(), settings=Settings(mode=mode))
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = await start(pilot)
        sidebar = screen.query_one(Sidebar)
        scroll = screen.query_one("#sidebar-scroll", VerticalScroll)
        controls = [*CONTROLS[mode], "#coach", "#alternate", "#new-game"]
        where: dict[str, Region] = {}
        for status in STATUSES:
            assert sidebar.view is not None
            sidebar.view = replace(sidebar.view, status=status)
            await pilot.pause()
            shown = {c: screen.query_one(c).region for c in controls}
            assert where in ({}, shown), status.message
            where = shown
            for control, region in shown.items():
                assert scroll.region.contains_region(region), f"{control} is out of view"
        # A notice (toasts sit in the bottom right corner) covers no control.
        app.notify("Difficulty: Hard", timeout=60)
        await until(pilot, lambda: bool(screen.query(Toast)), "the notice to show")
        await until(pilot, lambda: all(t.region for t in screen.query(Toast)), "its layout")
        for toast in screen.query(Toast):
            for control, region in where.items():
                assert not toast.region.overlaps(region), f"the notice covers {control}"


@pytest.mark.parametrize("act", [False, True])
async def test_a_choice_shows_a_pick_only_once_it_takes_effect(act: bool) -> None:
    """The control showed a pick at once, so a pick that never took effect left it
    showing a mode that was not in force (CI's long Pilot fuzz, seed 194). It now
    asks, and shows what its parent then sets."""
    app = ChoiceHost(act=act)
    async with app.run_test(size=(60, 3)) as pilot:
        choice = app.query_one(Choice)
        await pilot.click(Choice, offset=(choice.size.width - 2, 0))
        await pilot.pause()
        assert app.picked == [Mode.AI_VS_AI]
        assert choice.value is (Mode.AI_VS_AI if act else Mode.HUMAN_VS_AI)


async def test_choosing_a_board_starts_a_new_game_and_keeps_the_choice(tmp_path: Path) -> None:
    """From the sidebar and from the palette's command alike; the game left behind is
    recorded as abandoned, with its board."""
    store = Store(tmp_path / "data")
    app = make_app(ScriptedAI(8), store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        choice = screen.query_one("#board-size", Choice)
        region = choice.option_region(2).translate(choice.content_offset)
        assert await pilot.click("#board-size", offset=(region.x + 1, region.y))
        await agree_to_a_new_game(pilot)
        await settle(pilot)
        assert screen.session.game.board == Board.empty(5)
        assert screen.session.settings.board is BoardSize.FIVE
        assert choice.value is BoardSize.FIVE
        assert "5x5, four in a row" in str(screen.sub_title)

        screen.action_board(4)
        await settle(pilot)
        assert screen.session.game.board == Board.empty(4)
    assert Store(tmp_path / "data").load_settings().board is BoardSize.FOUR
    [abandoned] = records(tmp_path / "data")
    assert (abandoned["n"], abandoned["k"], abandoned["result"]) == (3, 3, "abandoned")


@pytest.mark.parametrize(
    ("height", "spacing"),
    [
        (16, "-tight"),
        (24, "-tight"),
        (25, "-compact"),
        (30, "-compact"),
        (33, "-compact"),
        (34, "-roomy"),
        (60, "-roomy"),
    ],
)
def test_the_sidebar_packs_its_controls_by_the_terminal_height(height: int, spacing: str) -> None:
    """The class the game screen takes as it mounts, before Textual's first resize sets
    the same one: a first frame laid out otherwise jumps two lines as the game starts."""
    assert spacing_for(height) == spacing


async def test_a_checkbox_asks_for_its_setting_and_shows_only_what_comes_back() -> None:
    """A click asks for the other value and leaves the box as it is: only the setting,
    coming back, ticks it (Textual's checkbox ticked itself first, and the long fuzz
    found one ticked with the setting off)."""
    asked: list[bool] = []

    class Holder(App[None]):
        def compose(self) -> ComposeResult:
            yield SidebarCheckbox("Alternate who starts", False, id="alternate")

        def on_checkbox_changed(self, message: Checkbox.Changed) -> None:
            asked.append(message.value)

    app = Holder()
    async with app.run_test() as pilot:
        box = app.query_one(SidebarCheckbox)
        await pilot.click("#alternate")
        await pilot.pause()
        assert (asked, box.value, box.has_class("-on")) == ([True], False, False)
        box.show(True)
        await pilot.pause()
        assert (asked, box.value, box.has_class("-on")) == ([True], True, True)
        await pilot.press("tab", "space")
        await pilot.pause()
        assert (asked, box.value) == ([True, False], True)


# A game in progress is not thrown away by one click ------------------------------


async def test_a_board_mode_or_mark_chosen_mid_game_asks_and_n_keeps_the_game() -> None:
    """A click on another board (or mode, or mark) threw the game in progress away at
    once, recorded as abandoned, with nothing to undo. Now it asks; n, or Escape, keeps
    the game exactly as it was, the control showing it again and the focus back."""
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        for selector, label, question in (
            ("#board-size", "4x4", "Start a new 4x4 game?"),
            ("#mode", "2 players", "Start a new game, 2 players?"),
            ("#mark", "O (second)", "Start a new game as O?"),
        ):
            for answer in ("n", "escape"):
                focused = app.focused
                await click_option(pilot, selector, label)
                await pilot.pause()
                asked = app.screen
                assert isinstance(asked, ConfirmScreen), selector
                assert asked.question == f"{question} This one will be recorded as abandoned."
                await pilot.press(answer)
                await settle(pilot)
                assert app.screen is screen
                assert marks(screen) == "X...O....", selector
                assert selected(pilot, selector) != label
                assert app.focused is focused
        assert stored(app.store) == []
        await play(pilot, "u")  # undo still has the game to work on
        assert marks(screen) == "........."


async def test_the_palette_s_new_games_ask_too_and_y_starts_one(tmp_path: Path) -> None:
    app = make_app(ScriptedAI(4), store=Store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"board: 5x5", "enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await settle(pilot)
        assert screen.session.game.board == Board.empty(5)
    assert [r["result"] for r in records(tmp_path)] == ["abandoned"]


async def test_no_question_where_nothing_would_be_lost() -> None:
    """Before the first move, and once the game is over, a board is chosen at once."""
    app = make_app(ScriptedAI(8, 7))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        screen.action_board(4)
        await settle(pilot)
        assert screen.session.game.board.n == 4 and app.screen is screen
        screen.action_board(3)
        await settle(pilot)
        await play(pilot, "1", "2", "3")
        assert screen.session.game.is_over
        screen.action_board(5)
        await settle(pilot)
        assert screen.session.game.board.n == 5 and app.screen is screen
