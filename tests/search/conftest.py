"""What the search tests share: a search process of their own for each test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from ttt_tui.search.client import SearchProcess


@pytest.fixture
async def searcher() -> AsyncIterator[SearchProcess]:
    """A started search process, closed after the test."""
    process = SearchProcess()
    process.start()
    yield process
    await process.close()
