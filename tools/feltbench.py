"""What a person feels, against a baseline measured in the same run: four rows.

``python -m tools.bench --ui`` runs this. It runs the UI benchmark
(`tools.uibench`: the game and the bare Textual app in pseudo-terminals, start
and keys) and prints its report; then, side by side with their baselines, with
the goals beside them:

- **CPU from launch to the first full frame**, against the bare app (from the
  UI benchmark);
- **a browser tab's first frame** (`tools.servebench`): ``ttt-tui serve``
  against the bare app under textual-serve, each starting its app with the tab;
- **the explorer while it counts** (`tools.searchbench`'s tree moves): on 5x5,
  the Search tab counting, a tree key to the screen's new heading, p95,
  against the same explorer with nothing counting;
- **an arrow key to the screen**, median, against the bare app (from the UI
  benchmark).

``--tabs`` and ``--tree-keys`` set how many tabs and tree moves (0 leaves the
row out); the rest of the options are the UI benchmark's. Timings are what this
machine did in this run: only the ratios compare like with like.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tools import searchbench, servebench
from tools.report import format_time, markdown_table, plural
from tools.uibench import (
    DEFAULT_KEYS,
    DEFAULT_RUNS,
    QUICK_KEYS,
    QUICK_RUNS,
    BareSubject,
    BenchError,
    Figures,
    GameSubject,
    Seconds,
    Subject,
    build_parser,
    count_renders,
    cpu_time_available,
    format_ratio,
    measure,
    p95,
    report,
)

DEFAULT_TABS, QUICK_TABS = 7, 1
"""Browser tabs to each server (`tools.servebench`), unless told otherwise."""
DEFAULT_TREE_KEYS, QUICK_TREE_KEYS = 30, 3
"""Tree moves to each explorer (`tools.searchbench`), unless told otherwise."""

FELT_GOALS = {
    "start": 1.5,
    "tab": 1.5,
    "explorer": 1.5,
    "arrow": 1.5,
}
"""The goals for what a person feels (issue 30's): the most ttt-tui may take as a
multiple of its baseline."""


@dataclass(frozen=True, slots=True)
class Felt:
    """One row of the table: a figure, its baseline, and the goal for their ratio."""

    measure: str
    game: Seconds
    base: Seconds
    baseline: str
    """What the baseline is: ``bare Textual``, or the explorer with nothing counting."""
    goal: float

    @property
    def ratio(self) -> float | None:
        return None if not self.base else self.game / self.base

    @property
    def verdict(self) -> str:
        ratio = self.ratio
        return "not measured" if ratio is None else "met" if ratio <= self.goal else "not met"


def felt_rows(
    game: Figures,
    bare: Figures,
    tabs: dict[str, list[Seconds]] | None,
    tree: tuple[list[Seconds], list[Seconds]] | None,
) -> list[Felt]:
    """The four rows (those measured): start-up CPU, a tab's first frame (median
    and p95), the explorer's tree key p95 while counting, an arrow key's median."""
    bare_name = BareSubject.name
    out = [
        Felt(
            "CPU from launch to the first full frame, median",
            statistics.median(game.start_cpu),
            statistics.median(bare.start_cpu),
            bare_name,
            FELT_GOALS["start"],
        )
    ]
    if tabs is not None:
        g, b = tabs[GameSubject.name], tabs[bare_name]
        for name, figure in (("median", statistics.median), ("p95", p95)):
            out.append(
                Felt(
                    f"a browser tab's first frame (serve), {name}",
                    figure(g),
                    figure(b),
                    f"{bare_name} under textual-serve",
                    FELT_GOALS["tab"],
                )
            )
    if tree is not None:
        counting, idle = tree
        out.append(
            Felt(
                "explorer on 5x5, Search tab counting: tree key to screen, p95",
                p95(counting),
                p95(idle),
                "the explorer, nothing counting",
                FELT_GOALS["explorer"],
            )
        )
    out.append(
        Felt(
            "arrow key to screen, median",
            statistics.median(game.cursor),
            statistics.median(bare.cursor),
            bare_name,
            FELT_GOALS["arrow"],
        )
    )
    return out


def render_felt(rows: Sequence[Felt]) -> str:
    """A Markdown table: what a person feels | ttt-tui | baseline | ratio | goal | verdict."""
    header = ("what a person feels", GameSubject.name, "baseline", "ratio", "goal", "")
    body = [
        (
            row.measure,
            format_time(row.game),
            f"{format_time(row.base)} ({row.baseline})",
            format_ratio(row.ratio),
            f"{row.goal:g}x",
            row.verdict,
        )
        for row in rows
    ]
    return markdown_table(header, body, right={1, 2, 3, 4})


def first_frames(
    subjects: Sequence[Subject], tabs: int, progress: Callable[[str], None]
) -> dict[str, list[Seconds]]:
    """Each app's browser tabs' first frames (`tools.servebench`)."""
    progress("browser tabs")
    game, bare = subjects
    return servebench.first_frames(game, bare, tabs, progress)


def explorer_keys(
    keys: int, progress: Callable[[str], None]
) -> tuple[list[Seconds], list[Seconds]]:
    """Tree moves in the explorer on 5x5 while its Search tab counts, and in one with
    nothing counting (`tools.searchbench`): (counting, idle) key to screen."""
    progress("the explorer, counting and not")
    game = ["-m", "ttt_tui"]
    idle = searchbench.Variant("nothing counting", game, idle=True)
    counting = searchbench.Variant("counting", game)
    searchbench.measure_tree([idle, counting], keys)
    return counting.keys, idle.keys


def parser() -> argparse.ArgumentParser:
    """The UI benchmark's parser, with the tabs and the tree moves."""
    parser = build_parser()
    parser.add_argument(
        "--tabs",
        type=int,
        metavar="N",
        help=f"browser tabs to each server (default: {DEFAULT_TABS}, or {QUICK_TABS} with"
        " --quick; 0: no tabs)",
    )
    parser.add_argument(
        "--tree-keys",
        type=int,
        metavar="N",
        help=f"tree moves to each explorer (default: {DEFAULT_TREE_KEYS}, or"
        f" {QUICK_TREE_KEYS} with --quick; 0: no explorer)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the UI benchmark, the tabs and the explorer; print the report and the four
    rows; returns the exit status."""
    options = parser()
    args = options.parse_args(argv)

    def given(value: int | None, default: int, quick: int) -> int:
        return value if value is not None else quick if args.quick else default

    runs = given(args.runs, DEFAULT_RUNS, QUICK_RUNS)
    keys = given(args.keys, DEFAULT_KEYS, QUICK_KEYS)
    tabs = given(args.tabs, DEFAULT_TABS, QUICK_TABS)
    tree_keys = given(args.tree_keys, DEFAULT_TREE_KEYS, QUICK_TREE_KEYS)
    if tabs < 0 or tree_keys < 0:
        options.error(f"expected 0 or more, got --tabs {tabs} --tree-keys {tree_keys}")
    if runs < 1 or keys < 1:
        options.error(f"expected at least 1, got --runs {runs} --keys {keys}")
    if not 0 <= args.ai_delay <= 10:
        options.error(f"expected 0 to 10 seconds, got --ai-delay {args.ai_delay}")
    if not cpu_time_available():
        print("the UI benchmark reads CPU times from /proc: it runs on Linux only", file=sys.stderr)
        return 2

    def progress(message: str) -> None:
        print(f"  {message}", file=sys.stderr, flush=True)

    game, bare = GameSubject(ai_delay=args.ai_delay), BareSubject()
    try:
        figures = measure([game, bare], runs, keys, progress)
        tab_times = first_frames([game, bare], tabs, progress) if tabs else None
        tree = explorer_keys(tree_keys, progress) if tree_keys else None
        renders = count_renders(4) if args.renders else None
    except BenchError as error:
        print(f"UI benchmark failed: {error}", file=sys.stderr)
        return 1

    print(report(figures, runs, args.ai_delay, renders))
    print()
    print("What a person feels, each against its baseline in this run:")
    print()
    print(render_felt(felt_rows(figures[game.name], figures[bare.name], tab_times, tree)))
    if tab_times is not None:
        print(
            f"\nTabs: {plural(tabs, 'tab', 'tabs')} to each server in turn, one at a time, each"
            " from asking for the page to the first full frame; each server starts its app"
            " with the tab."
        )
    if tree is not None:
        print(
            f"Explorer: {plural(tree_keys, 'tree move', 'tree moves')} to each, in turn;"
            " the counting one opened again, untimed, whenever it had nothing left to count."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
