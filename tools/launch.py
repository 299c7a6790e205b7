"""Run the game or the bare app counting how often each widget renders.

``python -m tools.launch ttt-tui [ARGS...]`` runs the game as
``ttt-tui ARGS...`` would, and ``... launch bare`` the bare app. With
``TTT_UIBENCH_RENDERS=PATH`` in the environment, every frame in which a widget's
``render()`` is called is counted per widget (Textual may call it twice in a
frame: to measure the widget for the layout, then to paint it), and every frame
in which the board draws a square per square (the board paints its squares
itself, line by line, without ``render()``), and on
``SIGUSR1`` the counts so far are written to PATH as JSON (``{"snapshot": N,
"renders": {"square 5": 1, "StatusLine#status": 2, ...}}``,
N counting the snapshots), so the UI benchmark can take the difference across
one move. Without the variable it only runs the app. With ``TTT_UIBENCH_THREAD_SEARCH``
set, the game searches in a thread instead of its search process.

This lives here, not in the game: production code carries no test hooks.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

RENDERS_ENV = "TTT_UIBENCH_RENDERS"
"""Where the render counts go on SIGUSR1; unset, nothing is counted."""

THREAD_SEARCH_ENV = "TTT_UIBENCH_THREAD_SEARCH"
"""Set, the game searches in a thread of its own process (`ThreadSearcher`) instead of
its search process: the way it searched before, for the search benchmark's contrast."""

APPS = ("ttt-tui", "bare")
"""What this launcher can run."""


class RenderCounter:
    """Counts ``render()`` calls per widget, and squares drawn per square, and writes
    them out on request."""

    def __init__(self, path: Path) -> None:
        self.path = path
        """Where `write` puts the counts."""
        self.counts: Counter[str] = Counter()
        """render() calls so far, by widget name."""
        self.snapshots = 0
        """Snapshots written so far."""
        self._names: dict[int, str] = {}
        self._per_class: Counter[str] = Counter()
        self._frame = 0
        self._last_frame: dict[str, int] = {}

    def name(self, widget: object) -> str:
        """``Class#id``, or ``Class@n`` (the class's n-th widget seen) for one without an id."""
        key = id(widget)
        name = self._names.get(key)
        if name is None:
            cls = type(widget).__name__
            widget_id = getattr(widget, "id", None)
            if widget_id:
                name = f"{cls}#{widget_id}"
            else:
                self._per_class[cls] += 1
                name = f"{cls}@{self._per_class[cls]}"
            self._names[key] = name
        return name

    def rendered(self, name: str) -> None:
        """Count a render of ``name``, once per frame: measuring a widget for the
        layout and painting it are one render of the frame they are drawn in."""
        if self._last_frame.get(name) != self._frame:
            self._last_frame[name] = self._frame
            self.counts[name] += 1

    def install(self) -> None:
        """Count every widget's render(), and every square drawn, from now on.

        `Widget._render` is the one caller of ``render()`` and hands its result
        to the `visualize` it imported; wrapping that module global counts each
        call, whichever subclass overrides ``render``. It is a Textual internal,
        used here only, by a developer tool. The board draws each square through
        the `ttt_tui.widgets.square.draw` its module imported, wrapped the same way.
        A frame ends with each `Screen._compositor_refresh` (also internal).
        """
        import textual.widget

        widget_module: Any = textual.widget  # visualize is imported there, not exported
        original: Callable[..., Any] = widget_module.visualize

        def counting_visualize(widget: Any, *args: Any, **kwargs: Any) -> Any:
            self.rendered(self.name(widget))
            return original(widget, *args, **kwargs)

        widget_module.visualize = counting_visualize

        import ttt_tui.widgets.board

        board_module: Any = ttt_tui.widgets.board  # draw is imported there, not exported
        draw_square: Callable[..., Any] = board_module.draw

        def counting_draw(look: Any, label: str, *args: Any, **kwargs: Any) -> Any:
            self.rendered(f"square {label}")
            return draw_square(look, label, *args, **kwargs)

        board_module.draw = counting_draw

        import textual.screen

        screen_class: Any = textual.screen.Screen
        refresh_screen: Callable[..., Any] = screen_class._compositor_refresh

        def next_frame(screen: Any) -> None:
            refresh_screen(screen)
            self._frame += 1

        screen_class._compositor_refresh = next_frame
        signal.signal(signal.SIGUSR1, self._on_signal)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.write()

    def write(self) -> None:
        """Write the counts so far, atomically (a reader never sees half a file)."""
        self.snapshots += 1
        data = {"snapshot": self.snapshots, "renders": dict(self.counts)}
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, self.path)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the named app with the rest of the arguments; returns its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in APPS:
        apps = ",".join(APPS)
        print(f"usage: python -m tools.launch {{{apps}}} [ARGS...]", file=sys.stderr)
        return 2
    renders = os.environ.get(RENDERS_ENV)
    if renders:
        RenderCounter(Path(renders)).install()
    if os.environ.get(THREAD_SEARCH_ENV):
        import ttt_tui.app
        from ttt_tui.search.client import ThreadSearcher

        app_module: Any = ttt_tui.app  # the app's default searcher, replaced for this run
        app_module.SearchProcess = lambda **_options: ThreadSearcher()
    if args[0] == "bare":
        from tools import bare_app

        return bare_app.main()
    from ttt_tui.__main__ import main as ttt_main

    return ttt_main(args[1:])


if __name__ == "__main__":
    sys.exit(main())
