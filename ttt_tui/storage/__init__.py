"""Settings, all-time stats and game records on disk. No UI imports.

Three files live in the data directory (`default_data_dir`):

``settings.json``
    The choices kept between runs (`Settings`).
``stats.json``
    All-time counts by mode and difficulty (`Stats`).
``games.jsonl``
    One JSON object a line for every finished or abandoned game (`GameRecord`),
    and a ``{"version": 2, "stats_reset": TIME}`` line where the stats were
    reset (`Store.reset_stats`).

The modules, each importing only the ones before it:

`ttt_tui.storage.jsonfields`
    The format version, and typed fields that say what is wrong with them.
`ttt_tui.storage.files`
    Plain file I/O: atomic writes, durable renames, the directory's lock,
    leftover temp files.
`ttt_tui.storage.model`
    Settings, game records, stats and stats keys, and their JSON (pure).
`ttt_tui.storage.store`
    The `Store`: where the files are, what to do when one is damaged, and the
    notices that say so.
`ttt_tui.storage.saver`
    The `Saver`: every call on the store in a thread of its own, in order, so
    that the game never waits for the disk or for another ttt-tui.
`ttt_tui.storage.crash`
    Crash reports, written beside the data files.

The settings themselves (`ttt_tui.play.settings`) and the results and outcomes
counted (`ttt_tui.play.results`) live below the storage, which owns their JSON;
nothing here imports the session, the screens or the widgets.

Nothing is lost:

- Every write is atomic: the new content goes to a temporary file in the same
  directory (``.NAME.<pid>.<token>.tmp``), which is flushed, fsynced and then
  renamed over the old file with `os.replace`; the directory is fsynced after
  the rename where the platform allows. A kill at any moment leaves either the
  old file or the new one, plus at worst a temporary file, which the next
  `Store` removes once the process that wrote it is gone.
- ``games.jsonl`` is append-only in meaning but rewritten atomically: each
  new game reads the existing file, checks every line, and writes old lines
  plus the new one through the same temp-and-rename path. A plain append
  could leave a torn last line after a kill, a full disk (a short write) or a
  power cut; the rewrite never does. Game files are small (about 250 bytes a
  game, so 10,000 games is 2.5 MB), which keeps the rewrite cheap, and a
  `Store` parses only the lines added since it last read or wrote the file.
- A file that cannot be read as what it should be (bad JSON, a truncated or
  empty file, a wrong type, an unknown value) is renamed to
  ``NAME.corrupt-<UTC timestamp>``, with a notice for the user naming what
  was wrong; the other files are untouched. What can be saved is: for
  ``settings.json`` whose top level is a good object, every good field is kept
  and only the bad ones fall back to their defaults; for ``games.jsonl`` the
  readable lines are kept in the new file; ``stats.json`` is rebuilt from the
  games in ``games.jsonl`` recorded since the last reset (counted as live).
- A file whose ``version`` is newer than `FORMAT_VERSION` was written by a
  newer ttt-tui: it is neither moved nor overwritten, the app uses defaults for
  it, and saving to that file stays off for the session.
- If the directory cannot be created, read or written (permission denied, a
  regular file in its place, a full disk), everything keeps working in memory
  and the user gets one notice that saving is off. No public method of
  `Store` raises for an I/O problem.

A `Store` is meant for one thread: the app's saver's. Several ttt-tui
processes may share a directory (`ttt-tui serve` runs one per browser tab) and
lose nothing:

- Every change is a read-modify-write under an exclusive ``flock`` of the
  directory itself (`ttt_tui.storage.files.directory_lock`), which leaves no
  lock file behind and is dropped by the system when its holder dies. A game
  is added to the games and counted in the stats as they are on disk at that
  moment; saved settings change only the fields this process changed, over
  the file as it is. The app's store waits a moment for the lock and then
  gives up, having changed nothing (`LockBusy`); its saver tries again until
  the lock is free, and the game goes on meanwhile.
- Reads take no lock, since every file is replaced whole by a rename; damage
  found outside the lock is looked at again under it before anything is moved
  aside, so only one process repairs a file (while another holds the lock, the
  repair waits for the next change).
- Where a directory cannot be locked (Windows, and file systems without
  ``flock`` such as some network ones) nothing is locked: each write is still
  atomic, but two processes writing at the same moment can lose one's update.
"""

from ttt_tui.storage.jsonfields import FORMAT_VERSION
from ttt_tui.storage.model import (
    MIXED,
    GameRecord,
    Mixed,
    Stats,
    StatsRow,
    read_settings,
    record_of,
    settings_from_json,
    settings_json,
    side_level,
    stats_entry,
    stats_key,
)
from ttt_tui.storage.store import (
    DATA_DIR_ENV,
    GAMES_FILE,
    SETTINGS_FILE,
    STATS_FILE,
    GamesUnreadable,
    Store,
    default_data_dir,
    read_games,
)

__all__ = [
    "DATA_DIR_ENV",
    "FORMAT_VERSION",
    "GAMES_FILE",
    "MIXED",
    "SETTINGS_FILE",
    "STATS_FILE",
    "GameRecord",
    "GamesUnreadable",
    "Mixed",
    "Stats",
    "StatsRow",
    "Store",
    "default_data_dir",
    "read_games",
    "read_settings",
    "record_of",
    "settings_from_json",
    "settings_json",
    "side_level",
    "stats_entry",
    "stats_key",
]
