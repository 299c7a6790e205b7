"""Fuzz the installed `ttt-tui` in a real pseudo-terminal with raw bytes (issue 8).

The Pilot fuzz (`tests/ui/test_fuzz.py`) posts events straight into the app, so it never
exercises Textual's driver. This one starts the `ttt-tui` console script next to
``sys.executable`` in a pseudo-terminal, as a person's terminal emulator would,
and writes to it what such a terminal sends: printable keys and every bound key,
arrow, Home/End and F1-F12 escape sequences in their CSI and SS3 forms (some
with modifiers), SGR mouse reports (press, release, drag, hover and scroll, each
button, with modifier bits, at any cell and sometimes outside the window),
focus reports, bracketed pastes, bursts of several of these in one write,
resizes (the window size set on the pty, then SIGWINCH), and the help, stats,
confirm and command-palette screens opened and closed.

What it draws goes into a terminal emulator (`pyte`). After each batch of events
the app must still be running, show something a person would recognise for the
window's current size (the game, a dialog, or the "Terminal too small" message
with the right size in it) and have written no crash report.

A run is a few *lives* sharing one data directory, so later lives read what
earlier ones wrote. A life ends as a person might end it: escape a few times,
then ``q`` followed at once by other keys in the same write (``q`` then ``s``
once crashed the app while it shut down). The app must then exit with status 0,
restore the terminal without printing anything, leave no process behind and no
crash report, and leave valid data files: ``settings.json`` and ``stats.json``
JSON objects, every ``games.jsonl`` line a JSON object, the games of earlier
lives still there, and no file set aside as corrupt. Keys typed into the
command palette can pick its Quit command; a life that ends that way is checked
the same way (counted as ``palette_quits``).

The byte stream is a pure function of the seed (`draw_plan`), except for the
extra escapes and ``q`` sent if a life did not end when asked (counted as
``retries``). What the app does with it also depends on timing, so a failure
names the seed, the life, the event index and the events before it, and may need
a rerun or two to repeat.

Environment: ``TTT_TERM_FUZZ_EVENTS=N`` sets the events per seed (a long run),
``TTT_TERM_FUZZ_SEEDS=1,2,3`` the seeds. ``-s -n 0`` shows one summary line per
seed; the figures are also junit properties (``--junitxml``) and `FIGURES`.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pytest

from tests.support import games_in_play
from tests.support.terminal import (
    Terminal,
    TerminalFailed,
    game_env,
    installed_command,
    visible,
)
from ttt_tui.play.settings import BoardSize
from ttt_tui.screens.game import MIN_SIZES
from ttt_tui.storage import DATABASE_FILE, GameRecord, Store
from ttt_tui.storage.store import COUNTED_FROM_RECORDS

DEFAULT_SEEDS = (1,)
"""Seeds of the short run in the normal suite (.ci/run's long run takes four more)."""
DEFAULT_EVENTS = 100
"""Events per seed in the short run."""


def _env_int_list(name: str) -> tuple[int, ...] | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    return tuple(int(part) for part in raw.replace(" ", "").split(",") if part)


SEEDS = _env_int_list("TTT_TERM_FUZZ_SEEDS") or DEFAULT_SEEDS
"""The seeds to run: ``TTT_TERM_FUZZ_SEEDS`` or the defaults."""
EVENTS = int(os.environ.get("TTT_TERM_FUZZ_EVENTS") or DEFAULT_EVENTS)
"""Events per seed: ``TTT_TERM_FUZZ_EVENTS`` or the default."""

SCREEN_READER = os.environ.get("TTT_TERM_FUZZ_SCREEN_READER") == "1"
"""Whether the app runs in screen-reader mode (`TTT_TERM_FUZZ_SCREEN_READER=1`): its
cursor shown on the focus, its announcement line drawn (.ci/run runs a seed so)."""

EVENTS_PER_LIFE = 250
"""About how many events one run of the app gets before it is quit; at least two lives."""
AI_DELAY = "0.05"
"""The computer's least thinking time: short, so that its moves land between events."""
MIN_WIDTH, MIN_HEIGHT = MIN_SIZES[BoardSize.THREE]
"""The smallest board's minimum size, below which every board says it is too small."""
ROOMY_WIDTH = max(width for width, _ in MIN_SIZES.values())
ROOMY_HEIGHT = max(height for _, height in MIN_SIZES.values())
"""The biggest board's minimum size: at least this, every board's game fits."""

START_TIMEOUT = 30.0
"""Seconds the app may take to draw its first screen on a busy machine."""
DRAW_TIMEOUT = 10.0
"""Seconds the app may take to show a recognisable screen after a batch."""
EXIT_TIMEOUT = 8.0
"""Seconds ``q`` may take to end the app before the escapes and ``q`` are sent again."""
MAX_FAILURES = 10
"""Failed lives per seed before the seed stops."""
FULL_REPORTS = 3
"""Failures per seed reported in full; the later ones in a line or two."""

CRASH_REPORT = "ttt-tui-crash-*.txt"
DATA_FILES = ("settings.json", DATABASE_FILE, f"{DATABASE_FILE}-wal", f"{DATABASE_FILE}-shm")

HEADER = "ttt-tui — tic-tac-toe vs minimax"
PALETTE = "Search for commands"
"""The palette's prompt."""
LANDMARKS = (
    HEADER,  # the game, and under the palette
    "q Quit",  # the game's footer, which notifications never cover (they cover the header)
    "esc Close",  # the game's footer while its move box (:) has the focus
    "How to play",  # help
    "Esc to close",  # help, cropped
    "All-time stats",  # stats
    "Reset all-time stats",  # the confirmation
    "ttt-tui — puzzles",  # the puzzles
    "esc Game",  # the puzzles' footer, whose "q Quit" a narrow window cuts off
    PALETTE,
)
"""Text that shows which screen is up, at the minimum size or larger."""
TOO_SMALL_SIZE = re.compile(r"too small: (\d+)x(\d+)")
DIALOG_EDGE = re.compile(r"╭─[^╭╮╰╯│]*╮|╰─[^╭╮╰╯│]*╯")
"""The top edge of a dialog's frame (its title in it, perhaps), or its bottom edge."""
DIALOG_ROW = re.compile(r"│[^╭╮╰╯│]*\S[^╭╮╰╯│]*│")
FRAMED_ROW = re.compile(r"│[^╭╮╰╯│]*│")
"""A row of a dialog, blank or not, between its frame's two sides."""
"""A row of a dialog with something in it, from its left side to its right."""
NARROWEST_DIALOG = 52
"""Columns of the narrowest dialog's frame: an edge this long is a whole dialog's."""
NARROW = 20
"""Columns under which no dialog shows a whole edge."""
SHORT = 10
"""Rows under which no dialog shows both its top and bottom edges."""
MOUSE_REPORT = re.compile(rb"\x1b\[<(\d+);\d+;\d+([Mm])")
"""An SGR mouse report: its button code, and M for a press or motion, m for a release."""


# What a terminal sends -------------------------------------------------------


ESC = b"\x1b"
BOUND_KEYS: tuple[tuple[str, bytes, float], ...] = (
    *((str(n), str(n).encode(), 3) for n in range(1, 10)),
    ("up", b"\x1b[A", 1),
    ("down", b"\x1b[B", 1),
    ("right", b"\x1b[C", 1),
    ("left", b"\x1b[D", 1),
    ("up (SS3)", b"\x1bOA", 0.5),
    ("down (SS3)", b"\x1bOB", 0.5),
    ("right (SS3)", b"\x1bOC", 0.5),
    ("left (SS3)", b"\x1bOD", 0.5),
    *((key, key.encode(), 0.5) for key in "hjkl"),
    ("enter", b"\r", 2),
    ("space", b" ", 2),
    *((key, key.encode(), 3) for key in "ndurci"),
    ("p", b"p", 2),
    ("s", b"s", 1.5),
    ("?", b"?", 1.5),
    ("R", b"R", 1),
    ("y", b"y", 1),
    ("v", b"v", 1),
    ("g", b"g", 1),
    ("escape", ESC, 8),
    ("tab", b"\t", 2),
    ("shift+tab", b"\x1b[Z", 2),
    ("ctrl+p", b"\x10", 1),
    ("ctrl+c", b"\x03", 0.5),
    # The move box, a screen-reader user's way to play: in screen-reader runs only, so
    # that the other seeds keep the plans their figures in docs/reliability.md came from.
    *([(":", b":", 1.0)] if SCREEN_READER else []),
)
"""Every key bound on some screen, as a terminal sends it, and how often it comes.
``q`` and ctrl+q quit, so they only end a life; escape comes often enough that
the screens it closes do not stay up for long."""

OTHER_KEYS: tuple[tuple[str, bytes], ...] = (
    *(
        (ch, ch.encode())
        for ch in "abefmotwxzABCDEFGHIJKLMNOPQSTUVWXYZ0!@#$%^&*()-=+[]{};:'\",.<>/\\|`~"
    ),
    *((ch, ch.encode()) for ch in ("é", "ß", "→", "€", "日", "🙂")),
    ("home", b"\x1b[H"),
    ("end", b"\x1b[F"),
    ("home (vt)", b"\x1b[1~"),
    ("end (vt)", b"\x1b[4~"),
    ("insert", b"\x1b[2~"),
    ("delete", b"\x1b[3~"),
    ("pageup", b"\x1b[5~"),
    ("pagedown", b"\x1b[6~"),
    ("backspace", b"\x7f"),
    ("ctrl+h", b"\x08"),
    ("ctrl+a", b"\x01"),
    ("ctrl+l", b"\x0c"),
    ("ctrl+z", b"\x1a"),
    ("shift+up", b"\x1b[1;2A"),
    ("alt+down", b"\x1b[1;3B"),
    ("ctrl+right", b"\x1b[1;5C"),
    ("ctrl+shift+left", b"\x1b[1;6D"),
    ("alt+x", b"\x1bx"),
    ("alt+enter", b"\x1b\r"),
    ("f1", b"\x1bOP"),
    ("f2", b"\x1bOQ"),
    ("f3", b"\x1bOR"),
    ("f4", b"\x1bOS"),
    ("f1 (vt)", b"\x1b[11~"),
    ("f5", b"\x1b[15~"),
    ("f6", b"\x1b[17~"),
    ("f7", b"\x1b[18~"),
    ("f8", b"\x1b[19~"),
    ("f9", b"\x1b[20~"),
    ("f10", b"\x1b[21~"),
    ("f11", b"\x1b[23~"),
    ("f12", b"\x1b[24~"),
    ("shift+f5", b"\x1b[15;2~"),
    ("ctrl+f12", b"\x1b[24;5~"),
    ("focus in", b"\x1b[I"),
    ("focus out", b"\x1b[O"),
)
"""Keys and reports nobody bound (or only a widget did): they must do no harm."""

QUIT_KEYS = (("q", b"q", 4.0), ("ctrl+q", b"\x11", 1.0))
"""What ends a life, and how often."""

PALETTE_WORDS = (
    "new game",
    "easy",
    "medium",
    "hard",
    "you vs ai",
    "2 players",
    "ai vs ai",
    "coach",
    "stats",
    "help",
    "zzz",
)
"""What to type into the command palette (no q: typed outside it, q would quit)."""

EVENT_KINDS: tuple[tuple[str, float], ...] = (
    ("key", 40),
    ("other_key", 8),
    ("click", 14),
    ("double_click", 2),
    ("drag", 4),
    ("scroll", 4),
    ("hover", 4),
    ("paste", 1),
    ("burst", 6),
    ("resize", 4),
    ("resize_storm", 1),
    ("screen", 3),
)
"""Each kind of event and how often it comes."""

SIZES: tuple[tuple[int, int], ...] = ((56, 16), (55, 16), (56, 15), (80, 24), (100, 30))
"""Sizes at the edges of the minimum, and common ones."""


@dataclass(frozen=True)
class Event:
    """Bytes written to the terminal in one write, or a resize; then a pause."""

    kind: str
    label: str
    data: bytes = b""
    size: tuple[int, int] | None = None
    """The new window size (columns, rows), for a resize."""
    gap: float = 0.0
    """Seconds to wait after it."""

    def describe(self) -> str:
        """The event for a failure message."""
        what = f"resize to {self.size[0]}x{self.size[1]}" if self.size else repr(self.data)
        return f"{self.kind} {self.label}: {what} (then {self.gap * 1000:.0f} ms)"


@dataclass
class Life:
    """One run of the app: its starting size, batches of events, and how it ends."""

    size: tuple[int, int]
    batches: list[list[Event]]
    ending: list[Event]


@dataclass
class Plan:
    """Everything a seed sends."""

    seed: int
    lives: list[Life]


class Drawer:
    """Draws events from a seeded `random.Random`, following the window size it sets."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.size = self.window_size()

    def window_size(self) -> tuple[int, int]:
        """Mostly comfortable, sometimes at the edges, below the minimum, tiny or huge."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.55:
            return rng.randint(56, 160), rng.randint(16, 50)
        if roll < 0.70:
            return rng.choice(SIZES)
        if roll < 0.90:
            return rng.randint(1, 70), rng.randint(1, 20)
        if roll < 0.95:
            return rng.randint(1, 4), rng.randint(1, 4)
        return rng.randint(160, 250), rng.randint(50, 80)

    def gap(self, data: bytes = b"") -> float:
        """The pause after an event: usually short; after a lone escape, usually longer
        than Textual's escape delay (100 ms), or the next bytes make it alt+key."""
        rng = self.rng
        if data.endswith(ESC) and rng.random() < 0.8:
            return rng.uniform(0.12, 0.2)
        roll = rng.random()
        if roll < 0.35:
            return 0.0
        if roll < 0.95:
            return rng.uniform(0.001, 0.015)
        return rng.uniform(0.03, 0.15)

    def key(self) -> tuple[str, bytes]:
        names, data, weights = zip(*BOUND_KEYS, strict=True)
        index = self.rng.choices(range(len(names)), weights=weights)[0]
        return names[index], data[index]

    def other_key(self) -> tuple[str, bytes]:
        return self.rng.choice(OTHER_KEYS)

    def cell(self) -> tuple[int, int]:
        """A 1-based cell: mostly in the window, sometimes outside it (a report sent
        before a resize arrived), rarely 0 (which no terminal should send)."""
        rng, (width, height) = self.rng, self.size
        roll = rng.random()
        if roll < 0.88:
            return rng.randint(1, width), rng.randint(1, height)
        if roll < 0.97:
            return rng.randint(1, 260), rng.randint(1, 90)
        return rng.randint(0, 3), rng.randint(0, 3)

    def modifiers(self) -> int:
        """Shift (4), meta (8), ctrl (16), now and then."""
        return self.rng.choice((4, 8, 16, 20)) if self.rng.random() < 0.1 else 0

    @staticmethod
    def mouse(code: int, cell: tuple[int, int], press: bool = True) -> bytes:
        """An SGR mouse report."""
        return f"\x1b[<{code};{cell[0]};{cell[1]}{'M' if press else 'm'}".encode()

    def click(self, cell: tuple[int, int] | None = None) -> tuple[str, bytes]:
        rng = self.rng
        button = rng.choices((0, 1, 2), weights=(8, 1, 1))[0]
        code = button | self.modifiers()
        cell = cell or self.cell()
        return (
            f"button {button} (code {code}) at {cell}",
            self.mouse(code, cell) + self.mouse(code, cell, press=False),
        )

    def events(self) -> Iterator[Event]:
        """Events without end; a macro (a screen opened and closed, a drag) is several."""
        rng = self.rng
        kinds, weights = zip(*EVENT_KINDS, strict=True)
        while True:
            kind = rng.choices(kinds, weights=weights)[0]
            if kind == "key":
                label, data = self.key()
                yield Event(kind, label, data, gap=self.gap(data))
            elif kind == "other_key":
                label, data = self.other_key()
                yield Event(kind, label, data, gap=self.gap(data))
            elif kind == "click":
                label, data = self.click()
                if rng.random() < 0.3:  # press and release in separate reads
                    press, release = data.split(b"\x1b[<")[1:]
                    yield Event("mouse", "press " + label, b"\x1b[<" + press, gap=self.gap())
                    yield Event("mouse", "release " + label, b"\x1b[<" + release, gap=self.gap())
                else:
                    yield Event("mouse", "click " + label, data, gap=self.gap())
            elif kind == "double_click":
                cell = self.cell()
                label, data = self.click(cell)
                yield Event("mouse", "double click " + label, data + data, gap=self.gap())
            elif kind == "drag":
                yield from self.drag()
            elif kind == "scroll":
                cell = self.cell()
                code = rng.choices((64, 65, 66, 67), weights=(4, 4, 1, 1))[0] | self.modifiers()
                times = rng.randint(1, 5)
                yield Event(
                    "mouse",
                    f"scroll {code} x{times} at {cell}",
                    self.mouse(code, cell) * times,
                    gap=self.gap(),
                )
            elif kind == "hover":
                cells = [self.cell() for _ in range(rng.randint(1, 6))]
                data = b"".join(self.mouse(35, cell) for cell in cells)
                yield Event("mouse", f"hover over {cells}", data, gap=self.gap())
            elif kind == "paste":
                text = "".join(rng.choice("abc 123\nnds?🙂") for _ in range(rng.randint(0, 12)))
                data = b"\x1b[200~" + text.encode() + b"\x1b[201~"
                yield Event("paste", repr(text), data, gap=self.gap())
            elif kind == "burst":
                yield self.burst()
            elif kind in ("resize", "resize_storm"):
                for _ in range(1 if kind == "resize" else rng.randint(3, 8)):
                    self.size = self.window_size()
                    gap = self.gap() if kind == "resize" else rng.uniform(0, 0.02)
                    yield Event("resize", kind, size=self.size, gap=gap)
            else:
                yield from self.screen()

    def burst(self, first: bytes = b"", label: str = "burst") -> Event:
        """Several keys and clicks that arrive in one read."""
        rng, parts, labels = self.rng, [first], []
        for _ in range(rng.randint(2, 8)):
            roll = rng.random()
            if roll < 0.7:
                name, data = self.key()
            elif roll < 0.85:
                name, data = self.other_key()
            else:
                name, data = self.click()
            parts.append(data)
            labels.append(name)
        return Event("burst", f"{label} {labels}", b"".join(parts), gap=self.gap())

    def drag(self) -> Iterator[Event]:
        rng = self.rng
        button = rng.choices((0, 1, 2), weights=(6, 1, 1))[0]
        cells = [self.cell() for _ in range(rng.randint(2, 7))]
        yield Event("mouse", f"drag {button} from {cells[0]}", self.mouse(button, cells[0]))
        for cell in cells[1:]:
            data = self.mouse(32 + button, cell)
            yield Event("mouse", f"drag {button} to {cell}", data, gap=rng.uniform(0, 0.02))
        yield Event(
            "mouse",
            f"drag {button} released at {cells[-1]}",
            self.mouse(button, cells[-1], press=False),
            gap=self.gap(),
        )

    def screen(self) -> Iterator[Event]:
        """Open a screen, do something in it, close it."""
        rng, wait = self.rng, self.rng.uniform(0.12, 0.25)
        which = rng.choice(("help", "stats", "confirm", "palette"))
        if which == "help":
            yield Event("screen", "open help", b"?", gap=wait)
            for _ in range(rng.randint(0, 3)):
                label, data = rng.choice((("pagedown", b"\x1b[6~"), ("down", b"\x1b[B")))
                yield Event("key", label, data, gap=0.02)
            close = rng.choice((ESC, b"?"))
            yield Event("screen", "close help", close, gap=self.gap(close))
        elif which in ("stats", "confirm"):
            yield Event("screen", "open stats", b"s", gap=wait)
            if which == "confirm":
                yield Event("screen", "ask to reset stats", b"R", gap=wait)
                answer = rng.choice((b"y", b"n", ESC))
                yield Event("screen", "answer", answer, gap=max(wait, self.gap(answer)))
            close = rng.choice((ESC, b"s"))
            yield Event("screen", "close stats", close, gap=self.gap(close))
        else:
            yield Event("screen", "open palette", b"\x10", gap=wait)
            word = rng.choice(PALETTE_WORDS)
            yield Event("key", f"type {word!r}", word.encode(), gap=wait)
            if rng.random() < 0.6:
                yield Event("key", "enter", b"\r", gap=wait)
            yield Event("screen", "escape", ESC, gap=rng.uniform(0.12, 0.2))

    def ending(self) -> list[Event]:
        """Escape whatever is open, then quit with other keys right behind. Half the
        time the last escape comes in the same write as the quit, as a terminal sends
        Escape and q typed quickly over a slow link or in tmux (within its escape-time),
        which Textual reads as alt+q."""
        escapes = [Event("end", "escape", ESC, gap=0.2) for _ in range(3)]
        name, data, _ = self.rng.choices(QUIT_KEYS, weights=[w for *_, w in QUIT_KEYS])[0]
        if self.rng.random() < 0.5:
            escapes.pop()
            return [*escapes, self.burst(first=ESC + data, label=f"escape, {name}, then")]
        return [*escapes, self.burst(first=data, label=f"{name}, then")]


def draw_plan(seed: int, events: int) -> Plan:
    """What a seed sends: a pure function of the seed and the number of events."""
    drawer = Drawer(seed)
    rng = drawer.rng
    lives_count = max(2, round(events / EVENTS_PER_LIFE))
    cuts = sorted(rng.sample(range(1, events), lives_count - 1)) if events > lives_count else []
    lengths = [b - a for a, b in zip([0, *cuts], [*cuts, events], strict=True)]
    stream = drawer.events()
    lives = []
    for length in lengths:
        drawer.size = drawer.window_size() if rng.random() < 0.5 else rng.choice(SIZES)
        size = drawer.size
        batches: list[list[Event]] = []
        left = length
        while left > 0:
            batch: list[Event] = []
            want = min(left, rng.randint(1, 24))
            while len(batch) < want:
                batch.append(next(stream))
            left -= len(batch)
            batches.append(batch)
        lives.append(Life(size, batches, drawer.ending()))
    return Plan(seed, lives)


# The terminal ----------------------------------------------------------------


class LifeFailed(TerminalFailed):
    """The app crashed, hung, stopped drawing, or left bad data; the message says how."""


def too_small_lines(size: tuple[int, int]) -> tuple[str, ...]:
    """The game's message below a board's minimum size, line by line: the second
    line names the board, so each board's is given."""
    return (
        f"Terminal too small: {size[0]}x{size[1]}.",
        *(
            f"The {board.label} board needs at least {width}x{height}."
            for board, (width, height) in MIN_SIZES.items()
        ),
        "Enlarge the window to play; q quits.",
    )


def wait_for_view(terminal: Terminal, timeout: float) -> str | None:
    """Wait until a recognisable screen shows and output pauses (or has gone on for a
    while: a spinner never pauses); which screen, or None."""
    view = terminal.wait_for(lambda lines: recognise(lines, terminal.size), timeout)
    return view if isinstance(view, str) else None


def recognise(lines: Sequence[str], size: tuple[int, int]) -> str | None:
    """Which screen a person would see in ``lines``, drawn for ``size``; None if none.

    At the minimum size or larger, a screen's landmark and something on the bottom
    row (the footer, or a dialog); below it, a line of the "Terminal too small"
    message (naming this size, if the size shows), a landmark, or a dialog's frame
    across the whole width. A window under 4x3 cannot show anything recognisable,
    so anything goes there.
    """
    width, height = size
    if width < 4 or height < 3:
        return "tiny window"
    text = "\n".join(lines)
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        if PALETTE in text:
            # The palette opens wherever 3x3 fits: over a bigger board's "too small"
            # message (no footer under it) too, which it then hides.
            return PALETTE
        if lines[-1].strip():
            for landmark in LANDMARKS:
                if landmark in text:
                    return landmark
        if width >= ROOMY_WIDTH and height >= ROOMY_HEIGHT:
            return None
        # Big enough for 3x3, not for every board: a bigger board says it is too small.
    stated = TOO_SMALL_SIZE.search(text)
    if stated and (int(stated[1]), int(stated[2])) != size:
        return None  # the message, drawn for another size
    # Notifications may cover parts of the message: their lines start at a "▌".
    message = too_small_lines(size)
    shortest = min(6, width - 2)
    for line in lines:
        part = line.split("▌")[0].strip()
        if len(part) >= shortest and any(part in text_line for text_line in message):
            return "too small"
    # A dialog: a whole edge of its frame, or one cropped to the window across half the
    # width or more (over another dialog, cropped wider than the window); in a window too
    # narrow for any dialog's whole edge, its corner; in one too short for both its
    # edges, a whole row of it from side to side.
    for line in lines:
        if any(
            len(edge) >= min(width // 2, NARROWEST_DIALOG) for edge in DIALOG_EDGE.findall(line)
        ):
            return "a dialog"
        if width < NARROW and line.strip().startswith(("╭─", "╰─")):
            return "a dialog's corner"
        if height < SHORT and any(len(row) >= width // 2 for row in DIALOG_ROW.findall(line)):
            return "a dialog's middle"
    # Below the minimum, where the game shows only its message: a dialog taller than the
    # window (a question at the launch, or over the game), every line one of its rows.
    rows = [FRAMED_ROW.search(line) for line in lines[:height]]
    if rows and all(rows) and len({(row.start(), row.end()) for row in rows if row}) == 1:
        first = rows[0]
        if first is not None and first.end() - first.start() >= width // 2:
            return "a dialog taller than the window"
    return None


# The fuzzer ------------------------------------------------------------------


def database_problems(path: Path) -> tuple[list[str], list[str]]:
    """The game records in the database at ``path`` (none without one), and what is wrong
    with it: damage (``PRAGMA integrity_check``), or stats that do not count the records."""
    if not path.exists():
        return [], []
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        check = db.execute("PRAGMA integrity_check").fetchall()
        problems = [] if check == [("ok",)] else [f"the database is damaged: {check[:3]}"]
        games = [text for (text,) in db.execute("SELECT record FROM games ORDER BY id")]
        kept = sorted(db.execute("SELECT key, outcome, count FROM stats WHERE count > 0"))
        counted = sorted(db.execute(COUNTED_FROM_RECORDS))
    finally:
        db.close()
    if kept != counted:
        problems.append(f"the stats do not count the records: {kept} against {counted}")
    return games, problems


@dataclass
class Figures:
    """What one seed's run did and found."""

    seed: int
    events: int = 0
    lives: int = 0
    batches: int = 0
    bytes_sent: int = 0
    keys: int = 0
    mouse_events: int = 0
    presses: int = 0
    scrolls: int = 0
    bursts: int = 0
    resizes: int = 0
    screens: int = 0
    pastes: int = 0
    retries: int = 0
    palette_quits: int = 0
    unsent: int = 0
    """Events of lives that ended early through the palette's Quit."""
    games_recorded: int = 0
    games_kept: int = 0
    """Games in play kept to be resumed: a game left with q is kept, not recorded."""
    crashes: int = 0
    failures: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        """One line for the log."""
        return "terminal fuzz: " + " ".join(
            f"{name}={value:.1f}" if isinstance(value, float) else f"{name}={value}"
            for name, value in asdict(self).items()
        )


FIGURES: list[Figures] = []
"""Every seed's figures in this process, for a long run's report."""


@dataclass
class TerminalFuzzer:
    """Runs one seed's plan against the app, life by life, and collects failures."""

    seed: int
    events: int
    directory: Path
    command: list[str] = field(default_factory=installed_command)
    start_timeout: float = START_TIMEOUT
    screen_reader: bool = SCREEN_READER

    def __post_init__(self) -> None:
        self.plan = draw_plan(self.seed, self.events)
        self.data_dir = self.directory / "data"
        self.tmp_dir = self.directory / "tmp"
        self.reports_dir = self.directory / "crash-reports"
        self.tmp_dir.mkdir(parents=True, exist_ok=True)
        self.figures = Figures(self.seed)
        self.failures: list[str] = []
        self.recent: deque[str] = deque(maxlen=12)
        self.games: list[str] = []
        """The game records in the database after the last life."""

    def env(self) -> dict[str, str]:
        return game_env(
            self.data_dir,
            TMPDIR=str(self.tmp_dir),  # where a crash report goes if the data dir fails
            # The palette's Screenshot command saves to ~/Downloads: keep it in here.
            HOME=str(self.tmp_dir),
            **({"TTT_TUI_SCREEN_READER": "1"} if self.screen_reader else {}),
        )

    def command_line(self, life: int) -> list[str]:
        return [*self.command, "--seed", str(self.seed * 1000 + life), "--ai-delay", AI_DELAY]

    def run(self) -> Figures:
        started = time.monotonic()
        for number, life in enumerate(self.plan.lives):
            if len(self.failures) >= MAX_FAILURES:
                break
            terminal = Terminal(self.command_line(number), self.env(), life.size, self.tmp_dir)
            try:
                self.live(number, life, terminal)
            except TerminalFailed as failure:
                self.figures.failures += 1
                self.failures.append(self.report(number, str(failure), terminal))
            finally:
                terminal.close()
            # Keep a crash report out of the next life's way, and count it.
            for path in self.crash_reports():
                self.reports_dir.mkdir(exist_ok=True)
                path.rename(self.reports_dir / path.name)
                self.figures.crashes += 1
            self.figures.lives += 1
        self.figures.seconds = time.monotonic() - started
        FIGURES.append(self.figures)
        print(self.figures.summary())
        return self.figures

    def live(self, number: int, life: Life, terminal: Terminal) -> None:
        """Start the app, send the life's batches, check after each, then quit."""
        if wait_for_view(terminal, self.start_timeout) is None:
            raise LifeFailed("the app never drew a recognisable first screen")
        planned = sum(len(batch) for batch in life.batches)
        sent = 0
        for batch in life.batches:
            for event in batch:
                self.send(terminal, event)
                self.figures.events += 1
                sent += 1
            self.figures.batches += 1
            if not self.check_running(terminal):
                # Quit through the palette (typed keys can pick its Quit command):
                # that must be just as clean, and this life is over.
                self.figures.palette_quits += 1
                self.figures.unsent += planned - sent
                self.check_exit(terminal, 0, echoes=True)
                return
        for event in life.ending:
            self.send(terminal, event)
        status = terminal.wait_exit(EXIT_TIMEOUT)
        if status is None and wait_for_view(terminal, DRAW_TIMEOUT) is not None:
            # Something was still open (the palette over a screen over a screen):
            # escape again, and quit again.
            self.figures.retries += 1
            for event in [*life.ending[:-1], Event("end", "q again", b"q")]:
                self.send(terminal, event)
            status = terminal.wait_exit(EXIT_TIMEOUT)
        if status is None:
            raise LifeFailed(f"still running {EXIT_TIMEOUT:.0f}s after q, twice")
        self.check_exit(terminal, status)

    def send(self, terminal: Terminal, event: Event) -> None:
        self.recent.append(f"#{self.figures.events} {event.describe()}")
        if event.size is not None:
            terminal.resize(event.size)
            self.figures.resizes += 1
        else:
            terminal.write(event.data)
            self.figures.bytes_sent += len(event.data)
            self.count(event)
        if event.gap:
            time.sleep(event.gap)

    def count(self, event: Event) -> None:
        figures = self.figures
        for code, kind in MOUSE_REPORT.findall(event.data):
            figures.mouse_events += 1
            button = int(code)
            figures.presses += button & 96 == 0 and kind == b"M"
            figures.scrolls += button & 64 != 0
        if event.kind in ("key", "other_key", "end"):
            figures.keys += 1
        elif event.kind == "burst":
            figures.bursts += 1
        elif event.kind == "screen" and event.label.startswith("open"):
            figures.screens += 1
        elif event.kind == "paste":
            figures.pastes += 1

    def check_running(self, terminal: Terminal) -> bool:
        """Alive, no crash report, and showing a screen a person would recognise;
        False if the app has quit by itself, with status 0 and no crash report."""
        view = wait_for_view(terminal, DRAW_TIMEOUT)
        reports = self.crash_reports()
        if reports:
            terminal.wait_exit(EXIT_TIMEOUT)  # a crashed app is on its way out
        status = terminal.proc.poll()
        if status == 0 and not reports:
            return False
        problems = []
        if status is not None:
            problems.append(f"the app exited with status {status} before it was asked to quit")
        if reports:
            problems.append(f"a crash report appeared: {reports[0].name}")
        if status is None and view is None:
            problems.append(
                f"after {DRAW_TIMEOUT:.0f}s the screen shows nothing recognisable"
                f" for {terminal.size[0]}x{terminal.size[1]}"
            )
        if problems:
            raise LifeFailed("; ".join(problems))
        return True

    def check_exit(self, terminal: Terminal, status: int, echoes: bool = False) -> None:
        """Status 0, terminal restored in silence, no process left, valid data.

        With ``echoes``, events were sent after the app had gone, and the terminal,
        back in its normal mode, echoed them: only then is text after exit expected.
        """
        if status != 0:
            raise LifeFailed(f"the app exited with status {status} after q")
        problems = []
        if terminal.stray_processes():
            problems.append("processes of the app still running 3s after it exited")
        shown = terminal.after_exit().strip()
        if shown and not echoes:
            problems.append(f"after leaving the alternate screen it printed {shown[:2000]!r}")
        problems += self.data_problems()
        if problems:
            raise LifeFailed("; ".join(problems))

    def crash_reports(self) -> list[Path]:
        return sorted(
            [*self.data_dir.glob(CRASH_REPORT), *self.tmp_dir.glob(CRASH_REPORT)],
        )

    def data_problems(self) -> list[str]:
        """What is wrong with the data directory after a clean exit."""
        problems = [f"a crash report: {path.name}" for path in self.crash_reports()]
        if not self.data_dir.is_dir():
            return [*problems, f"no data directory at {self.data_dir}"]
        for path in sorted(self.data_dir.iterdir()):
            if path.name not in DATA_FILES:
                problems.append(f"an unexpected file in the data directory: {path.name}")
        path = self.data_dir / "settings.json"
        if path.exists():
            try:
                value = json.loads(path.read_bytes())
            except ValueError as exc:
                problems.append(f"settings.json is not JSON ({exc})")
            else:
                if not isinstance(value, dict):
                    problems.append(f"settings.json holds a {type(value).__name__}, not an object")
        games, trouble = database_problems(self.data_dir / DATABASE_FILE)
        problems += trouble
        if games[: len(self.games)] != self.games:
            problems.append(
                f"the database lost games of earlier lives: it had {len(self.games)},"
                f" now {len(games)}, and the first ones differ"
            )
        self.games = games
        self.figures.games_recorded = len(games)
        self.figures.games_kept = len(games_in_play(self.data_dir))
        return problems

    def report(self, life: int, reason: str, terminal: Terminal) -> str:
        """Everything needed to see what happened and to try it again."""
        where = f"seed {self.seed}, life {life}, after event {self.figures.events}: {reason}"
        errors = [
            path.read_text("utf-8", errors="replace").strip().splitlines()[-1]
            for path in self.crash_reports()
        ]
        if len(self.failures) >= FULL_REPORTS and errors:
            return where + "".join(f"\n  {error}" for error in errors)
        reports = "\n".join(
            f"--- {path}\n{path.read_text('utf-8', errors='replace')}"
            for path in self.crash_reports()
        )
        screen = "\n".join(line.rstrip() for line in terminal.lines()).strip("\n")
        tail = visible(terminal.output()[-4000:])
        return (
            f"{where}\n"
            f"exit status: {terminal.proc.poll()}; window {terminal.size[0]}x{terminal.size[1]}\n"
            f"repeat: TTT_TERM_FUZZ_SEEDS={self.seed} TTT_TERM_FUZZ_EVENTS={self.events}"
            f" pytest tests/terminal/test_fuzz.py\n"
            f"last events:\n  " + "\n  ".join(self.recent) + "\n"
            f"screen:\n{screen}\n"
            f"crash reports:\n{reports or '(none)'}\n"
            f"last output, without escapes:\n{tail[-1500:]}"
        )


# The tests ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_terminal_fuzz(
    seed: int, tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    """Raw terminal input from a seed never crashes or hangs the app, and q quits cleanly."""
    fuzzer = TerminalFuzzer(seed, EVENTS, tmp_path)
    figures = fuzzer.run()
    for name, value in asdict(figures).items():
        record_property(f"terminal_fuzz_{name}", value)
    assert not fuzzer.failures, "\n\n".join(fuzzer.failures)
    assert figures.events + figures.unsent == EVENTS
    assert figures.lives == len(fuzzer.plan.lives) >= 2
    assert figures.crashes == 0
    # A run that sent nothing that matters proves nothing.
    assert figures.keys > 0 and figures.mouse_events > 0
    # The lives played: a finished or abandoned game is recorded, and one left with q
    # is kept to be resumed.
    assert figures.games_recorded + figures.games_kept > 0


def test_the_plan_is_a_function_of_the_seed() -> None:
    def flat(plan: Plan) -> list[Event]:
        return [e for life in plan.lives for batch in life.batches for e in batch]

    first, again, other = draw_plan(7, 300), draw_plan(7, 300), draw_plan(8, 300)
    assert flat(first) == flat(again)
    assert flat(first) != flat(other)
    assert len(flat(first)) == 300
    kinds = {event.kind for event in flat(first)}
    assert {"key", "other_key", "mouse", "burst", "resize", "screen"} <= kinds
    for life in first.lives:
        quit_write = life.ending[-1].data.removeprefix(ESC)
        assert quit_write[:1] in (b"q", b"\x11") and len(quit_write) > 1
    endings = [life.ending for seed in range(20) for life in draw_plan(seed, 300).lives]
    with_escape = [ending[-1].data[:1] == ESC for ending in endings]
    assert any(with_escape) and not all(with_escape)
    assert all(len(e) == 4 - esc for e, esc in zip(endings, with_escape, strict=True))


# The checks themselves: each must catch what it is for -------------------------

CRASHING_CHILD = """
import sys

import ttt_tui.app as app_module
from ttt_tui.__main__ import main
from ttt_tui.search.client import ThreadSearcher


def fail(board, difficulty, rng, cancelled=None):
    raise RuntimeError("forced failure")


real_app = app_module.TicTacToeApp
app_module.TicTacToeApp = lambda **options: real_app(**options, searcher=ThreadSearcher(fail))
sys.exit(main(sys.argv[1:]))
"""
"""`ttt-tui` through the real `main()`, with a computer whose first move raises."""


def one_life(fuzzer: TerminalFuzzer, batches: list[list[Event]]) -> None:
    """Replace the plan with one life of ``batches``, ended as usual."""
    fuzzer.plan = Plan(fuzzer.seed, [Life((100, 30), batches, fuzzer.plan.lives[0].ending)])


def test_the_checks_catch_a_crash(tmp_path: Path) -> None:
    fuzzer = TerminalFuzzer(3, 0, tmp_path, command=[sys.executable, "-c", CRASHING_CHILD])
    # You play X in the centre; the computer's reply raises.
    one_life(fuzzer, [[Event("key", "5", b"5", gap=0.5)], [Event("key", "1", b"1")]])
    fuzzer.run()
    assert len(fuzzer.failures) == 1
    failure = fuzzer.failures[0]
    assert "exited with status 1" in failure
    assert "RuntimeError: forced failure" in failure  # the report's traceback
    assert "seed 3, life 0" in failure and "key 5: b'5'" in failure
    assert fuzzer.figures.crashes == 1


def test_the_checks_catch_an_app_that_draws_nothing(tmp_path: Path) -> None:
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    fuzzer = TerminalFuzzer(3, 0, tmp_path, command=silent, start_timeout=1.0)
    fuzzer.run()
    assert fuzzer.failures and "never drew a recognisable first screen" in fuzzer.failures[0]


def test_recognise_wants_the_screen_for_this_size() -> None:
    blank = [" " * 100] * 30
    assert recognise(blank, (100, 30)) is None
    drawn_for_fewer_rows = [HEADER.center(100), *[" " * 100] * 29]
    assert recognise(drawn_for_fewer_rows, (100, 30)) is None
    footer = "q Quit".ljust(100)
    assert recognise([HEADER.center(100), *[" " * 100] * 28, footer], (100, 30)) == HEADER
    # Notifications cover the header's title; the footer still shows the game.
    covered = HEADER[:16].center(60) + "▌ Square 4 is taken.".ljust(40)
    assert recognise([covered, *[" " * 100] * 28, footer], (100, 30)) == "q Quit"
    message = [line.center(40) for line in too_small_lines((40, 10))]
    assert recognise([" " * 40, *message, *[" " * 40] * 6], (40, 10)) == "too small"
    assert recognise([" " * 40, *message, *[" " * 40] * 6], (41, 10)) is None
    # Between the boards' minimums, a bigger board's message, not the game.
    four = [
        "Terminal too small: 56x16.",
        "The 4x4 board needs at least 64x20.",
        "",
        "Enlarge the window to play; q quits.",
    ]
    assert recognise([*(line.center(56) for line in four), *[" " * 56] * 12], (56, 16))
    assert recognise([" " * 56] * 16, (56, 16)) is None
    roomy = [line.center(80) for line in four]
    assert recognise([*roomy, *[" " * 80] * 20], (80, 24)) is None  # every board fits 80x24
    # The palette over 5x5's "too small" message at 67x31 (seed 13 under CI's load):
    # it hides the message, and nothing is drawn under it, the game's footer neither.
    palette = ["▔" * 67, "", f"  🔎 {PALETTE}…", "", "  Board: 3x3, three in a row", "▁" * 67]
    assert recognise([*palette, *[" " * 67] * 25], (67, 31)) == PALETTE
    # The reset question over the stats, both cropped to a short window.
    question = "╰─╰" + "─" * 50 + "╯───  "
    assert recognise([*[" " * 59] * 6, question], (59, 7)) == "a dialog"
    # The new-game question whole, over 3x3's "too small" message, in a window more
    # than twice its width (106x18, seed 13 at 2,500 events).
    top, bottom = "╭" + "─" * 50 + "╮", "╰" + "─" * 50 + "╯"
    whole = [top, "│  Start a new 3x3 game? This one will be".ljust(51) + "│", bottom]
    assert recognise([*(line.center(106) for line in whole), *[" " * 106] * 15], (106, 18))
    # The question at a launch that found a game left unfinished, in a window 10 wide
    # and 11 high (seed 14 at 2,500 events): only its middle rows show, wrapped.
    middle = ["│      │", "│  fr  │", "│  om  │", "│      │▅▅", "│  13  │", "│  If  │"]
    assert recognise([*middle, *middle[:5]], (10, 11)) == "a dialog taller than the window"
    assert recognise([*middle[:3], "  13    ", *middle[:4]], (10, 11)) is None
    assert recognise([*[" " * 59] * 6, question.replace("╯", "─")], (59, 7)) is None
    stale = "│ Kept in /tmp/╰" + "─" * 42
    assert recognise([*[" " * 58] * 13, stale], (58, 14)) is None
    assert recognise(["╭──  ", "│    ", "│  ▆▆"], (5, 3)) == "a dialog's corner"
    middle = ["│  stats to zero? Game  │  ", "│      Reset (y)        │  ", *[" " * 27] * 3]
    assert recognise(middle, (27, 5)) == "a dialog's middle"
    assert recognise(["│" + " " * 23 + "│  ", *[" " * 27] * 4], (27, 5)) is None
    assert recognise(["╭──" + " " * 57, *[" " * 60] * 5], (60, 6)) is None


RECORD = (
    '{"version":2,"started":"2026-11-22T06:15:00+00:00","ended":"2026-11-22T06:15:30+00:00",'
    '"mode":"two_players","n":3,"k":3,"x_difficulty":null,"o_difficulty":null,'
    '"human_mark":null,"moves":[4,0,8,2,6],"result":"draw","undo_used":false,"hints_used":0}'
)


def test_the_data_checks_catch_damage(tmp_path: Path) -> None:
    fuzzer = TerminalFuzzer(3, 0, tmp_path / "first")
    fuzzer.data_dir.mkdir()
    (fuzzer.data_dir / "settings.json").write_text("[]")
    (fuzzer.data_dir / "games.jsonl").write_text("{}")
    (fuzzer.data_dir / "ttt-tui-crash-20260101T000000000000Z.txt").write_text("boom")
    problems = " ".join(fuzzer.data_problems())
    assert "settings.json holds a list" in problems
    assert "an unexpected file in the data directory: games.jsonl" in problems
    assert "a crash report: ttt-tui-crash-" in problems

    fuzzer = TerminalFuzzer(3, 0, tmp_path / "second")
    store = Store(fuzzer.data_dir)
    store.record_game(GameRecord.from_json(RECORD))
    store.close()
    assert fuzzer.data_problems() == []
    assert len(fuzzer.games) == 1
    db = sqlite3.connect(fuzzer.data_dir / DATABASE_FILE)
    try:
        db.execute("UPDATE stats SET count = count + 1")
        db.commit()
        assert any("the stats do not count the records" in p for p in fuzzer.data_problems())
        db.execute("DELETE FROM games")
        db.commit()
    finally:
        db.close()
    assert any("lost games of earlier lives" in p for p in fuzzer.data_problems())


def test_the_terminal_drains_output_and_kills_the_group(tmp_path: Path) -> None:
    """The pty plumbing itself: output is drained and the process group is killed."""
    child = [
        sys.executable,
        "-c",
        "import sys, time; sys.stdout.write('x' * 300000); time.sleep(60)",
    ]
    terminal = Terminal(child, dict(os.environ), (80, 24))
    try:
        deadline = time.monotonic() + 20
        while terminal.received < 300_000 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert terminal.received >= 300_000
    finally:
        terminal.close()
    assert terminal.proc.returncode == -signal.SIGKILL
