"""`ttt_tui.compat.option_list`: an option list paged before it is laid out does not
crash the app, as Textual's did (the review's moves, paged as the review opened)."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import OptionList

from ttt_tui.compat.option_list import SafeOptionList


class Listing(App[None]):
    """A list not laid out yet (hidden), paged."""

    def __init__(self, kind: type[OptionList]) -> None:
        super().__init__()
        self.kind = kind

    def compose(self) -> ComposeResult:
        listing = self.kind(*(f"move {n}" for n in range(30)))
        listing.display = False
        yield listing


async def test_paging_a_list_before_it_is_laid_out() -> None:
    for kind in (OptionList, SafeOptionList):
        app = Listing(kind)
        async with app.run_test() as pilot:
            listing = app.query_one(OptionList)
            listing.highlighted = 5
            if kind is OptionList:  # the bug, as Textual has it: when this fails, it is mended
                with pytest.raises(KeyError):
                    await listing.run_action("page_down")
            else:
                await listing.run_action("page_down")
                await pilot.pause()
                assert listing.highlighted == 5
