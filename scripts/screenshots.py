"""Screenshots of ttt-tui: drives the real app headless and saves SVGs (and PNGs).

    python scripts/screenshots.py                 # every shot into screenshots/
    python scripts/screenshots.py won help        # just these
    python scripts/screenshots.py --no-png        # SVG only

The computer is scripted (it plays the first free square of a list) and does
not pause to think, so every run draws the same pictures. Settings and stats
go to a throwaway directory, never to yours. PNGs need cairosvg; the SVG's
"Fira Code" is swapped for "DejaVu Sans Mono" first, as cairosvg cannot fetch
web fonts. To add a shot, add a `Shot` to `SHOTS`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from textual.pilot import Pilot  # noqa: E402
from textual.worker import WorkerCancelled  # noqa: E402

from ttt_tui.app import TicTacToeApp  # noqa: E402
from ttt_tui.commands.online import OnlineApp  # noqa: E402
from ttt_tui.engine import Board, CancelCheck, Cell, Difficulty  # noqa: E402
from ttt_tui.online.client import RoomClient  # noqa: E402
from ttt_tui.online.protocol import read_state  # noqa: E402
from ttt_tui.online.room import Seat  # noqa: E402
from ttt_tui.online.server import RoomServer  # noqa: E402
from ttt_tui.play.settings import BoardSize  # noqa: E402
from ttt_tui.screens.online import OnlineScreen  # noqa: E402
from ttt_tui.search.client import ThreadSearcher  # noqa: E402
from ttt_tui.storage import Store  # noqa: E402

MoveChooser = Callable[[Board, Difficulty, random.Random, CancelCheck | None], Cell]

PNG_WIDTH = 1400
"""Width in pixels of a PNG of a `SIZE` terminal; other sizes scale, keeping the font size."""
SIZE = (100, 30)
"""Terminal size of every shot unless it says otherwise."""


@dataclass(frozen=True)
class Shot:
    """One screenshot: the keys that lead to it and the computer's script."""

    name: str
    """File name without extension."""
    keys: Sequence[str] = ()
    """Keys pressed in turn; the computer replies after each."""
    script: Sequence[Cell] | None = ()
    """Squares the computer prefers, in order; None for the real engine (seeded)."""
    size: tuple[int, int] = SIZE
    """Terminal columns and rows."""
    board: BoardSize | None = None
    """The board played on (the saved one, 3x3, if None)."""
    difficulty: Difficulty | None = None
    """The computer's level (the saved one, Medium, if None)."""
    screen_reader: bool = False
    """Whether the game is in screen-reader mode."""
    left: Sequence[str] = ()
    """Keys of a game an earlier run played and left unfinished, which this one offers
    back (none: no earlier run)."""


def typed(text: str) -> list[str]:
    """The key names that type `text`."""
    return ["space" if char == " " else char for char in text]


SHOTS = [
    Shot("opening"),
    Shot("in-progress", keys=["5", "3"], script=[0, 6, 8]),
    Shot("won", keys=["1", "2", "3"], script=[8, 7]),
    Shot("lost", keys=["4", "5", "9"], script=[0, 1, 2]),
    Shot("minimum", keys=["5", "3"], script=[0, 6, 8], size=(56, 16)),
    Shot("help", keys=["question_mark"]),
    Shot("too-small", size=(40, 12)),
    Shot("coach", keys=["5", "c"], script=[0]),
    Shot("hint", keys=["5", "3", "i"], script=[0, 6, 8]),
    Shot("stats", keys=["1", "2", "3", "s"], script=[8, 7]),
    Shot("games", keys=["1", "2", "3", "n", "4", "5", "3", "s", "g"], script=[8, 7, 6]),
    Shot("resume", left=["1", "1", "6"], script=[0, 15], board=BoardSize.FOUR),
    Shot("ai-vs-ai", keys=["ctrl+p", *typed("ai vs ai"), "enter"], script=None),
    Shot("board-4x4", keys=["1", "1", "6", "c"], script=[0, 15], board=BoardSize.FOUR),
    Shot(
        "board-5x5",
        keys=["1", "3", "7", "c"],
        script=None,
        board=BoardSize.FIVE,
        difficulty=Difficulty.HARD,
    ),
    Shot("minimum-5x5", keys=["1", "3", "7"], script=[0, 24], size=(72, 24), board=BoardSize.FIVE),
    Shot("explorer", keys=["5", "e", "down", "enter", "down"], script=[0]),
    Shot("explorer-line", keys=["5", "e", "b", "full_stop", "full_stop"], script=[0]),
    Shot("explorer-search", keys=["5", "e", "s"], script=[0]),
    Shot("explorer-walk", keys=["5", "e", "a", "right_square_bracket"], script=[0]),
    Shot("explorer-guarantee", keys=["5", "e", "g"], script=[0]),
    Shot("explorer-5x5", keys=["1", "3", "7", "e"], script=[0, 24], board=BoardSize.FIVE),
    Shot("review", keys=["4", "5", "9", "v", "left"], script=[0, 1, 2]),
    Shot("puzzles", keys=["z", "1"], script=[0], size=(110, 30)),
    Shot(
        "screen-reader",
        keys=["5", "colon", *typed("board"), "enter", *typed("c3")],
        script=[0],
        screen_reader=True,
    ),
]


def scripted(script: Sequence[Cell]) -> MoveChooser:
    """A move chooser that plays the first free square of `script`, else the first free one."""

    def choose(
        board: Board,
        difficulty: Difficulty,
        rng: random.Random,
        cancelled: CancelCheck | None = None,
    ) -> Cell:
        return next(c for c in list(script) + list(range(board.size)) if board[c] is None)

    return choose


async def settle(pilot: Pilot[None]) -> None:
    """Let the computer's move land and the screen catch up."""
    while True:
        try:
            await pilot.app.workers.wait_for_complete()
        except WorkerCancelled:
            continue  # the next turn cancels the worker whose move it applied
        break
    await pilot.pause()


ONLINE = "online"
"""The online game's shot: the host's screen mid-game, the invites below the board."""


class FixedTokens:
    """Room names and secrets that are the same at every run (for the pictures only)."""

    ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, size: int) -> str:
        self.count += 1
        seeded = random.Random(self.count)
        return "".join(seeded.choice(self.ALPHABET) for _ in range((size * 4 + 2) // 3))


async def take_online(out: Path) -> Path:
    """The host's screen mid-game against a scripted friend, on a server on loopback;
    the invites name a home network's address, as `ttt-tui host` shows them."""
    server = RoomServer(token=FixedTokens())
    port = await server.start("127.0.0.1", 0)
    try:
        name = server.create_room(host_name="Ann", grace=120.0)
        local = server.invites(name, "127.0.0.1", port)
        shown = server.invites(name, "192.168.1.20", 8765)
        host = RoomClient(local[Seat.HOST], "Ann")
        await host.connect()
        friend = RoomClient(local[Seat.GUEST], "Bob")
        await friend.connect()
        screen = OnlineScreen(
            host, record=lambda record: None, invites=(shown[Seat.GUEST].url, shown[None].url)
        )
        app = OnlineApp(screen, "textual-dark")
        async with app.run_test(size=SIZE) as pilot:
            for key, reply in (("5", 0), ("9", 2)):
                await pilot.press(key)
                await friend_moves(friend, reply)
                for _ in range(100):
                    if screen.view is not None and screen.view.moves[-1:] == (reply,):
                        break
                    await pilot.pause(0.02)
            await pilot.pause(0.2)
            path = Path(app.save_screenshot(filename=f"{ONLINE}.svg", path=str(out)))
        await friend.close()
        await host.close()
        return path
    finally:
        await server.stop()


async def friend_moves(friend: RoomClient, cell: Cell) -> None:
    """The scripted friend plays ``cell`` once it is their turn."""
    while True:
        message = await friend.receive()
        assert message is not None
        if message["type"] == "state":
            view = read_state(message)
            if len(view.moves) % 2 == 1:
                await friend.move(view.game, len(view.moves), cell)
                return


async def take(shot: Shot, out: Path) -> Path:
    """Run the app to the shot's state and save it as SVG."""
    store = Store(enabled=False)
    if shot.left:
        store = Store(Path(os.environ["TTT_TUI_DATA_DIR"]) / shot.name)
        await play(shot, shot.left, Store(store.directory), resume=True)
    return await play(shot, shot.keys, store, resume=bool(shot.left), out=out)


async def play(
    shot: Shot, keys: Sequence[str], store: Store, *, resume: bool, out: Path | None = None
) -> Path:
    """Run the app, press ``keys``, then save the screen into ``out`` as SVG, or quit."""
    if shot.script is None:
        app = TicTacToeApp(
            ai_delay=0, seed=1, board=shot.board, difficulty=shot.difficulty, store=store
        )
    else:
        searcher = ThreadSearcher(scripted(shot.script))
        app = TicTacToeApp(
            ai_delay=0,
            seed=1,
            searcher=searcher,
            board=shot.board,
            screen_reader=shot.screen_reader,
            store=store,
            resume=resume,
        )
    async with app.run_test(size=shot.size) as pilot:
        await pilot.pause()
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        if out is None:
            await pilot.press("q")
            return Path()
        await pilot.wait_for_scheduled_animations()
        # What widgets do after the next refresh (the move list scrolling to the last
        # move) comes a frame or two later.
        await pilot.pause(0.2)
        return Path(app.save_screenshot(filename=f"{shot.name}.svg", path=str(out)))


def to_png(svg: Path, columns: int) -> Path | None:
    """Convert with cairosvg, if it is installed; the PNG's path, or None."""
    try:
        import cairosvg
    except ImportError:
        return None
    text = svg.read_text(encoding="utf-8").replace("Fira Code", "DejaVu Sans Mono")
    png = svg.with_suffix(".png")
    cairosvg.svg2png(
        bytestring=text.encode("utf-8"),
        write_to=str(png),
        output_width=PNG_WIDTH * columns // SIZE[0],
    )
    return png


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="shots to take (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots", help="output folder")
    parser.add_argument("--no-png", action="store_true", help="write SVG only")
    args = parser.parse_args(argv)

    known = {shot.name: shot for shot in SHOTS}
    unknown = [name for name in args.names if name not in known and name != ONLINE]
    if unknown:
        choices = ", ".join([*known, ONLINE])
        parser.error(f"unknown shot {', '.join(unknown)}; choose from {choices}")
    shots = [known[name] for name in args.names if name != ONLINE]
    online = ONLINE in args.names or not args.names
    if not args.names:
        shots = SHOTS

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ttt-tui-screenshots-") as data:
        os.environ["TTT_TUI_DATA_DIR"] = data
        for shot in shots:
            svg = asyncio.run(take(shot, args.out))
            png = None if args.no_png else to_png(svg, shot.size[0])
            written = [svg] if png is None else [svg, png]
            print(*written)
        if online:
            svg = asyncio.run(take_online(args.out))
            png = None if args.no_png else to_png(svg, SIZE[0])
            print(*([svg] if png is None else [svg, png]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
