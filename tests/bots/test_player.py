"""`ttt_tui.bots.player`: the learner's bot asked for the game's moves, off the event
loop: its moves, and each way it can fail said in one sentence; a bot started afresh
when asked to; and a bot still answering when the game ends, stopped at once."""

from __future__ import annotations

import asyncio
import re
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.support.terminal import ROOT, running
from ttt_tui.bots.bot import BotUnusable, Failure, Reply, load_bot
from ttt_tui.bots.player import PLAYS_3X3_ONLY, BotFailed, BotPlayer, failure
from ttt_tui.engine import Board, Progress

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
    bot = BotPlayer(load_bot(str(EXAMPLES / example), None, 5.0, option="--bot-cmd"))
    bot.start()
    try:
        board = Board.parse("X...O....")
        cell = await bot.choose_move(board)
        assert board[cell] is None
        # X a1, O b2, X c1: O must block at b1, the only move that does not lose.
        assert await bot.choose_move(Board.parse("XOX.O....")) == 7
    finally:
        await bot.close()


async def test_a_command_bot_answers_in_the_line_protocol() -> None:
    bot = BotPlayer(
        load_bot(
            None, f"{sys.executable} -u {EXAMPLES / 'line_protocol.py'}", 5.0, option="--bot-cmd"
        )
    )
    bot.start()
    try:
        assert await bot.choose_move(Board.parse("XOX.O....")) == 7
    finally:
        await bot.close()


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
        await bot.close()


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
    ("said", "why"),
    [
        ("z9", "an illegal answer, off the board: z9"),
        ("nowhere", "an illegal answer, unreadable: 'nowhere'"),
    ],
    ids=["off the board", "unreadable"],
)
async def test_an_answer_that_names_no_free_square_is_illegal(
    tmp_path: Path, said: str, why: str
) -> None:
    bot = player_for(tmp_path, f"def choose_move(position):\n    return {said!r}\n")
    try:
        with pytest.raises(BotFailed) as failed:
            await bot.choose_move(Board.empty(3))
        assert str(failed.value) == why
    finally:
        await bot.close()


@pytest.mark.parametrize(
    ("detail", "why"),
    [
        (
            "Traceback (most recent call last):\n  ...\nValueError: no move\n",
            "ValueError: no move",
        ),
        (
            "a warning on stderr\nit exited with status 3 without answering",
            "it exited with status 3 without answering",
        ),
        ("", "it failed"),
    ],
    ids=["traceback", "exits", "nothing said"],
)
def test_every_other_failure_is_its_detail_s_last_line(detail: str, why: str) -> None:
    """As `ttt_tui.bots.bot` words them (`tests/commands/test_check.py` runs such bots)."""
    assert failure(Reply(Board.empty(3), failure=Failure.ERROR, detail=detail)) == why


async def test_a_minimax_bot_is_not_asked_about_a_board_it_cannot_read() -> None:
    bot = BotPlayer(load_bot(str(EXAMPLES / "cs50_minimax.py"), None, 5.0, option="--bot-cmd"))
    bot.start()
    try:
        assert not bot.bot.can_play(4)
        with pytest.raises(BotFailed) as failed:
            await bot.choose_move(Board.empty(4))
        assert str(failed.value) == PLAYS_3X3_ONLY.format(n=4)
    finally:
        await bot.close()


def test_a_bot_that_cannot_load_is_unusable(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text("def choose_move(position)\n", encoding="utf-8")
    bot = BotPlayer(load_bot(str(tmp_path / "bot.py"), None, 5.0, option="--bot-cmd"))
    with pytest.raises(BotUnusable, match="a syntax error at line 1"):
        bot.start()
    with pytest.raises(BotUnusable, match="no such file"):
        load_bot(str(tmp_path / "missing.py"), None, 5.0, option="--bot-cmd")
    with pytest.raises(BotUnusable, match="give a BOT file or --bot-cmd, not both"):
        load_bot(str(tmp_path / "bot.py"), "cat", 5.0, option="--bot-cmd")


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
        await bot.close()


async def test_closing_stops_a_bot_that_is_still_answering(tmp_path: Path) -> None:
    """The game quits while the bot hangs: it is killed at once, not at its time limit,
    and nothing it started is left behind."""
    bot = player_for(tmp_path, "def choose_move(position):\n    while True: pass\n", timeout=30)
    asking = asyncio.ensure_future(bot.choose_move(Board.empty(3)))
    pid = None
    while pid is None:
        await asyncio.sleep(0.05)
        pid = bot.bot.pid
    await asyncio.sleep(0.3)
    started = time.monotonic()
    await bot.close()
    with pytest.raises(BotFailed):
        await asyncio.wait_for(asking, 5)
    assert time.monotonic() - started < 2
    assert not running(pid)
    assert bot.bot.pid is None


async def test_a_slow_bot_is_waited_for_and_says_it_is_thinking(tmp_path: Path) -> None:
    """Slow is not wrong: a bot slower than a second is waited for, within its time
    limit, and reports every second that it is still thinking."""
    bot = player_for(
        tmp_path,
        "import time\n\ndef choose_move(position):\n    time.sleep(2.5)\n    return 'b2'\n",
        timeout=30,
    )
    said: list[Progress] = []
    try:
        assert await bot.choose_move(Board.empty(3), said.append) == 4
    finally:
        await bot.close()
    assert said, "no word while the bot thought"
    assert all(
        re.fullmatch(r"Your bot is thinking… \d+ s\n\(it has up to 30 s\)", p.stage) for p in said
    )
    elapsed = [p.elapsed for p in said]
    assert elapsed == sorted(elapsed)
