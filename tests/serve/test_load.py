"""A small load test of `ttt-tui serve` on loopback: 20 tabs at once, each playing a game.

Twenty protocol-level clients (`tests.support.serving.Tab`) open the page together,
wait until all twenty games have drawn their first frame, then each plays one
whole game against Hard by keys. Every game record must reach the database
and every result the stats, and every game process must end with its tab.

It prints the figures the README quotes: time from loading the page to the
game's first full frame, time from a key to the frame that shows its mark, and
the memory of a game process (resident, and proportional, which splits shared
pages among the processes that share them). No figure is asserted: a loaded
machine is slower, not wrong.

Bounded: 20 clients, one game each, every wait at most `DEADLINE`, loopback
only. Runs when ``TTT_LOAD_TEST=1``, as `.ci/run` sets.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from tests.support import stored
from tests.support.serving import Server, Tab, first_frame, served, square_name
from tests.support.terminal import DEADLINE, wait_until
from ttt_tui.storage import Store

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TTT_LOAD_TEST"), reason="set TTT_LOAD_TEST=1 (.ci/run does)"
    ),
    pytest.mark.skipif(sys.platform != "linux", reason="reads processes from /proc"),
]

CLIENTS = 20
"""Tabs at once."""

STARTING = 4 * DEADLINE
"""Seconds the 20 games may take to draw their first frames: they start together, and
each costs about a second of CPU (more under CI's load) on a machine with 2 cores."""

PREFERENCE = (5, 1, 3, 7, 9, 2, 4, 6, 8)
"""The order in which each client takes free squares."""


@dataclass
class Figures:
    """What the clients measured, in seconds, and the memory of the games, in KiB."""

    first_frames: list[float] = field(default_factory=list)
    keys: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    pss: list[int] = field(default_factory=list)


def memory_kib(pid: int) -> tuple[int, int]:
    """Resident and proportional set size of a process, from /proc."""
    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    values = {}
    for line in rollup.splitlines()[1:]:
        name, _, rest = line.partition(":")
        values[name] = int(rest.split()[0])
    return values["Rss"], values["Pss"]


async def one_tab(
    http: aiohttp.ClientSession,
    url: str,
    figures: Figures,
    ready: list[int],
    go: asyncio.Event,
) -> None:
    """Open the page, wait for every tab's first frame, play one game, close the tab."""
    started = time.monotonic()
    tab = await Tab.open(http, url + "/")
    assert await tab.until(first_frame, STARTING), tab.text
    figures.first_frames.append(time.monotonic() - started)
    ready.append(1)
    await go.wait()
    while not tab.game_over():
        square = next(n for n in PREFERENCE if square_name(n) not in _taken(tab))
        number = len(tab.moves()) + 1
        mark = ("X", square_name(square))
        pressed = time.monotonic()
        await tab.press(str(square))
        assert await tab.until(_shows(number, mark)), tab.text
        figures.keys.append(time.monotonic() - pressed)
        assert await tab.until(_replied(number)), tab.text
    await tab.close()


def _shows(number: int, move: tuple[str, str]) -> Callable[[Tab], bool]:
    return lambda tab: tab.moves().get(number) == move


def _replied(number: int) -> Callable[[Tab], bool]:
    return lambda tab: number + 1 in tab.moves() or tab.game_over()


def _taken(tab: Tab) -> set[str]:
    return {square for _, square in tab.moves().values()}


async def load(server: Server) -> Figures:
    figures = Figures()
    ready: list[int] = []
    go = asyncio.Event()
    async with aiohttp.ClientSession() as http:
        tabs = [
            asyncio.create_task(one_tab(http, server.url, figures, ready, go))
            for _ in range(CLIENTS)
        ]
        while len(ready) < CLIENTS:
            done = [t for t in tabs if t.done() and t.exception()]
            assert not done, done[0].exception()
            await asyncio.sleep(0.1)
        games = server.game_pids()
        assert len(games) == CLIENTS, games
        for pid in games:
            rss, pss = memory_kib(pid)
            figures.rss.append(rss)
            figures.pss.append(pss)
        go.set()
        await asyncio.gather(*tabs)
    return figures


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def test_twenty_tabs_at_once_each_play_a_game_and_every_record_is_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    options = ("--ai-delay", "0", "--difficulty", "hard", "--max-games", str(CLIENTS))
    with served(data, tmp_path / "serve.log", *options) as server:
        started = time.monotonic()
        figures = asyncio.run(load(server))
        elapsed = time.monotonic() - started
        wait_until(lambda: not server.game_pids(), "every game to end with its tab")
        server_rss, _ = memory_kib(server.process.pid)
        log = server.log.read_text()
    assert "Traceback" not in log, log

    store = Store(data)
    games = stored(store)
    assert len(games) == CLIENTS
    assert all(game.result.value in ("o_won", "draw") for game in games)
    assert sum(row.total for row in store.load_stats().rows()) == CLIENTS
    assert store.take_notices() == []

    ms = 1000
    print(
        f"\n{CLIENTS} tabs at once, one game each against Hard, in {elapsed:.1f} s:\n"
        "| measure | median | p95 | max |\n| --- | ---: | ---: | ---: |\n"
        f"| page load to first full frame | {statistics.median(figures.first_frames) * ms:.0f} ms"
        f" | {p95(figures.first_frames) * ms:.0f} ms | {max(figures.first_frames) * ms:.0f} ms |\n"
        f"| key to the frame with its mark ({len(figures.keys)} keys) |"
        f" {statistics.median(figures.keys) * ms:.0f} ms | {p95(figures.keys) * ms:.0f} ms |"
        f" {max(figures.keys) * ms:.0f} ms |\n"
        f"| memory per game, resident | {statistics.median(figures.rss) / 1024:.1f} MiB |"
        f" | {max(figures.rss) / 1024:.1f} MiB |\n"
        f"| memory per game, proportional | {statistics.median(figures.pss) / 1024:.1f} MiB |"
        f" | {max(figures.pss) / 1024:.1f} MiB |\n"
        f"server process, resident at the end: {server_rss / 1024:.1f} MiB"
    )
