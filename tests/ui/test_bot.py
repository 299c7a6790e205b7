"""Your bot as a level (`ttt-tui --bot`): offered in the sidebar and the palette, it
plays the computer's moves from its process; a move it does not give is told once in
a dialog, which offers Hard or the bot again."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import (
    ScriptedAI,
    make_app,
    marks,
    play,
    selected,
    settle,
    start,
    until,
)
from tests.support.terminal import ROOT
from ttt_tui.bots.bot import load_bot
from ttt_tui.bots.player import BotPlayer
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.settings import BOT, Mode, Settings
from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.screens.help import HelpScreen
from ttt_tui.widgets.status import StatusLine

EXAMPLE = ROOT / "examples" / "bots" / "choose_move.py"


@pytest.fixture
def bot_file(tmp_path: Path) -> Iterator[Path]:
    """A bot file a test writes; the example bot until it does."""
    path = tmp_path / "bot.py"
    path.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    yield path


def started(path: Path) -> BotPlayer:
    bot = BotPlayer(load_bot(str(path), None, 5.0, option="--bot-cmd"))
    bot.start()
    return bot


def write(path: Path, source: str) -> None:
    path.write_text(textwrap.dedent(source), encoding="utf-8")


async def test_the_bot_plays_the_computer_s_moves_and_the_sidebar_names_it(
    bot_file: Path,
) -> None:
    ai = ScriptedAI()
    bot = started(bot_file)
    app = make_app(ai, bot=bot)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        assert selected(pilot, "#difficulty") == "Bot"
        assert screen.sub_title == "tic-tac-toe vs your bot"
        await pilot.press("1")  # X a1
        await until(pilot, lambda: marks(screen).count("O") == 1, "the bot answered")
        await settle(pilot)
        assert ai.calls == []  # the engine was not asked
        assert screen.session.game.levels == [None, BOT]
        # Its level is one of the palette's, beside the engine's.
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Difficulty: Your bot" in titles and "Difficulty: Hard" in titles
    await bot.close()


async def test_a_move_the_bot_does_not_give_is_told_once_and_hard_goes_on(
    bot_file: Path,
) -> None:
    write(bot_file, "def choose_move(position):\n    return 1 // 0\n")
    ai = ScriptedAI(8)
    bot = started(bot_file)
    app = make_app(ai, bot=bot)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await pilot.press("5")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.question == (
            "Your bot gave no move: ZeroDivisionError: integer division or modulo by zero."
            "\n\nGo on with Hard?"
        )
        assert screen.query_one(StatusLine).detail.startswith("ZeroDivisionError")
        await pilot.press("y")
        await until(pilot, lambda: marks(screen) == "....X...O", "Hard's move")
        assert ai.calls == [(Player.O, Difficulty.HARD)]
        assert selected(pilot, "#difficulty") == "Hard"
        assert screen.session.settings.difficulty is Difficulty.HARD
    await bot.close()


async def test_try_again_runs_the_bot_as_the_learner_has_fixed_it(bot_file: Path) -> None:
    write(bot_file, "def choose_move(position):\n    return 1 // 0\n")
    bot = started(bot_file)
    app = make_app(ScriptedAI(), bot=bot)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await pilot.press("5")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        write(bot_file, "def choose_move(position):\n    return 'c3'\n")
        await pilot.press("n")
        await until(pilot, lambda: marks(screen) == "....X...O", "the fixed bot's move")
        assert not isinstance(app.screen, ConfirmScreen)
        assert screen.session.game.levels == [None, BOT]
    await bot.close()


async def test_in_ai_vs_ai_the_bot_meets_hard(bot_file: Path) -> None:
    ai = ScriptedAI()
    bot = started(bot_file)
    settings = Settings(mode=Mode.AI_VS_AI, ai_o_difficulty=Difficulty.HARD)
    app = make_app(ai, settings=settings, bot=bot)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        assert screen.sub_title == "tic-tac-toe, your bot vs minimax"
        assert (selected(pilot, "#ai-x-difficulty"), selected(pilot, "#ai-o-difficulty")) == (
            "Bot",
            "Hard",
        )
        await until(pilot, lambda: screen.session.game.is_over, "the game's end")
        levels = screen.session.game.levels
        assert set(levels[0::2]) == {BOT} and set(levels[1::2]) == {Difficulty.HARD}
    await bot.close()


async def test_without_a_bot_nothing_offers_it() -> None:
    app = make_app(ScriptedAI())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert not any("Your bot" in title for title in titles)
        await play(pilot, "d", "d", "d")
        assert screen.session.level_of(None) is Difficulty.MEDIUM


async def test_the_offer_waits_for_a_screen_over_the_game_to_close(bot_file: Path) -> None:
    write(bot_file, "import time\ndef choose_move(position):\n    time.sleep(0.5)\n    1 // 0\n")
    bot = started(bot_file)
    app = make_app(ScriptedAI(), bot=bot)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(pilot)
        await pilot.press("5", "question_mark")
        await until(pilot, lambda: screen.session.bot_stopped is not None, "the failure")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
    await bot.close()
