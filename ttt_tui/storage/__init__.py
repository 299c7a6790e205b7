"""Settings, stats, game records and the game in play, on disk. No UI imports.

In the data directory (`default_data_dir`):

``settings.json``
    The choices kept between runs (`Settings`): a small file a person may read,
    edit and diff, replaced whole by an atomic write.
``ttt-tui.sqlite3``
    An SQLite database (`ttt_tui.storage.database`): every finished or abandoned
    game (`GameRecord`), the all-time stats counted from them by the database
    itself, the stats resets, and each game in play, to resume after a quit, a
    crash or a lost terminal.

The modules, each importing only the ones before it:

`ttt_tui.storage.jsonfields`
    The JSON format version, and typed fields that say what is wrong with them.
`ttt_tui.storage.files`
    Plain file I/O: atomic writes, durable renames, leftover temp files.
`ttt_tui.storage.model`
    Settings, game records, games in play, stats and stats keys, and their JSON (pure).
`ttt_tui.storage.database`
    The SQLite schema, its migrations, and what SQLite's errors mean.
`ttt_tui.storage.store`
    The `Store`: where things are kept, what to do when a file is damaged or cannot
    be written, and the notices that say so; ``games.jsonl`` and ``stats.json``, the
    files before the database, carried into it.
`ttt_tui.storage.saver`
    The `Saver`: every call on the store in a thread of its own, in order, so
    that the game never waits for the disk or for another ttt-tui.
`ttt_tui.storage.crash`
    Crash reports, written beside the data files.

The settings themselves (`ttt_tui.play.settings`), the games (`ttt_tui.play.game`)
and the results counted (`ttt_tui.play.results`) live below the storage, which owns
their JSON; nothing here imports the session, the screens or the widgets. How it all
fits, and why each thing lives where it lives: ``docs/data.md``.
"""

from ttt_tui.storage.database import DATABASE_FILE, LockBusy
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
    Imported,
    LeftGame,
    Notice,
    NoticeKind,
    NumberedGame,
    Store,
    Unreadable,
    default_data_dir,
    has_data,
)

__all__ = [
    "DATABASE_FILE",
    "DATA_DIR_ENV",
    "FORMAT_VERSION",
    "GAMES_FILE",
    "MIXED",
    "SETTINGS_FILE",
    "STATS_FILE",
    "GameRecord",
    "Imported",
    "LeftGame",
    "LockBusy",
    "Notice",
    "NoticeKind",
    "NumberedGame",
    "Mixed",
    "Stats",
    "StatsRow",
    "Store",
    "Unreadable",
    "default_data_dir",
    "has_data",
    "read_settings",
    "record_of",
    "settings_from_json",
    "settings_json",
    "side_level",
    "stats_entry",
    "stats_key",
]
