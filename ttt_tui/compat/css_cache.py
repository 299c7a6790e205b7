"""Textual's parsed CSS, kept on disk between launches: the first frame parses none.

Checked with Textual 8.2.8 (`ttt_tui.compat.CHECKED_WITH`).

**Every launch parses every stylesheet again.** Textual keeps what it parses in
memory (``Stylesheet._parse_cache``, Textualize/textual#3575), so nothing is
parsed twice in one process; but each launch starts from the text. The game's
first frame needs 30 stylesheets (its own, and Textual's for the widgets it
shows): 12-13 ms of CPU, the largest part of what styling its widgets cost
(docs/performance.md). Read back from a pickle, the same rules take about 2 ms.

`ParsedCss` is that pickle. `ParsedCss.install` puts it in front of Textual's
parser (``Stylesheet._parse_rules``) for the rest of the process. A stylesheet
is taken from it only if everything its parse depends on is the same: the CSS's
text, where it was read from, whether it is a widget's default CSS, its
priority and scope, and the theme's variables. Anything else is parsed by
Textual, as before, and kept to be written. The data holds the rules of one
set of theme variables, those of the last launch's first frame, and is used only
by the Python and the Textual that wrote it (`textual_fingerprint`: not Textual's
version, whose look-up through the package metadata takes 11 ms).

Nothing about it can stop the game. Data that is damaged or not what this
module writes is ignored (`ParsedCss.from_bytes`); reading and writing the file,
in the user's cache directory and off the event loop, are the launch's
(`ttt_tui.commands.play`). What it loads is the user's own ttt-tui's, no more
trusted than Python's bytecode cache beside it.

Can go when Textual parses its stylesheets in a few milliseconds, or keeps them
between runs itself.
"""

from __future__ import annotations

import os
import pickle
import sys
from typing import TYPE_CHECKING, Any

import textual.css
from textual.css.stylesheet import Stylesheet

from ttt_tui.compat import Private

if TYPE_CHECKING:
    from textual.css.model import RuleSet
    from textual.css.types import CSSLocation

RELIES_ON = (
    Private(
        "textual.css.stylesheet.Stylesheet._parse_rules",
        "(self, css: 'str', read_from: 'CSSLocation', is_default_rules: 'bool' = False,"
        " tie_breaker: 'int' = 0, scope: 'str' = '') -> 'list[RuleSet]'",
    ),
    Private("textual.css.stylesheet.Stylesheet.__init__", attributes=("_variables",)),
)

PROTOCOL = pickle.HIGHEST_PROTOCOL
"""The pickle protocol the data is written with."""

FILE_NAME = "parsed-css.pickle"
"""The file's name in the cache directory."""

SourceKey = tuple[str, "CSSLocation", bool, int, str]
"""What a parse depends on besides the variables: ``_parse_rules``'s arguments."""

Variables = tuple[tuple[str, str], ...]
"""A theme's CSS variables, in order, as a key."""


Fingerprint = tuple[object, ...]
"""What the parsed rules' classes depend on: `textual_fingerprint`."""


def textual_fingerprint() -> Fingerprint:
    """This Python's version, and where Textual's CSS modules are, with the size and
    modification time of each: installing another Textual, or editing it, changes it."""
    directory = os.path.dirname(textual.css.__file__ or "")
    try:
        files = sorted(
            (entry.name, entry.stat().st_size, entry.stat().st_mtime_ns)
            for entry in os.scandir(directory)
            if entry.name.endswith(".py")
        )
    except OSError:
        return ()
    return (sys.version_info[:2], PROTOCOL, directory, tuple(files))


def _variables_of(stylesheet: Stylesheet) -> Variables:
    return tuple(stylesheet._variables.items())


class ParsedCss:
    """Parsed stylesheets, for one set of theme variables; and what Textual parsed since
    `install`, to be written back."""

    def __init__(
        self,
        fingerprint: Fingerprint = (),
        variables: Variables = (),
        rules: dict[SourceKey, list[RuleSet]] | None = None,
    ) -> None:
        self.fingerprint = fingerprint
        """The `textual_fingerprint` of this process's Textual, taken as the data was
        read, and written with what it parsed (empty: nothing written is ever read)."""
        self.variables = variables
        """The theme variables ``rules`` were parsed with."""
        self.rules: dict[SourceKey, list[RuleSet]] = rules or {}
        """Each stylesheet's rules, by what its parse depends on."""
        self.used: dict[SourceKey, list[RuleSet]] = {}
        """The stylesheets parsed since `install` with the first variables seen, found
        here or parsed by Textual: what `contents` holds."""
        self.used_variables: Variables | None = None
        """The variables of the first parse since `install`: the first frame's theme's."""
        self.missed = 0
        """Stylesheets Textual parsed since `install` (or `contents`) that were not here."""
        self._textual_parse: Any = None

    @classmethod
    def from_bytes(cls, data: bytes | None) -> ParsedCss:
        """What ``data`` (from `encode`) holds; empty if it is None, damaged, not that,
        or written with another Textual."""
        fingerprint = textual_fingerprint()
        if data is None:
            return cls(fingerprint)
        try:
            contents = pickle.loads(data)
            variables, rules = contents["variables"], contents["rules"]
            if not (isinstance(variables, tuple) and isinstance(rules, dict)):
                raise TypeError("not parsed CSS")
            written_with = contents["textual"]
        except Exception:
            # Damaged, or written by something else: Textual parses, as without it.
            return cls(fingerprint)
        if not fingerprint or written_with != fingerprint:
            return cls(fingerprint)
        return cls(fingerprint, variables, rules)

    def install(self) -> None:
        """Read stylesheets from here, and keep what Textual parses, for the rest of the
        process (or until `uninstall`)."""
        if self._textual_parse is not None:
            return
        textual_parse = Stylesheet._parse_rules
        self._textual_parse = textual_parse
        cache = self

        def _parse_rules(
            self: Stylesheet,
            css: str,
            read_from: CSSLocation,
            is_default_rules: bool = False,
            tie_breaker: int = 0,
            scope: str = "",
        ) -> list[RuleSet]:
            key: SourceKey = (css, read_from, is_default_rules, tie_breaker, scope)
            variables = _variables_of(self)
            found = cache.rules.get(key) if variables == cache.variables else None
            if found is None:
                found = textual_parse(self, css, read_from, is_default_rules, tie_breaker, scope)
                cache.missed += 1
            if cache.used_variables is None:
                cache.used_variables = variables
            if variables == cache.used_variables:
                cache.used[key] = found
            return found

        Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]

    def uninstall(self) -> None:
        """Give Textual its own parser back."""
        if self._textual_parse is not None:
            Stylesheet._parse_rules = self._textual_parse  # type: ignore[method-assign]
            self._textual_parse = None

    @property
    def stale(self) -> bool:
        """Whether Textual has parsed something since `install` (or `contents`) that
        was not here: what was read should be written again."""
        return self.missed > 0

    def contents(self) -> dict[str, Any]:
        """What to write (`encode`): the stylesheets parsed with the first variables
        seen since `install`. Cheap, for the thread that parses; no longer `stale`."""
        self.missed = 0
        return {
            "textual": self.fingerprint,
            "variables": self.used_variables,
            "rules": dict(self.used),
        }


def encode(contents: dict[str, Any]) -> bytes:
    """`ParsedCss.contents` as the bytes `ParsedCss.from_bytes` reads (a few ms: off the
    event loop)."""
    return pickle.dumps(contents, protocol=PROTOCOL)
