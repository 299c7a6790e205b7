"""The JSON of ttt-tui's files: the format version, parsing, and typed fields.

A reader raises `InvalidData` whose message names the field and says what was
expected and what was found (``coach: expected true or false, got 'yes'``);
the store puts those words into the notices people see. Pure: no file I/O and
no UI imports, so the settings and the storage model can both build on it.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, TypeVar

FORMAT_VERSION = 2
"""The ``version`` this ttt-tui writes into every file and every game line.

Version 2 added the board size: ``board`` in the settings, ``n`` and ``k`` in a
game line, a ``4x4/`` or ``5x5/`` before the stats keys of the bigger boards.
Version 1 files are read as 3x3 games and settings, and written back as 2.
"""

OLDEST_VERSION = 1
"""The oldest ``version`` this ttt-tui reads."""


class InvalidData(ValueError):
    """File content that parses but is not what we expect; the message says why."""


class NewerFormat(InvalidData):
    """File content written by a newer ttt-tui: unreadable here, but not damaged."""

    def __init__(self, version: int) -> None:
        super().__init__(f"version {version} is newer than {FORMAT_VERSION}")
        self.version = version
        """The format version the file says it has."""


_E = TypeVar("_E", bound=enum.Enum)


def enum_field(data: Mapping[str, Any], key: str, kind: type[_E]) -> _E:
    """The member of ``kind`` whose value is ``data[key]``."""
    value = data[key]
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in kind)
        raise InvalidData(f"{key}: expected one of {choices}, got {value!r}") from None


def optional_enum_field(data: Mapping[str, Any], key: str, kind: type[_E]) -> _E | None:
    """As `enum_field`, with null read as None."""
    if data[key] is None:
        return None
    return enum_field(data, key, kind)


def bool_field(data: Mapping[str, Any], key: str) -> bool:
    """``data[key]``, which must be true or false."""
    value = data[key]
    if not isinstance(value, bool):
        raise InvalidData(f"{key}: expected true or false, got {value!r}")
    return value


def whole_number(value: Any, where: str) -> int:
    """``value``, which must be a whole number >= 0; ``where`` names it in the error."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidData(f"{where}: expected a whole number >= 0, got {value!r}")
    return value


def json_object(value: Any, where: str) -> dict[str, Any]:
    """``value``, which must be a JSON object; ``where`` names it in the error."""
    if not isinstance(value, dict):
        raise InvalidData(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def time_field(value: Any, where: str) -> datetime:
    """``value``, which must be an ISO 8601 time with a time zone."""
    if not isinstance(value, str):
        raise InvalidData(f"{where}: expected an ISO 8601 time, got {value!r}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidData(f"{where}: expected an ISO 8601 time, got {value!r}") from None
    if moment.utcoffset() is None:
        raise InvalidData(f"{where}: expected a time with a time zone, got {value!r}")
    return moment


def _check_version(data: Mapping[str, Any]) -> None:
    """Raise `NewerFormat` for a newer format and `InvalidData` for a missing or bad version."""
    version = data.get("version")
    expected = f"{OLDEST_VERSION} to {FORMAT_VERSION}"
    if isinstance(version, bool) or not isinstance(version, int):
        raise InvalidData(f"version: expected {expected}, got {version!r}")
    if version > FORMAT_VERSION:
        raise NewerFormat(version)
    if version < OLDEST_VERSION:
        raise InvalidData(f"version: expected {expected}, got {version}")


def parse_object(text: str) -> dict[str, Any]:
    """The JSON object in ``text``, whose ``version`` must be one this ttt-tui reads."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise InvalidData("nested too deeply") from None
    except ValueError as exc:
        raise InvalidData(f"not valid JSON ({exc})") from None
    data = json_object(value, "top level")
    _check_version(data)
    return data


def decode(raw: bytes) -> str:
    """``raw`` read as UTF-8 text."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidData("not UTF-8 text") from None


def json_bytes(data: Mapping[str, Any]) -> bytes:
    """A JSON file's content: ``data`` indented, in UTF-8, with a final newline."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
