"""A pytest plugin: a failed test's time limit (pytest-timeout's) kept through its teardown.

pytest-timeout 2.4.0 stops a test's timer as its failure is reported (for a debugger,
which ``pytest_enter_pdb`` already covers), so the fixtures torn down after a failure
had no limit: with an endless loop planted in the engine, a failed test whose event
loop then waited for its searching thread hung its xdist worker, and the whole run,
for good. Fixed upstream (pytest-dev/pytest-timeout#196, pull request #197), not yet
in a release; drop this plugin once the pinned release has the fix.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

_interacting = False
"""Whether pytest is reporting a test's failure (``pytest_exception_interact``)."""


@pytest.hookimpl(wrapper=True)
def pytest_exception_interact() -> Generator[None]:
    """Marks the time pytest reports a failure, for `pytest_timeout_cancel_timer`."""
    global _interacting
    _interacting = True
    try:
        return (yield)
    finally:
        _interacting = False


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> bool | None:
    """True, skipping pytest-timeout's own cancelling, while a failure is reported; its
    timer still stops when the test's protocol ends."""
    return True if _interacting else None
