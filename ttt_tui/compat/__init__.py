"""Every workaround of a Textual or textual-serve bug, and every private name they use.

**The rule.** A private name of Textual's or textual-serve's is used only to fix
a bug a user can meet: a crash, a hang, a wrong screen, an inaccessible page;
with its upstream issue where one exists. Never for speed: speed comes from
public API only (the Line-API board, fewer widgets, work off the event loop,
lazy imports). A private name for speed ties the game to one Textual and makes
a Textual developer distrust what they know, for milliseconds nobody feels.

Nothing else in ttt-tui reads or overrides a private name of Textual's (a test
checks), so upgrading Textual means checking this folder alone. Each module
says which bug it works around (with the upstream issue where there is one),
the version it was checked against (`CHECKED_WITH`), and how to tell that it
can go; each lists in ``RELIES_ON`` the private names, signatures and sources
it depends on (nothing here copies Textual's code), and ``tests/compat`` fails,
naming the module, as soon as one of them is gone or has changed.

`app`
    An unexpected error becomes a crash report; resizes that arrive out of order.
`cursor`
    The terminal's own cursor, shown for a screen reader or a braille display.
`driver`
    A terminal that hangs up, not taken for the end of a suspension.
`hangup`
    A game whose terminal or server went without a signal ends; one that outlives
    its terminal is ended outright.
`notification`
    A toast whose notification has just expired cannot hang the app.
`option_list`
    Option lists that page and click safely while they are laid out.
`palette`
    The command palette, closing once however fast the input comes.
`screen`
    Screens that start no text selection, and redraw through dialogs above them.
`serve`
    textual-serve's server, run by ttt-tui, its games ended with their tabs, its
    page's font loaded from the server itself, its page readable by a screen reader.
"""

from __future__ import annotations

import importlib
import inspect
import re
from dataclasses import dataclass
from typing import Any

CHECKED_WITH = {"textual": ("8.2.0", "8.2.8"), "textual-serve": ("1.1.0", "1.1.3")}
"""The lowest and the highest versions every workaround here was checked against: the
whole suite runs with each (``.ci/lowest.txt``, ``constraints.txt``), and
``pyproject.toml`` allows the series between."""


@dataclass(frozen=True)
class Private:
    """Something of Textual's (or textual-serve's) a workaround relies on, as it was checked.

    ``path`` names it by its module and attributes (``textual.app.App._handle_exception``).
    ``signature``, when given, is its signature as `inspect` prints it; ``source``, for
    code whose behaviour the workaround depends on (what a signal handler starts, how
    a thread ends), the first 12 hex digits of the SHA-256 of its source;
    ``attributes``, for a method (an ``__init__``, say), the attributes of ``self`` it
    sets that the workaround reads (``_exit_renderables``).
    """

    path: str
    signature: str | None = None
    source: str | None = None
    attributes: tuple[str, ...] = ()

    @property
    def names(self) -> set[str]:
        """Every name it stands for: the path's parts and the attributes."""
        return {*self.path.split("."), *self.attributes}

    def resolve(self) -> Any:
        """What ``path`` names now; raises `ImportError` or `AttributeError` if it is gone."""
        parts = self.path.split(".")
        for split in range(len(parts), 0, -1):
            try:
                found: Any = importlib.import_module(".".join(parts[:split]))
            except ImportError:
                continue
            for name in parts[split:]:
                found = getattr(found, name)
            return found
        raise ImportError(self.path)

    def changes(self) -> list[str]:
        """How it differs now from what was checked; empty if it does not."""
        try:
            found = self.resolve()
        except (ImportError, AttributeError) as error:
            return [f"{self.path} is gone ({type(error).__name__}: {error})"]
        changes = []
        if self.signature is not None:
            now = str(inspect.signature(found))
            if now != self.signature:
                changes.append(f"{self.path}{self.signature} is now {self.path}{now}")
        if self.source is not None:
            digest = source_digest(found)
            if digest != self.source:
                changes.append(f"{self.path}'s source changed (digest {self.source}, now {digest})")
        source = inspect.getsource(found) if self.attributes else ""
        for name in self.attributes:
            if not re.search(rf"\bself\.{name}\b\s*(:[^=]*)?=", source):
                changes.append(f"{self.path} no longer sets self.{name}")
        return changes


def source_digest(found: Any) -> str:
    """The first 12 hex digits of the SHA-256 of an object's source."""
    import hashlib  # the checks' alone: not loaded with the game

    source = inspect.getsource(found)
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]
