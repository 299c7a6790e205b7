"""Pilot tests for what the app keeps on disk: settings, game records and stats.

Each test gives the app its own `Store` in ``tmp_path``; the computer is a
scripted chooser with no thinking delay, so every game is replayable.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from tests.support import (
    SIZE,
    GatedAI,
    LockHolder,
    Notes,
    ScriptedAI,
    agree_to_a_new_game,
    calls_begun,
    click_option,
    make_app,
    records,
    settle,
    start,
    stored,
    until,
)
from tests.support import play as play_keys
from ttt_tui.__main__ import build_parser
from ttt_tui.app import TicTacToeApp
from ttt_tui.commands.play import main as play
from ttt_tui.engine import Difficulty, Player
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.screens.confirm import ConfirmScreen
from ttt_tui.screens.game import GameScreen
from ttt_tui.screens.stats import StatsScreen
from ttt_tui.storage import (
    DATABASE_FILE,
    GAMES_FILE,
    SETTINGS_FILE,
    STATS_FILE,
    Store,
    default_data_dir,
)
from ttt_tui.storage.database import write
from ttt_tui.storage.saver import SAVED_NOTICE, waiting_notice
from ttt_tui.storage.store import recount
from ttt_tui.widgets.choice import Choice

# Helpers ---------------------------------------------------------------------


def stats_counts(directory: Path) -> dict[str, dict[str, int]]:
    """The all-time counts kept in ``directory``'s database."""
    store = Store(directory)
    try:
        stats = store.load_stats()
    finally:
        store.close()
    return {key: {str(o): n for o, n in row.items()} for key, row in stats.counts.items()}


def table_rows(screen: StatsScreen) -> dict[str, str]:
    """The stats table as drawn, by row key, each row's cells joined with `` | ``."""
    table = screen.query_one(DataTable)
    return {str(key.value): " | ".join(map(str, table.get_row(key))) for key in table.rows}


# Settings --------------------------------------------------------------------


async def test_settings_survive_a_restart(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    app = make_app(ScriptedAI(8, 7), store=Store(directory))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play_keys(pilot, "d")  # medium -> hard
        await click_option(pilot, "#mark", "O (second)")
        await settle(pilot)
        assert await pilot.click("#alternate")
        await play_keys(pilot, "c")
        app.theme = "textual-light"
        await pilot.pause()
        await click_option(pilot, "#mode", "2 players")  # the computer has opened as X
        await agree_to_a_new_game(pilot)
        await settle(pilot)
        expected = Settings(
            difficulty=Difficulty.HARD,
            mark=Player.O,
            mode=Mode.TWO_PLAYERS,
            alternate_start=True,
            coach=True,
            theme="textual-light",
        )
        assert screen.session.settings == expected
        await pilot.press("q")
    assert json.loads((directory / SETTINGS_FILE).read_text())["theme"] == "textual-light"

    again = make_app(ScriptedAI(8, 7), store=Store(directory))
    async with again.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.settings == expected
        assert again.theme == "textual-light"
        assert screen.session.game.mode is Mode.TWO_PLAYERS
        assert screen.query_one("#mode", Choice).value is Mode.TWO_PLAYERS
        assert screen.query_one("#difficulty", Choice).value is Difficulty.HARD
        assert screen.query_one("#mark", Choice).value is Player.O
        assert screen.query_one("#coach").value  # type: ignore[attr-defined]
        assert screen.query_one("#alternate").value  # type: ignore[attr-defined]
        # The coach is on from the first position.
        await settle(pilot)
        assert screen.session.analysis is not None


async def test_a_corrupt_settings_file_is_moved_aside_and_the_app_starts_with_defaults(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "data"
    directory.mkdir()
    damaged = '{"version": 1, "difficulty": "hard", "mark": "O",'  # cut off mid-write
    (directory / SETTINGS_FILE).write_text(damaged)

    app = make_app(ScriptedAI(8, 7), store=Store(directory))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.settings == Settings()
        assert screen.session.settings.difficulty is Difficulty.MEDIUM
        assert screen.session.game.human is Player.X
        assert len(notes.messages) == 1
        assert SETTINGS_FILE in notes.messages[0]
        assert "corrupt" in notes.messages[0]
        assert "defaults" in notes.messages[0]

    aside = list(directory.glob(f"{SETTINGS_FILE}.corrupt-*"))
    assert len(aside) == 1
    assert aside[0].read_text() == damaged


async def test_a_settings_file_with_an_unknown_value_is_also_set_aside(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    directory.mkdir()
    (directory / SETTINGS_FILE).write_text('{"version": 1, "difficulty": "impossible"}')
    app = make_app(ScriptedAI(8, 7), store=Store(directory))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        assert screen.session.settings == Settings()
        assert len(notes.messages) == 1
        assert "impossible" in notes.messages[0]
    assert len(list(directory.glob(f"{SETTINGS_FILE}.corrupt-*"))) == 1


# Game records and stats ------------------------------------------------------


async def test_a_finished_game_is_recorded_with_every_field_and_counted(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    app = make_app(ScriptedAI(8, 7), store=Store(directory))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play_keys(pilot, "1", "i", "2", "u", "2", "3")
        assert screen.session.game.is_over
        assert screen.session.game.moves == [0, 8, 1, 7, 2]

    [record] = records(directory)
    assert set(record) == {
        "version",
        "started",
        "ended",
        "mode",
        "n",
        "k",
        "x_difficulty",
        "o_difficulty",
        "human_mark",
        "moves",
        "result",
        "undo_used",
        "hints_used",
        "levels",
    }
    started = datetime.fromisoformat(record["started"])
    ended = datetime.fromisoformat(record["ended"])
    assert started.utcoffset() is not None
    assert ended.utcoffset() is not None
    assert started <= ended
    assert record["mode"] == "human_vs_ai"
    assert (record["n"], record["k"]) == (3, 3)
    assert record["x_difficulty"] is None
    assert record["o_difficulty"] == "medium"
    assert record["human_mark"] == "X"
    assert record["moves"] == [0, 8, 1, 7, 2]
    assert record["result"] == "x_won"
    assert record["undo_used"] is True
    assert record["hints_used"] == 1
    assert record["levels"] == [None, "medium", None, "medium", None]
    assert stats_counts(directory) == {"human_vs_ai/medium": {"win": 1, "draw": 0, "loss": 0}}


async def test_games_count_per_difficulty_and_mode(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    app = make_app(ScriptedAI(0, 1, 2), store=Store(directory))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play_keys(pilot, "4", "5", "9")  # the AI wins at medium
        assert screen.session.game.status.winner is Player.O
        await play_keys(pilot, "d", "n", "4", "5", "9")  # and again at hard
        await click_option(pilot, "#mode", "2 players")
        await settle(pilot)
        await play_keys(pilot, "1", "4", "2", "5", "3")
        await click_option(pilot, "#mode", "AI vs AI")
        await settle(pilot)
        assert screen.session.game.is_over

    counts = stats_counts(directory)
    assert counts["human_vs_ai/medium"] == {"win": 0, "draw": 0, "loss": 1}
    assert counts["human_vs_ai/hard"] == {"win": 0, "draw": 0, "loss": 1}
    assert counts["two_players"] == {"x_won": 1, "o_won": 0, "draw": 0}
    ai_key = "ai_vs_ai/medium-medium"
    assert sum(counts[ai_key].values()) == 1
    assert set(counts) == {"human_vs_ai/medium", "human_vs_ai/hard", "two_players", ai_key}

    recorded = records(directory)
    assert [(r["mode"], r["result"]) for r in recorded] == [
        ("human_vs_ai", "o_won"),
        ("human_vs_ai", "o_won"),
        ("two_players", "x_won"),
        ("ai_vs_ai", recorded[3]["result"]),
    ]
    assert [(r["x_difficulty"], r["o_difficulty"]) for r in recorded] == [
        (None, "medium"),
        (None, "hard"),
        (None, None),
        ("medium", "medium"),
    ]
    assert [r["human_mark"] for r in recorded] == ["X", "X", None, None]


async def test_new_game_and_quit_mid_game_record_abandoned_games_that_do_not_count(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "data"
    app = make_app(ScriptedAI(4, 8), store=Store(directory))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play_keys(pilot, "1", "n", "3", "2")
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0

    recorded = records(directory)
    assert [(r["moves"], r["result"]) for r in recorded] == [
        ([0, 4], "abandoned"),
        ([2, 4, 1, 8], "abandoned"),
    ]
    assert stats_counts(directory) == {}


async def test_quitting_after_a_finished_game_does_not_record_it_twice(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    app = make_app(ScriptedAI(8, 7), store=Store(directory))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play_keys(pilot, "1", "2", "3")
        await pilot.press("q")
        await pilot.pause()
    assert [r["result"] for r in records(directory)] == ["x_won"]


# The stats screen ------------------------------------------------------------


async def test_the_stats_screen_shows_counts_and_resets_only_after_confirmation(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "data"
    ai = ScriptedAI(8, 7)
    app = make_app(ai, store=Store(directory))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play_keys(pilot, "1", "2", "3")  # a win
        ai.script = [0, 1, 2]
        await play_keys(pilot, "n", "4", "5", "9")  # a loss
        ai.script = [4, 1, 5, 6]
        await play_keys(pilot, "n", "1", "3", "8", "4", "9")  # a draw
        assert screen.session.game.is_over and screen.session.game.status.winner is None

        await pilot.press("s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        medium = "You vs AI | Medium | 3 | 1 | 1 | 1 | - | -"
        assert table_rows(stats) == {
            "human_vs_ai/easy": "You vs AI | Easy | 0 | 0 | 0 | 0 | - | -",
            "human_vs_ai/medium": medium,
            "human_vs_ai/hard": "You vs AI | Hard | 0 | 0 | 0 | 0 | - | -",
            "two_players": "2 players | - | 0 | - | 0 | - | 0 | 0",
        }
        where = str(stats.query_one("#where", Static).render())
        assert where.startswith("Kept in ")
        on_disk = stats_counts(directory)

        await pilot.press("R")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is stats
        assert table_rows(stats)["human_vs_ai/medium"] == medium
        assert stats_counts(directory) == on_disk

        await pilot.press("R")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is stats
        zeroed = "You vs AI | Medium | 0 | 0 | 0 | 0 | - | -"
        assert table_rows(stats)["human_vs_ai/medium"] == zeroed
        assert all(v == 0 for row in stats_counts(directory).values() for v in row.values())
        assert [r["result"] for r in records(directory)] == ["x_won", "o_won", "draw"]

        await pilot.press("escape")
        assert app.screen is screen

    # A new app on the same directory sees the reset.
    assert Store(directory).load_stats().count("human_vs_ai/medium", "win") == 0
    # The reset is a row after the last game: the counts made again from the records agree.
    db = sqlite3.connect(directory / DATABASE_FILE)
    try:
        assert db.execute("SELECT after_game FROM stats_resets").fetchall() == [(3,)]
        with write(db):
            recount(db)
        assert db.execute("SELECT count(*) FROM stats").fetchone() == (0,)
    finally:
        db.close()


# Trouble with the disk -------------------------------------------------------


async def test_an_unwritable_data_dir_leaves_the_game_playable_with_one_notice(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data directory should be")
    ai = ScriptedAI(8, 7)
    app = make_app(ai, store=Store(blocker))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play_keys(pilot, "d", "c", "1", "2", "3")
        assert screen.session.game.status.winner is Player.X
        await play_keys(pilot, "n", "1")
        await pilot.press("s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        assert table_rows(stats)["human_vs_ai/hard"] == "You vs AI | Hard | 1 | 1 | 0 | 0 | - | -"
        where = str(stats.query_one("#where", Static).render())
        assert where.startswith("Saving is off")
        await pilot.press("escape")
        await pilot.press("q")
        await pilot.pause()

    saving = [m for m in notes.messages if "Saving is off" in m]
    assert len(saving) == 1, notes.messages
    assert str(blocker) in saving[0]
    # The in-memory store still has both games, the second abandoned on quit.
    assert [r.result.value for r in stored(app.store)] == ["x_won", "abandoned"]
    assert blocker.read_text() == "a file where the data directory should be"


# Where the data lives, and --no-save -----------------------------------------


async def test_the_app_saves_under_ttt_tui_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "from-env"
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(directory))
    assert default_data_dir() == directory
    app = make_app(ScriptedAI(8, 7), store=Store())
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play_keys(pilot, "d", "1", "2", "3")
    assert json.loads((directory / SETTINGS_FILE).read_text())["difficulty"] == "hard"
    assert [r["result"] for r in records(directory)] == ["x_won"]


def test_no_save_on_the_command_line_turns_saving_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TTT_TUI_DATA_DIR", str(tmp_path / "data"))
    parser = build_parser()
    assert parser.parse_args(["--no-save"]).no_save is True
    assert parser.parse_args([]).no_save is False

    stores: list[Store] = []

    def fake_run(self: TicTacToeApp, *args: Any, **kwargs: Any) -> None:
        stores.append(self.store)

    monkeypatch.setattr(TicTacToeApp, "run", fake_run)
    # pytest's stdout is no terminal; the check for one is not what is tested here.
    monkeypatch.setattr("ttt_tui.commands.play.terminal_problem", lambda: None)
    assert play(parser.parse_args(["--no-save"])) == 0
    assert play(parser.parse_args([])) == 0
    assert [s.saving for s in stores] == [False, True]
    assert stores[0].directory is None
    assert stores[1].directory == tmp_path / "data"
    assert not (tmp_path / "data" / SETTINGS_FILE).exists()


# A computer whose level changed during the game ------------------------------


def mixed_note(stats: StatsScreen) -> Static:
    """The line under the table that says what Mixed means."""
    return stats.query_one("#mixed-note", Static)


async def test_a_win_against_easy_then_hard_counts_as_mixed_not_as_beating_hard(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "data"
    store = Store(directory)
    store.save_settings(Settings(difficulty=Difficulty.EASY))
    ai = ScriptedAI(8, 7)
    app = make_app(ai, store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await play_keys(pilot, "1")  # Easy answers
        await play_keys(pilot, "d", "d")  # Easy -> Medium -> Hard
        assert screen.session.settings.difficulty is Difficulty.HARD
        await play_keys(pilot, "2", "3")  # Hard answers, then X wins
        assert screen.session.game.status.winner is Player.X
        assert ai.difficulties == [Difficulty.EASY, Difficulty.HARD]

        await pilot.press("s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        rows = table_rows(stats)
        assert rows["human_vs_ai/mixed"] == "You vs AI | Mixed | 1 | 1 | 0 | 0 | - | -"
        assert rows["human_vs_ai/hard"] == "You vs AI | Hard | 0 | 0 | 0 | 0 | - | -"
        assert rows["human_vs_ai/easy"] == "You vs AI | Easy | 0 | 0 | 0 | 0 | - | -"
        assert mixed_note(stats).display
        assert str(mixed_note(stats).render()) == (
            "Mixed: the computer's level changed during the game."
        )

    [record] = records(directory)
    assert (record["x_difficulty"], record["o_difficulty"]) == (None, "mixed")
    assert record["levels"] == [None, "easy", None, "hard", None]
    assert record["result"] == "x_won"
    assert stats_counts(directory) == {"human_vs_ai/mixed": {"win": 1, "draw": 0, "loss": 0}}


async def test_undo_drops_the_levels_of_undone_moves_and_redo_brings_them_back(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "data"
    store = Store(directory)
    store.save_settings(Settings(difficulty=Difficulty.EASY))
    ai = ScriptedAI(8, 7)
    app = make_app(ai, store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        # Easy's reply is undone, Hard plays every move that stays: a game against Hard.
        await play_keys(pilot, "1", "u", "d", "d", "1", "2", "3")
        assert screen.session.game.status.winner is Player.X
        assert screen.session.game.levels == [None, Difficulty.HARD, None, Difficulty.HARD, None]
        # Easy's reply undone and redone after the switch to Hard: it is Easy's again.
        await play_keys(pilot, "n", "d", "1", "u", "d", "d", "r", "2", "3")
        assert screen.session.settings.difficulty is Difficulty.HARD
        assert screen.session.game.status.winner is Player.X
        assert screen.session.game.levels == [None, Difficulty.EASY, None, Difficulty.HARD, None]
        # The stats screen says what Mixed means only when there is a Mixed row.
        await pilot.press("s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        assert table_rows(stats)["human_vs_ai/hard"] == "You vs AI | Hard | 1 | 1 | 0 | 0 | - | -"
        assert mixed_note(stats).display

    first, second = records(directory)
    assert first["o_difficulty"] == "hard"
    assert second["o_difficulty"] == "mixed"
    assert stats_counts(directory) == {
        "human_vs_ai/hard": {"win": 1, "draw": 0, "loss": 0},
        "human_vs_ai/mixed": {"win": 1, "draw": 0, "loss": 0},
    }


async def test_an_ai_vs_ai_engine_switched_mid_game_counts_as_mixed(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    store = Store(directory)
    store.save_settings(
        Settings(
            mode=Mode.AI_VS_AI,
            ai_x_difficulty=Difficulty.EASY,
            ai_o_difficulty=Difficulty.EASY,
        )
    )
    ai = GatedAI()  # plays the first free square: X takes 0, 2, 4, 6 and wins
    app = make_app(ai, store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        ai.allow(2)
        await calls_begun(ai, 3)  # X and O have moved at Easy; X is thinking again
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.game.moves == [0, 1]
        await click_option(pilot, "#ai-o-difficulty", "Hard")
        ai.allow()
        await settle(pilot)
        assert screen.session.game.status.winner is Player.X

        await pilot.press("s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        assert table_rows(stats) == {
            "human_vs_ai/easy": "You vs AI | Easy | 0 | 0 | 0 | 0 | - | -",
            "human_vs_ai/medium": "You vs AI | Medium | 0 | 0 | 0 | 0 | - | -",
            "human_vs_ai/hard": "You vs AI | Hard | 0 | 0 | 0 | 0 | - | -",
            "two_players": "2 players | - | 0 | - | 0 | - | 0 | 0",
            "ai_vs_ai/mixed": "AI vs AI | Mixed | 1 | - | 0 | - | 1 | 0",
        }
        assert mixed_note(stats).display

    [record] = records(directory)
    assert (record["x_difficulty"], record["o_difficulty"]) == ("easy", "mixed")
    assert record["levels"] == ["easy", "easy", "easy", "hard", "easy", "hard", "easy"]
    assert stats_counts(directory) == {"ai_vs_ai/mixed": {"x_won": 1, "o_won": 0, "draw": 0}}


async def test_no_mixed_note_without_a_mixed_row(tmp_path: Path) -> None:
    app = make_app(ScriptedAI(8, 7), store=Store(tmp_path / "data"))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play_keys(pilot, "1", "2", "3")
        await pilot.press("s")
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        assert "human_vs_ai/mixed" not in table_rows(stats)
        assert not mixed_note(stats).display


async def test_games_recorded_before_the_database_are_moved_into_it_and_counted(
    tmp_path: Path,
) -> None:
    """The files of an older ttt-tui: the games of ``games.jsonl`` go into the database at
    the first launch, the notice names the files kept, and the stats count them."""
    directory = tmp_path / "data"
    app = make_app(ScriptedAI(8, 7), store=Store(directory))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await play_keys(pilot, "1", "2", "3", "n", "1", "2", "3")
    old = "".join(json.dumps(record) + "\n" for record in records(directory))
    (directory / DATABASE_FILE).unlink()
    (directory / GAMES_FILE).write_text(old)
    (directory / STATS_FILE).write_text('{"version": 2, "counts": {}}')

    again = make_app(ScriptedAI(8, 7), store=Store(directory))
    notes = Notes(again)
    async with again.run_test(size=SIZE) as pilot:
        await start(pilot)
        await until(pilot, lambda: bool(notes.messages), "the notice")
        [notice] = notes.messages
        assert notice.startswith(
            "Games and stats now live in ttt-tui.sqlite3: moved the 2 recorded games of"
            " games.jsonl into it; kept the old files as games.jsonl.migrated-"
        )
        assert "games.jsonl.migrated-" in notice and "stats.json.migrated-" in notice
        assert notice.endswith("the stats now count the recorded games.")
        await pilot.press("s")
        stats = again.screen
        assert isinstance(stats, StatsScreen)
        medium = "You vs AI | Medium | 2 | 2 | 0 | 0 | - | -"
        await until(pilot, lambda: table_rows(stats)["human_vs_ai/medium"] == medium, "counts")
    assert not (directory / GAMES_FILE).exists()
    assert stats_counts(directory) == {"human_vs_ai/medium": {"win": 2, "draw": 0, "loss": 0}}


async def test_a_damaged_database_is_set_aside_and_the_game_saves_on(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    directory.mkdir()
    (directory / DATABASE_FILE).write_bytes(b"not a database, though it has its name" * 100)
    app = make_app(ScriptedAI(8, 7), store=Store(directory))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await until(pilot, lambda: bool(notes.messages), "the notice")
        [notice] = notes.messages
        assert notice.startswith(f"{DATABASE_FILE} was damaged (file is not a database);")
        assert f"moved it to {DATABASE_FILE}.corrupt-" in notice
        await play_keys(pilot, "1", "2", "3")
    assert [r["result"] for r in records(directory)] == ["x_won"]
    [aside] = directory.glob(f"{DATABASE_FILE}.corrupt-*")
    assert aside.read_bytes().startswith(b"not a database")


# Saving while another ttt-tui holds the data directory ---------------------------


def on_disk(directory: Path) -> tuple[dict[str, Any], list[str]]:
    """The saved settings and the results of the recorded games, as far as they are there."""
    settings_path = directory / SETTINGS_FILE
    settings = json.loads(settings_path.read_text()) if settings_path.exists() else {}
    return settings, [r["result"] for r in records(directory)]


async def test_a_held_lock_stops_no_key_and_everything_is_saved_once_it_is_free(
    tmp_path: Path,
) -> None:
    """Another process holds the data directory's lock while the game plays: a setting
    changes, a game is won and another abandoned, and every key is handled while the
    lock is still held; saving waits, says so once, and saves it all once it is free."""
    directory = tmp_path / "data"
    directory.mkdir()
    app = make_app(ScriptedAI(8, 7, 6), store=Store(directory))
    notes = Notes(app)
    with LockHolder(directory) as holder:
        async with app.run_test(size=SIZE) as pilot:
            # Saving on the event loop waited here for as long as the lock was held.
            async with asyncio.timeout(60):
                screen = await start(pilot)
                await play_keys(pilot, "d")  # Medium to Hard: a setting to save
                await play_keys(pilot, "1", "2", "3")  # X takes the top row: a game to record
                assert screen.session.game.is_over
                await play_keys(pilot, "n", "5", "c")  # a move, then the coach: another setting
                await play_keys(pilot, "n")  # the game of one move and a reply is abandoned
            assert holder.holding
            settings = screen.session.settings
            assert (settings.difficulty, settings.coach) == (Difficulty.HARD, True)
            assert on_disk(directory) == ({}, [])
            waiting = [m for m in notes.messages if m.startswith("Saving is waiting")]
            assert waiting == [waiting_notice(app.store).text]

            holder.release()
            await until(
                pilot,
                lambda: on_disk(directory)[1] == ["x_won", "abandoned"],
                "the games on disk",
                seconds=30,
            )
            await until(pilot, lambda: SAVED_NOTICE.text in notes.messages, "saved, it says")
    settings_json, games = on_disk(directory)
    assert (settings_json["difficulty"], settings_json["coach"]) == ("hard", True)
    assert games == ["x_won", "abandoned"]
    assert stats_counts(directory)["human_vs_ai/hard"]["win"] == 1
    assert app.last_words == []


async def test_quitting_while_the_lock_is_held_says_what_was_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ttt_tui.app.QUIT_SECONDS", 0.5)
    directory = tmp_path / "data"
    directory.mkdir()
    app = make_app(ScriptedAI(8), store=Store(directory))
    notes = Notes(app)
    with LockHolder(directory):
        async with app.run_test(size=SIZE) as pilot:
            await start(pilot)
            await play_keys(pilot, "c", "5")
            await until(pilot, lambda: len(notes.messages) > 1, "saving is waiting")
            await pilot.press("q")
    assert app.last_words == [
        f"not saved: your settings and the unfinished game. Another ttt-tui held {directory}"
        " for more than 0.5 s as this one ended."
    ]
    assert on_disk(directory) == ({}, [])


def test_what_was_not_saved_is_said_once_the_terminal_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fake_run(self: TicTacToeApp, *args: Any, **kwargs: Any) -> None:
        self.last_words = ["not saved: your settings."]

    monkeypatch.setattr(TicTacToeApp, "run", fake_run)
    monkeypatch.setattr("ttt_tui.commands.play.terminal_problem", lambda: None)
    assert play(build_parser().parse_args([])) == 0
    assert capsys.readouterr().err == "ttt-tui: not saved: your settings.\n"
