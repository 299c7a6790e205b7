"""The command palette: the game's commands, what it offers in each mode, and no
command running once the app is quitting."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import OptionList

from tests.support import (
    SIZE,
    Notes,
    ScriptedAI,
    make_app,
    marks,
    play,
    selected,
    settle,
    start,
)
from ttt_tui.app import TicTacToeApp
from ttt_tui.engine import (
    Difficulty,
)
from ttt_tui.play.settings import Mode
from ttt_tui.screens.explorer import ExplorerScreen
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.help import HelpScreen
from ttt_tui.storage import Store
from ttt_tui.widgets.board import BoardView


async def type_in_palette(pilot: Pilot[None], text: str) -> list[str]:
    """Open the command palette, type, and return the prompts it offers, best first."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*("space" if ch == " " else ch for ch in text))
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    options = pilot.app.screen.query_one(OptionList)
    return [
        str(options.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(options.option_count)
    ]


async def test_command_palette_starts_a_new_game_and_sets_the_difficulty() -> None:
    app = make_app(ScriptedAI(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play(pilot, "1")
        assert marks(screen) == "X...O...."

        offered = await type_in_palette(pilot, "new game")
        assert offered[0] == "New game"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert marks(screen) == "........."

        offered = await type_in_palette(pilot, "hard")
        assert offered[0] == "Difficulty: Hard"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert selected(pilot, "#difficulty") == "Hard"


async def test_the_palette_offers_undo_redo_hint_pause_and_marks() -> None:
    def titles(app: TicTacToeApp) -> set[str]:
        return {command.title for command in app.get_system_commands(app.screen)}

    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert {"Undo", "Redo", "Hint", "Play as X", "Play as O"} <= titles(app)
        screen.apply(screen.session.set_mode(Mode.AI_VS_AI))
        screen.action_pause()
        await pilot.pause()
        assert "Resume" in titles(app) and "Undo" not in titles(app)
        screen.action_pause(False)
        assert "Pause" in titles(app)


async def test_the_palette_offers_no_maximize() -> None:
    """Textual's Maximize, picked in the palette by typed keys (the real-terminal fuzz
    did), filled the screen with the board on a hatching: no status, no keys."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        assert app.screen.focused is not None and app.screen.focused.allow_maximize
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert "Maximize" not in titles
        assert {"Keys", "Quit", "Theme"} <= titles  # Textual's other commands stay


async def test_palette_commands_do_not_run_once_the_app_is_quitting() -> None:
    """The palette runs a chosen command after it has closed (``call_later``): Enter on
    a command and q in one read began the quit first, and the command then worked on
    a game screen that was gone (Textual's Keys command: MountError). A command that
    comes due after the quit has begun does nothing."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await pilot.press("5")
        await settle(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        await app.action_quit()
        for title in ("Keys", "New game", "Stats", "Help"):
            await commands[title].callback()
        assert app.screen is screen
        assert not screen.query("HelpPanel")
        assert screen.session.game.moves == [4, 0]  # no new game
    assert app.return_code == 0


async def test_the_palettes_keys_command_opens_the_games_help() -> None:
    """Textual's Keys command docked its keys panel beside the game, which squeezed the
    game below its minimum width (footer cut, title shortened: the real-terminal fuzz
    found it at 71x21) and stayed over the "too small" message. Keys opens the help,
    which lists every key and what it does: the game's, or the explorer's."""
    app = make_app(ScriptedAI())
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        await commands["Keys"].callback()
        await pilot.pause()
        game_help = app.screen
        assert isinstance(game_help, HelpScreen)
        assert game_help.rows == HelpScreen(BoardView, GameScreen, app=TicTacToeApp).rows
        assert not app.query("HelpPanel")
        await pilot.press("escape")
        await pilot.press("e")
        await pilot.pause()
        explorer = app.screen
        assert isinstance(explorer, ExplorerScreen)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        await commands["Keys"].callback()
        await pilot.pause()
        explorer_help = app.screen
        assert isinstance(explorer_help, HelpScreen)
        assert "stop counting, or count again" in [what for _, what in explorer_help.rows]
        assert not app.query("HelpPanel")


async def take_screenshot(pilot: Pilot[None]) -> None:
    """Choose Screenshot in the palette and wait for the picture to be saved."""
    assert (await type_in_palette(pilot, "screenshot"))[0] == "Screenshot"
    await pilot.press("enter")
    await settle(pilot)


async def test_the_palette_s_screenshot_goes_to_the_current_folder_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual saves it in ~/Downloads, and where there is none (a server, a container,
    a fresh account) said only "Failed to save screenshot"."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no Downloads folder
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    app = make_app(ScriptedAI())
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await take_screenshot(pilot)
        await take_screenshot(pilot)  # the same second: a second name, nothing overwritten
    pictures = sorted(here.iterdir())
    assert len(pictures) == 2, notes.messages
    for picture in pictures:
        assert picture.name.startswith("ttt-tui-") and picture.suffix == ".svg"
        assert picture.read_text(encoding="utf-8").startswith("<svg")
        assert f"Saved {picture}" in notes.messages


async def test_a_screenshot_the_current_folder_cannot_take_goes_to_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A current folder gone: the data directory's screenshots folder, made for it, and
    the notice says why; where nothing takes it, the notice says why."""
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    data = tmp_path / "data"
    app = make_app(ScriptedAI(), store=Store(data))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await take_screenshot(pilot)
        (picture,) = (data / "screenshots").iterdir()
        assert notes.messages[-1] == (
            f"Saved {picture} (the current folder: No such file or directory)"
        )

        (data / "screenshots").rename(data / "moved")
        (data / "screenshots").write_text("a file where the folder would go")
        await take_screenshot(pilot)
    last = notes.notices[-1]
    assert last.severity == "error"
    assert last.message == (
        "Not saved: the current folder: No such file or directory;"
        f" {data / 'screenshots'}: File exists"
    )
