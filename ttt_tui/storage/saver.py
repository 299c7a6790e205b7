"""Saving off the event loop: every call on the store runs in one thread of its own, in order.

The app hands its changes here (`Saver.save_settings`, `Saver.record`,
`Saver.reset_stats`) and goes on at once; reads that must come after them
(`Saver.load_stats`) return a future. Nothing here waits on the event loop's
behalf, so a slow disk, or another ttt-tui holding the data directory's lock
(another `ttt-tui serve` tab saving, a stuck process, a slow network file
system), never stops a key.

The store gives up the lock after `LOCK_SECONDS` having changed nothing
(`LockBusy`); the saver then tells the app once that saving is waiting, tries
the same change again every `RETRY_SECONDS`, in order, and says when it is
saved. What the store has to tell the person (a damaged file set aside,
saving turned off) goes to the same ``report`` callback, from the saver's
thread, the notices one call made together (a launch's: a damaged file, the files
carried over) in one list; an unexpected error goes to ``failed``. At the end `Saver.close` waits a
while for what is still to save, and says plainly what it could not.

No UI imports: the app turns the callbacks into messages.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from queue import SimpleQueue
from typing import Any

from ttt_tui.play.game import EndedGame, SavedGame
from ttt_tui.play.rating import Attempt, Rating
from ttt_tui.play.results import Result
from ttt_tui.play.settings import Settings
from ttt_tui.storage.database import LockBusy
from ttt_tui.storage.model import GameRecord, Stats, record_of
from ttt_tui.storage.store import LeftGame, Notice, NoticeKind, NumberedGame, Store

LOCK_SECONDS = 0.2
"""How long one try at a change waits for another ttt-tui to let go of the lock."""

RETRY_SECONDS = 0.5
"""The pause between two tries at a change while another ttt-tui holds the lock."""

QUIT_SECONDS = 5.0
"""How long the end of the game waits for what is still to save (less than the 10 s
`ttt-tui serve` gives a closed tab's game before it kills it)."""

GRACE_SECONDS = 1.0
"""How long `Saver.close` then waits for a write already under way to end."""


def waiting_notice(store: Store) -> Notice:
    """What the person is told, once, when saving has to wait for the lock."""
    return Notice(
        NoticeKind.SAVING,
        f"Saving is waiting: another ttt-tui is using {store.directory}. The game goes on,"
        " and everything is saved as soon as it is free.",
    )


SAVED_NOTICE = Notice(NoticeKind.SAVING, "Saved: the data directory is free again.", warning=False)
"""What the person is told when what waited is saved."""


@dataclass(eq=False)
class _Job:
    """One call on the store, and what is lost if it never runs."""

    run: Callable[[Store], Any]
    what: str
    """What it saves, for the person (``your settings``); empty for a read."""
    future: Future[Any] = field(default_factory=Future)
    """Its result, for a read."""


class Saver:
    """Runs every call on ``store`` in a thread of its own, one at a time, in order.

    The store is the saver's from now on: nothing else may call it. Its lock
    gives up after ``lock_seconds``; a change that could not have it is tried
    again every ``retry_seconds`` until it can. ``report`` is given the notices
    for the person, those that came together in one list, and ``failed`` each
    unexpected error of a change (a bug: the app reports it as a crash); both are
    called in the saver's thread.
    """

    def __init__(
        self,
        store: Store,
        report: Callable[[list[Notice]], object] = lambda _notices: None,
        failed: Callable[[BaseException], object] = lambda _error: None,
        *,
        lock_seconds: float = LOCK_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self.store = store
        """Where everything is kept; read and written only in the saver's thread once
        it has started (its `Store.directory` and `Store.saving` may be read anywhere)."""
        store.lock_timeout = lock_seconds
        self.report = report
        """Told the notices for the person, those that came together in one list."""
        self.failed = failed
        """Told each unexpected error of a change."""
        self.retry_seconds = retry_seconds
        """The pause between two tries at a change while the lock is held elsewhere."""
        self._jobs: SimpleQueue[_Job | None] = SimpleQueue()
        self._unfinished: list[_Job] = []
        """Jobs handed in and not yet done, oldest first."""
        self._guard = threading.Lock()
        self._thread = threading.Thread(target=self._serve, name="ttt-tui saver", daemon=True)
        self._give_up = threading.Event()
        self._waiting = False
        """Whether the person has been told that saving waits, and not yet that it is done."""
        self._closing = False
        """Whether the game is ending: waiting and saving are then not announced."""

    # Handing in work -----------------------------------------------------------------

    def start(self) -> None:
        """Start saving (idempotent). The first job reads every file once, so that a
        damaged one is reported now rather than when the first game ends."""
        if self._thread.ident is None:
            self._submit(_check_files, "")
            self._thread.start()

    def save_settings(self, settings: Settings) -> None:
        """Keep ``settings`` for the next run."""
        self._submit(lambda store: store.save_settings(settings), "your settings")

    def record(self, game: EndedGame) -> None:
        """Add a finished or abandoned game to the records and the stats."""
        record = record_of(game)
        what = "the unfinished game" if game.result is Result.ABANDONED else "the last game"
        self._submit(lambda store: store.record_game(record), what)

    def reset_stats(self) -> None:
        """Set every count to zero; the game records are kept."""
        self._submit(lambda store: store.reset_stats(), "the reset of the stats")

    def load_stats(self) -> Future[Stats]:
        """The all-time stats, once every change handed in before has been made."""
        job = self._submit(lambda store: store.load_stats(), "")
        return job.future

    def games_page(self, before: int | None = None, limit: int = 100) -> Future[list[NumberedGame]]:
        """Up to ``limit`` recorded games with their numbers, newest first, older than game
        ``before`` (None: from the newest), once every change handed in before is made."""
        job = self._submit(lambda store: store.games_page(before, limit), "")
        return job.future

    def record_attempt(self, attempt: Attempt) -> Future[Rating]:
        """Keep an attempt at a puzzle; the player's rating after it."""
        job = self._submit(lambda store: store.record_attempt(attempt), "the puzzle attempt")
        return job.future

    def puzzle_standing(self) -> Future[tuple[Rating, int]]:
        """The player's puzzle rating and best streak, once every change handed in before
        is made."""
        job = self._submit(lambda store: (store.puzzle_rating(), store.best_streak()), "")
        return job.future

    def add_own_puzzle(self, puzzle: str) -> None:
        """Keep a puzzle made of the player's own mistake (its record)."""
        self._submit(lambda store: store.add_own_puzzle(puzzle), "your puzzle")

    def own_puzzles(self) -> Future[list[str]]:
        """The player's own puzzles' records, oldest first, once every change handed in
        before is made."""
        job = self._submit(lambda store: store.own_puzzles(), "")
        return job.future

    def keep_in_play(self, saved: SavedGame | None) -> None:
        """Keep the game in play, to be offered back if the app goes without ending it
        (None: there is none, and the one kept goes)."""
        self._submit(lambda store: store.keep_in_play(saved), "the game in play")

    def leave_in_play(self, saved: SavedGame | None) -> None:
        """Keep the game in play as the app leaves it, for the next launch to offer."""
        self._submit(lambda store: store.leave_in_play(saved), "the game in play")

    def claim_left_game(self) -> Future[LeftGame | None]:
        """A game another run left unfinished, now this app's to offer back; None if none."""
        job = self._submit(lambda store: store.claim_left_game(), "")
        return job.future

    def resume_left(self, left: LeftGame) -> None:
        """``left`` is played on here, kept in its own row."""
        self._submit(lambda store: store.resume_left(left), "")

    def abandon_left(self, left: LeftGame, game: EndedGame) -> None:
        """``left`` is not resumed: ``game`` (it, abandoned) is recorded in its place."""
        record = record_of(game)
        self._submit(lambda store: store.abandon_left(left, record), "the unfinished game")

    def release_left(self, left: LeftGame) -> None:
        """``left`` was not answered for: the next launch offers it again."""
        self._submit(lambda store: store.release_left(left), "")

    def _submit(self, run: Callable[[Store], Any], what: str) -> _Job:
        job = _Job(run, what)
        with self._guard:
            self._unfinished.append(job)
        self._jobs.put(job)
        return job

    def record_game(self, record: GameRecord) -> None:
        """Add a game made into a record elsewhere (an online game's) to the records and
        the stats."""
        self._submit(lambda store: store.record_game(record), "the last game")

    # Ending ----------------------------------------------------------------------------

    def close(self, timeout: float = QUIT_SECONDS) -> list[str]:
        """Finish what was handed in, waiting at most ``timeout`` seconds for the lock,
        and stop. Returns what to tell the person once the game is gone: each notice
        made meanwhile, and what could not be saved, if anything (not that saving waited,
        nor that it then saved: the game has gone)."""
        told: list[str] = []
        self._closing = True
        self.report = lambda notices: told.extend(notice.text for notice in notices)
        self.start()
        self._jobs.put(None)
        self._thread.join(timeout)
        if self._thread.is_alive():
            self._give_up.set()
            self._thread.join(GRACE_SECONDS)
        if not self._thread.is_alive():
            self.store.close()
        with self._guard:
            lost = list(dict.fromkeys(job.what for job in self._unfinished if job.what))
        if lost:
            told.append(
                f"not saved: {_listed(lost)}. Another ttt-tui held {self.store.directory}"
                f" for more than {timeout:g} s as this one ended."
            )
        return told

    # In the saver's thread ------------------------------------------------------------

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            self._do(job)
            with self._guard:
                everything_saved = not self._unfinished
            if self._waiting and everything_saved:
                self._waiting = False
                if not self._closing:
                    self.report([SAVED_NOTICE])

    def _do(self, job: _Job) -> None:
        """Run one job, trying again while another ttt-tui holds the lock (once only
        after `close` gave up waiting). A read whose caller gave up on it is not run."""
        if not job.future.set_running_or_notify_cancel():
            with self._guard:
                self._unfinished.remove(job)
            return
        while True:
            try:
                result = job.run(self.store)
            except LockBusy:
                if not self._waiting:
                    self._waiting = True
                    if not self._closing:
                        self.report([waiting_notice(self.store)])
                if self._give_up.is_set() or self._give_up.wait(self.retry_seconds):
                    return
                continue
            except Exception as error:
                job.future.set_exception(error)
                if job.what:
                    self.failed(error)
            else:
                job.future.set_result(result)
            break
        with self._guard:
            self._unfinished.remove(job)
        notices = self.store.take_notices()
        if notices:
            self.report(notices)


def _check_files(store: Store) -> None:
    """Open the database and read the stats once: older files are carried into it, and a
    damaged one is set aside, each reported now rather than when the first game ends."""
    store.load_stats()


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
