"""Shared by every test: the user's data directory and terminal settings stay out of it."""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import importlib
import os
import sys
from pathlib import Path

import pytest

from tests.support.environment import LONG, plain_environment
from ttt_tui.widgets import board as board_widget

pytest_plugins = ("tests.support.timeouts",)
"""A failed test's time limit kept through its teardown."""


def pytest_configure(config: pytest.Config) -> None:
    """The caller's terminal settings go for the whole run, subprocesses included.

    Textual reads a few ``TEXTUAL_*`` settings once, when it is first imported,
    which pytest-textual-snapshot does before this file is read; the xdist
    workers start after this and import it afresh, so they never see them.
    """
    plain_environment(os.environ.__setitem__, os.environ.__delitem__)
    cached_bytecode()
    # Textual's apps leave many reference cycles: at Python's default thresholds the
    # collector ran so often that it took a third of a Pilot test's time.
    gc.set_threshold(50_000, 50, 100)


def cached_bytecode() -> None:
    """Compiled modules written beside their sources (``__pycache__``, which git
    ignores), for this process, the xdist workers and every program a test starts,
    whatever the caller's ``PYTHONDONTWRITEBYTECODE``: without them every worker and
    every ``python -m ttt_tui`` compiled the package and the tests again (a worker's
    collection took 5.9 s of CPU instead of 2.2 s). The installed libraries keep the
    bytecode pip compiled for them."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_xdist_setupnodes(config: pytest.Config) -> None:
    """In a parallel run of a fresh tree, the test modules are compiled here, once,
    before xdist starts its workers: each worker collects every module, and six of
    them each compiling every test module, its asserts rewritten, took seven seconds
    of the first run after a clone."""
    modules = sorted((config.rootpath / "tests").rglob("test_*.py"))
    compiled = [m for m in modules if any(m.parent.glob(f"__pycache__/{m.stem}.*pytest*.pyc"))]
    if len(compiled) < len(modules) // 2:
        for module in modules:
            # One that cannot be imported is the workers' to report, as a collection error.
            with contextlib.suppress(Exception):
                importlib.import_module(".".join(module.relative_to(config.rootpath).parts)[:-3])


def pytest_unconfigure(config: pytest.Config) -> None:
    """A run that has not exited a minute after its last test prints every thread's
    stack and ends: a search stuck in a loop, in a thread no test waits for any more,
    would otherwise keep it from ever exiting. Not an xdist worker: a worker waits,
    its work done, until the whole run ends (an idle one from the start), and xdist
    ends one that does not exit then within 10 s (``NodeManager.EXIT_TIMEOUT``).

    What is garbage by now is collected once, its finalizers' unraisable exceptions
    reported as pytest reports them, and what lives is then frozen: pytest's own
    cleanup collects "harder", five times over every live object, which took each
    worker four to five seconds after its last test."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        faulthandler.dump_traceback_later(60, exit=True)
    gc.collect()
    gc.freeze()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection loaded (Textual, the package, the tests) is never garbage: kept
    out of every later collection of the oldest generation."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point ttt-tui's storage at a fresh directory, so settings and stats never leak."""
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "ttt-tui-data"))


@pytest.fixture(autouse=True)
def _patient_typing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typed two-digit squares whatever the machine's load: the board waits a second
    for a second digit, and on a busy machine the pause between `pilot.press`'s
    two keys can outlast it, the first digit alone then playing nothing. The one test
    about the wait running out sets a short one; the terminal fuzz runs the app as
    it is."""
    monkeypatch.setattr(board_widget, "TYPING_SECONDS", 60.0)


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same terminal for every test: no NO_COLOR, no forced colours or size, no
    Textual switches, TERM an ordinary terminal, however an earlier test left them.
    A test about one of them (`test_no_color`) sets it itself."""
    plain_environment(monkeypatch.setenv, monkeypatch.delenv)


LONGEST_FIRST = (
    "tests/ui/test_fuzz.py",
    "tests/terminal/test_fuzz.py",
    "tests/ui/test_races.py",
    "tests/compat/test_private_names.py",
)
"""Modules whose tests take the longest (tens of seconds each in the long run): started
first, so that with xdist no worker is left running one of them alone at the end."""

IN_PROCESSES = (
    "tests/terminal/",
    "tests/serve/test_serve.py",
    "tests/tools/",
    "tests/commands/test_check_cs50.py",
    "tests/bots/test_sandbox.py",
    "tests/online/test_tmux.py",
)
"""Tests that start the game (and its search process) or a class of learners' bots as
processes of their own: the real program in a pseudo-terminal, `ttt-tui serve` and its
tabs' games, the benchmarks, each CS50 bug's bot and each sandbox probe checked end to
end. They run in the long run (``.ci/run``); the default run grades the same bugs from
answers made up in `tests/teach/`. (The browser and load tests have switches of their
own.)"""

FUZZ = ("tests/ui/test_fuzz.py",)
"""The Pilot fuzz, its short seed and the checks of its checks: the long run, which
`.ci/run` also runs with thousands of events (the real-terminal fuzz is `IN_PROCESSES`)."""

ONE_CASE = (
    "tests/ui/",
    "tests/compat/",
    "tests/commands/test_check.py",
    "tests/engine/test_progress.py",
    "tests/engine/test_book.py",
)
"""Where a parametrised test runs its first case in the default run and every case in
the long run: each case of a Pilot test starts an app (of a check test, a bot and
ttt-tui as processes), and the first already goes through the code the others go
through at another size, theme, moment or misbehaviour."""

SLOW = (
    # Pilot tests of a second or more of CPU whose behaviour a quicker test of the same
    # feature goes through in the default run.
    "tests/ui/test_review.py::test_a_long_game_opens_with_its_selected_move_in_view",
    "tests/ui/test_review.py::test_tiny_terminals_under_the_help_break_neither_the_review_nor",
    "tests/ui/test_explorer.py::test_the_alpha_beta_tab_shows_no_step_keys_where_the_position",
    "tests/ui/test_explorer.py::test_each_tab_shows_its_own_keys_and_the_others_still_say_where",
    "tests/ui/test_coach.py::test_a_5x5_board_words_every_verdict_the_same_way",
    "tests/ui/test_size.py::test_notices_do_not_cover_the_too_small_message",
    "tests/ui/test_resume.py::test_a_served_tab_never_offers_a_left_game_and_keeps_none",
    "tests/ui/test_palette.py::test_a_screenshot_the_current_folder_cannot_take_goes_to_the_data",
    "tests/ui/test_snapshots_features.py::test_review_of_a_5x5_game",
    "tests/ui/test_snapshots_features.py::test_explorer_alpha_beta_walk",
    "tests/ui/test_races.py::test_no_move_from_an_old_game_ever_lands",
    "tests/compat/test_screen.py::test_the_game_goes_on_showing_under_two_dialogs",
    "tests/ui/test_explorer.py::test_a_finished_position_has_nothing_proving_or_waiting",
    "tests/ui/test_palette.py::test_the_palette_s_screenshot_goes_to_the_current_folder_and",
    "tests/ui/test_persistence.py::test_the_stats_screen_shows_counts_and_resets_only_after",
    # A workaround's guard that waits for a notification to expire on the clock; the
    # default run shows toasts coming and going (tests/ui/test_notices.py).
    "tests/compat/test_notification.py::test_a_toast_whose_notification_expired_on_its_way",
    # A scan of every module for Textual's private names: the rule holds from one
    # change to the next, and `.ci/run` keeps it.
    "tests/compat/test_private_names.py::test_no_private_name_of_textual_outside_the",
    # Bots graded by plain minimax in CS50's convention, a second or two each; the
    # default run grades the writing bot and the misbehaving ones (tests/teach too).
    "tests/commands/test_check.py::test_a_bot_that_plays_for_x_only_is_caught_as_o",
    "tests/commands/test_check.py::test_a_bot_with_no_preference_for_quick_wins_is_slow",
    "tests/commands/test_check.py::test_a_bot_with_its_own_marks",
    # Sixteen processes writing at once; the default run kills one writer at random
    # moments.
    "tests/storage/test_shared.py::test_sixteen_writers_at_once_lose_no_record_no_count_and",
    # Searches of a second or more: the default run keeps one of each kind.
    "tests/engine/test_progress.py::test_tables_stay_under_their_cap",
    "tests/engine/test_book.py::test_the_book_s_move_values_are_the_search_s",
    "tests/engine/test_progress.py::test_searches_in_two_threads_on_one_board_size_keep_to",
    # A search's results sent to another process: the search process's own tests
    # (tests/search) send every kind of result across.
    "tests/engine/test_progress.py::test_results_cross_a_process_boundary",
    # The scan of every workaround's private names, and the scanner's own check, as the
    # scan above.
    "tests/compat/test_private_names.py::test_every_private_name_a_workaround_uses_is_listed",
    "tests/compat/test_private_names.py::test_the_scan_sees_private_names",
    # Searches cancelled at random moments, the tables checked after each: the default
    # run cancels searches in tests/search and tests/ui/test_races.py.
    "tests/engine/test_progress.py::test_a_cancelled_search_leaves_the_tables_sound",
    # Whole checks of a class of bots and of an example bot; the default run checks the
    # line-protocol example and each bot's misbehaviour.
    "tests/commands/test_check.py::test_a_class_of_bots_gets_a_line_each_and_a_bad_one_stops",
    "tests/commands/test_check.py::test_the_example_bots_are_perfect",
    "tests/commands/test_check.py::test_a_line_protocol_bot_that_dies_is_counted_each_time",
    # A search's progress in a thread: the search process's reports are checked in
    # tests/search/test_client.py.
    "tests/engine/test_progress.py::test_progress_reports_nodes_time_stage_and_a_partial",
    # Pilot tests of a feature whose rules a quicker test checks: records from before
    # the database (tests/storage/test_migration.py), the explorer's keys when too
    # small (tests/ui/test_size.py), the explorer's words on the small board
    # (tests/teach/test_explain.py).
    "tests/ui/test_persistence.py::test_games_recorded_before_the_database_are_moved_into",
    "tests/ui/test_explorer.py::test_too_small_the_explorer_offers_only_the_keys_that_work",
    "tests/ui/test_coach.py::test_the_explorer_s_small_board_words_every_hint_the_same_way",
    # Pictures of screens whose content a quicker test reads: the stats table's every
    # column (tests/ui/test_stats.py), the explorer on 5x5 (tests/ui/test_explorer.py;
    # the 3x3 explorer's picture stays).
    "tests/ui/test_snapshots_features.py::test_stats_screen_with_counts",
    "tests/ui/test_snapshots_features.py::test_explorer_on_5x5",
    # Pilot tests whose path a quicker test takes: a new game from the palette
    # (tests/ui/test_palette.py) and the question mid-game (tests/ui/test_sidebar.py);
    # hints, asked for by X after the computer opens, and the coach speaking for O
    # (tests/ui/test_coach.py).
    "tests/ui/test_sidebar.py::test_the_palette_s_new_games_ask_too_and_y_starts_one",
    "tests/ui/test_coach.py::test_in_two_players_mode_both_sides_can_ask_for_hints",
)
"""Tests in the long run alone, by the start of their node id; they are slow, and
what they check is checked in the default run more quickly or less thoroughly."""


def long_tier(item: pytest.Item, first_cases: set[str]) -> bool:
    """Whether ``item`` runs only in the long run (``TTT_LONG=1``). ``first_cases``
    holds the parametrised tests of `ONE_CASE` whose first case has been seen."""
    nodeid = item.nodeid
    path = nodeid.split("::")[0]
    if item.get_closest_marker("long") or path.startswith(IN_PROCESSES + FUZZ):
        return True
    if nodeid.startswith(SLOW):
        return True
    if path.startswith(ONE_CASE) and "[" in nodeid:
        test = nodeid.split("[")[0]
        if test in first_cases:
            return True
        first_cases.add(test)
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`LONGEST_FIRST` first, in that order; the rest in collection order (the sort is
    stable). The tests of the long tier (`long_tier`) are marked ``long``, so that
    ``-m long`` runs them all, and skipped unless ``TTT_LONG=1``."""

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    first_cases: set[str] = set()
    for item in items:  # in collection order, so that the first case is the first
        if long_tier(item, first_cases):
            item.add_marker(pytest.mark.long)
    items.sort(key=rank)
    if not LONG:
        skip = pytest.mark.skip(reason="a long run: set TTT_LONG=1 (.ci/run does)")
        for item in items:
            if item.get_closest_marker("long"):
                item.add_marker(skip)
