"""The game in play, kept to be resumed: its JSON and its restoring, and the rows that
keep it, offered back once only, and never while the app that plays it lives."""

from __future__ import annotations

import json
import signal
import sqlite3
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.storage.numbered import T0, numbered
from tests.support import games_in_play, records
from tests.support.stores import notice_texts, python, said
from ttt_tui.engine import Difficulty, IllegalMoveError, Player
from ttt_tui.play.game import Game, SavedGame, abandoned
from ttt_tui.play.session import Changed, MoveRequest, Session
from ttt_tui.play.settings import BoardSize, Mode, Settings
from ttt_tui.storage import DATABASE_FILE, Stats, Store, record_of
from ttt_tui.storage.model import saved_game_from_json, saved_game_json

EASY, MEDIUM, HARD = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD
MOMENT = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def saved(*moves: int, board: BoardSize = BoardSize.THREE) -> SavedGame:
    """A two-player game in progress after ``moves``."""
    settings = Settings(mode=Mode.TWO_PLAYERS, board=board)
    return SavedGame(settings, T0, moves, (None,) * len(moves))


def computer_moves(session: Session, *cells: int) -> None:
    """The computer plays these cells, one turn each, at the level the session asks."""
    for cell in cells:
        [request] = [r for r in session.take_requests() if isinstance(r, MoveRequest)]
        assert isinstance(session.apply_move(request.token, cell, request.difficulty), Changed)


# Its JSON, and restoring it ------------------------------------------------------------


def test_a_game_in_play_round_trips_with_its_history_and_settings() -> None:
    settings = Settings(
        difficulty=HARD, mark=Player.O, board=BoardSize.FOUR, coach=True, theme="nord"
    )
    session = Session(settings, now=lambda: MOMENT)
    session.begin()
    computer_moves(session, 5)
    session.play(0)
    computer_moves(session, 10)
    session.play(15)
    session.set_difficulty(EASY)
    computer_moves(session, 3)
    session.play(12)
    session.undo()  # takes back O's 12 and nothing else: the computer had not replied
    session.undo()  # takes back O's 15 and the computer's 3
    session.game.hints_used = 2
    kept = session.snapshot()
    assert kept is not None
    assert kept.moves == (5, 0, 10)
    assert kept.levels == (HARD, None, HARD)
    assert kept.redo_stack == ((12,), (15, 3))
    assert kept.redo_levels == ((None,), (None, EASY))
    assert (kept.undo_used, kept.hints_used, kept.paused) == (True, 2, False)

    text = saved_game_json(kept)
    assert saved_game_from_json(text) == kept
    game = Game.restore(saved_game_from_json(text))
    assert (game.mode, game.human, game.board.n) == (Mode.HUMAN_VS_AI, Player.O, 4)
    assert (game.moves, game.levels) == ([5, 0, 10], [HARD, None, HARD])
    assert (game.redo_stack, game.redo_levels) == ([[12], [15, 3]], [[None], [None, EASY]])
    assert (game.undo_used, game.hints_used, game.started) == (True, 2, MOMENT)
    assert game.redo() and game.redo()
    assert game.moves == [5, 0, 10, 15, 3, 12]

    # A new session resumes it exactly; this run's theme stays.
    later = Session(Settings(theme="gruvbox", board=BoardSize.FIVE), now=lambda: MOMENT)
    later.begin()
    later.resume(saved_game_from_json(text))
    again = later.snapshot()
    assert again == replace(kept, settings=replace(kept.settings, theme="gruvbox"))
    assert later.settings.difficulty is EASY and later.settings.coach


def test_a_paused_ai_vs_ai_game_comes_back_paused() -> None:
    session = Session(
        Settings(mode=Mode.AI_VS_AI, ai_x_difficulty=EASY, ai_o_difficulty=HARD),
        now=lambda: MOMENT,
    )
    session.begin()
    computer_moves(session, 4, 0)
    session.set_paused(True)
    kept = session.snapshot()
    assert kept is not None and kept.paused and kept.levels == (EASY, HARD)

    later = Session(Settings(), now=lambda: MOMENT)
    later.begin()
    later.resume(saved_game_from_json(saved_game_json(kept)))
    assert later.paused
    assert later.snapshot() == kept


def test_nothing_to_keep_before_a_move_or_after_the_end() -> None:
    session = Session(Settings(mode=Mode.TWO_PLAYERS), now=lambda: MOMENT)
    session.begin()
    assert session.snapshot() is None
    for cell in (0, 3, 1, 4, 2):
        session.play(cell)
    assert session.game.is_over
    assert session.snapshot() is None


@pytest.mark.parametrize(
    ("game", "error"),
    [
        (saved(0, 0), IllegalMoveError),
        (saved(0, 9), ValueError),
        (saved(0, 3, 1, 4, 2, 5), IllegalMoveError),  # on after X has won
        (replace(saved(0, 4), levels=(None, HARD)), ValueError),  # a level for a person
        (replace(saved(0), redo_stack=((0,),), redo_levels=((None,),)), ValueError),
        (replace(saved(0), levels=()), ValueError),
    ],
    ids=["a square twice", "off the board", "after the end", "a person's level",
         "an undone move that cannot replay", "levels missing"],
)  # fmt: skip
def test_a_game_its_settings_could_not_have_played_is_refused(
    game: SavedGame, error: type[Exception]
) -> None:
    with pytest.raises(error):
        Game.restore(game)
    with pytest.raises(ValueError):
        saved_game_from_json(saved_game_json(game))


# Kept, left and claimed ---------------------------------------------------------------

CLAIM_ALL = """
import sys
from pathlib import Path
from ttt_tui.storage import Store

store, claimed = Store(Path(sys.argv[1])), []
while (left := store.claim_left_game()) is not None:
    claimed.append(left.id)
print(" ".join(map(str, claimed)), flush=True)
"""


def claimed_elsewhere(data: Path) -> list[int]:
    """The games another ttt-tui (another process) would be offered, claimed by it.

    Another process, not another store in this one: a store takes a game kept by this
    process under another token for one kept before the system gave this process's
    number again, and offers it."""
    claimer = python(CLAIM_ALL, str(data))
    out, _ = claimer.communicate(timeout=60)
    assert claimer.returncode == 0
    return [int(n) for n in out.split()]


def test_a_kept_game_is_updated_in_its_row_and_goes_with_the_game_s_record(data: Path) -> None:
    store = Store(data)
    store.keep_in_play(saved(4))
    store.keep_in_play(saved(4, 0))
    [(state, owner)] = games_in_play(data)
    assert saved_game_from_json(state) == saved(4, 0)
    assert owner is not None
    assert store.claim_left_game() is None  # its own game is not offered to itself

    store.record_game(numbered(1))
    assert games_in_play(data) == []
    assert len(records(data)) == 1
    store.keep_in_play(saved(8))
    store.keep_in_play(None)  # a new game with no move: nothing to keep
    assert games_in_play(data) == []


def test_the_record_and_the_end_of_the_kept_game_are_one_transaction(data: Path) -> None:
    """If the kept game cannot go, the record does not go in either: never the game
    recorded and still offered back, never neither."""
    store = Store(data)
    store.keep_in_play(saved(4))
    db = sqlite3.connect(data / DATABASE_FILE)
    db.execute(
        "CREATE TRIGGER kept_for_ever BEFORE DELETE ON games_in_play"
        " BEGIN SELECT RAISE(ABORT, 'kept for ever'); END"
    )
    db.close()

    store.record_game(numbered(1))

    assert store.saving is False  # the failure turned saving off, and said so
    assert "kept for ever" in notice_texts(store)[0]
    assert store.load_stats() == Stats.from_records([numbered(1)])  # counted in memory
    assert records(data) == []
    assert len(games_in_play(data)) == 1


def test_a_game_left_is_offered_to_the_next_store_which_resumes_it(data: Path) -> None:
    first = Store(data, now=lambda: MOMENT)
    first.keep_in_play(saved(4))
    first.leave_in_play(saved(4, 0))
    [(state, owner)] = games_in_play(data)
    assert owner is None

    second = Store(data)
    left = second.claim_left_game()
    assert left is not None
    assert (left.game, left.saved) == (saved(4, 0), MOMENT)
    assert second.claim_left_game() is None  # claimed: its own now
    assert claimed_elsewhere(data) == []  # nor another's while this one lives

    second.resume_left(left)
    second.keep_in_play(saved(4, 0, 8))
    [(state, owner)] = games_in_play(data)
    assert saved_game_from_json(state) == saved(4, 0, 8) and owner is not None
    second.record_game(numbered(1))
    assert games_in_play(data) == []


def test_a_game_not_resumed_is_recorded_as_abandoned(data: Path) -> None:
    Store(data).leave_in_play(saved(4, 0))
    store = Store(data)
    left = store.claim_left_game()
    assert left is not None

    store.abandon_left(left, record_of(abandoned(left.game, MOMENT)))

    assert games_in_play(data) == []
    [record] = records(data)
    assert (record["result"], record["moves"], record["mode"]) == (
        "abandoned",
        [4, 0],
        "two_players",
    )
    assert record["started"] == T0.isoformat() and record["ended"] == MOMENT.isoformat()
    assert store.load_stats() == Stats()  # an abandoned game is not counted
    assert store.claim_left_game() is None


def test_a_game_released_unanswered_is_offered_again(data: Path) -> None:
    Store(data).leave_in_play(saved(4))
    store = Store(data)
    left = store.claim_left_game()
    assert left is not None
    store.release_left(left)
    assert games_in_play(data)[0][1] is None
    again = Store(data).claim_left_game()
    assert again is not None and again.id == left.id


def test_the_newest_left_game_is_offered_first_and_a_damaged_one_dropped(data: Path) -> None:
    times = iter([T0, T0 + timedelta(minutes=1), T0 + timedelta(minutes=2)])
    store = Store(data, now=lambda: next(times))
    store.leave_in_play(saved(0))
    store.leave_in_play(saved(1))
    store.leave_in_play(saved(2))
    db = sqlite3.connect(data / DATABASE_FILE)
    newer = (T0 + timedelta(minutes=5)).isoformat()
    db.execute(
        "INSERT INTO games_in_play (saved, state, owner) VALUES (?, ?, NULL), (?, ?, NULL)",
        (newer, '{"version": 1, "moves": [0, 0', newer, saved_game_json(saved(0, 0))),
    )
    db.commit()
    db.close()

    claimer = Store(data)
    left = claimer.claim_left_game()
    assert left is not None and left.game == saved(2)
    notices = notice_texts(claimer)
    assert len(notices) == 2
    assert all(
        n.startswith("A game left unfinished could not be read (") and n.endswith("dropped.")
        for n in notices
    )
    assert [saved_game_from_json(state).moves for state, _ in games_in_play(data)] == [
        (0,),
        (1,),
        (2,),
    ]
    assert [claimer.claim_left_game() for _ in range(3)][-1] is None


# Other processes ---------------------------------------------------------------------

KEEPER = """
import sys
from pathlib import Path
from ttt_tui.play.game import SavedGame
from ttt_tui.play.settings import Mode, Settings
from ttt_tui.storage import Store
from tests.storage.numbered import T0

store = Store(Path(sys.argv[1]))
store.keep_in_play(SavedGame(Settings(mode=Mode.TWO_PLAYERS), T0, (4, 0), (None, None)))
print("kept", flush=True)
sys.stdin.read()
"""
"""Keeps a game in play, then plays on (waits) until its stdin closes or it is killed."""


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_a_game_is_offered_only_once_the_process_playing_it_has_died(data: Path) -> None:
    keeper = python(KEEPER, str(data))
    assert said(keeper) == "kept"
    store = Store(data)
    assert store.claim_left_game() is None  # its app is alive: still being played

    keeper.send_signal(signal.SIGKILL)
    keeper.wait()
    left = store.claim_left_game()
    assert left is not None and left.game == saved(4, 0)
    assert claimed_elsewhere(data) == []  # now this store's, which is alive


CLAIMER = """
import sys
from pathlib import Path
from ttt_tui.storage import Store

store = Store(Path(sys.argv[1]))
store.load_stats()
print("ready", flush=True)
sys.stdin.readline()  # everyone starts together
claimed = []
while (left := store.claim_left_game()) is not None:
    claimed.append(left.id)
print(" ".join(map(str, claimed)), flush=True)
sys.stdin.readline()  # alive until every claimer is done: its claims stay its own
"""
"""Claims left games until none is left, says which, and lives until told to end."""


def test_two_processes_at_once_never_claim_the_same_game(data: Path) -> None:
    store = Store(data)
    for cell in range(8):
        store.leave_in_play(saved(cell))
    claimers = [python(CLAIMER, str(data)) for _ in range(3)]
    for claimer in claimers:
        assert said(claimer) == "ready"
    for claimer in claimers:
        assert claimer.stdin is not None
        claimer.stdin.write("go\n")
        claimer.stdin.flush()
    claimed = [[int(n) for n in said(claimer).split()] for claimer in claimers]
    for claimer in claimers:
        claimer.communicate("end\n", timeout=60)

    every = [row for rows in claimed for row in rows]
    assert sorted(every) == list(range(1, 9))  # each game claimed, and by one claimer only
    assert all(owner is not None for _, owner in games_in_play(data))


def test_a_left_game_from_a_newer_ttt_tui_is_dropped_with_a_notice(data: Path) -> None:
    Store(data).leave_in_play(saved(4))
    db = sqlite3.connect(data / DATABASE_FILE)
    newer = json.loads(saved_game_json(saved(4)))
    newer["version"] = 99
    db.execute("UPDATE games_in_play SET state = ?", (json.dumps(newer),))
    db.commit()
    db.close()

    store = Store(data)
    assert store.claim_left_game() is None
    [notice] = notice_texts(store)
    assert "could not be read" in notice
    assert games_in_play(data) == []
    assert records(data) == []  # nothing recorded of a game that could not be read
