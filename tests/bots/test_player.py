"""`ttt_tui.bots.player`: the learner's bot asked for the game's moves, off the event
loop: its moves, and each way it can fail said in one sentence; a bot started afresh
when asked to; and a bot still answering when the game ends, stopped at once."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.support.terminal import ROOT, running
from ttt_tui.bots.player import PLAYS_3X3_ONLY, BotFailed, BotPlayer, failure
from ttt_tui.bots.sandbox import BotUnusable, load_bot
from ttt_tui.engine import Board
from ttt_tui.teach.check import Answer, Problem

EXAMPLES = ROOT / "examples" / "bots"


def player_for(tmp_path: Path, source: str, timeout: float = 5.0) -> BotPlayer:
    """A started player for a bot written from ``source``."""
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    bot = BotPlayer(load_bot(str(path), None, timeout, option="--bot-cmd"))
    bot.start()
    return bot


@pytest.mark.parametrize("example", ["choose_move.py", "cs50_minimax.py"])
async def test_an_example_bot_answers_with_a_free_square(example: str) -> None:
    bot = BotPlayer(load_bot(str(EXAMPLES / example), None, option="--bot-cmd"))
    bot.start()
    try:
        board = Board.parse("X...O....")
        cell = await bot.choose_move(board)
        assert board[cell] is None
        # X a1, O b2, X c1: O must block at b1, the only move that does not lose.
        assert await bot.choose_move(Board.parse("XOX.O....")) == 7
    finally:
        bot.close()


async def test_a_command_bot_answers_in_the_line_protocol() -> None:
    bot = BotPlayer(
        load_bot(None, f"{sys.executable} -u {EXAMPLES / 'line_protocol.py'}", option="--bot-cmd")
    )
    bot.start()
    try:
        assert await bot.choose_move(Board.parse("XOX.O....")) == 7
    finally:
        bot.close()


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("return 1 // 0", "ZeroDivisionError: integer division or modulo by zero"),
        ("return 1", "an illegal answer, a taken square: a1"),
        ("while True: pass", "no answer in 0.5 s"),
    ],
    ids=["raises", "taken", "hangs"],
)
async def test_a_failing_bot_says_why_in_one_sentence(tmp_path: Path, body: str, why: str) -> None:
    """A bot that never answers is given up at its 0.5 s limit: if the limit were not
    kept, `verdict` fails here, saying so, instead of the whole run waiting on it."""
    bot = player_for(tmp_path, f"def choose_move(position):\n    {body}\n", timeout=0.5)
    try:
        with pytest.raises(BotFailed) as failed:
            await verdict(bot, Board.parse("X........"))
        assert str(failed.value) == why
        # Nothing it did stops the next position being asked.
        with pytest.raises(BotFailed):
            await verdict(bot, Board.parse("X........"))
    finally:
        bot.close()


PATIENCE = 20.0
"""Seconds a test waits for the bot's move or its failure: far beyond any time limit the
tests give a bot, so that only a limit not kept at all runs it out."""


async def verdict(bot: BotPlayer, board: Board) -> int:
    """The bot's move, or its `BotFailed`; fails the test if neither comes in `PATIENCE`
    seconds (``close`` then stops the bot and the thread that waits on it)."""
    try:
        return await asyncio.wait_for(bot.choose_move(board), PATIENCE)
    except TimeoutError:
        pytest.fail(
            f"no move and no failure from the bot in {PATIENCE:g} s: its time limit was not kept"
        )


@pytest.mark.parametrize(
    ("problem", "detail", "why"),
    [
        (Problem.ILLEGAL, "off the board: z9", "an illegal answer, off the board: z9"),
        (Problem.ILLEGAL, "unreadable: 'nowhere'", "an illegal answer, unreadable: 'nowhere'"),
        (
            Problem.ERROR,
            "Traceback (most recent call last):\n  ...\nValueError: no move\n",
            "ValueError: no move",
        ),
        (
            Problem.ERROR,
            "a warning on stderr\nit exited with status 3 without answering",
            "it exited with status 3 without answering",
        ),
        (Problem.ERROR, "", "it failed"),
    ],
    ids=["off the board", "unreadable", "traceback", "exits", "nothing said"],
)
def test_every_other_failure_is_its_detail_s_last_line(
    problem: Problem, detail: str, why: str
) -> None:
    """As the sandbox words them (`tests/commands/test_check.py` runs such bots)."""
    assert failure(Answer(Board.empty(3), problem=problem, detail=detail)) == why


async def test_a_minimax_bot_is_not_asked_about_a_board_it_cannot_read() -> None:
    bot = BotPlayer(load_bot(str(EXAMPLES / "cs50_minimax.py"), None, option="--bot-cmd"))
    bot.start()
    try:
        assert not bot.bot.can_play(4)
        with pytest.raises(BotFailed) as failed:
            await bot.choose_move(Board.empty(4))
        assert str(failed.value) == PLAYS_3X3_ONLY.format(n=4)
    finally:
        bot.close()


def test_a_bot_that_cannot_load_is_unusable(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text("def choose_move(position)\n", encoding="utf-8")
    bot = BotPlayer(load_bot(str(tmp_path / "bot.py"), None, option="--bot-cmd"))
    with pytest.raises(BotUnusable, match="a syntax error at line 1"):
        bot.start()
    with pytest.raises(BotUnusable, match="no such file"):
        load_bot(str(tmp_path / "missing.py"), None, option="--bot-cmd")
    with pytest.raises(BotUnusable, match="give a BOT file or --bot-cmd, not both"):
        load_bot(str(tmp_path / "bot.py"), "cat", option="--bot-cmd")


async def test_a_restarted_bot_reads_its_file_again(tmp_path: Path) -> None:
    """Try again, after a failure, runs the file as the learner has fixed it."""
    bot = player_for(tmp_path, "def choose_move(position):\n    return 1 // 0\n")
    try:
        with pytest.raises(BotFailed):
            await bot.choose_move(Board.empty(3))
        (tmp_path / "bot.py").write_text("def choose_move(position):\n    return 'b2'\n")
        with pytest.raises(BotFailed):
            await bot.choose_move(Board.empty(3))  # the same process: the old code
        bot.restart()
        assert await bot.choose_move(Board.empty(3)) == 4
    finally:
        bot.close()


async def test_closing_stops_a_bot_that_is_still_answering(tmp_path: Path) -> None:
    """The game quits while the bot hangs: it is killed at once, not at its time limit,
    and nothing it started is left behind."""
    bot = player_for(tmp_path, "def choose_move(position):\n    while True: pass\n", timeout=30)
    process = bot.bot.process
    assert process is not None
    asking = asyncio.ensure_future(bot.choose_move(Board.empty(3)))
    await asyncio.sleep(0.3)
    started = time.monotonic()
    bot.close()
    with pytest.raises(BotFailed):
        await asyncio.wait_for(asking, 5)
    assert time.monotonic() - started < 2
    assert not running(process.pid)
    assert bot.bot.process is None
